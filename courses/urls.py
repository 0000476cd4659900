"""URLs of the learner's course copy, namespace ``courses``."""

from django.urls import path

from . import views

app_name = "courses"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("<int:copy_id>/pages/<slug:page_slug>/", views.page, name="page"),
    path("<int:copy_id>/pages/<slug:page_slug>/note/", views.note, name="note"),
    path("<int:copy_id>/upgrade/", views.upgrade, name="upgrade"),
]
