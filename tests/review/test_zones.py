"""The time-zone choice: canonical IANA zones grouped by region, nothing that is no zone."""

import re
import zoneinfo

import pytest

from practice.review.forms import ReviewSettingsForm
from practice.review.services.review_settings import review_settings_update
from practice.review.zones import (
    canonical_zones,
    time_zone_choices,
    time_zone_names,
    zone_aliases,
    zone_label,
)

from .conftest import make_copy

NOT_ZONES = ("localtime", "Factory", "posixrules", "Etc/GMT+5", "US/Eastern", "GB", "Zulu")


def test_the_list_holds_canonical_zones_only():
    names = time_zone_names()
    for wanted in ("UTC", "Europe/Paris", "America/Argentina/Buenos_Aires", "Asia/Kolkata"):
        assert wanted in names
    for unwanted in NOT_ZONES:
        assert unwanted not in names
    # Python's own list has the non-zones; ours is a strict, loadable part of it.
    assert set(NOT_ZONES) & zoneinfo.available_timezones()
    assert len(canonical_zones()) > 300
    for name in canonical_zones():
        zoneinfo.ZoneInfo(name)


def test_choices_are_grouped_by_region_with_utc_first():
    choices = time_zone_choices()
    assert choices[0] == ("UTC", "UTC")
    regions = [region for region, _zones in choices[1:]]
    assert regions == sorted(regions)
    assert {"Africa", "America", "Asia", "Europe", "Pacific"} <= set(regions)
    europe = dict(dict(choices[1:])["Europe"])
    assert europe["Europe/Paris"] == "Paris"
    labels = list(europe.values())
    assert labels == sorted(labels)


def test_zone_label_reads_as_a_place():
    assert zone_label("America/Argentina/Buenos_Aires") == "Argentina / Buenos Aires"
    assert zone_label("UTC") == "UTC"


@pytest.mark.parametrize("name", ["localtime", "Factory", "US/Eastern"])
def test_the_form_and_the_service_refuse_what_is_not_offered(db, name):
    form = ReviewSettingsForm(
        {"desired_retention": "0.9", "time_zone": name, "daily_limit": "20", "reminders": "on"}
    )
    assert not form.is_valid()
    assert "time_zone" in form.errors
    copy = make_copy()
    with pytest.raises(ValueError, match="time_zone"):
        review_settings_update(
            user=copy.owner, desired_retention=0.9, time_zone=name, daily_limit=20, reminders=True
        )


def test_saving_marks_the_zone_chosen(db):
    copy = make_copy()
    row = review_settings_update(
        user=copy.owner,
        desired_retention=0.9,
        time_zone="Europe/Paris",
        daily_limit=20,
        reminders=True,
    )
    row.refresh_from_db()
    assert row.time_zone_chosen is True
    assert str(row.zone) == "Europe/Paris"


def test_old_names_lead_to_the_listed_zone():
    aliases = zone_aliases()
    assert "Asia/Calcutta" in aliases["Asia/Kolkata"]
    assert "Europe/Kiev" in aliases["Europe/Kyiv"]
    assert "US/Eastern" in aliases["America/New_York"]
    listed = time_zone_names()
    assert all(zone in listed for zone in aliases)
    assert not listed & {name for names in aliases.values() for name in names}


def test_the_select_names_each_option_s_aliases():
    html = str(ReviewSettingsForm()["time_zone"])
    assert '<optgroup label="Asia">' in html
    assert re.search(r'value="Asia/Kolkata"[^>]*data-aliases="[^"]*Asia/Calcutta', html)
