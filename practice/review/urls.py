"""URLs of spaced review, namespace ``review``."""

from django.urls import path, register_converter

from . import views
from .selectors import UNSUBSCRIBE_TOKEN_PATTERN


class UnsubscribeTokenConverter:
    """Match only what ``secrets.token_urlsafe`` writes, so a malformed token (a NUL byte, which
    PostgreSQL refuses in text) is a plain 404 before any query."""

    regex = UNSUBSCRIBE_TOKEN_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


register_converter(UnsubscribeTokenConverter, "unsubscribe_token")

app_name = "review"

urlpatterns = [
    path("<int:copy_id>/", views.queue, name="queue"),
    path("<int:copy_id>/items/<int:item_id>/", views.review, name="review"),
    path("<int:copy_id>/problems/<int:problem_id>/answer/", views.answer, name="answer"),
    path("<int:copy_id>/attempts/<int:attempt_id>/", views.result, name="result"),
    path("<int:copy_id>/export/", views.export, name="export"),
    path("settings/", views.settings_view, name="settings"),
    path("unsubscribe/<unsubscribe_token:token>/", views.unsubscribe, name="unsubscribe"),
]
