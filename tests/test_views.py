"""Bots see the game only through views: a guesser never sees its partner's side."""

import dataclasses

from duetbot.rules import Clue, Deal, Guess, KeyCard, Player, State
from duetbot.views import GuesserView, SpymasterView, guesser_view, spymaster_view

from .conftest import G_N, GG, N_N, WORDS, fixed_deal

A, B = Player.A, Player.B


def twin_deals():
    """Two deals identical on side A, different on side B (B's labels of GG[0] and G_N[0] swapped)."""
    d = fixed_deal()
    side_b = list(d.key.sides[1])
    side_b[GG[0]], side_b[G_N[0]] = side_b[G_N[0]], side_b[GG[0]]
    other = Deal(d.words, KeyCard((d.key.sides[0], tuple(side_b))))
    assert other.key.sides[1] != d.key.sides[1]
    return d, other


def play_public_prefix(state: State) -> State:
    state.apply(Clue("music", 1), B)
    state.apply(Guess(WORDS[N_N[0]]), A)  # bystander on both variants of B's side
    return state


def test_guesser_view_exposes_nothing_of_partner_side():
    d1, d2 = twin_deals()
    s1, s2 = play_public_prefix(State(d1)), play_public_prefix(State(d2))
    s1.apply(Clue("weather", 2), A)
    s2.apply(Clue("weather", 2), A)
    # The same public history: A's views must be identical although B's sides differ.
    assert guesser_view(s1, A) == guesser_view(s2, A)
    assert spymaster_view(s1, A) == spymaster_view(s2, A)
    assert guesser_view(s1, B) != guesser_view(s2, B)  # B's own side differs: views do see that


def _walk(obj, seen=None):
    seen = seen or set()
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _walk(getattr(obj, f.name), seen)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            yield from _walk(x, seen)


def test_views_hold_no_key_card_state_or_deal():
    s = play_public_prefix(State(fixed_deal()))
    for view in (guesser_view(s, B), spymaster_view(s, A)):
        for part in _walk(view):
            assert not isinstance(part, (KeyCard, State, Deal))
    v = guesser_view(s, A)
    assert isinstance(v, GuesserView) and v.my_side == s.deal.key.side(A)
    assert isinstance(spymaster_view(s, B), SpymasterView)


def test_spymaster_view_counts_my_greens_left_and_guesser_view_lists_guessable():
    s = State(fixed_deal())
    s.apply(Clue("weather", 1), A)
    s.apply(Guess(WORDS[GG[0]]))
    assert len(spymaster_view(s, A).greens_left) == 8
    s.apply(Guess(WORDS[N_N[0]]))
    s.apply(Clue("music", 1), B)
    v = guesser_view(s, A)
    assert GG[0] not in v.guessable and N_N[0] in v.guessable and len(v.guessable) == 24
    assert v.clues_to_me[-1].clue == Clue("music", 1)
