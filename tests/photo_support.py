"""Photos we can make: boards and key cards rendered with their truth (tests and bench_photo).

A board is the 25 cards in a 5x5 layout on a table, a key card is a 5x5 grid of the three
colours; each is then photographed badly on purpose: a table colour, the card style and font
drawn from the seed, rotation up to 15 degrees, a perspective tilt, blur, uneven light, a
shadow, sometimes a hand over one card, noise and JPEG compression. ``truth`` is what a
perfect reader would say: the words in grid order ("" for the covered card), or the 25 labels.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from duetbot.rules.keycard import KeyCard, Player

#: Fonts tried by name (Debian's fonts-dejavu when installed); Pillow's own default font always.
FONT_FILES = ("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSans.ttf")
TABLES = ((121, 85, 58), (150, 111, 75), (60, 90, 70), (200, 195, 185), (90, 90, 100))
#: (card face, label band, ink): a tan card with a white band, a plain white card, a grey card.
CARD_STYLES = (((206, 182, 140), (245, 240, 228), (25, 25, 25)),
               ((246, 244, 238), (246, 244, 238), (10, 10, 10)),
               ((170, 170, 160), (232, 230, 222), (30, 30, 40)))
KEY_COLOURS = {"green": ((60, 150, 70), (40, 120, 55), (85, 170, 80)),
               "bystander": ((214, 196, 160), (200, 180, 140), (225, 210, 175)),
               "assassin": ((25, 25, 25), (45, 40, 40), (15, 20, 25))}
KEY_FRAMES = ((235, 235, 230), (60, 60, 65), (180, 180, 175))


@dataclass(frozen=True)
class Photo:
    """A rendered photo (JPEG bytes) and what it shows."""

    jpeg: bytes
    truth: tuple[str, ...]
    covered: int | None = None  # the card under the hand, if any

    def save(self, path: Path) -> Path:
        path.write_bytes(self.jpeg)
        return path


@cache
def fonts() -> tuple[str, ...]:
    """The font files Pillow finds here, plus "" for Pillow's built-in default."""
    found = []
    for name in FONT_FILES:
        try:
            ImageFont.truetype(name, 20)
        except OSError:
            continue
        found.append(name)
    return (*found, "")


def _font(name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(name, size) if name else ImageFont.load_default(size=size)


def published_words() -> list[str]:
    from duetbot.wordpool import published_cards

    return sorted(published_cards())


def _table(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    w, h = size
    base = np.array(rng.choice(TABLES), dtype=np.float32)
    grain = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (h, 1, 1)).astype(np.float32)
    img = np.clip(base + grain + np.zeros((h, w, 3), np.float32), 0, 255).astype(np.uint8)
    return Image.fromarray(img)


def _photograph(img: Image.Image, rng: random.Random, hard: bool, covered_box: tuple[int, int, int, int] | None) -> bytes:
    """Rotate, tilt, light unevenly, shade, cover, blur, add noise and compress ``img``."""
    if covered_box is not None:  # a hand (or a phone, a glass) resting on one card
        d = ImageDraw.Draw(img)
        x0, y0, x1, y1 = covered_box
        tone = rng.choice(((224, 172, 140), (170, 120, 90), (110, 75, 55), (40, 40, 45)))
        d.ellipse((x0 - 10, y0 - 5, x1 + 10, y1 + 5), fill=tone)
    table = img.getpixel((2, 2))
    angle = rng.uniform(-15, 15) if hard else rng.uniform(-4, 4)
    img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=table)  # the whole board in the frame
    w, h = img.size
    tilt = rng.uniform(0.0, 0.12 if hard else 0.04)
    dx = tilt * w / 2  # the far edge narrower: a phone held above the near edge of the table
    coeffs = _perspective([(dx, 0), (w - dx, 0), (w, h), (0, h)], [(0, 0), (w, 0), (w, h), (0, h)])
    img = img.transform((w, h), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=table)
    arr = np.asarray(img).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = rng.uniform(0.55, 0.8) if hard else rng.uniform(0.8, 0.95)
    a = rng.uniform(0, 2 * math.pi)
    ramp = (np.cos(a) * xx / w + np.sin(a) * yy / h + 1) / 2  # 0..1 across the photo
    gain = light + (1.1 - light) * ramp
    if hard:  # a shadow across one side
        x0 = rng.uniform(0.2, 0.8) * w
        gain = gain * np.where(xx + 0.3 * yy > x0, rng.uniform(0.65, 0.85), 1.0)
    arr = arr * gain[..., None]
    arr += np.random.default_rng(rng.randrange(1 << 30)).normal(0, 4 if hard else 2, arr.shape)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.6) if hard else rng.uniform(0, 0.7)))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=rng.randint(35, 70) if hard else rng.randint(70, 90))
    return out.getvalue()


