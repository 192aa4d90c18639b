"""The examples in the package's docstrings run, as the installed package (``doctest``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import duetbot

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(duetbot.__path__, "duetbot.")
                 if not name.endswith("__main__"))


def test_every_layer_is_covered():
    assert {"duetbot.rules.duet", "duetbot.harness.base", "duetbot.bots.winchance", "duetbot.views.duet"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False,
                             report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples in {name} failed"
