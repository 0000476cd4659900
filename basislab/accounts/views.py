"""Sign up and sign out; the other account views are Django's own (``django.contrib.auth.urls``)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from .forms import SignUpForm
from .services import user_create


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, sign the new learner in and open their course."""
    if request.user.is_authenticated:
        return redirect("courses:dashboard")
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


class SignOutView(LogoutView):
    """Sign out (POST only, as Django's view), and say so on the page that follows."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # Messages live in a cookie first, so the note survives the session being flushed.
        messages.success(request, _("You are signed out. See you soon."))
        return response
