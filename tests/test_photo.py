"""The table from a photo (issue 38): words and key cards read from rendered photos.

The grid, the matching and the refusals are tested on made-up inputs; the readers on a few
photos rendered with their truth (``photo_support``, the generator ``bench_photo.py``
measures on). The OCR tests need the ``photo`` extra (the test extra brings it) and skip
without it; nothing here writes outside its temporary folder.
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from duetbot.cli import app
from duetbot.photo import EXTRA_HINT, PhotoError, PhotoExtraMissing, read_board, read_key
from duetbot.photo import words as photo_words
from duetbot.photo.words import Cell, Text, cell_text, match_word, to_grid
from duetbot.rules import Label

HAS_PILLOW = importlib.util.find_spec("PIL") is not None
HAS_OCR = HAS_PILLOW and importlib.util.find_spec("rapidocr_onnxruntime") is not None
needs_pillow = pytest.mark.skipif(not HAS_PILLOW, reason="needs the photo extra (pip install 'duetbot[photo]')")
needs_ocr = pytest.mark.skipif(not HAS_OCR, reason="needs the photo extra's OCR engine (pip install 'duetbot[photo]')")

runner = CliRunner()


def _box(cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> tuple[tuple[float, float], ...]:
    c, s = math.cos(angle), math.sin(angle)
    corners = ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    return tuple((cx + x * c - y * s, cy + x * s + y * c) for x, y in corners)


def _board_texts(angle: float = 0.0, skip: int | None = None) -> list[Text]:
    """Text boxes of a 5x5 board turned by ``angle``, given in a shuffled order."""
    out = []
    c, s = math.cos(angle), math.sin(angle)
    for i in (7, 3, 24, 0, 12, 18, 1, 9, 5, 21, 14, 2, 16, 20, 11, 4, 23, 8, 19, 13, 6, 22, 10, 17, 15):
        if i == skip:
            continue
        r, col = divmod(i, 5)
        x, y = 300 + col * 320 + r * 9, 200 + r * 210  # a little perspective: rows lean
        out.append(Text(_box(1000 + x * c - y * s, 1000 + x * s + y * c, 150, 36, angle), f"W{i:02d}", 0.9))
    return out


# --- the grid and the words, no engine needed ---------------------------------------------


@pytest.mark.parametrize("degrees", [0, 14, -15])
def test_texts_fall_into_their_cells_at_any_slant(degrees):
    cells = to_grid(_board_texts(math.radians(degrees)))
    assert [[t.text for t in cell] for cell in cells] == [[f"W{i:02d}"] for i in range(25)]


def test_upside_down_words_above_the_upright_ones_are_left_out(monkeypatch):
    """Printed cards carry their word twice, the second upside down (read as nonsense)."""
    texts = _board_texts()
    upside_down = [Text(tuple((x, y - 110) for x, y in t.box), "WQ" + t.text[::-1], 0.8) for t in texts]
    known = {f"W{i:02d}" for i in range(25)}
    monkeypatch.setattr(photo_words, "match_word", lambda read: Cell(read, read, read in known))  # made-up cards
    cells = to_grid(texts + upside_down)
    assert [[t.text for t in cell] for cell in cells] == [[f"W{i:02d}"] for i in range(25)]


def test_a_missing_card_leaves_its_cell_empty():
    cells = to_grid(_board_texts(skip=12))
    assert cells[12] == [] and all(cells[i] for i in range(25) if i != 12)


def test_too_few_words_is_not_a_board():
    with pytest.raises(PhotoError, match="not a board of 25 cards"):
        to_grid(_board_texts()[:9])


def test_pieces_far_apart_on_one_card_mean_it_is_covered():
    ice, cream = Text(_box(100, 50, 60, 30), "ICE", 0.9), Text(_box(190, 50, 100, 30), "CREAM", 0.9)
    assert cell_text([ice, cream]) == "ICE CREAM"
    far = Text(_box(320, 50, 100, 30), "AIN", 0.9)
    assert cell_text([Text(_box(100, 50, 40, 30), "CA", 0.9), far]) == ""


@pytest.mark.parametrize("read,word,matched", [
    ("WEREWOLF", "WEREWOLF", True), ("werew0lf", "WEREWOLF", True), ("ICECREAM", "ICE CREAM", True),
    ("Loch  Ness", "LOCH NESS", True), ("PENGUlN", "PENGUIN", True), ("ZORBLAX", "ZORBLAX", False),
    ("R2D2", "R2D2", False), ("~", "", False), ("Q", "", False),
])
def test_a_reading_is_matched_to_the_published_cards_when_close(read, word, matched):
    assert match_word(read) == Cell(word, read, matched)


# --- photos of the table (rendered) ----------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def ocr_once():
    """Each photo goes through the OCR engine once in this module (it takes a second or two);
    the tests of the command and the web app read the same photos again."""
    seen: dict[bytes, list[Text]] = {}
    real = photo_words.detect

    def detect(rgb):
        key = rgb.tobytes()
        if key not in seen:
            seen[key] = real(rgb)
        return seen[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(photo_words, "detect", detect)
        yield


@pytest.fixture(scope="module")
def photos():
    pytest.importorskip("PIL", reason="needs the photo extra (pip install 'duetbot[photo]')")
    from .photo_support import blank_photo, board_photo, key_photo

    return {"board": board_photo(3, hard=False), "hand": board_photo(12, hard=True, hand=True),
            "key": key_photo(3, hard=False), "key_hard": key_photo(21, hard=True), "key_felt": key_photo(93),
            "blank": blank_photo(1), "dark": blank_photo(2, dark=True), "row": _top_row(board_photo(3, hard=False))}


def _top_row(photo) -> bytes:
    """Only the board's first row: too few cards."""
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(photo.jpeg))
    out = io.BytesIO()
    img.crop((0, 0, img.width, int(img.height * 0.27))).save(out, "JPEG")
    return out.getvalue()


