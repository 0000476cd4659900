"""basislab.staticfiles: Django's and WhiteNoise's URLs, remembered per process."""

import json

import pytest
from django.contrib.staticfiles.storage import StaticFilesStorage as DjangoStaticFilesStorage
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template import engines
from whitenoise.storage import CompressedManifestStaticFilesStorage as WhiteNoiseStorage

from basislab import staticfiles

NAMES = ("css/site.css", "js/htmx.min.js", "fonts/latinmodern-math.otf", "a b/ü.css")


def test_the_plain_storage_gives_djangos_urls_and_remembers_them():
    ours, django = staticfiles.StaticFilesStorage(), DjangoStaticFilesStorage()
    for name in NAMES:
        assert ours.url(name) == django.url(name)
    # Asked again, a URL is the remembered one: the storage's base is not read again.
    ours.base_url = "/elsewhere/"
    assert [ours.url(name) for name in NAMES] == [django.url(name) for name in NAMES]
    assert ours.url("new.css") == "/elsewhere/new.css"


def test_the_sites_static_tag_uses_the_remembering_storage():
    rendered = engines["django"].from_string("{% load static %}{% static 'css/site.css' %}")
    assert rendered.render({}) == DjangoStaticFilesStorage().url("css/site.css")
    assert isinstance(staticfiles_storage._wrapped, staticfiles.StaticFilesStorage)


@pytest.fixture
def manifest(tmp_path, settings):
    settings.DEBUG = False
    (tmp_path / "staticfiles.json").write_text(
        json.dumps(
            {"version": "1.1", "hash": "0", "paths": {"css/site.css": "css/site.0123abcd.css"}}
        )
    )
    return {"location": str(tmp_path), "base_url": "/static/"}


def test_the_manifest_storage_gives_whitenoises_hashed_urls(manifest):
    ours, theirs = (
        staticfiles.CompressedManifestStaticFilesStorage(**manifest),
        WhiteNoiseStorage(**manifest),
    )
    assert ours.url("css/site.css") == theirs.url("css/site.css") == "/static/css/site.0123abcd.css"
    assert ours.url("css/site.css", force=True) == theirs.url("css/site.css", force=True)
    assert ours.url("css/site.css") == "/static/css/site.0123abcd.css"


def test_a_name_missing_from_the_manifest_raises_each_time_and_is_not_remembered(manifest):
    storage = staticfiles.CompressedManifestStaticFilesStorage(**manifest)
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/missing.css")
    assert storage._remembered_urls == {}


def test_past_the_bound_urls_are_worked_out_each_time(monkeypatch):
    monkeypatch.setattr(staticfiles, "REMEMBERED_URLS", 2)
    storage = staticfiles.StaticFilesStorage()
    urls = [storage.url(name) for name in NAMES]
    assert urls == [DjangoStaticFilesStorage().url(name) for name in NAMES]
    assert len(storage._remembered_urls) == 2
