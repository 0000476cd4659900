"""Static file storages that remember each file's URL per process (settings.STORAGES).

``{% static %}`` asks the storage for a file's URL on every render: about 6 microseconds for
the plain storage on this machine and more for the manifest one (the hashed name is looked up
and the URL joined and quoted each time), and a practice page renders seven of them. A URL
depends only on the file's name while a process runs: the plain storage joins it to
``STATIC_URL``; the manifest storage reads its manifest once, when it is made, and a new
``collectstatic`` only reaches a process that starts after it. So each URL is remembered.

A name that fails (a file missing from the manifest) raises as before and is not remembered.
Names come from the templates, not from requests; the number remembered is bounded all the
same, and past the bound a URL is worked out each time, as before.
"""

from django.contrib.staticfiles.storage import StaticFilesStorage as DjangoStaticFilesStorage
from whitenoise.storage import (
    CompressedManifestStaticFilesStorage as WhiteNoiseManifestStorage,
)

# Far more than the site's static files (a few dozen).
REMEMBERED_URLS = 1024


class _RememberedURLs:
    def url(self, name: str | None, force: bool = False) -> str:
        remembered = self.__dict__.setdefault("_remembered_urls", {})
        key = (name, force)
        found = remembered.get(key)
        if found is None:
            found = super().url(name, force) if force else super().url(name)
            if len(remembered) < REMEMBERED_URLS:
                remembered[key] = found
        return found


class StaticFilesStorage(_RememberedURLs, DjangoStaticFilesStorage):
    """Django's storage for development (``DEBUG=1``) and tests, URLs remembered."""


class CompressedManifestStaticFilesStorage(_RememberedURLs, WhiteNoiseManifestStorage):
    """WhiteNoise's hashed, compressed storage for production (``DEBUG=0``), URLs remembered."""