@needs_ocr
def test_the_board_is_read_in_grid_order(photos):
    reading = read_board(photos["board"].jpeg)
    assert reading.words == list(photos["board"].truth) and reading.unreadable == []


@needs_ocr
def test_a_card_under_a_hand_is_left_empty_and_marked(photos):
    photo = photos["hand"]
    reading = read_board(photo.jpeg)
    assert reading.unreadable == [photo.covered]
    assert reading.words == list(photo.truth)


@needs_pillow
@pytest.mark.parametrize("name", ["key", "key_hard", "key_felt"])  # felt: green cloth beside the card
def test_the_key_card_is_read(photos, name):
    reading = read_key(photos[name].jpeg)
    assert [lab.value for lab in reading.labels] == list(photos[name].truth)
    assert len(reading.indices(Label.GREEN)) == 9 and len(reading.indices(Label.ASSASSIN)) == 3


@needs_ocr
def test_bad_photos_get_one_line(photos, tmp_path):
    with pytest.raises(PhotoError, match="shows no board"):
        read_board(photos["blank"].jpeg)
    with pytest.raises(PhotoError, match="found 5 words in the photo, not a board"):
        read_board(photos["row"])
    with pytest.raises(PhotoError, match="too dark"):
        read_board(photos["dark"].jpeg)
    with pytest.raises(PhotoError, match="no key card"):
        read_key(photos["board"].jpeg)
    (tmp_path / "notes.txt").write_text("not a photo")
    with pytest.raises(PhotoError, match="not a photo"):
        read_board(tmp_path / "notes.txt")


def test_without_the_extra_the_reader_says_which_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "rapidocr_onnxruntime", None)  # import fails
    monkeypatch.setitem(sys.modules, "PIL", None)
    photo_words._engine.cache_clear()
    try:
        with pytest.raises(PhotoExtraMissing, match=r"pip install 'duetbot\[photo\]'"):
            read_board(b"\xff\xd8")
        with pytest.raises(PhotoExtraMissing):
            read_key(b"\xff\xd8")
        result = runner.invoke(app, ["suggest", "read", "--photo", "x.jpg"])
        assert result.exit_code == 2 and EXTRA_HINT in result.output and len(result.output.strip().splitlines()) == 1
    finally:
        photo_words._engine.cache_clear()


