"""The spymaster on hand-built boards, and its invariants over random games."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
import pytest

from duetbot.bots.ensemble import Ensemble
from duetbot.bots.factory import DEFAULT_MODELS, ensemble
from duetbot.bots.reader import ReaderModel
from duetbot.bots.spymaster import EmbeddingSpymaster, SpymasterConfig, WordsConfig
from duetbot.bots.winchance import win_table
from duetbot.harness import play_game
from duetbot.rules import Clue, Player, State, Variant, deal, is_legal_clue, make_deal
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool

from .conftest import PAIRS

A_GREEN = [0, 1, 2, 3, 4, 5, 6, 7, 13]
A_ASSASSIN = [14, 15, 16]
OTHERS = [i for i in range(25) if i not in A_GREEN + A_ASSASSIN]
FILLER = ["SHIP", "NURSE", "BANK", "BREAD", "KING", "SHOE", "CLOCK", "CAMERA", "HORSE", "CHAIR",
          "ROCKET", "TRAIN", "MOUSE"]


@pytest.fixture(scope="module")
def spymaster():
    return EmbeddingSpymaster(ensemble(DEFAULT_MODELS))


def position(greens, assassins, live):
    """A board with A's greens and assassins; only the greens in ``live`` are still to find."""
    words = [None] * 25
    for i, w in zip(A_GREEN, greens):
        words[i] = w
    for i, w in zip(A_ASSASSIN, assassins):
        words[i] = w
    for i, w in zip(OTHERS, FILLER):
        words[i] = w
    state = State(make_deal(words, [a for a, _ in PAIRS], [b for _, b in PAIRS]))
    for w in greens:
        if w not in live:
            state.covered_green.add(state.deal.index(w))
    return state


GREENS = ["STORM", "RAINBOW", "PIANO", "DOCTOR", "PENCIL", "CASTLE", "BANANA", "ROBOT", "TIGER"]


def test_obvious_pair_gets_one_clue_for_both(spymaster):
    greens = ["PIANO", "GUITAR"] + [w for w in GREENS if w != "PIANO"][:7]
    state = position(greens, ["GLASS", "ENGINE", "LAWYER"], {"PIANO", "GUITAR"})
    best = spymaster.suggest(spymaster_view(state, Player.A), top=1)[0]
    assert best.clue.number == 2 and set(best.targets) == {"PIANO", "GUITAR"}
    assert best.p_assassin < 0.05 and min(best.links) > 0.9


def test_a_pair_one_family_reads_poorly_is_not_the_default(spymaster):
    """STORM and RAINBOW: SKY or WEATHER would do for a person, but GloVe's sky is near CAMERA
    and its weather far from RAINBOW; on the families alone the default is an honest 1. The
    association table knows what a person reaches from CLOUD: with it, CLOUD 2."""
    state = position(GREENS, ["GLASS", "ENGINE", "LAWYER"], {"STORM", "RAINBOW"})
    families = EmbeddingSpymaster(ensemble(DEFAULT_MODELS, associations=False), spymaster.config)
    best = families.suggest(spymaster_view(state, Player.A), top=1)[0]
    assert best.clue.number == 1 and best.p_assassin < 0.05
    best = spymaster.suggest(spymaster_view(state, Player.A), top=1)[0]
    assert best.clue == Clue("cloud", 2) and best.p_assassin < 0.05 and min(best.links) > 0.9


def test_assassin_next_to_the_obvious_clue_is_avoided(spymaster):
    state = position(GREENS, ["CLOUD", "ENGINE", "LAWYER"], {"STORM", "RAINBOW"})
    best = spymaster.suggest(spymaster_view(state, Player.A), top=1)[0]
    sims = spymaster.ensemble.board(state.deal.words)
    zbar = sims.zbar[spymaster.ensemble.index[best.clue.word]]
    cloud = zbar[state.deal.index("CLOUD")]
    assert all(zbar[state.deal.index(t)] > cloud for t in best.targets)
    assert best.clue.word not in {"weather", "cloud", "clouds", "sky"}


