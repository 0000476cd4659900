"""Forms for spaced review: the learner's review settings."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import MAX_DAILY_LIMIT, MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION
from .zones import time_zone_choices, zone_aliases


class ZoneSelect(forms.Select):
    """A select of zones whose options name their old aliases (``data-aliases``), so the
    settings page's script can find the browser's zone under whatever name it reports."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        aliases = zone_aliases().get(str(value))
        if aliases:
            option["attrs"]["data-aliases"] = " ".join(aliases)
        return option


class ReviewSettingsForm(forms.Form):
    """Desired retention, time zone, daily limit and whether reminder emails are wanted."""

    desired_retention = forms.FloatField(
        label=_("Desired retention"),
        min_value=MIN_DESIRED_RETENTION,
        max_value=MAX_DESIRED_RETENTION,
        widget=forms.NumberInput(attrs={"step": "0.01"}),
        help_text=_(
            "The chance of still getting it right when a review comes back, from 0.80 to 0.97. "
            "Higher means more frequent reviews and fewer mistakes made again; the plot "
            "below shows what each costs for your own mistakes."
        ),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        widget=ZoneSelect,
        help_text=_("Your day starts at midnight here: the daily limit and the reminder use it."),
    )
    daily_limit = forms.IntegerField(
        label=_("Reviews per day at most"), min_value=1, max_value=MAX_DAILY_LIMIT
    )
    reminders = forms.BooleanField(
        label=_("Email me once a day when reviews are due"), required=False
    )

    def __init__(self, *args: object, offer_browser_zone: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        if offer_browser_zone:
            # static/review/settings.js selects the browser's own zone when it is listed.
            self.fields["time_zone"].widget.attrs["data-browser-zone"] = "offer"
