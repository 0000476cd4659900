"""Sign up and password reset (limited per address and per email); the other account views are
Django's own (``django.contrib.auth.urls``)."""

from django.contrib.auth import login
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from basislab.limits import limit_reached, too_many

from .forms import SignUpForm
from .services import user_create


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, sign the new learner in and open their course."""
    if request.user.is_authenticated:
        return redirect("courses:dashboard")
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
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("courses:dashboard")
    return render(request, "registration/signup.html", {"form": form})


def _email_key(_group: str, request: HttpRequest) -> str:
    return request.POST.get("email", "").strip().casefold()


class LimitedPasswordResetView(PasswordResetView):
    """Django's password reset, limited per address and per email address.

    Both counts go up on every valid request, and either limit gives the same answer, whether
    or not an account has the address: the page reveals nothing about who has an account.
    """

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