class ToyModel:
    """A hand-made embedding family: just enough of EmbeddingModel for the Ensemble."""

    name = family = "toy"
    has_fallback = False

    def __init__(self, board_vectors: dict, clue_vectors: dict):
        self.table = {k.casefold(): np.asarray(v, np.float32) / np.linalg.norm(v)
                      for k, v in {**board_vectors, **clue_vectors}.items()}
        self.clue_words = list(clue_vectors)
        self.clue_vectors = np.stack([self.table[w] for w in self.clue_words])
        self.clue_zipf = np.full(len(self.clue_words), 5.0)
        self.clue_is_proper = np.zeros(len(self.clue_words), bool)

    def knows(self, w):
        return w.casefold() in self.table

    def vector(self, w):
        return self.table[w.casefold()]

    def clue_vectors_at(self, rows):
        return self.clue_vectors[rows]

    def vectors(self, words):
        return np.stack([self.vector(w) for w in words])


def test_zero_clue_when_every_positive_clue_risks_the_assassin():
    """"if the objective is to guide your partner to “ELEPHANT,” “ANT,” and “MOSQUITO” while
    specifically avoiding the hostile operative “SLOTH,” the clue “lazy: 0” could be employed.
    This signals to your partner that “SLOTH” should be avoided.\""""
    rng = np.random.default_rng(0)
    animal, lazy = rng.standard_normal(64), rng.standard_normal(64)
    basis, _ = np.linalg.qr(np.stack([animal, lazy], axis=1))

    def unrelated():  # a random direction with nothing of "animal" or "lazy" in it
        v = rng.standard_normal(64)
        return v - basis @ (basis.T @ v)

    state = position(GREENS, ["SLOTH", "ENGINE", "LAWYER"], {"PIANO", "TIGER"})
    board = {w: unrelated() for w in state.deal.words}
    board["PIANO"] = animal + 0.05 * unrelated()               # the two greens left ...
    board["TIGER"] = animal + 0.05 * unrelated()
    board["SLOTH"] = animal + 0.45 * lazy                       # ... and an assassin like them
    clues = {"animal": animal, "lazy": lazy, **{f"other{i}": unrelated() for i in range(10)}}
    toy = Ensemble([ToyModel(board, clues)])
    view = spymaster_view(state, Player.A)
    best = EmbeddingSpymaster(toy, SpymasterConfig(partner=ReaderModel(("toy",), (1.0,), 0.45))).suggest(view, top=2)[0]
    assert best.clue == Clue("lazy", 0) and best.dangers == (("SLOTH", "assassin"),)
    # Without the assassin among them, the same greens get a plain clue.
    state = position(GREENS, ["SLOTH", "ENGINE", "LAWYER"], {"PIANO", "TIGER"})
    board["SLOTH"] = 0.45 * lazy + unrelated()
    toy = Ensemble([ToyModel(board, clues)])
    assert EmbeddingSpymaster(toy, SpymasterConfig(partner=ReaderModel(("toy",), (1.0,), 0.45))).give_clue(
        spymaster_view(state, Player.A)).number > 0


def test_never_an_illegal_or_repeated_clue_over_random_games(spymaster):
    from duetbot.bots.base import Partner
    from duetbot.bots.factory import PartnerSpec

    guesser = PartnerSpec().build(0).guesser
    for seed in range(6):
        rec = play_game(deal(seed, default_pool()), (Partner(spymaster, guesser), Partner(spymaster, guesser)))
        words = [e.action.word for e in rec.clues]
        assert len(words) == len(set(words))
        assert all(e.result == "ok" for e in rec.clues)  # the engine refuses illegal clues


def test_clue_is_legal_and_deterministic(spymaster):
    state = State(deal(99, default_pool()), Variant())
    view = spymaster_view(state, Player.B)
    c1 = spymaster.give_clue(view)
    c2 = EmbeddingSpymaster(ensemble(DEFAULT_MODELS)).give_clue(view)
    assert c1 == c2 and isinstance(c1, Clue) and c1.number >= 1
    assert is_legal_clue(c1.word, state.visible_words())


def test_options_explain_themselves(spymaster):
    state = State(deal(5, default_pool()))
    for o in spymaster.suggest(spymaster_view(state, Player.A), top=3):
        assert o.clue.word and o.dangers and 0 <= o.p_bystander <= 1 and len(o.links) == len(o.targets)
        assert len(o.targets) == o.clue.number and 0 <= o.p_assassin <= 1
        assert all(state.deal.key.label(Player.A, state.deal.index(t)).value == "green" for t in o.targets)


