"""Sign up and sign out; the other account views are Django's own (``django.contrib.auth.urls``)."""

from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth.views import LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from .forms import SignUpForm
from .services import user_create


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, sign the new learner in and open their course (or ``next``)."""
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "courses:dashboard")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = user_create(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
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
