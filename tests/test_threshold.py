"""The plain threshold clue bot (Kim et al. 2019 style), a partner the benchmarks measure our
guesser against, and how its partner spec parses."""

import numpy as np
import pytest

from duetbot.bots.classic import classic_team
from duetbot.bots.factory import PartnerSpec, SpecError, default_bots, ensemble
from duetbot.bots.spymaster import EmbeddingSpymaster
from duetbot.bots.threshold import ThresholdSpymaster
from duetbot.harness.duet import play_game
from duetbot.rules import Player, State, Variant, deal, is_legal_clue
from duetbot.views import spymaster_view
from duetbot.wordpool import default_pool


@pytest.fixture(scope="module")
def glove():
    return ensemble(("glove50",))


def test_the_number_counts_greens_above_the_threshold_and_every_other_word(glove):
    bot = ThresholdSpymaster(glove, threshold=1.5)
    for seed in range(6):
        state = State(deal(seed, default_pool()), Variant.parse("standard"))
        view = spymaster_view(state, Player.A)
        clue = bot.give_clue(view)
        visible = [w for i, w in enumerate(view.words) if i not in view.covered]
        assert is_legal_clue(clue.word, visible) and 1 <= clue.number <= 4
        z = glove.board(view.words).zbar[glove.clue_words.index(clue.word)]
        greens = sorted(view.greens_left)
        others = [i for i in range(25) if i not in greens and i not in view.covered]
        bar = max(1.5, float(z[others].max()))
        above = int((z[greens] > bar).sum())
        assert clue.number == max(min(above, 4), 1)
        if above:  # its targets are greens, every one clearer than any word it must avoid
            assert float(np.sort(z[greens])[::-1][clue.number - 1]) > bar


def test_a_higher_threshold_never_gives_bigger_numbers(glove):
    loose, strict = ThresholdSpymaster(glove, threshold=1.0), ThresholdSpymaster(glove, threshold=2.5)
    for seed in range(6):
        view = spymaster_view(State(deal(seed, default_pool()), Variant.parse("standard")), Player.B)
        assert strict.give_clue(view).number <= loose.give_clue(view).number


def test_the_spec_builds_a_threshold_spymaster_and_reads_back():
    spec = PartnerSpec.parse("bot=threshold,model=glove50,noise=0.3")
    assert spec.threshold and spec.label == "bot=threshold,model=glove50,noise=0.3"
    assert isinstance(spec.build().spymaster, ThresholdSpymaster)
    assert PartnerSpec.parse(spec.label).label == spec.label
    with pytest.raises(SpecError, match="use embedding, threshold or random"):
        PartnerSpec.parse("bot=kim")


def test_suggestions_and_classic_games_use_the_embedding_bots():
    spy, _ = default_bots(spec=PartnerSpec.parse("bot=threshold,model=glove50"))
    assert isinstance(spy, EmbeddingSpymaster)
    with pytest.raises(SpecError, match="Duet only"):
        classic_team(PartnerSpec.parse("bot=threshold"), seed=0)


def test_a_game_with_a_threshold_partner_plays_to_the_end():
    a = PartnerSpec.parse("model=glove50").build(seed=1)
    b = PartnerSpec.parse("bot=threshold,model=glove50,noise=0.3").build(seed=2)
    record = play_game(deal(5, default_pool()), (a, b), Variant.parse("standard"))
    assert record.outcome is not None
    clues = [t.clue for t in record.replay().turns if t.giver is Player.B]
    assert clues and all(1 <= c.number <= 4 for c in clues)
