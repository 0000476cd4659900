"""The answer form's help: the grader's words, worked out once per spec and process."""

from django.utils import translation

import grading
from practice import forms
from tests.review.conftest import WEIGHTED_SUM_SPEC


def test_the_help_is_the_graders_and_is_worked_out_once_per_spec():
    spec = dict(WEIGHTED_SUM_SPEC, position=1)
    forms._spec_help.cache_clear()

    first = forms.answer_help(spec)
    again = forms.answer_help(dict(spec))

    assert first == again == grading.answer_help(spec)
    info = forms._spec_help.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_a_spec_the_grader_cannot_read_gets_the_general_help_in_the_active_language():
    forms._spec_help.cache_clear()
    spec = {"kind": "no_such_kind"}

    with translation.override("en"):
        assert forms.answer_help(spec) == str(forms.GENERAL_HELP)
    # Not cached: the general help follows the language active when the page is drawn.
    assert forms._spec_help.cache_info().currsize == 0
