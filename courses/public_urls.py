"""URLs everyone can read, namespace ``public``: course pages, answers, sitemap, robots.txt.

The course index itself is ``courses:dashboard`` (``/course/``): the open index for an anonymous
visitor, the learner's own copy when signed in.
"""

from django.contrib.sitemaps.views import sitemap
from django.urls import path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from basislab.caching import shared_cache_allowed

from . import public_views
from .sitemaps import SITEMAPS

app_name = "public"

urlpatterns = [
    path("course/<slug:page_slug>/", public_views.page, name="page"),
    path("course/<slug:page_slug>/yours/", public_views.page_open, name="page_open"),
    path("answers/", public_views.answer_index, name="answers"),
    path("answers/<slug:answer_slug>/", public_views.answer, name="answer"),
    path(
        "sitemap.xml",
        shared_cache_allowed(require_safe(cache_control(public=True, max_age=3600)(sitemap))),
        {"sitemaps": SITEMAPS},
        name="sitemap",
    ),
    path("robots.txt", public_views.robots, name="robots"),
]
