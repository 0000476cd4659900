"""URLs of the LTI tool, namespace ``lti``."""

from django.urls import path

from . import views

app_name = "lti"

urlpatterns = [
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path("jwks/", views.jwks, name="jwks"),
    path("deep-link/", views.deep_link, name="deep_link"),
    path("link/<int:link_id>/", views.link_setup, name="link_setup"),
    path("class/<int:context_id>/", views.class_view, name="class"),
    path("class/<int:context_id>/export.csv", views.class_csv, name="class_csv"),
]
