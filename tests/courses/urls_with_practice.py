"""A URLconf with stand-ins for ``practice:problem_open`` and ``practice:continue``, to test
idea boxes link to practice."""

from django.http import HttpResponse
from django.urls import include, path

from basislab.urls import urlpatterns as site_patterns


def stand_in(request, **kwargs):
    return HttpResponse("practice")


practice_patterns = (
    [
        path(
            "<int:copy_id>/<slug:page_slug>/<slug:idea_slug>/<str:kind>/",
            stand_in,
            name="problem_open",
        ),
        # The page ends with Continue (practice.today), which names this URL.
        path("<int:copy_id>/continue/", stand_in, name="continue"),
    ],
    "practice",
)

urlpatterns = [p for p in site_patterns if getattr(p, "namespace", None) != "practice"] + [
    path("stand-in-practice/", include(practice_patterns))
]
