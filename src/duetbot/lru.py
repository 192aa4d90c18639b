"""A bounded cache for work kept per object (``functools.lru_cache`` serves plain functions).

A method cached with ``lru_cache`` shares one bound across every instance and keeps each
instance alive; a :class:`BoundedCache` belongs to its object and holds at most ``size``
entries, forgetting the least recently used one, so a long-running server cannot grow.

>>> cache = BoundedCache(2)
>>> cache.get("a", str.upper), cache.get("b", str.upper), cache.get("a", str.lower)
('A', 'B', 'A')
>>> cache.get("c", str.upper), list(cache)
('C', ['a', 'c'])
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Generic, Hashable, Iterator, TypeVar

__all__ = ["BoundedCache"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``size`` values by key, the least recently used one forgotten first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a bounded cache holds at least one entry")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, make: Callable[[K], V]) -> V:
        """The value of ``key``, made by ``make(key)`` and kept when it is not held."""
        try:
            self._data.move_to_end(key)
            return self._data[key]
        except KeyError:
            pass
        value = self._data[key] = make(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)
        return value

    def __getitem__(self, key: K) -> V:
        """The value held for ``key`` (now the most recently used); ``KeyError`` if none."""
        self._data.move_to_end(key)
        return self._data[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        """The keys held, least recently used first."""
        return iter(self._data)
