"""What the records of every game share: their error, and rates with Wilson intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> tuple(round(x, 3) for x in wilson(8, 10))
    (0.49, 0.943)
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    count: int
    n: int

    @property
    def value(self) -> float:
        return self.count / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.n)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{100 * self.value:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]"


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"