def test_win_table_is_monotone():
    W = win_table((0.2, 0.25, 0.3, 0.2, 0.05), 0.03, 0.55)
    assert W[0, 5] == 1.0
    assert (W[1:, 1:] <= W[:-1, 1:] + 1e-12).all()   # fewer greens left is better
    assert (W[:, 1:] >= W[:, :-1] - 1e-12).all()     # more tokens is better


def test_suggestions_list_one_form_of_each_clue(spymaster):
    """A list of suggestions never offers two forms of one word (colony, colonies)."""
    from duetbot.rules.clues import clue_conflict

    for seed in (5, 6, 7):
        options = spymaster.suggest(spymaster_view(State(deal(seed, default_pool())), Player.A), top=12)
        words = [o.clue.word for o in options]
        assert len(words) == 12
        assert not [(a, b) for i, a in enumerate(words) for b in words[i + 1:] if clue_conflict(a, b)]


def test_no_bot_clue_is_disputable_over_seeded_games():
    """Issue 13: nothing the bot says as a clue may be something a strict table would argue
    about: every clue of a number of seeded games (the shipped pair, and a cross-family
    partner) passes the strict check against the words visible when it was given."""
    from duetbot.bots.factory import PartnerSpec
    from duetbot.bots.strict_clues import strict_conflict

    pool = default_pool()
    given = 0
    for spec, seeds in (("default", range(8)), ("spymaster=glove50+spacy300,guesser=minilm,noise=0.3", range(8, 12))):
        p = PartnerSpec.parse(spec)
        for seed in seeds:
            a, b = p.build(seed), p.build(seed + 2)
            rec = play_game(deal(seed, pool), (a, b))
            state = State(rec.deal, rec.variant)
            for e in rec.events:
                if isinstance(e.action, Clue):
                    given += 1
                    assert strict_conflict(e.action.word, state.visible_words()) is None, (seed, e.action)
                state.apply(e.action, e.player)
    assert given > 40


def test_strict_mask_forbids_what_the_rule_book_allows(spymaster):
    """The spymaster's candidate mask: "officer" is out while ICE is visible (strict), in with
    ``strict_clues=False`` (the rule book), and back once ICE is covered."""
    words = ["ICE"] + [w for w in default_pool() if w != "ICE"][:24]
    state = State(make_deal(words, [a for a, _ in PAIRS], [b for _, b in PAIRS]))
    j = spymaster.ensemble.index["officer"]
    assert not spymaster.words.legal(spymaster_view(state, Player.A)).full()[j]
    loose = EmbeddingSpymaster(spymaster.ensemble, SpymasterConfig(words=WordsConfig(strict_clues=False)))
    assert loose.words.legal(spymaster_view(state, Player.A)).full()[j]
    state.covered_green.add(0)
    assert spymaster.words.legal(spymaster_view(state, Player.A)).full()[j]


def test_zero_and_fallback_clues_use_the_strict_mask(spymaster):
    """The zero clue and the fallback pick from the same legality mask as positive clues."""
    from duetbot.bots.strict_clues import strict_conflict

    state = State(deal(3, default_pool()))
    view = spymaster_view(state, Player.A)
    turn = spymaster.position(view)
    option = spymaster._fallback(view, turn)
    assert strict_conflict(option.clue.word, state.visible_words()) is None
    bad = [spymaster.ensemble.clue_words[i] for i in np.flatnonzero(turn.legal.full())[:2000]]
    assert not [w for w in bad if strict_conflict(w, state.visible_words())]


def test_lazy_legality_gives_the_clues_of_the_full_mask(spymaster):
    """A spymaster's first boards are checked for legality only as far as its search reaches;
    its suggestions (zero clues included) are those of a spymaster that checked every
    candidate against every word first."""
    pool = default_pool()
    indexed = EmbeddingSpymaster(spymaster.ensemble, spymaster.config)
    indexed.words.forbid(pool)
    for seed in range(12):
        state = State(deal(seed, pool))
        for i in list(state.deal.key.all_greens())[: seed % 5]:
            state.covered_green.add(i)
        view = spymaster_view(state, Player.A)
        lazy = EmbeddingSpymaster(spymaster.ensemble, spymaster.config)
        assert not lazy.words.legal(view).complete and indexed.words.legal(view).complete
        assert lazy.suggest(view, top=8) == indexed.suggest(view, top=8), seed
        assert lazy.words.legal(view).full().tolist() == indexed.words.legal(view).ok.tolist()


