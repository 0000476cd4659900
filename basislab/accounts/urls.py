"""Account URLs: sign up, sign out and the limited password reset, plus Django's sign in and
the rest of the password views (un-namespaced)."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before Django's own: the same URLs and names, with a word after signing out and limits.
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("reset/<uidb64>/<token>/", views.password_reset_confirm, name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
