"""Pictures drawn for a phone: at every level and over many seeds, fresh, solved and with each
catalogued wrong answer, these kinds' pictures are at most 312 px wide (the verdict box's
column on a 390 px phone), their panels stacked and long lines wrapped rather than shrunk."""

import re

import pytest

from practice.generators import GENERATORS, generate

from .test_label_placement import pictures_of, read_svg

PHONE_COLUMN = 312  # pixels: the column inside the verdict box on a 390 px phone
SEEDS = range(30)
KINDS = [
    "contrast",
    "closed_form_noise",
    "static_vs_contextual",
    "two_layers",
    "whitespace_pieces",
    "word_ids",
    "nearest_by_cosine",
]


@pytest.mark.parametrize("kind", KINDS)
def test_every_picture_fits_a_phone_column(kind):
    for level in GENERATORS[kind].levels:
        for seed in SEEDS:
            spec = generate(kind, seed=seed, level=level)
            for what, markup in pictures_of(spec):
                if markup is None:
                    continue
                width = float(re.search(r'<svg[^>]* width="([\d.]+)"', markup).group(1))
                assert width <= PHONE_COLUMN, (kind, level, seed, what, width)
                texts, _ = read_svg(markup)
                outside = [t.text for t in texts if t.box.left < 0 or t.box.right > width]
                assert not outside, (kind, level, seed, what, outside)
