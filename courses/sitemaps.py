"""Sitemaps of the open course and its answers (``django.contrib.sitemaps``), at ``SITE_URL``."""

from datetime import datetime

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from basislab.site import site_domain, site_is_https

from .models import Answer, Page
from .public import public_version


class _SiteSitemap(Sitemap):
    """Address entries by ``SITE_URL``, as canonical links are, not by the request's host."""

    def get_protocol(self, protocol: str | None = None) -> str:
        return "https" if site_is_https() else "http"

    def get_domain(self, site: object = None) -> str:
        return site_domain()


class EntrySitemap(_SiteSitemap):
    """The home page, the course index and the list of answers."""

    def items(self) -> list[str]:
        return ["home", "courses:dashboard", "public:answers"]

    def location(self, item: str) -> str:
        return reverse(item)


class CoursePageSitemap(_SiteSitemap):
    """Every page of the newest course version."""

    def items(self) -> list[Page]:
        version = public_version(course_slug=settings.BASISLAB_COURSE_SLUG)
        if version is None:
            return []
        return list(version.pages.select_related("version").order_by("order"))

    def location(self, item: Page) -> str:
        return reverse("public:page", kwargs={"page_slug": item.slug})

    def lastmod(self, item: Page) -> datetime:
        return item.version.created_at


class AnswerSitemap(_SiteSitemap):
    """Every answer of the newest course version."""

    def items(self) -> list[Answer]:
        version = public_version(course_slug=settings.BASISLAB_COURSE_SLUG)
        if version is None:
            return []
        return list(version.answers.select_related("version"))

    def location(self, item: Answer) -> str:
        return reverse("public:answer", kwargs={"answer_slug": item.slug})

    def lastmod(self, item: Answer) -> datetime:
        return item.version.created_at


SITEMAPS = {"entries": EntrySitemap, "course": CoursePageSitemap, "answers": AnswerSitemap}
