"""Who may open a page: decorators shared by the practice, review and analytics views."""

import functools
from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Let staff through; send anonymous visitors to sign in; show 404 to other learners."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.is_staff:
            raise Http404("No such page")
        return view(request, *args, **kwargs)

    return wrapped
