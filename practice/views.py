"""Practice pages: open a problem, preview and submit an answer, see the Verdict and history.

Views read input through a form, call one service or selector and render. Every view that
touches a copy, problem or attempt looks it up with an ``access_*`` selector (404 for anyone
but its owner).
"""

import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.core import is_ratelimited

from basislab.limits import limit_reached, too_many
from courses.selectors import access_copy
from grading.kinds import ProblemKind, Status
from practice.generators import GENERATORS, render_statement

from . import previews, reveals, selectors, services
from .answers import answer_reading
from .forms import AnswerForm, KindPreviewForm, PreviewForm
from .models import Attempt, ProblemInstance
from .presenters import answer_picture, problem_picture, solved_picture
from .web.access import staff_required
from .web.answering import answer_submit

HISTORY_PAGE_SIZE = 20
PREVIEW_RATE_DEFAULT = "60/m"


def _preview_rate(group: str, request: HttpRequest) -> str:
    """Return the preview's rate limit per learner (setting PRACTICE_PREVIEW_RATE)."""
    return getattr(settings, "PRACTICE_PREVIEW_RATE", PREVIEW_RATE_DEFAULT)


def _problem_context(
    request: HttpRequest,
    problem: ProblemInstance,
    *,
    form: AnswerForm | None = None,
    attempt: Attempt | None = None,
    attempts: list[Attempt] | None = None,
    preview: dict | None = None,
    show_solution: bool = False,
) -> dict:
    """Build what the problem page shows: statement, picture, form, verdict, own attempts (read
    here unless the caller read them with the attempt)."""
    wrong_picture = None
    if attempt is not None and attempt.status == Status.INCORRECT:
        wrong_picture = functools.partial(answer_picture, problem.spec, attempt.text)
    is_open = problem.state == ProblemInstance.State.OPEN
    show_solution = problem.state == ProblemInstance.State.REVEALED or (
        show_solution and not is_open
    )
    if form is None and is_open:
        retry_text = attempt.text if attempt and attempt.status != Status.CORRECT else ""
        form = AnswerForm.fresh(text=retry_text, spec=problem.spec)
    return {
        "copy": problem.copy,
        "problem": problem,
        # Callables: the template calls them only when its cached fragment is missing.
        "statement": functools.partial(render_statement, problem.spec),
        "picture": functools.partial(problem_picture, problem.spec),
        "wrong_picture": wrong_picture,
        "form": form if is_open else None,
        "attempt": attempt,
        "verdict": attempt.verdict if attempt else None,
        "preview": preview,
        "attempts": selectors.problem_attempts(problem=problem) if attempts is None else attempts,
        "current": None if is_open else selectors.problem_current(problem=problem),
        # The worked solution: always on a revealed problem, on request on another closed one.
        "show_solution": show_solution,
        "solution": functools.partial(reveals.problem_solution, problem.spec),
        "solved_picture": functools.partial(solved_picture, problem.spec),
    }


@login_required
@require_http_methods(["GET", "POST"])
def problem_open(
    request: HttpRequest, copy_id: int, page_slug: str, idea_slug: str, kind: str
) -> HttpResponse:
    """Open the learner's problem for an idea and kind (created once) and go to it."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    problem = services.problem_open(copy=copy, page_slug=page_slug, idea_slug=idea_slug, kind=kind)
    return redirect(
        reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk})
    )


@login_required
@require_http_methods(["GET", "POST"])
def problem_detail(request: HttpRequest, copy_id: int, problem_id: int) -> HttpResponse:
    """Show a problem; on POST, submit the answer and go to its Verdict."""
    problem = selectors.access_problem(user=request.user, problem_id=problem_id, copy_id=copy_id)
    form = None
    if request.method == "POST":
        form = AnswerForm(request.POST, spec=problem.spec)
        if form.is_valid():
            attempt = answer_submit(request, problem, form)
            if attempt is None:
                return redirect("practice:problem", copy_id=copy_id, problem_id=problem.pk)
            return redirect(
                reverse("practice:attempt", kwargs={"copy_id": copy_id, "attempt_id": attempt.pk})
            )
        if "token" in form.errors:
            # A form without its one-time token (tampered with, or cached by a proxy) gets a
            # fresh one; the answer text is kept.
            form = AnswerForm.fresh(text=request.POST.get("text", ""), spec=problem.spec)
            messages.info(request, _("Your answer was not recorded; check it again."))
    show = request.GET.get("show") == "solution"
    context = _problem_context(request, problem, form=form, show_solution=show)
    return render(request, "practice/problem.html", context, status=400 if form else 200)


@login_required
@require_POST
def preview(request: HttpRequest, copy_id: int, problem_id: int) -> HttpResponse:
    """Show how the answer was read, without marking it: a fragment for htmx, else the page."""
    problem = selectors.access_problem(user=request.user, problem_id=problem_id, copy_id=copy_id)
    limited = is_ratelimited(
        request, group="practice.preview", key="user", rate=_preview_rate, increment=True
    )
    form = PreviewForm(request.POST)
    if limited:
        result = {"limited": True}
    elif not form.is_valid():
        result = {"too_long": True}
    elif not form.cleaned_data["text"]:
        result = {"empty": True}
    else:
        reading = answer_reading(form.cleaned_data["text"], problem.spec)
        result = {
            "invalid": not reading.readable,
            "interpreted": reading.tex,
            "message": reading.message,
        }
    status = 429 if limited else 200
    if request.htmx:
        return render(request, "practice/_preview.html", {"preview": result}, status=status)
    answer = AnswerForm(
        initial={"text": request.POST.get("text", ""), "token": request.POST.get("token")},
        spec=problem.spec,
    )
    if not answer["token"].value():
        answer = AnswerForm.fresh(text=request.POST.get("text", ""), spec=problem.spec)
    context = _problem_context(request, problem, form=answer, preview=result)
    return render(request, "practice/problem.html", context, status=status)


@login_required
@require_POST
def problem_new_variant(request: HttpRequest, copy_id: int, problem_id: int) -> HttpResponse:
    """Replace the problem with a fresh variant at the learner's current level."""
    problem = selectors.access_problem(user=request.user, problem_id=problem_id, copy_id=copy_id)
    if limit_reached(
        request, group="practice.new_variant", key="user", setting="PRACTICE_VARIANT_RATE"
    ):
        return too_many(
            request,
            message=_(
                "You have asked for many new variants in a short time. Try this one, or come "
                "back in a few minutes for another."
            ),
            back_url=reverse(
                "practice:problem", kwargs={"copy_id": copy_id, "problem_id": problem.pk}
            ),
        )
    fresh = services.problem_new_variant(copy=problem.copy, problem=problem)
    return redirect("practice:problem", copy_id=copy_id, problem_id=fresh.pk)


