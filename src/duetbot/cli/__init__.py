"""The ``duetbot`` command: a thin shell over the library. The only place that prints."""

from __future__ import annotations


from .app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
