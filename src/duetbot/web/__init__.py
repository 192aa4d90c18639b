"""``duetbot serve``: Codenames: Duet in a browser, and a helper for a real table.

A local web app (Starlette, served by uvicorn). :mod:`~duetbot.web.games` plays a person and
the bot through the one game loop and saves every move in ``play``'s format;
:mod:`~duetbot.web.app` is the routes; :mod:`~duetbot.web.pages` the HTML; ``static/`` the
styles and scripts (no build step, nothing from a CDN).
"""

from .app import MAX_BODY, create_app
from .games import GAME_ID, GameStore, WebError

__all__ = ["GAME_ID", "MAX_BODY", "GameStore", "WebError", "create_app"]
