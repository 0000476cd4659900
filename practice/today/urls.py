"""URLs of today's practice, in the ``practice`` namespace (included by ``practice.urls``)."""

from django.urls import path

from . import views

urlpatterns = [
    path("course/<int:copy_id>/continue/", views.continue_view, name="continue"),
    path("practice/goal/", views.goal, name="goal"),
]
