"""A URLconf with a stand-in ``practice:problem_open``, to test idea boxes link to practice."""

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
        )
    ],
    "practice",
)

urlpatterns = [p for p in site_patterns if getattr(p, "namespace", None) != "practice"] + [
    path("stand-in-practice/", include(practice_patterns))
]
