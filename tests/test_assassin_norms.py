"""People's associations as a second reading of the assassins (spymaster/danger.py)."""

import numpy as np
import pytest

from duetbot.bots.factory import DEFAULT_MODELS, NORMS_FAMILY, PartnerSpec, ensemble, model, spymaster
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.bots.spymaster.danger import AssassinNorms
from duetbot.rules import Player, State, make_deal
from duetbot.views import spymaster_view

from .conftest import PAIRS
from .test_spymaster import A_ASSASSIN, A_GREEN, OTHERS

GREENS = ["TRAIN", "HARBOR", "PIANO", "DOCTOR", "PENCIL", "CASTLE", "BANANA", "ROBOT", "TIGER"]
ASSASSINS = ["BOAT", "GLASS", "LAWYER"]
FILLER = ["NURSE", "BANK", "BREAD", "KING", "SHOE", "CLOCK", "CAMERA", "HORSE", "CHAIR", "ROCKET",
          "MOUSE", "STADIUM", "CLOUD"]


@pytest.fixture(scope="module")
def norms():
    ens = ensemble(DEFAULT_MODELS)
    return ens, AssassinNorms(ens, model(NORMS_FAMILY))


def freight_board() -> State:
    """FREIGHT: TRAIN (listed in the association table) and HARBOR are mine, BOAT is an
    assassin that people reach from FREIGHT but the table does not list."""
    words = [""] * 25
    for idx, group in ((A_GREEN, GREENS), (A_ASSASSIN, ASSASSINS), (OTHERS, FILLER)):
        for i, w in zip(idx, group):
            words[i] = w
    return State(make_deal(words, [a for a, _ in PAIRS], [b for _, b in PAIRS]))


def test_the_norms_z_is_the_norms_similarity_on_their_own_board_scale(norms):
    ens, n = norms
    words = freight_board().words
    cand = np.array([ens.index["freight"], ens.index["ocean"]])
    cols = np.array([words.index("BOAT"), words.index("STADIUM"), words.index("TRAIN")])
    z = n.z(words, cand, cols)
    assert z.shape == (2, 3)
    eat = model(NORMS_FAMILY)
    assert not eat.knows("STADIUM") and np.isnan(z[:, 1]).all()       # a word the norms do not know
    known = [w for w in words if eat.knows(w)]
    vocab = eat.clue_vectors_at(np.arange(len(eat.clue_words))).astype(np.float64)
    board = np.stack([eat.vector(w) for w in known]).astype(np.float64)
    sims = vocab @ board.T
    expect = (eat.vector("freight") @ eat.vector("BOAT") - sims.mean()) / sims.std()
    assert z[0, 0] == pytest.approx(expect, rel=1e-3)
    assert z[0, 0] > 2.5                        # people reach BOAT from FREIGHT
    unknown = next(i for i, w in enumerate(ens.clue_words) if not eat.knows(w))
    assert np.isnan(n.z(words, np.array([unknown]), cols)).all()       # a clue the norms do not know


def test_only_assassins_are_raised_and_never_lowered(norms):
    ens, n = norms
    words = freight_board().words
    cand = np.array([ens.index["freight"], ens.index["ocean"]])
    cols = np.arange(25)
    assassin = np.isin(cols, [words.index(w) for w in ASSASSINS])
    z = np.full((3, 2, 25), -5.0, np.float32)
    n.raise_assassins(z, words, cand, cols, assassin)
    assert (z[:, :, ~assassin] == -5.0).all()
    assert (z[:, :, assassin] >= -5.0).all()
    boat = words.index("BOAT")
    assert np.allclose(z[:, 0, boat], n.z(words, cand[:1], np.array([boat]))[0, 0])
    high = np.full((3, 2, 25), 50.0, np.float32)
    n.raise_assassins(high, words, cand, cols, assassin)
    assert (high == 50.0).all()


def test_freight_2_reads_as_the_assassin_risk_it_is(norms):
    ens, n = norms
    view = spymaster_view(freight_board(), Player.A)
    c = np.array([ens.index["freight"]])
    p = {}
    for name, spy in (("off", EmbeddingSpymaster(ens)), ("on", EmbeddingSpymaster(ens, norms=n))):
        v = spy.valuation(spy.position(view), c)
        p[name] = float(v.p_assassin[0, 1])
    assert p["on"] > 5 * p["off"] + 0.05
    best = EmbeddingSpymaster(ens, norms=n).suggest(view, top=1)[0]
    assert "BOAT" not in best.targets and best.clue.word != "freight"


def test_norms_off_in_a_partner_spec_and_the_default_spymaster_reads_them():
    spec = PartnerSpec.parse("norms=off")
    assert not spec.norms and spec.label == "norms=off"
    assert spymaster(DEFAULT_MODELS).norms is not None
    assert spymaster(DEFAULT_MODELS, norms=False).norms is None
