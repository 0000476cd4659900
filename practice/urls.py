"""URLs of practice, namespace ``practice``: problems, attempts, history, export, author stats."""

from django.urls import include, path, register_converter

from grading.kinds import ProblemKind

from . import views


class ProblemKindConverter:
    """Match only the known problem kinds, so an unknown one is a plain 404."""

    regex = "|".join(kind.value for kind in ProblemKind)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


register_converter(ProblemKindConverter, "kind")

app_name = "practice"

urlpatterns = [
    path(
        "course/<int:copy_id>/pages/<slug:page_slug>/ideas/<slug:idea_slug>/<kind:kind>/",
        views.problem_open,
        name="problem_open",
    ),
    path("course/<int:copy_id>/problems/<int:problem_id>/", views.problem_detail, name="problem"),
    path(
        "course/<int:copy_id>/problems/<int:problem_id>/preview/",
        views.preview,
        name="preview",
    ),
    path(
        "course/<int:copy_id>/problems/<int:problem_id>/variant/",
        views.problem_new_variant,
        name="new_variant",
    ),
    path(
        "course/<int:copy_id>/problems/<int:problem_id>/solution/",
        views.problem_reveal,
        name="reveal",
    ),
    path("course/<int:copy_id>/attempts/<int:attempt_id>/", views.attempt_detail, name="attempt"),
    path("course/<int:copy_id>/history/", views.history, name="history"),
    path("course/<int:copy_id>/export/", views.export, name="export"),
    path("practice/stats/", views.stats_index, name="stats"),
    path("practice/stats/<kind:kind>/", views.stats_kind, name="stats_kind"),
    path("practice/kinds/<kind:kind>/preview/", views.kind_preview, name="kind_preview"),
    # Continue and the daily goal (practice/today/).
    path("", include("practice.today.urls")),
]
