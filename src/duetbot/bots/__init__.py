"""Bots: the spymaster and guesser protocols, and the bots that meet them."""

from .base import Guesser, Partner, Spymaster
from .random_bots import RandomGuesser, RandomSpymaster, random_partner

__all__ = ["Guesser", "Partner", "RandomGuesser", "RandomSpymaster", "Spymaster", "random_partner"]
