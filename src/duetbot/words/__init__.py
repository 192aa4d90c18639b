"""Words: how two spellings are found to be one word, the forms of a word, the lexicon.

Layer 0, beside ``rules``: pure Python, standard library only, reading nothing but its own
package data (``duetbot/data/lexicon/``). The rule book's clue check (``rules.clues``), the
bots' strict clue check (``bots.strict_clues``), the key card and the embedding tables all
make their word keys here.
"""

from .keys import fold_accents, spelling, word_key

__all__ = ["fold_accents", "spelling", "word_key"]
