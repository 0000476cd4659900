"""Sign up; the other account views are Django's own (``django.contrib.auth.urls``)."""

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
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
