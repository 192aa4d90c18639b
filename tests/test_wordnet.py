"""The WordNet families' builder (duetbot/build/wordnet.py) on a tiny database in the wndb format.

CI never needs apt: the database here is a handful of synsets written by the test in the
format of Debian's ``wordnet-base`` files (wndb(5WN)). The full build (the SVD needs
scikit-learn, the frequencies wordfreq) is marked ``build``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from duetbot.cli.models import app, source_and_licence
from duetbot.build import targets
from duetbot.build import wordnet as bw


# offset lex_filenum ss_type w_cnt(hex) word lex_id ... p_cnt pointers | gloss
NOUN = [
    "  1 This software and database is being provided to you, the LICENSEE, by  ",
    "00000100 05 n 03 dog 0 domestic_dog 0 Canis_familiaris 0 003 @ 00000200 n 0000 ~ 00000300 n 0000 "
    "+ 00000100 v 0101 | a member of the genus Canis that has been domesticated; \"the dog barked\"  ",
    "00000200 05 n 01 canine 0 001 ~ 00000100 n 0000 | any of various fissiped mammals with teeth  ",
    "00000300 05 n 01 puppy 0 001 @ 00000100 n 0000 | a young dog  ",
    "00000400 13 n 02 frank 0 dog 1 000 | a smooth-textured sausage of minced beef or pork  ",
]
VERB = [
    "00000100 35 v 01 dog 0 001 + 00000100 n 0101 01 + 08 00 | go after with the intent to catch  ",
]
ADJ = [
    "00000100 00 s 02 handy 0 ready_to_hand(p) 0 000 | easy to reach  ",
]


@pytest.fixture
def wordnet(tmp_path):
    d = tmp_path / "wordnet"
    d.mkdir()
    for name, lines in (("noun", NOUN), ("verb", VERB), ("adj", ADJ), ("adv", [])):
        (d / f"data.{name}").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        (d / f"{name}.exc").write_text("", encoding="utf-8")
    (d / "noun.exc").write_text("teeth tooth\n", encoding="utf-8")
    (d / "cntlist.rev").write_text("dog%1:05:00:: 1 42\ndog%1:13:01:: 2 1\n", encoding="utf-8")
    return d


def test_data_lines_parse_words_pointers_and_glosses():
    s = bw.parse_data_line(NOUN[1], "n")
    assert s.key == "00000100 n" and s.lex_file == 5 and s.words == ["dog", "domestic_dog", "Canis_familiaris"]
    assert [(p.symbol, p.target, p.source_word, p.target_word) for p in s.pointers] == [
        ("@", "00000200 n", 0, 0), ("~", "00000300 n", 0, 0), ("+", "00000100 v", 1, 1)]
    assert s.gloss.startswith("a member of the genus Canis") and s.gloss.endswith('"the dog barked"')
    assert bw.parse_data_line(NOUN[0], "n") is None  # the licence header
    verb = bw.parse_data_line(VERB[0], "v")  # verb frames after the pointers are skipped
    assert verb.words == ["dog"] and verb.pointers[0].target == "00000100 n" and verb.gloss.startswith("go after")
    adj = bw.parse_data_line(ADJ[0], "a")  # satellite, marker removed
    assert adj.satellite and adj.words == ["handy", "ready_to_hand"]


def test_morphy_uses_exceptions_and_detachment_rules(wordnet):
    exc = bw.read_exceptions(wordnet)
    lemmas = {"dog", "tooth", "mammal", "catch"}
    assert [bw.morphy(w, lemmas, exc) for w in ("dogs", "teeth", "mammals", "catching", "zzz")] == [
        "dog", "tooth", "mammal", "catch", "zzz"]


def test_relation_contexts_follow_pointers_and_tagged_senses(wordnet):
    synsets = list(bw.read_synsets(wordnet))
    counts = bw.read_tag_counts(wordnet)
    assert counts[("dog", 1, 5, 0)] == 42 and counts[("dog", 1, 13, 1)] == 1
    words, m = bw.relation_contexts(synsets, 0.5, counts, 1.0)
    m = m.toarray()
    keys = [s.key for s in synsets]
    dog, puppy = m[words.index("dog")], m[words.index("puppy")]
    # the tagged sense (the animal: 42 + 1) outweighs the sausage (1 + 1) and the verb (0 + 1)
    assert dog[keys.index("00000100 n")] > 10 * dog[keys.index("00000400 n")]
    assert puppy[keys.index("00000200 n")] > 0  # two steps up: puppy -> dog -> canine
    assert np.allclose(m[words.index("handy")].sum(), 1.0)  # no pointers: its own synset only


def test_gloss_contexts_link_a_word_and_its_definition(wordnet):
    synsets = list(bw.read_synsets(wordnet))
    words, m = bw.gloss_contexts(synsets, wordnet, bw.read_tag_counts(wordnet), 1.0)
    m = m.toarray()
    puppy, dog = words.index("puppy"), words.index("dog")
    assert m[puppy, dog] > 0 and m[dog, puppy] > 0  # "a young dog", both ways
    assert m[words.index("canine"), words.index("dog")] == 0  # "teeth" is not a lemma here: no link
    assert m[dog, dog] == 0


def test_wordnet_target_needs_the_database(tmp_path):
    text = targets.missing("wordnet", wordnet=tmp_path)
    assert text is not None and "needs the WordNet 3.0 database" in text and "apt-get install wordnet-base" in text
    res = CliRunner().invoke(app, ["build", "wordnet", "--wordnet", str(tmp_path)])
    assert res.exit_code == 1 and res.output.count("error:") == 1 and "wordnet-base" in res.output
    assert "wordnet" not in targets.expand(["all"])  # not shipped


def test_every_model_shows_its_source_and_licence():
    res = CliRunner().invoke(app, ["info", "eat"])
    assert res.exit_code == 0 and "Open Government Licence v3" in res.output
    meta = {"source": {"description": bw.SOURCE, "package": "wordnet-base (Debian)", "version": "3.0",
                       "licence": "WordNet 3.0 licence"}, "licence": bw.LICENCE}
    assert source_and_licence(meta) == ("wordnet-base (Debian) 3.0", bw.LICENCE)
    for name in ("glove50", "spacy300", "minilm", "eat"):
        from duetbot.embeddings import model_info
        from duetbot.embeddings.store import read_meta

        where, licence = source_and_licence(read_meta(model_info(name).path))
        assert where != "unknown" and licence != "unknown", name


@pytest.mark.build
def test_build_writes_a_model_with_the_notice(wordnet, tmp_path):
    out = tmp_path / "models"
    assert bw.main(["--wordnet", str(wordnet), "--out", str(out), "--dims", "1", "--vocab-size", "50"]) == 0
    for name in ("wordnet", "wordnet_gloss"):
        meta = json.loads((out / name / "model.json").read_text(encoding="utf-8"))
        assert meta["family"] == name and meta["dim"] == 1 and "WordNet 3.0" in meta["licence"]
        notice = (out / name / bw.LICENSE_FILE).read_text(encoding="utf-8")
        assert "WordNet 3.0 Copyright 2006 by Princeton University" in notice and "AS IS" in notice
        from duetbot.embeddings import load_model

        m = load_model(out / name)
        assert m.knows("dog") and m.family == name
