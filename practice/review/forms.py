"""Forms for spaced review: the learner's review settings."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import MAX_DAILY_LIMIT, MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION
from .zones import time_zone_names


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(time_zone_names())]


class ReviewSettingsForm(forms.Form):
    """Desired retention, time zone, daily limit and whether reminder emails are wanted."""

    desired_retention = forms.FloatField(
        label=_("Desired retention"),
        min_value=MIN_DESIRED_RETENTION,
        max_value=MAX_DESIRED_RETENTION,
        widget=forms.NumberInput(attrs={"step": "0.01"}),
        help_text=_(
            "The chance of still getting it right when a review comes back. Higher means "
            "more frequent reviews; 0.9 is a good default."
        ),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zone_choices,
        help_text=_("Your day starts at midnight here: the daily limit and the reminder use it."),
    )
    daily_limit = forms.IntegerField(
        label=_("Reviews per day at most"), min_value=1, max_value=MAX_DAILY_LIMIT
    )
    reminders = forms.BooleanField(
        label=_("Email me once a day when reviews are due"), required=False
    )
