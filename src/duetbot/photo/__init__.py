"""The table from a photo: the 25 board words and one side of the key card.

Typing 25 words and marking 12 cards is the slowest step at a real table; a phone photo does
it in a few seconds, and the person checks the result before anything is suggested.

- :func:`read_board` (:mod:`duetbot.photo.words`): the words in grid order, each matched to the
  published card lists when it is close to one of them (any other word kept as read); a card
  that cannot be read is left empty and marked.
- :func:`read_key` (:mod:`duetbot.photo.keycard`): the 25 cells of a key card side as green,
  bystander or assassin, in the grid order the photo shows (photograph the key card the way it
  stands before you, so its rows are the board's rows).
- A photo that is not a board, too dark, or shows too few cards raises :class:`PhotoError`
  with one line saying what to do; what the person already entered is theirs to keep.

Both need the ``photo`` extra (``pip install 'duetbot[photo]'``): Pillow for the key card, and
the OCR engine for the words, RapidOCR on ONNX Runtime (``rapidocr-onnxruntime`` 1.4.4,
Apache-2.0, built and measured with ``onnxruntime`` 1.32 (MIT) and ``opencv-python`` 5.1
(Apache-2.0)). Its three PP-OCR models (detection, angle, recognition; Apache-2.0, from
PaddleOCR) ship inside its wheel, run on the CPU and are never downloaded. Nothing here is
imported until a photo is read, so the command starts as fast without it.
"""

from __future__ import annotations

from .image import EXTRA_HINT, PhotoError, PhotoExtraMissing
from .keycard import KeyReading, read_key
from .words import BoardReading, Cell, read_board

__all__ = ["EXTRA_HINT", "BoardReading", "Cell", "KeyReading", "PhotoError", "PhotoExtraMissing", "read_board",
           "read_key"]
