"""Forms for the learner's course copy."""

from django import forms
from django.utils.translation import gettext_lazy as _

NOTE_MAX_LENGTH = 20_000


class NoteForm(forms.Form):
    text = forms.CharField(
        label=_("Your notes on this page"),
        required=False,
        max_length=NOTE_MAX_LENGTH,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
