"""Opening a photo: bytes or a file in, an RGB array out, or one line saying what is wrong."""

from __future__ import annotations

import io
import os
from typing import Any, Union

import numpy as np

EXTRA_HINT = "reading photos needs the photo extra: pip install 'duetbot[photo]'"

Source = Union[bytes, str, "os.PathLike[str]"]
"""A photo: its bytes (an upload) or the path of its file."""

#: Below this mean brightness (0-255) a photo shows too little to read: a pocket, a dark room.
TOO_DARK = 28.0
#: Fewer than this many distinct grey levels: a blank page or a lens cap, not a table.
MIN_CONTRAST = 12.0


class PhotoError(ValueError):
    """A photo that cannot be read (not an image, too dark, no board in it); one line."""


class PhotoExtraMissing(PhotoError):
    """The ``photo`` extra is not installed."""

    def __init__(self) -> None:
        super().__init__(EXTRA_HINT)


def pillow() -> Any:
    """Pillow's ``Image`` module, or :class:`PhotoExtraMissing`."""
    try:
        from PIL import Image, ImageOps
    except ImportError:
        raise PhotoExtraMissing() from None
    Image.MAX_IMAGE_PIXELS = 64_000_000  # a phone photo is 12-50 megapixels; more is not a photo
    return Image, ImageOps


def open_photo(source: Source, max_side: int) -> np.ndarray:
    """The photo as an RGB ``uint8`` array, turned upright (its EXIF orientation) and shrunk
    so its longer side is at most ``max_side`` pixels.

    Raises :class:`PhotoError` for a file that is missing or no image, and for a photo too
    dark or too flat to show anything."""
    image_mod, ops = pillow()
    label = "the photo" if isinstance(source, bytes) else os.fspath(source)
    try:
        with image_mod.open(io.BytesIO(source) if isinstance(source, bytes) else os.fspath(source)) as img:
            img = ops.exif_transpose(img).convert("RGB")
            img.thumbnail((max_side, max_side), image_mod.BILINEAR)
            rgb = np.asarray(img, dtype=np.uint8)
    except FileNotFoundError:
        raise PhotoError(f"{label}: no such file") from None
    except (OSError, ValueError, image_mod.DecompressionBombError) as exc:
        raise PhotoError(f"{label} is not a photo this reader can open ({type(exc).__name__}); "
                         "send a JPEG or PNG from the camera") from None
    grey = rgb.mean(axis=2)
    if grey.mean() < TOO_DARK:
        raise PhotoError("the photo is too dark to read: turn on a light or move to the window, and take it again")
    if grey.std() < MIN_CONTRAST:
        raise PhotoError("the photo shows no board, only one flat colour: take it again from above the table")
    return rgb
