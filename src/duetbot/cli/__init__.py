"""The ``duetbot`` command: a thin shell over the library. The only place that prints."""

from __future__ import annotations


import errno
import sys

from .app import app


def main() -> None:
    """Run the command; a stdout that cannot be written (a full disk, a closed pipe) ends in
    one line on stderr and exit status 1, not a traceback."""
    try:
        try:
            app(standalone_mode=True)
        finally:
            sys.stdout.flush()
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG):
            raise
        from .common import quiet_stdout

        quiet_stdout()
        if exc.errno != errno.EPIPE:
            print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        sys.exit(1)


__all__ = ["app", "main"]
