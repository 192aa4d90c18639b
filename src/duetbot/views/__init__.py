"""What one player may see, one module per game. Bots receive views, never the state.

The Duet views are re-exported here (``from duetbot.views import spymaster_view``); the
classic ones live in :mod:`duetbot.views.classic`.
"""

from .base import BoardLookups
from .duet import GuesserView, PublicView, SpymasterView, guesser_view, spymaster_view

__all__ = ["BoardLookups", "GuesserView", "PublicView", "SpymasterView", "guesser_view", "spymaster_view"]
