"""bpe_apply: a new word's pieces after replaying a merge list, checked against Hugging Face's
BPE model built in memory from the same vocabulary and merges (no download)."""

import xml.etree.ElementTree as ET

import pytest
from tokenizers import Tokenizer, models

import grading
from grading import bpe
from grading.spec import SpecError
from practice.generators import generate
from practice.generators.bpe_apply import BpeApplyGenerator

from .page_pieces import LEVELS, SEEDS, piece_forms

SVG = "{http://www.w3.org/2000/svg}"


def oracle(word: str, merges: list[list[str]]) -> tuple[str, ...]:
    """Return the pieces Hugging Face's BPE model gives the word under the merge list."""
    pieces = list(
        dict.fromkeys([*word, *(a + b for a, b in merges), *(s for m in merges for s in m)])
    )
    model = models.BPE(
        vocab={p: i for i, p in enumerate(pieces)}, merges=[tuple(m) for m in merges]
    )
    return tuple(Tokenizer(model).encode(word).tokens)


@pytest.mark.parametrize("level", LEVELS)
def test_right_pieces_agree_with_hugging_face_bpe_model(level):
    for seed in range(SEEDS):
        spec = generate("bpe_apply", seed=seed, level=level)
        assert grading.expected_answer(spec) == oracle(spec["word"], spec["merges"]), seed


EXAMPLE = {
    "kind": "bpe_apply",
    "word": "lowest",
    "merges": [["s", "t"], ["e", "s"], ["l", "o"], ["lo", "w"], ["es", "t"]],
}


def test_the_example_replays_to_low_e_st_and_each_mistake_is_named():
    assert grading.expected_answer(EXAMPLE) == ("low", "e", "st")
    assert oracle(EXAMPLE["word"], EXAMPLE["merges"]) == ("low", "e", "st")
    cases = {
        "low est": "greedy_longest",
        "l o w e st": "first_merge_only",
        "lo w es t": "out_of_order",
    }
    for text, code in cases.items():
        verdict = grading.grade(EXAMPLE, text)
        assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code, text


def test_first_merge_only_names_the_merges_that_also_apply():
    verdict = grading.grade(EXAMPLE, "l o w e st")
    assert verdict.diagnosis.terms == (0,)
    assert "merge 1 (*s t*)" in verdict.explanation
    assert "merge 3 (*l o*)" in verdict.explanation and "merge 4 (*lo w*)" in verdict.explanation


def test_greedy_explanation_tells_the_replay_story():
    explanation = grading.grade(EXAMPLE, "low est").explanation
    assert "*low* · *est*" in explanation
    assert "merge 1 (*s t*) gives *l* · *o* · *w* · *e* · *st*" in explanation


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"word": "Lowest"}, "word"),
        ({"word": "l"}, "word"),
        ({"merges": [["s", "t"]]}, "merges"),
        ({"merges": [["es", "t"], ["e", "s"]]}, "merges[0]"),
        ({"merges": [["s", "t"], ["s", "t"]]}, "merges[1]"),
        ({"merges": [["s", "t", "u"], ["e", "s"]]}, "merges[0]"),
    ],
)
def test_malformed_specs_name_the_field(change, field):
    with pytest.raises(SpecError) as error:
        grading.validate_spec(EXAMPLE | change)
    assert error.value.field == field


def test_a_rank_based_tokenizer_and_the_replay_differ_on_ill_formed_lists():
    # Why the spec refuses a merge whose symbol no earlier merge made: the library merges by
    # rank as pieces appear, the replay goes down the list once.
    merges = [["ab", "c"], ["a", "b"]]
    assert oracle("abc", merges) == ("abc",)
    assert bpe.replay(tuple("abc"), [tuple(m) for m in merges]) == ("ab", "c")
    assert not bpe.well_formed([tuple(m) for m in merges])


def test_fresh_picture_shows_letters_and_merges_not_pieces():
    spec = generate("bpe_apply", seed=5, level=2)
    root = ET.fromstring(BpeApplyGenerator().picture(spec))
    roles = {r.get("data-role") for r in root.iter(f"{SVG}rect")}
    assert roles == {"symbol", "merge"}
    symbols = [t.text for t in root.iter(f"{SVG}text")]
    assert all(ch in symbols for ch in spec["word"])


def test_answer_picture_shows_each_applying_merge_and_the_learner_row():
    root = ET.fromstring(BpeApplyGenerator().picture(EXAMPLE, answer=("low", "est")))
    rects = list(root.iter(f"{SVG}rect"))
    steps = sorted({int(r.get("data-merge")) for r in rects if r.get("data-role") == "step"})
    assert steps == [0, 2, 3]
    last = [r for r in rects if r.get("data-role") == "step" and r.get("data-merge") == "3"]
    assert len(last) == 3
    mine = [r for r in rects if r.get("data-role") == "answer"]
    assert [r.get("data-style") for r in mine] == ["right", "wrong"]
    # A piece the replay also gives, at the same letters, is marked right.
    root = ET.fromstring(BpeApplyGenerator().picture(EXAMPLE, answer=("low", "es", "t")))
    mine = [r for r in root.iter(f"{SVG}rect") if r.get("data-role") == "answer"]
    assert [r.get("data-style") for r in mine] == ["right", "wrong", "wrong"]


@pytest.mark.parametrize("level", LEVELS)
def test_every_explanation_tells_the_replay_and_gives_the_pieces(level):
    for seed in range(10):
        spec = generate("bpe_apply", seed=seed, level=level)
        right = grading.expected_answer(spec)
        for listed, value in grading.mistaken_answers(spec):
            explanation = grading.grade(spec, piece_forms(value)[0]).explanation
            assert "In order, merge " in explanation
            assert explanation.endswith(f"The pieces are {' · '.join(f'*{p}*' for p in right)}.")
            if listed.mistake == "first_merge_only":
                (m,) = listed.terms
                assert f"You stopped after merge {m + 1} (" in explanation