@login_required
@require_POST
def problem_reveal(request: HttpRequest, copy_id: int, problem_id: int) -> HttpResponse:
    """Show the problem's worked solution; an open problem closes as revealed (no credit, and
    review brings the kind back). A closed problem just shows it."""
    problem = selectors.access_problem(user=request.user, problem_id=problem_id, copy_id=copy_id)
    reveals.problem_reveal(copy=problem.copy, problem=problem)
    url = reverse("practice:problem", kwargs={"copy_id": copy_id, "problem_id": problem.pk})
    return redirect(f"{url}?show=solution#solution")


@login_required
@require_GET
def attempt_detail(request: HttpRequest, copy_id: int, attempt_id: int) -> HttpResponse:
    """Show one attempt's Verdict on its problem's page, with what to do next."""
    attempt, attempts = selectors.access_attempt_listed(
        user=request.user, attempt_id=attempt_id, copy_id=copy_id
    )
    context = _problem_context(request, attempt.problem, attempt=attempt, attempts=attempts)
    return render(request, "practice/problem.html", context)


@login_required
@require_GET
def history(request: HttpRequest, copy_id: int) -> HttpResponse:
    """List the learner's attempts with their reasons, newest first, a page at a time."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    paginator = Paginator(selectors.attempt_history(copy=copy), HISTORY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "practice/history.html", {"copy": copy, "page": page})


@login_required
@require_GET
def export(request: HttpRequest, copy_id: int) -> HttpResponse:
    """Download the whole copy as JSON: progress, notes, problems, attempts, review state."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    response = JsonResponse(services.copy_export(copy=copy), json_dumps_params={"indent": 2})
    # A learner's whole history: kept by no shared cache and no browser cache.
    patch_cache_control(response, private=True, no_store=True)
    filename = f"basislab-{copy.course.slug}-{timezone.now().date().isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@staff_required
@require_GET
def stats_index(request: HttpRequest) -> HttpResponse:
    """List the problem kinds with how many attempts each has had (authors only)."""
    return render(request, "practice/stats_index.html", {"kinds": selectors.kinds_overview()})


@staff_required
@require_GET
def stats_kind(request: HttpRequest, kind: str) -> HttpResponse:
    """Count attempts and each mistake for one kind across all learners (authors only)."""
    try:
        problem_kind = ProblemKind(kind)
    except ValueError:
        raise Http404("No such problem kind") from None
    stats = selectors.kind_stats(kind=problem_kind)
    return render(
        request,
        "practice/stats_kind.html",
        {"stats": stats, "index_url": reverse("practice:stats")},
    )


@staff_required
@require_GET
def kind_preview(request: HttpRequest, kind: str) -> HttpResponse:
    """Show one problem of a kind at any seed and level, its right answer and every catalogued
    mistake with the grader's diagnosis and explanation (authors checking a kind)."""
    form = KindPreviewForm(request.GET or None)
    preview = error = None
    if form.is_bound and not form.is_valid():
        error = _("The seed must be a whole number from 0 and the level one of the kind's.")
    else:
        data = form.cleaned_data if form.is_bound else {}
        seed = data.get("seed") or 0
        level = data.get("level")
        try:
            preview = previews.kind_preview(
                kind=kind, seed=seed, level=level or GENERATORS[kind].levels[0]
            )
        except ValueError as exc:
            error = str(exc)
    return render(
        request,
        "practice/kind_preview.html",
        {"kind": kind, "form": form, "preview": preview, "error": error},
        status=400 if error else 200,
    )
