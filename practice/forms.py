"""Forms for answering a problem: the answer text and its one-time form token."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

# Longer than any honest answer (a written-out sum of a few 4-vectors); the grader bounds
# sizes again, this only keeps megabytes out of the database and the preview.
MAX_ANSWER_LENGTH = 2000


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
        help_text=_("A vector such as [1/2, 1], or the sum written out: 1/2*[1, 0] + 1/2*[0, 2]."),
    )
    token = forms.UUIDField(widget=forms.HiddenInput)

    @classmethod
    def fresh(cls, *, text: str = "") -> "AnswerForm":
        """Return an unbound form carrying a new one-time token."""
        return cls(initial={"text": text, "token": uuid.uuid4()})


class PreviewForm(forms.Form):
    """The answer text only: the preview never records anything."""

    text = forms.CharField(max_length=MAX_ANSWER_LENGTH, strip=True, required=False)
