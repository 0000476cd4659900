"""Sign up, sign out and password reset (limited per address and per email); the other account
views are Django's own (``django.contrib.auth.urls``)."""

from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.views import LogoutView, PasswordResetConfirmView, PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from basislab.limits import limit_reached, too_many

from .forms import SignUpForm, SiteUrlPasswordResetForm
from .services import SIGN_IN_BACKEND, lockout_lift, user_create


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, sign the new learner in and open their course (or ``next``)."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "courses:dashboard")
    if request.method == "POST" and limit_reached(
        request, group="accounts.signup", key="ip", setting="ACCOUNTS_SIGNUP_RATE"
    ):
        return too_many(
            request,
            message=_(
                "Many accounts were made from your network in a short time. "
                "Please wait an hour and try again."
            ),
        )
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend=SIGN_IN_BACKEND)
        return redirect(next_url or "courses:dashboard")
    return render(request, "registration/signup.html", {"form": form, "next": next_url or ""})


def _safe_next(request: HttpRequest) -> str | None:
    """Return the ``next`` address when it stays on this site, else None (no open redirect)."""
    candidate = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME)
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return None


class SignOutView(LogoutView):
    """Sign out (POST only, as Django's view), and say so on the page that follows."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # Messages live in a cookie first, so the note survives the session being flushed.
        messages.success(request, _("You are signed out. See you soon."))
        return response


def _email_key(_group: str, request: HttpRequest) -> str:
    return request.POST.get("email", "").strip().casefold()


class LimitedPasswordResetView(PasswordResetView):
    """Django's password reset, limited per address and per email address, its link addressed
    by ``SITE_URL`` as every email is.

    Both counts go up on every valid request, and either limit gives the same answer, whether
    or not an account has the address: the page reveals nothing about who has an account.
    """

    form_class = SiteUrlPasswordResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        """Send the link unless this address or this email asked too often."""
        by_address = limit_reached(
            self.request,
            group="accounts.password_reset",
            key="ip",
            setting="ACCOUNTS_PASSWORD_RESET_RATE",
        )
        by_email = limit_reached(
            self.request,
            group="accounts.password_reset_email",
            key=_email_key,
            setting="ACCOUNTS_PASSWORD_RESET_EMAIL_RATE",
        )
        if by_address or by_email:
            return too_many(
                self.request,
                message=_(
                    "Password reset links were asked for many times in a short time. "
                    "If an account has this address, a link is already on its way: check your "
                    "email, or wait an hour and ask again."
                ),
            )
        return super().form_valid(form)


password_reset = LimitedPasswordResetView.as_view()


class LiftingPasswordResetConfirmView(PasswordResetConfirmView):
    """Django's "choose a new password" step, which also lifts the sign-in lockout of that
    username: a learner locked out by a classmate's typos behind the same address gets back in
    by resetting their password (the lockout page says so)."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        """Save the new password, then remove the username's lockout records."""
        response = super().form_valid(form)
        lockout_lift(username=form.user.get_username())
        return response


password_reset_confirm = LiftingPasswordResetConfirmView.as_view()