def _perspective(dst: list[tuple[float, float]], src: list[tuple[float, float]]) -> list[float]:
    """Pillow's PERSPECTIVE coefficients mapping output points ``dst`` to input points ``src``."""
    rows = []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    rhs = [c for pt in src for c in pt]
    return [float(c) for c in np.linalg.solve(np.array(rows, float), np.array(rhs, float))]


def board_photo(seed: int, words: list[str] | None = None, hard: bool = True, hand: bool | None = None) -> Photo:
    """A board of 25 published cards (or ``words``), photographed; ``hand``: cover one card
    (default: a quarter of the hard photos)."""
    rng = random.Random(seed)
    words = list(words) if words is not None else rng.sample(published_words(), 25)
    face, band, ink = rng.choice(CARD_STYLES)
    font_name = rng.choice(fonts())
    mirrored = rng.random() < 0.5  # the printed cards' second word, upside down for the other side
    cw, ch, gap, margin = 300, 195, rng.randint(14, 30), 90
    size = (margin * 2 + 5 * cw + 4 * gap, margin * 2 + 5 * ch + 4 * gap)
    img = _table(rng, size)
    d = ImageDraw.Draw(img)
    for i, word in enumerate(words):
        r, c = divmod(i, 5)
        x0, y0 = margin + c * (cw + gap), margin + r * (ch + gap)
        d.rounded_rectangle((x0, y0, x0 + cw, y0 + ch), radius=14, fill=face)
        d.rounded_rectangle((x0 + 14, y0 + ch * 0.55, x0 + cw - 14, y0 + ch - 16), radius=6, fill=band)
        fsize = 40
        while fsize > 18 and d.textlength(word, font=_font(font_name, fsize)) > cw - 44:
            fsize -= 2
        d.text((x0 + cw / 2, y0 + ch * 0.55 + (ch * 0.45 - 16) / 2), word, fill=ink,
               font=_font(font_name, fsize), anchor="mm")
        if mirrored:
            small = _font(font_name, int(fsize * 0.7))
            w, h = int(d.textlength(word, font=small)) + 8, int(fsize * 0.9)
            label = Image.new("RGB", (w, h), face)
            ImageDraw.Draw(label).text((w / 2, h / 2), word, fill=tuple(int(0.5 * a + 0.5 * b) for a, b in zip(ink, face)),
                                       font=small, anchor="mm")
            img.paste(label.rotate(180), (int(x0 + cw / 2 - w / 2), int(y0 + ch * 0.12)))
    covered = None
    if hand if hand is not None else (hard and rng.random() < 0.25):
        covered = rng.randrange(25)
        r, c = divmod(covered, 5)
        x0, y0 = margin + c * (cw + gap), margin + r * (ch + gap)
        box = (x0, y0, x0 + cw, y0 + ch)
    else:
        box = None
    truth = tuple("" if i == covered else w for i, w in enumerate(words))
    return Photo(_photograph(img, rng, hard, box), truth, covered)


def key_photo(seed: int, hard: bool = True) -> Photo:
    """One side of a dealt key card, photographed close up."""
    rng = random.Random(seed)
    labels = [lab.value for lab in KeyCard.random(rng).side(Player.A)]
    frame = rng.choice(KEY_FRAMES)
    cell, gap, border = rng.randint(90, 130), rng.randint(8, 18), rng.randint(30, 60)
    card = 5 * cell + 4 * gap + 2 * border
    margin = rng.randint(120, 220)
    img = _table(rng, (card + 2 * margin, card + 2 * margin))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((margin, margin, margin + card, margin + card), radius=24, fill=frame)
    shades = {k: rng.choice(v) for k, v in KEY_COLOURS.items()}
    for i, lab in enumerate(labels):
        r, c = divmod(i, 5)
        x0, y0 = margin + border + c * (cell + gap), margin + border + r * (cell + gap)
        d.rectangle((x0, y0, x0 + cell, y0 + cell), fill=shades[lab])
        if lab == "assassin":  # the printed skull, drawn as a light mark
            d.ellipse((x0 + cell * 0.3, y0 + cell * 0.25, x0 + cell * 0.7, y0 + cell * 0.65), outline=(200, 200, 200), width=4)
    return Photo(_photograph(img, rng, hard, None), tuple(labels))


def blank_photo(seed: int, dark: bool = False) -> Photo:
    """A photo of an empty table (or of the inside of a pocket)."""
    rng = random.Random(seed)
    img = _table(rng, (1200, 900))
    if dark:
        img = Image.eval(img, lambda v: v // 12)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=80)
    return Photo(out.getvalue(), ())
