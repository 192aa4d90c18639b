"""One side of a Duet key card from a photo: 25 cells of green, bystander or assassin.

Only numpy and Pillow. The steps:

1. :func:`green_blobs`: the green cells are the most distinctive thing on the card: strongly
   saturated green patches, each found as a connected blob of pixels.
2. :func:`fit_lattice`: the blobs' squares give the card's turn (the angle at which their
   bounding boxes are smallest, up to 45 degrees either way), the gaps between their centres
   its pitch, and an affine map from (row, column) to the photo, fitted on their centres, the
   card's mild perspective.
3. :func:`choose_window`: which 5x5 window of that lattice is the card: the one whose cells
   differ most from the lines between them (outside the card, and on its border, the "cells"
   look like the gaps around them).
4. :func:`label_cells`: the official counts decide (9 green, 3 assassins, 13 bystanders on
   each side): the 9 greenest cells are green, then the 3 darkest (relative to the gaps next
   to them, so a shadow does not make an assassin) are assassins. A count the colours do not
   clearly separate is refused rather than guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules.keycard import ASSASSINS_PER_SIDE, GREENS_PER_SIDE, Label
from .image import PhotoError, Source, open_photo

SIZE = 5
#: The photo's longer side for this reader: a cell stays 30+ pixels wide when the card fills
#: a third of the photo, and the blob search (pure Python) stays fast.
MAX_SIDE = 480
#: A green pixel: saturation (max-min)/max above this, green the largest channel by a margin.
#: Green felt on the table is about 0.3; a key card's green 0.5-0.7 even in shade (bench_photo).
GREEN_SATURATION = 0.42
GREEN_MARGIN = 1.15
#: The 9th greenest cell must be this much greener than the 10th (greenness units, 0-1), and
#: the 3rd darkest this much darker than the 4th (brightness relative to its gaps).
MIN_GREEN_STEP = 0.12
MIN_DARK_STEP = 0.12


@dataclass(frozen=True)
class KeyReading:
    """The 25 cells of one key card side, in grid order (row by row, top left first)."""

    labels: tuple[Label, ...]

    def indices(self, label: Label) -> list[int]:
        return [i for i, lab in enumerate(self.labels) if lab is label]

    def to_json(self) -> dict[str, Any]:
        return {"key": [lab.value for lab in self.labels]}


def _channels(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel: brightness (the largest channel), saturation, greenness (0-1)."""
    f = rgb.astype(np.float32)
    top = f.max(axis=-1)
    sat = (top - f.min(axis=-1)) / np.maximum(top, 1.0)
    others = np.maximum(f[..., 0], f[..., 2])
    green = np.clip((f[..., 1] - others) / np.maximum(top, 1.0), 0.0, 1.0)
    return top, sat, green


def green_blobs(rgb: np.ndarray) -> list[np.ndarray]:
    """The connected blobs of green pixels big enough to be a cell: each an (n, 2) array of
    (x, y) pixel positions."""
    top, sat, _ = _channels(rgb)
    f = rgb.astype(np.float32)
    mask = (sat > GREEN_SATURATION) & (f[..., 1] > GREEN_MARGIN * np.maximum(f[..., 0], f[..., 2])) & (top > 30)
    h, w = mask.shape
    seen = np.zeros_like(mask)
    blobs = []
    for y0, x0 in zip(*np.nonzero(mask)):
        if seen[y0, x0]:
            continue
        stack, pts = [(int(y0), int(x0))], []
        seen[y0, x0] = True
        while stack:
            y, x = stack.pop()
            pts.append((x, y))
            for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= yy < h and 0 <= xx < w and mask[yy, xx] and not seen[yy, xx]:
                    seen[yy, xx] = True
                    stack.append((yy, xx))
        blobs.append(np.array(pts, dtype=np.float32))
    blobs = [b for b in blobs if len(b) >= 12 and _fill(b) > 0.45]
    if not blobs:
        return []
    # The cells: the largest size that at least 4 blobs share (patches of green felt on the
    # table are bigger and each its own size; specks of it are smaller).
    areas = np.array([len(b) for b in blobs], float)
    alike = ((areas[None, :] > 0.7 * areas[:, None]) & (areas[None, :] < 1.43 * areas[:, None])).sum(axis=1)
    size = float(areas[alike >= min(4, int(alike.max()))].max())
    return [b for b, a in zip(blobs, areas) if 0.6 * size <= a <= 1.4 * size]


