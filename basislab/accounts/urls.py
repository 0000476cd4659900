"""Account URLs: sign up, sign out, the limited password reset, the account settings (email
change, deletion), plus Django's sign in and the rest of the password views (un-namespaced)."""

from django.urls import include, path

from . import settings_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Before Django's own: the same URLs and names, with a word after signing out and limits.
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("reset/<uidb64>/<token>/", views.password_reset_confirm, name="password_reset_confirm"),
    path("settings/", settings_views.account_settings, name="account_settings"),
    path("email/", settings_views.email_change, name="email_change"),
    path(
        "email/confirm/<str:token>/",
        settings_views.email_change_confirm_view,
        name="email_change_confirm",
    ),
    path("delete/", settings_views.account_delete_view, name="account_delete"),
    path("", include("django.contrib.auth.urls")),
]
