"""Account URLs: sign up, plus Django's sign in, sign out and password reset (un-namespaced)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("", include("django.contrib.auth.urls")),
]
