"""What the README tells a newcomer to run leaves their clone and their machine as they were."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_npm_install_leaves_the_clone_clean():
    """``npm install`` without ``--no-save`` writes package.json and package-lock.json into the
    clone (git status shows them); .ci/run and the README install axe-core the same way."""
    for name in ("README.md", ".ci/run", "tests/web_support.py"):
        commands = re.findall(r"npm install[^`)\n]*", (ROOT / name).read_text(encoding="utf-8"))
        assert commands, name
        for command in commands:
            assert "--no-save" in command, f"{name}: {command}"
