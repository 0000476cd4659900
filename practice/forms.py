"""Forms for answering a problem: the answer text and its one-time form token."""

import json
import uuid
from functools import lru_cache
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

import grading
from practice.generators.base import MAX_SEED

# Longer than any honest answer (a written-out sum of a few 4-vectors); the grader bounds
# sizes again, this only keeps megabytes out of the database and the preview.
MAX_ANSWER_LENGTH = 2000


@lru_cache(maxsize=1024)
def _spec_help(spec_json: str) -> str:
    # grading.answer_help is a pure function of the spec (it grades example answers against
    # it, in words that are not translated), so each spec's help is worked out once per
    # process. A SpecError is raised through and not cached.
    return grading.answer_help(json.loads(spec_json))


def answer_help(spec: dict) -> str:
    """Return how the answer to `spec` is typed (a stored spec the grader no longer reads gets
    the general help, in the active language)."""
    try:
        return _spec_help(json.dumps(spec, separators=(",", ":")))
    except grading.SpecError:
        return str(GENERAL_HELP)


GENERAL_HELP = _("Type your answer in the form the problem asks for.")


class AnswerForm(forms.Form):
    """The learner's answer and the token that makes a double submit record one attempt."""

    text = forms.CharField(
        label=_("Your answer"),
        max_length=MAX_ANSWER_LENGTH,
        strip=True,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "autocomplete": "off",
                "spellcheck": "false",
                "autocapitalize": "off",
            }
        ),
        help_text=GENERAL_HELP,
    )
    token = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, spec: dict | None = None, **kwargs: Any) -> None:
        """Build the form; with the problem's `spec`, the help says how its answer is typed
        (from the answer's shape and kind: grading.answer_help)."""
        super().__init__(*args, **kwargs)
        if spec is not None:
            # Worked out (a few gradings of example answers) when first read, once per spec
            # and process (answer_help remembers it).
            self.fields["text"].help_text = lazy(answer_help, str)(spec)

    @classmethod
    def fresh(cls, *, text: str = "", spec: dict | None = None) -> "AnswerForm":
        """Return an unbound form carrying a new one-time token (and the problem's help)."""
        return cls(initial={"text": text, "token": uuid.uuid4()}, spec=spec)


class PreviewForm(forms.Form):
    """The answer text only: the preview never records anything."""

    text = forms.CharField(max_length=MAX_ANSWER_LENGTH, strip=True, required=False)


class KindPreviewForm(forms.Form):
    """The seed and level of the staff preview of a kind (both optional: seed 0, first level)."""

    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    level = forms.IntegerField(min_value=1, max_value=9, required=False)