@given(st.integers(1, 9), st.integers(0, 2**31 - 1))
def test_best_columns_are_each_rows_k_best(k, seed):
    """The strided shortcut of the clue screen picks exactly each row's k largest columns,
    equal values to the earlier column (as a stable sort of the whole row does)."""
    from duetbot.bots.spymaster.search import _best_columns

    rng = np.random.default_rng(seed)
    values = rng.integers(-20, 20, size=(4, 600)).astype(np.float32)  # many ties
    values[:, rng.random(600) < 0.1] = -np.inf                         # illegal candidates
    got = _best_columns(values, k).reshape(4, k)
    for r in range(4):
        assert got[r].tolist() == np.argsort(-values[r], kind="stable")[:k].tolist()


@given(st.lists(st.integers(-5, 5), max_size=30), st.integers(1, 3))
def test_unique_is_numpys(values, rows):
    """The spymaster's np.unique without numpy.ma: the same sorted distinct values."""
    from duetbot.bots.spymaster.readers import unique as _unique

    a = np.array(values * rows, dtype=np.int64).reshape(rows, -1) if values else np.zeros((rows, 0), np.int64)
    assert _unique(a).tolist() == np.unique(a).tolist()


def test_kept_word_columns_give_the_boards_of_fresh_products():
    """Issue 39: a simulation's spymaster puts a board together from its words' kept products;
    every board then holds the same bits as one multiplied afresh, and the cache keeps its bound."""
    from duetbot.bots.factory import model

    models = [model(n) for n in DEFAULT_MODELS]
    kept, fresh = Ensemble(models), Ensemble(models)
    kept.keep_word_columns(30)
    pool = default_pool()[:32]
    for seed in range(24):
        words = deal(seed, pool).words
        a, b = kept.board(words), fresh.board(words)
        for x, y in ((a.z, b.z), (a.zbar_t, b.zbar_t), (a.mean, b.mean), (a.std, b.std)):
            assert x.tobytes() == y.tobytes(), seed
        fresh.board_cache._data.clear()
        assert len(kept.word_columns) <= 30
    assert kept._columns_size == 25 and len(kept.word_columns) == 30


def test_a_pools_word_columns_are_made_at_once():
    """Given the pool, every word's products are made up front, a board's worth at a time (the
    last block filled with words kept before it), and boards put together from them hold the
    bits of a fresh product; a pool that does not fit keeps nothing up front."""
    from duetbot.bots.factory import model

    models = [model(n) for n in DEFAULT_MODELS]
    kept, fresh, small = Ensemble(models), Ensemble(models), Ensemble(models)
    pool = default_pool()[:32]
    kept.keep_word_columns(40, pool)
    small.keep_word_columns(30, pool)
    assert len(kept.word_columns) == 32 and kept._columns_size == 25 and len(small.word_columns) == 0
    for seed in range(6):
        a, b = kept.board(deal(seed, pool).words), fresh.board(deal(seed, pool).words)
        assert a.z.tobytes() == b.z.tobytes() and a.zbar_t.tobytes() == b.zbar_t.tobytes(), seed
    assert len(kept.word_columns) == 32


def test_word_columns_are_kept_only_where_a_column_keeps_its_numbers():
    from duetbot.bots.ensemble import columns_agree

    rng = np.random.default_rng(3)
    cv = [rng.standard_normal((50, 8)).astype(np.float32)]
    bv = [rng.standard_normal((5, 8)).astype(np.float32)]
    products = np.stack([cv[0] @ bv[0].T])
    assert columns_agree(cv, bv, products)
    products[0, 7, 2] = np.nextafter(products[0, 7, 2], np.float32(np.inf))   # one bit off in one column
    assert not columns_agree(cv, bv, products)


def test_only_a_simulations_own_ensemble_keeps_word_columns():
    """The kept columns belong to the simulation's spymaster: a server or a suggester in the
    same process (the shared ensembles) keeps none, and both read the same loaded models."""
    from duetbot.bots.factory import PartnerSpec

    sim, plain = PartnerSpec().build(1, tuple(default_pool()[:30])), PartnerSpec().build(1)
    assert sim.spymaster.ensemble.word_columns is not None
    assert plain.spymaster.ensemble.word_columns is None and plain.guesser.ensemble.word_columns is None
    assert plain.spymaster.ensemble is ensemble(DEFAULT_MODELS)
    assert all(a is b for a, b in zip(sim.spymaster.ensemble.models, plain.spymaster.ensemble.models))
