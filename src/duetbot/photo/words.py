"""The board's 25 words from a photo of the table, in grid order.

Four steps, each a small function with its own test:

1. :func:`detect`: the OCR engine finds lines of text (a box, the text, a confidence).
2. :func:`to_grid`: the boxes become the 5x5 grid. The board is turned back level by the
   median slant of the text lines (a photo up to about 15 degrees askew), then the rows are
   the five groups of line centres split at the four widest gaps between them, top to bottom,
   and the columns likewise; a perspective tilt moves a column's centres far less than the gap
   between two columns.
3. :func:`read_cell`: the pieces of text in one cell as lines, each joined left to right
   (:func:`cell_text`; pieces far apart on one line mean something covers the middle of the
   card, so that line is unreadable); of a printed card's two lines (its word, and the word
   upside down above it) the lowest that is a known card, else the lowest.
4. :func:`match_word`: the text matched to the published card lists
   (:func:`duetbot.wordpool.published_cards`) and the shipped pool when it is close to one
   word of them; any other word is kept as read.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Sequence

import numpy as np

from ..wordpool import default_pool, published_cards
from ..words.keys import word_key
from .image import PhotoError, PhotoExtraMissing, Source, open_photo

SIZE = 5
#: The longer side the photo is shrunk to before OCR: a word on a card of a 5x5 board stays
#: 20+ pixels high, and the engine's time grows with the pixels (bench_photo).
MAX_SIDE = 1280
#: How close a reading must be to a known card to become it (difflib's ratio, 0-1): one wrong
#: letter in five passes (0.8), two in five do not. Chosen on bench_photo's rendered boards.
MATCH_RATIO = 0.75
#: A card with fewer than this many cells read is no board (bench_photo: a blank table reads 0).
MIN_CARDS = 15
#: Two pieces of text on one card further apart than this many text heights: a hand or an
#: object covers the word's middle.
SPLIT_GAP = 1.2
DIGITS_AS_LETTERS = str.maketrans("015$|", "OISSI")


@dataclass(frozen=True)
class Text:
    """One line of text the OCR engine found: its corners (clockwise from top left), text, confidence."""

    box: tuple[tuple[float, float], ...]
    text: str
    score: float

    @property
    def centre(self) -> tuple[float, float]:
        xs, ys = zip(*self.box)
        return sum(xs) / len(xs), sum(ys) / len(ys)

    @property
    def slant(self) -> float:
        """The angle of its top edge, in radians."""
        (x0, y0), (x1, y1) = self.box[0], self.box[1]
        return math.atan2(y1 - y0, x1 - x0)

    @property
    def height(self) -> float:
        (x0, y0), (x3, y3) = self.box[0], self.box[3]
        return math.hypot(x3 - x0, y3 - y0)

    @property
    def width(self) -> float:
        (x0, y0), (x1, y1) = self.box[0], self.box[1]
        return math.hypot(x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Cell:
    """One card of the board as read: ``word`` is what to put on the board ("" when
    unreadable), ``read`` what the engine saw, ``matched`` whether ``word`` is a known card
    the reading was close to."""

    word: str
    read: str = ""
    matched: bool = False

    @property
    def readable(self) -> bool:
        return bool(self.word)


@dataclass(frozen=True)
class BoardReading:
    """The 25 cells in grid order (row by row, top left first)."""

    cells: tuple[Cell, ...]

    @property
    def words(self) -> list[str]:
        return [c.word for c in self.cells]

    @property
    def unreadable(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if not c.readable]

    def to_json(self) -> dict[str, Any]:
        return {"words": self.words, "unreadable": self.unreadable,
                "read": [c.read for c in self.cells], "matched": [c.matched for c in self.cells]}


@cache
def _engine() -> Any:
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError:
        raise PhotoExtraMissing() from None
    # No angle classifier: cards lie the right way up for the person taking the photo.
    return RapidOCR(use_cls=False)


def detect(rgb: np.ndarray) -> list[Text]:
    """The lines of text in an RGB image (the engine takes OpenCV's BGR order)."""
    found, _ = _engine()(np.ascontiguousarray(rgb[:, :, ::-1]), use_cls=False)
    return [Text(tuple((float(x), float(y)) for x, y in box), str(text), float(score))
            for box, text, score in found or ()]


def _clusters(values: np.ndarray, k: int, min_gap: float) -> np.ndarray | None:
    """Each value's group (0..k-1, in order) when the k-1 widest gaps between the sorted values
    are each wider than ``min_gap``; else None."""
    if len(values) < k:
        return None
    order = np.argsort(values)
    gaps = np.diff(values[order])
    cuts = np.sort(np.argsort(gaps)[len(gaps) - (k - 1):]) if k > 1 else np.array([], int)
    if len(cuts) and gaps[cuts].min() < min_gap:
        return None
    group = np.zeros(len(values), int)
    for c in cuts:
        group[order[c + 1:]] += 1
    return group


def _upright_lines(texts: Sequence[Text], ys: np.ndarray, height: float) -> np.ndarray:
    """Which texts to keep: all of them, unless the board shows more than 5 lines of text
    (printed cards carry their word a second time, upside down above the upright one); then
    those of the 5 lines with the most words that are known cards, since an upside-down word
    reads as nonsense."""
    order = np.argsort(ys)
    line = np.zeros(len(ys), int)
    line[order] = np.concatenate([[0], np.cumsum(np.diff(ys[order]) > height)])
    if line.max() < SIZE:
        return np.ones(len(ys), bool)
    known = np.array([match_word(t.text).matched for t in texts])
    score = {g: int(known[line == g].sum()) for g in range(int(line.max()) + 1)}
    best = sorted(score, key=lambda g: (-score[g], -g))[:SIZE]
    return np.isin(line, best)


def to_grid(texts: Sequence[Text]) -> list[list[Text]]:
    """The texts of each of the 25 cells, in grid order; :class:`PhotoError` when the texts do
    not make a 5x5 grid."""
    texts = [t for t in texts if any(ch.isalpha() for ch in t.text)]
    if len(texts) < MIN_CARDS:
        raise PhotoError(f"found {len(texts)} words in the photo, not a board of 25 cards: "
                         "take it from above with the whole board in the frame, or type the words")
    height = float(np.median([t.height for t in texts]))
    texts = [t for t in texts if 0.5 * height <= t.height <= 2.0 * height]  # no stray print on the table
    slant = float(np.median([t.slant for t in texts]))
    c, s = math.cos(-slant), math.sin(-slant)
    centres = np.array([t.centre for t in texts])
    level = centres @ np.array([[c, s], [-s, c]])  # turned back by the board's slant
    upright = _upright_lines(texts, level[:, 1], height)
    texts, level = [t for t, keep in zip(texts, upright) if keep], level[upright]
    rows = _clusters(level[:, 1], SIZE, 1.5 * height)
    cols = _clusters(level[:, 0], SIZE, 1.5 * height)
    if rows is None or cols is None:
        raise PhotoError("could not find the board's 5 rows and 5 columns of cards in the photo: "
                         "take it again from straight above, the whole board in the frame")
    cells: list[list[Text]] = [[] for _ in range(SIZE * SIZE)]
    for t, r, col, x in sorted(zip(texts, rows, cols, level[:, 0]), key=lambda z: z[3]):
        cells[int(r) * SIZE + int(col)].append(t)
    return cells


def cell_text(texts: Sequence[Text]) -> str:
    """One line of a card's text: its pieces joined left to right, or "" when pieces far apart
    show that something covers the card (``texts`` left to right)."""
    for a, b in zip(texts, texts[1:]):
        gap = (b.centre[0] - b.width / 2) - (a.centre[0] + a.width / 2)
        if gap > SPLIT_GAP * max(a.height, b.height):
            return ""
    return " ".join(" ".join(t.text.split()) for t in texts).strip()


def _lines(texts: Sequence[Text]) -> list[list[Text]]:
    """A card's pieces of text as lines, top to bottom, each left to right (``texts`` left to
    right): a printed card also carries its word upside down above the upright one."""
    if not texts:
        return []
    slant = float(np.median([t.slant for t in texts]))
    across = [(-math.sin(slant) * t.centre[0] + math.cos(slant) * t.centre[1], t) for t in texts]
    lines: list[list[tuple[float, Text]]] = []
    for v, t in sorted(across, key=lambda z: z[0]):
        if lines and v - lines[-1][-1][0] < 0.6 * max(t.height, lines[-1][-1][1].height):
            lines[-1].append((v, t))
        else:
            lines.append([(v, t)])
    return [sorted((t for _, t in line), key=lambda t: t.centre[0]) for line in lines]


def read_cell(texts: Sequence[Text]) -> Cell:
    """One card: of its lines, the lowest that is a known card, else the lowest line as read
    (the upright word sits below the upside-down one, which reads as nonsense)."""
    cells = [match_word(joined) if (joined := cell_text(line)) else Cell("", " ".join(t.text for t in line))
             for line in _lines(texts)]
    known = [c for c in cells if c.matched]
    return known[-1] if known else cells[-1] if cells else Cell("")


@cache
def _known() -> tuple[dict[str, str], list[str]]:
    """The known cards by their letters alone (upper case), and those keys."""
    by_letters: dict[str, str] = {}
    for word in (*published_cards(), *default_pool()):
        by_letters.setdefault(_letters(word), word)
    return by_letters, list(by_letters)


def _letters(text: str) -> str:
    return re.sub(r"[^A-Z]", "", word_key(text, accents=False).upper())


def match_word(read: str) -> Cell:
    """The card a reading stands for.

    >>> match_word("WEREW0LF")
    Cell(word='WEREWOLF', read='WEREW0LF', matched=True)
    >>> match_word("ICECREAM").word
    'ICE CREAM'
    >>> match_word("ZORBLAX")
    Cell(word='ZORBLAX', read='ZORBLAX', matched=False)
    """
    text = " ".join(read.split()).upper()
    alpha = sum(ch.isalpha() for ch in text)
    if not alpha:
        return Cell("", read)
    if sum(ch.isdigit() for ch in text) < alpha:  # a word with a misread letter, not R2D2's digits
        text = text.translate(DIGITS_AS_LETTERS)
    by_letters, keys = _known()
    letters = _letters(text)
    if letters in by_letters:
        return Cell(by_letters[letters], read, True)
    close = difflib.get_close_matches(letters, keys, n=1, cutoff=MATCH_RATIO)
    if close:
        return Cell(by_letters[close[0]], read, True)
    kept = re.sub(r"[^\w '\-.&’]", "", text).strip()
    return Cell(kept if sum(ch.isalpha() for ch in kept) >= 2 else "", read)


def read_board(source: Source) -> BoardReading:
    """The board's words from a photo (bytes or a file), in grid order.

    Raises :class:`PhotoError` (one line) when the photo cannot be opened, is too dark, or
    shows no 5x5 grid of words; :class:`PhotoExtraMissing` without the ``photo`` extra."""
    rgb = open_photo(source, MAX_SIDE)
    reading = BoardReading(tuple(read_cell(texts) for texts in to_grid(detect(rgb))))
    if len(reading.cells) - len(reading.unreadable) < MIN_CARDS:
        raise PhotoError(f"read only {25 - len(reading.unreadable)} of the 25 cards: "
                         "take the photo again closer and in better light, or type the words")
    return reading
