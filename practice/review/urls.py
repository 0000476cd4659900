"""URLs of spaced review, namespace ``review``."""

from django.urls import path

from . import views

app_name = "review"

urlpatterns = [
    path("<int:copy_id>/", views.queue, name="queue"),
    path("<int:copy_id>/items/<int:item_id>/", views.review, name="review"),
    path("<int:copy_id>/problems/<int:problem_id>/answer/", views.answer, name="answer"),
    path("<int:copy_id>/attempts/<int:attempt_id>/", views.result, name="result"),
    path("<int:copy_id>/export/", views.export, name="export"),
    path("settings/", views.settings_view, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
