"""URLs of the mistake tables, namespace ``analytics``."""

from django.urls import path

from . import views

app_name = "analytics"

urlpatterns = [
    path("class/<int:context_id>/mistakes/", views.class_mistakes, name="class"),
    path("class/<int:context_id>/mistakes.csv", views.class_mistakes_csv, name="class_csv"),
    path("class/<int:context_id>/mistakes.json", views.class_mistakes_json, name="class_json"),
    path(
        "class/<int:context_id>/recurrence.csv",
        views.class_recurrence_csv,
        name="class_recurrence_csv",
    ),
    path("mistakes/", views.site_mistakes, name="site"),
    path("mistakes.csv", views.site_mistakes_csv, name="site_csv"),
    path("mistakes.json", views.site_mistakes_json, name="site_json"),
    path("recurrence.csv", views.site_recurrence_csv, name="site_recurrence_csv"),
    # <kind:...> is practice.urls's converter (a registered kind), included before this module.
    path("kinds/<kind:kind>/", views.kind_author, name="kind"),
    path("kinds/<kind:kind>.json", views.kind_author_json, name="kind_json"),
    path("kinds/<kind:kind>.csv", views.kind_author_csv, name="kind_csv"),
]
