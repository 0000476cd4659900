"""The account settings page and what it leads to: change the email address (password, then a
link sent to the new address) and delete the account (export first, then the password)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods

from basislab.limits import limit_reached, too_many

from .forms import EmailChangeForm, PasswordCheckForm
from .services import EmailTakenError, account_delete, email_change_confirm, email_change_request
from .tokens import email_change_read


def _copies(request: HttpRequest) -> list[Model]:
    """Return the learner's course copies, each offered for export, from the app that keeps
    them: the setting ``ACCOUNTS_COPIES`` names the function (accounts imports no app above it)."""
    return list(import_string(settings.ACCOUNTS_COPIES)(user=request.user))


@login_required
@require_GET
def account_settings(request: HttpRequest) -> HttpResponse:
    """Show the account: its name and address, and the ways to change or delete it."""
    context = {
        "copies": _copies(request),
        "has_review": "practice.review" in settings.INSTALLED_APPS,
    }
    return render(request, "registration/account_settings.html", context)


@sensitive_post_parameters("password")
@login_required
@require_http_methods(["GET", "POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    """Ask for the new address and the password; send the confirmation link there."""
    form = EmailChangeForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        if limit_reached(
            request, group="accounts.email_change", key="user", setting="ACCOUNTS_EMAIL_CHANGE_RATE"
        ):
            return too_many(
                request,
                message=_("Many confirmation links were sent in a short time. Try in an hour."),
            )
        new_email = form.cleaned_data["new_email"]
        email_change_request(user=request.user, new_email=new_email)
        messages.info(
            request,
            _("A link was sent to %(email)s. Your address changes when you open it.")
            % {"email": new_email},
        )
        return redirect("account_settings")
    return render(request, "registration/email_change_form.html", {"form": form})


@login_required
@require_GET
def email_change_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """Change the address to the one the link was sent to, when the link is still good."""
    new_email = email_change_read(user=request.user, token=token)
    if new_email is None:
        messages.error(
            request,
            _(
                "That link is not valid any more (used, expired, or for another account). "
                "Ask for a new one below."
            ),
        )
        return redirect("email_change")
    try:
        email_change_confirm(user=request.user, new_email=new_email)
    except EmailTakenError:
        messages.error(request, _("Another account now uses that address; choose another."))
        return redirect("email_change")
    messages.success(request, _("Your email address is now %(email)s.") % {"email": new_email})
    return redirect("account_settings")


@sensitive_post_parameters("password")
@login_required
@require_http_methods(["GET", "POST"])
def account_delete_view(request: HttpRequest) -> HttpResponse:
    """Offer the exports, then delete the account once the password is given again."""
    form = PasswordCheckForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        account_delete(user=request.user)
        logout(request)
        messages.success(
            request, _("Your account and everything in it are deleted. A confirmation was emailed.")
        )
        return redirect("home")
    context = {
        "form": form,
        "copies": _copies(request),
        "has_review": "practice.review" in settings.INSTALLED_APPS,
    }
    return render(request, "registration/account_delete.html", context)