def _rotation(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def _fill(blob: np.ndarray) -> float:
    """How much of its bounding box a blob fills: a square at any turn fills half or more, a
    ragged patch of leaves on a tablecloth less."""
    span = blob.max(axis=0) - blob.min(axis=0) + 1
    return float(len(blob) / (span[0] * span[1]))


def _turn(blobs: list[np.ndarray]) -> float:
    """The angle (radians, within 45 degrees of level) at which the blobs' squares stand level:
    the one that makes their bounding boxes smallest."""
    best, best_area = 0.0, math.inf
    for deg in np.arange(-45.0, 45.0, 1.0):
        a = math.radians(float(deg))
        rot = _rotation(a).astype(np.float32)
        area = 0.0
        for b in blobs:
            r = (b - b.mean(axis=0)) @ rot
            span = r.max(axis=0) - r.min(axis=0)
            area += float(span[0] * span[1])
        if area < best_area:
            best, best_area = a, area
    return best


def _pitch(level: np.ndarray, side: float) -> float:
    """The lattice spacing that best explains the blobs' levelled centres ((n, 2)): the one at
    which the centres' phases agree best along both axes, searched between one and 1.45 cell
    sides (a key card's lines are thinner than a third of a cell; half the pitch is below one
    side, so it cannot win)."""
    candidates = np.linspace(side, 1.45 * side, 150)
    phases = np.exp(2j * np.pi * level[None, :, :] / candidates[:, None, None])  # (p, n, 2)
    scores = (np.abs(phases.mean(axis=1)) ** 2).sum(axis=1)
    return float(candidates[int(np.argmax(scores))])


def fit_lattice(blobs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(the blobs' (row, column) lattice indices, the 3x2 affine map from (row, column, 1) to
    the photo's (x, y) of a cell centre)."""
    if len(blobs) < 4:
        raise PhotoError("found no key card in the photo (too few green cells): photograph the key card "
                         "close up, the way it stands before you, or mark the cards by hand")
    rot = _rotation(_turn(blobs))
    centres = np.array([b.mean(axis=0) for b in blobs], float)
    level = centres @ rot
    side = float(np.median([math.sqrt(len(b)) for b in blobs]))
    pitch = _pitch(level, side)
    index = np.zeros((len(blobs), 2), int)
    for axis in (0, 1):
        phase = np.angle(np.exp(2j * np.pi * level[:, axis] / pitch).mean()) / (2 * np.pi) * pitch
        index[:, 1 - axis] = np.round((level[:, axis] - phase) / pitch).astype(int)  # (row, col): y then x
    # A green patch beside the card (felt, a leaf) lands off the card: keep the blobs of the
    # 5 rows and the 5 columns that hold the most of them.
    keep = np.ones(len(blobs), bool)
    for axis in (0, 1):
        low, high = int(index[:, axis].min()), int(index[:, axis].max())
        starts = range(low, max(low, high - SIZE + 1) + 1)
        best = max(starts, key=lambda a0: int(((index[:, axis] >= a0) & (index[:, axis] < a0 + SIZE)).sum()))
        keep &= (index[:, axis] >= best) & (index[:, axis] < best + SIZE)
    if keep.sum() < 4:
        raise PhotoError("the green cells in the photo do not sit on one 5x5 key card: "
                         "photograph only the key card, close up")
    index, centres = index[keep] - index[keep].min(axis=0), centres[keep]
    rigid = np.vstack([np.array([0.0, pitch]) @ rot.T, np.array([pitch, 0.0]) @ rot.T])  # a row step, a column step
    affine = np.vstack([rigid, (centres - index @ rigid).mean(axis=0)])
    if np.ptp(index[:, 0]) >= 2 and np.ptp(index[:, 1]) >= 2:  # greens spread enough to fit the tilt too
        affine, *_ = np.linalg.lstsq(np.column_stack([index, np.ones(len(index))]), centres, rcond=None)
    return index, affine


def _sample(rgb: np.ndarray, affine: np.ndarray, row: float, col: float, radius: float) -> np.ndarray:
    """The median colour of the square patch around lattice point (row, col)."""
    x, y = np.array([row, col, 1.0]) @ affine
    h, w = rgb.shape[:2]
    r = max(1, int(radius))
    x0, x1 = int(max(0, x - r)), int(min(w, x + r + 1))
    y0, y1 = int(max(0, y - r)), int(min(h, y + r + 1))
    if x0 >= x1 or y0 >= y1:
        return np.full(3, np.nan)
    return np.median(rgb[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32), axis=0)


def _around(rgb: np.ndarray, affine: np.ndarray, row: int, col: int, cell: float) -> np.ndarray:
    """The colours on the four ways from a cell's centre to its neighbours' centres, from 0.3 to
    0.7 of the way ((4, 9, 3); NaN off the photo): each crosses the line between two cells,
    wherever a thin line lies exactly."""
    steps = np.linspace(0.3, 0.7, 9)
    return np.array([[_sample(rgb, affine, row + dr * t, col + dc * t, 0.03 * cell) for t in steps]
                     for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))])


def _cellness(rgb: np.ndarray, affine: np.ndarray, row: int, col: int, cell: float) -> float:
    """How much lattice point (row, col) looks like a key card cell: a patch of one colour cut
    off from each neighbour by a line of another colour (beyond the card, or on its border, a
    "cell" runs into its surroundings on some side, or has no one colour at all)."""
    centre = _sample(rgb, affine, row, col, 0.2 * cell)
    around = _around(rgb, affine, row, col, cell)
    if np.isnan(centre).any() or np.isnan(around).any():
        return -100.0
    x, y = np.array([row, col, 1.0]) @ affine
    r = max(1, int(0.2 * cell))
    patch = rgb[int(y) - r:int(y) + r + 1, int(x) - r:int(x) + r + 1].reshape(-1, 3).astype(np.float32)
    contrast = np.abs(around - centre).sum(axis=2).max(axis=1)  # per side
    return float(contrast.min()) - float(patch.std(axis=0).sum())


def choose_window(rgb: np.ndarray, index: np.ndarray, affine: np.ndarray) -> tuple[int, int]:
    """The (row, column) lattice offset of the card's top left cell: of the 5x5 windows that
    hold every green blob, the one whose points look most like cells."""
    cell = float(np.linalg.norm(affine[0]))
    span = index.max(axis=0)
    rows = range(int(span[0]) - SIZE + 1, SIZE)
    cols = range(int(span[1]) - SIZE + 1, SIZE)
    look = {(r, c): _cellness(rgb, affine, r, c, cell) for r in rows for c in cols}
    windows = [(r0, c0) for r0 in range(int(span[0]) - SIZE + 1, 1) for c0 in range(int(span[1]) - SIZE + 1, 1)]
    return max(windows, key=lambda o: sum(look[o[0] + i // SIZE, o[1] + i % SIZE] for i in range(SIZE * SIZE)))


def label_cells(rgb: np.ndarray, affine: np.ndarray, origin: tuple[int, int]) -> tuple[Label, ...]:
    """The 25 labels by the official counts: the greenest cells green, the darkest assassins."""
    cell = float(np.linalg.norm(affine[0]))
    greenness, darkness = [], []
    for i in range(SIZE * SIZE):
        r, c = origin[0] + i // SIZE, origin[1] + i % SIZE
        colour = _sample(rgb, affine, r, c, 0.2 * cell)
        if np.isnan(colour).any():
            raise PhotoError("the key card runs off the edge of the photo: take it again with the whole card in it")
        light = float(np.nanmax(_around(rgb, affine, r, c, cell)))  # the brightest thing nearby
        top, _, green = _channels(colour[None, None, :])
        greenness.append(float(green[0, 0]))
        darkness.append(float(top[0, 0]) / max(light, 1.0))
    by_green = np.argsort(greenness)[::-1]
    g = GREENS_PER_SIDE
    if greenness[by_green[g - 1]] - greenness[by_green[g]] < MIN_GREEN_STEP:
        raise PhotoError(f"could not tell {g} green cells from the rest on the key card: "
                         "take the photo again in even light, or mark the cards by hand")
    rest = [int(i) for i in by_green[g:]]
    by_dark = sorted(rest, key=lambda i: darkness[i])
    k = ASSASSINS_PER_SIDE
    if darkness[by_dark[k]] - darkness[by_dark[k - 1]] < MIN_DARK_STEP:
        raise PhotoError(f"could not tell the {k} assassins (black cells) on the key card: "
                         "take the photo again in even light, or mark the cards by hand")
    labels = [Label.BYSTANDER] * (SIZE * SIZE)
    for i in by_green[:g]:
        labels[int(i)] = Label.GREEN
    for i in by_dark[:k]:
        labels[i] = Label.ASSASSIN
    return tuple(labels)


def read_key(source: Source) -> KeyReading:
    """One side of a key card from a photo (bytes or a file), in grid order.

    Raises :class:`PhotoError` (one line) when no key card is found or its colours cannot be
    told apart; :class:`PhotoExtraMissing` without the ``photo`` extra (Pillow)."""
    rgb = open_photo(source, MAX_SIDE)
    index, affine = fit_lattice(green_blobs(rgb))
    return KeyReading(label_cells(rgb, affine, choose_window(rgb, index, affine)))
