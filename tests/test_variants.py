import pytest

from duetbot.rules import InvalidCluePolicy, Variant, VariantError


@pytest.mark.parametrize("spec,tokens,bystander", [
    ("standard", 9, 9), ("easy", 10, 10), ("easier", 11, 11), ("mission:8:5", 8, 5),
    ("MISSION:11:7", 11, 7),
])
def test_presets(spec, tokens, bystander):
    v = Variant.parse(spec)
    assert (v.tokens, v.initial_bystander_tokens) == (tokens, bystander)


def test_modifiers_and_round_trip():
    v = Variant.parse("mission:9:5+cap+nozero+loose+penalty")
    assert v.guess_cap and not v.zero_clues and v.max_clues_in_a_row == 2
    assert v.invalid_clue is InvalidCluePolicy.PENALTY
    assert Variant.parse(str(v)) == v
    assert Variant.from_json(v.to_json()) == v
    seed = Variant.parse("seed003")
    assert seed.guess_cap and not seed.zero_clues and str(seed) == "seed003"


@pytest.mark.parametrize("spec,message", [
    ("", "empty variant"),
    ("hard", "unknown variant 'hard'"),
    ("mission:9", "write mission:N:M"),
    ("mission:x:y", "write mission:N:M"),
    ("mission:9:10", "10 bystander-side tokens out of 9"),
    ("mission:0:0", "between 1 and 30"),
    ("standard+turbo", "unknown variant modifier 'turbo'"),
])
def test_bad_variants_name_the_problem(spec, message):
    with pytest.raises(VariantError, match=message):
        Variant.parse(spec)