def test_the_command_starts_without_the_photo_reader():
    code = ("import sys, duetbot.cli; print(sorted(m for m in ('duetbot.photo', 'PIL', 'rapidocr_onnxruntime', "
            "'onnxruntime', 'cv2') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- the command -------------------------------------------------------------------------------


@needs_ocr
def test_suggest_read_prints_the_grid_and_json(photos, tmp_path):
    board = photos["board"].save(tmp_path / "board.jpg")
    result = runner.invoke(app, ["suggest", "read", "--photo", str(board)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [", ".join(photos["board"].truth[r:r + 5]) for r in range(0, 25, 5)]
    key = photos["key"].save(tmp_path / "key.jpg")
    result = runner.invoke(app, ["suggest", "read", "--photo", str(key), "--key", "--json"])
    assert json.loads(result.output) == {"key": list(photos["key"].truth)}


@needs_ocr
def test_suggest_clue_from_photos_asks_before_it_suggests(photos, tmp_path, monkeypatch):
    from duetbot.cli import suggest as cli_suggest

    asked = []

    def ask(req, *args, **kwargs):  # what would be suggested for: the request, then stop
        asked.append(req)
        raise typer.Exit(0)

    monkeypatch.setattr(cli_suggest, "_ask", ask)
    truth, covered = list(photos["hand"].truth), photos["hand"].covered
    board = photos["hand"].save(tmp_path / "board.jpg")
    key = photos["key"].save(tmp_path / "key.jpg")
    fixed = 1 if covered == 0 else 0
    # The unreadable card is typed, another card corrected, the key card taken as read.
    answers = f"ZEBRA\n{fixed // 5 + 1},{fixed % 5 + 1} KANGAROO\n\n\n"
    result = runner.invoke(app, ["suggest", "clue", "--photo", str(board), "--key-photo", str(key),
                                 "--covered", truth[24 if covered != 24 else 23]], input=answers)
    assert result.exit_code == 0, result.output
    assert "was unreadable: type its word" in result.output
    words = [("ZEBRA" if i == covered else "KANGAROO" if i == fixed else w) for i, w in enumerate(truth)]
    gone = truth[24 if covered != 24 else 23]
    key_truth = photos["key"].truth
    assert asked[0]["board"] == words
    assert asked[0]["green"] == [w for w, lab in zip(words, key_truth) if lab == "green" and w != gone]
    assert asked[0]["assassin"] == [w for w, lab in zip(words, key_truth) if lab == "assassin"]
    # Input that ends before the board is confirmed: nothing is asked, one line says why.
    result = runner.invoke(app, ["suggest", "clue", "--photo", str(board)], input="")
    assert result.exit_code == 2 and "not confirmed" in result.output and len(asked) == 1


def test_suggest_photo_flags_that_clash():
    result = runner.invoke(app, ["suggest", "clue", "--photo", "b.jpg", "--board", "a b c"])
    assert result.exit_code == 2 and "--board and --photo" in result.output
    result = runner.invoke(app, ["suggest", "clue", "--key-photo", "k.jpg", "--green", "a"])
    assert result.exit_code == 2 and "leave out --green" in result.output
    result = runner.invoke(app, ["suggest", "read"])
    assert result.exit_code == 2 and "--photo FILE" in result.output


# --- the web app -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from starlette.testclient import TestClient

    from duetbot.web import GameStore, create_app

    with TestClient(create_app(GameStore(tmp_path_factory.mktemp("photo-api")))) as c:
        yield c


@needs_ocr
def test_the_photo_api(client, photos):
    r = client.post("/api/photo/board", content=photos["board"].jpeg, headers={"content-type": "image/jpeg"})
    assert r.status_code == 200 and r.json()["words"] == list(photos["board"].truth)
    r = client.post("/api/photo/key", content=photos["key"].jpeg, headers={"content-type": "image/jpeg"})
    assert r.json() == {"key": list(photos["key"].truth)}
    r = client.post("/api/photo/board", content=photos["dark"].jpeg, headers={"content-type": "image/jpeg"})
    assert r.status_code == 422 and "too dark" in r.json()["error"]
    r = client.post("/api/photo/board", content=photos["board"].jpeg, headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert client.post("/api/photo/other", content=b"x", headers={"content-type": "image/jpeg"}).status_code == 404


def test_the_photo_api_without_the_extra(client, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    r = client.post("/api/photo/key", content=b"\xff\xd8", headers={"content-type": "image/jpeg"})
    assert r.status_code == 501 and r.json() == {"error": EXTRA_HINT}
