"""What the README tells a newcomer to run leaves their clone and their machine as they were, and
every link in the README and in docs/ leads to a file and a heading that exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_npm_install_leaves_the_clone_clean():
    """``npm install`` without ``--no-save`` writes package.json and package-lock.json into the
    clone (git status shows them); .ci/run and the README install axe-core the same way."""
    for name in ("README.md", ".ci/run", "tests/web_support.py"):
        commands = re.findall(r"npm install[^`)\n]*", (ROOT / name).read_text(encoding="utf-8"))
        assert commands, name
        for command in commands:
            assert "--no-save" in command, f"{name}: {command}"


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to -."""
    found: set[str] = set()
    for heading in re.findall(r"^#+ (.+)$", without_code(path.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = 0
        while (slug if n == 0 else f"{slug}-{n}") in found:
            n += 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def without_code(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_a_file_and_heading_that_exist(page):
    """The README is short and sends a newcomer to docs/: every link there must lead somewhere."""
    for match in LINK.finditer(without_code(page.read_text(encoding="utf-8"))):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        name, _, anchor = target.partition("#")
        file = (page.parent / name).resolve() if name else page
        assert file.exists(), f"{page.name}: {target}"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file), f"{page.name}: {target}"
