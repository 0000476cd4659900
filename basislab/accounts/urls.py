"""Account URLs: sign up and sign out, plus Django's sign in and password reset (un-namespaced)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("", include("django.contrib.auth.urls")),
]
