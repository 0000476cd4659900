"""URLs of the learner's course copy, namespace ``courses``."""

from django.urls import path

from . import public_views, views

app_name = "courses"

urlpatterns = [
    # The open course index for everyone; a signed-in learner's own copy (courses.views).
    path("", public_views.course_index, name="dashboard"),
    path("<int:copy_id>/pages/<slug:page_slug>/", views.page, name="page"),
    path("<int:copy_id>/pages/<slug:page_slug>/note/", views.note, name="note"),
    path("<int:copy_id>/upgrade/", views.upgrade, name="upgrade"),
]
