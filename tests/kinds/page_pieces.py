"""Shared helpers for the kinds of *Why Words Become Pieces* (word_ids, utf8_bytes, bpe_train,
bpe_apply): every accepted way of typing an answer, and the question test they all run."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import grading
from practice.generators import generate

SEEDS = int(os.environ.get("QUESTION_SEEDS", "40"))
LEVELS = (1, 2, 3, 4)


def integer_forms(values: tuple[int, ...]) -> list[str]:
    """Return an integer sequence as `[4, 0, 7]`, `4 0 7`, `4, 0, 7` and `(4,0,7)`."""
    return [
        "[" + ", ".join(map(str, values)) + "]",
        " ".join(map(str, values)),
        ", ".join(map(str, values)),
        "(" + ",".join(map(str, values)) + ")",
    ]


def piece_forms(pieces: tuple[str, ...]) -> list[str]:
    """Return pieces as `low est`, `low|est` and `["low", "est"]`."""
    return [" ".join(pieces), " | ".join(pieces), json.dumps(list(pieces))]


def merge_forms(merges: tuple[tuple[str, str], ...]) -> list[str]:
    """Return merges as `e s; es t`, `e|s; es|t` and `["e", "s"]; ["es", "t"]`."""
    return [
        "; ".join(" ".join(m) for m in merges),
        ";".join("|".join(m) for m in merges),
        "; ".join(json.dumps(list(m)) for m in merges),
    ]


def question_test(
    kind: str, level: int, forms: Callable[[Any], list[str]], seeds: int = SEEDS
) -> None:
    """Check, over `seeds` problems of `level`: the right answer in every form is correct, and
    every catalogued mistake applied is diagnosed as exactly itself (code and terms), in its
    first form; every code of the kind occurs."""
    codes = set(grading.kind(kind).codes)
    for seed in range(seeds):
        spec = generate(kind, seed=seed, level=level)
        right = grading.expected_answer(spec)
        for text in forms(right):
            verdict = grading.grade(spec, text)
            assert verdict.status == "correct", (seed, text, verdict)
        seen = set()
        for listed, value in grading.mistaken_answers(spec):
            assert value != right, (seed, listed)
            verdict = grading.grade(spec, forms(value)[0])
            assert verdict.status == "incorrect", (seed, listed, verdict)
            assert verdict.diagnosis is not None, (seed, listed, verdict.explanation)
            assert verdict.diagnosis.mistake == listed.mistake, (seed, listed, verdict)
            assert tuple(verdict.diagnosis.terms) == tuple(listed.terms), (seed, listed, verdict)
            assert verdict.explanation, (seed, listed)
            seen.add(listed.mistake)
        assert seen == codes, (seed, codes - seen)


def target_test(kind: str, forms: Callable[[Any], list[str]], seeds: int = 4) -> None:
    """Check that `target=` gives, for every mistake and level, a problem where it shows."""
    for code in grading.kind(kind).codes:
        for level in LEVELS:
            for seed in range(seeds):
                spec = generate(kind, seed=seed, level=level, target=code)
                assert spec["generator"]["target"] == code
                right = grading.expected_answer(spec)
                values = [(d, v) for d, v in grading.mistaken_answers(spec) if d.mistake == code]
                assert values, (code, level, seed)
                _, value = values[0]
                assert value != right
                verdict = grading.grade(spec, forms(value)[0])
                assert verdict.diagnosis is not None and verdict.diagnosis.mistake == code
