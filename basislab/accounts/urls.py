"""Account URLs: sign up and the limited password reset, plus Django's sign in, sign out and
the rest of the password views (un-namespaced)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before Django's own: the same URL and name, with limits.
    path("password_reset/", views.password_reset, name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
