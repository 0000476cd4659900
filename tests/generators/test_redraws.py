"""Re-draws stay under the bound docs/kinds.md gives (*How many draws*), which is the code's:
at most `max_redraws` candidates, then `GenerationError`. Checked on held-out seeds (the docs'
measurements used seeds 0-999) of every registered kind, level and target, untargeted too."""

import re
from pathlib import Path

import pytest

import grading
from practice.generators import GENERATORS, generate
from practice.generators.base import Draw, GenerationError, ProblemGenerator

DOCS = Path(__file__).resolve().parents[2] / "docs" / "kinds.md"
HELD_OUT = range(10_000, 10_008)


def _how_many_draws() -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("**How many draws.**")
    return text[start : text.index("\n\n", start)]


def test_the_docs_give_the_codes_bound_for_every_generator():
    paragraph = " ".join(_how_many_draws().split())
    default = ProblemGenerator.max_redraws
    assert f"{default} (`ProblemGenerator.max_redraws`" in paragraph
    assert f"is at most {default - 1}" in paragraph
    for kind, generator in GENERATORS.items():
        if generator.max_redraws != default:
            assert f"`{kind}` {generator.max_redraws}" in paragraph, kind
            assert f"({generator.max_redraws - 1})" in paragraph, kind


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_redraws_stay_under_the_bound_on_held_out_seeds(name):
    generator = GENERATORS[name]
    for target in (None, *grading.kind(name).codes):
        for level in generator.levels:
            for seed in HELD_OUT:
                spec = generate(name, seed=seed, level=level, target=target)
                redraws = spec["generator"]["redraws"]
                assert 0 <= redraws < generator.max_redraws, (target, level, seed, redraws)


def test_the_last_refused_candidate_raises(monkeypatch):
    # A generator whose candidates are all refused draws exactly max_redraws of them.
    generator = GENERATORS["lookup"]
    drawn = []
    real = type(generator).draw_fields

    def counting(self, draw: Draw, level: int, target: str | None) -> dict:
        drawn.append(level)
        return real(self, draw, level, target)

    monkeypatch.setattr(type(generator), "draw_fields", counting)
    monkeypatch.setattr(type(generator), "plausible", lambda self, spec, target: False)
    with pytest.raises(GenerationError, match=re.escape(f"in {generator.max_redraws} draws")):
        generator.generate(seed=1, level=1)
    assert len(drawn) == generator.max_redraws
