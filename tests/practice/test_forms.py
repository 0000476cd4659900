"""The answer form's help: the grader's words, worked out once per spec and process."""

import uuid

from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

import grading
from practice import forms
from tests.answers import wrong_answer
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


def test_a_forms_help_is_worked_out_once_per_spec_however_often_it_is_read():
    # Django's lazy string: built without grading anything, worked out when first read (the
    # form's validation reads it), remembered for the spec afterwards.
    spec = dict(WEIGHTED_SUM_SPEC, position=1)
    forms._spec_help.cache_clear()
    form = forms.AnswerForm({"text": "[1, 2]", "token": str(uuid.uuid4())}, spec=spec)
    assert forms._spec_help.cache_info().misses == 0

    assert form.is_valid()
    shown = form["text"].help_text
    assert str(shown) == str(shown) == grading.answer_help(spec)
    again = forms.AnswerForm({"text": "[1, 2]", "token": str(uuid.uuid4())}, spec=dict(spec))
    assert again.is_valid() and str(again["text"].help_text) == str(shown)
    assert forms._spec_help.cache_info().misses == 1


def test_an_invalid_submit_is_shown_again_with_its_problems_help():
    spec = dict(WEIGHTED_SUM_SPEC, position=1)
    form = forms.AnswerForm({"text": "", "token": "not a token"}, spec=spec)

    assert not form.is_valid()
    assert str(form["text"].help_text) == grading.answer_help(spec)


def test_a_first_answer_works_out_its_help_once_and_its_verdict_page_shows_it(
    learner_client, problem
):
    url = reverse("practice:problem", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk})
    forms._spec_help.cache_clear()

    response = learner_client.post(url, {"text": wrong_answer(problem)[1], "token": uuid.uuid4()})

    assert response.status_code == 302
    assert forms._spec_help.cache_info().misses == 1
    page = learner_client.get(response["Location"])
    expected = escape(grading.answer_help(problem.spec))
    assert f'<p class="answer-form__help" id="answer-help">{expected}</p>' in page.text
    assert forms._spec_help.cache_info().misses == 1
