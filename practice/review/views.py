"""Review pages: the due queue, one review (recall, then a fresh variant), the result,
the learner's settings, the export, and the no-sign-in unsubscribe link.

Views read input through a form, call one service or selector and render; every lookup of a
copy, item, problem or attempt is ownership-checked (404 for anyone but its owner).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from courses.selectors import access_copy, copies_of
from grading.kinds import Status
from practice import selectors as practice_selectors
from practice.forms import AnswerForm
from practice.generators import render_statement
from practice.models import ProblemInstance
from practice.presenters import problem_picture
from practice.web.answering import answer_submit

from . import selectors
from .forms import ReviewSettingsForm
from .models import MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION
from .pictures import workload_picture, workload_rows
from .services.export import review_export
from .services.review_settings import (
    review_settings_get_or_create,
    review_settings_update,
    review_unsubscribe,
)
from .services.variants import review_open


@login_required
@require_GET
def queue(request: HttpRequest, copy_id: int) -> HttpResponse:
    """List the reviews due now, interleaved across kinds, within today's limit."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    row = selectors.review_settings_of(user_id=request.user.pk)
    context = {
        "copy": copy,
        "items": selectors.review_with_last_credit(selectors.review_next(copy=copy)),
        "due_total": selectors.review_due_count(copy=copy),
        "done_today": selectors.review_done_today(copy=copy, row=row),
        "settings": row,
        "upcoming": selectors.review_with_last_credit(selectors.review_upcoming(copy=copy)),
        "zone": row.zone,
    }
    return render(request, "review/queue.html", context)


def _review_context(request: HttpRequest, item, problem: ProblemInstance, **extra) -> dict:
    source = item.source_problem
    return {
        "copy": item.copy,
        "item": item,
        "problem": problem,
        "statement": render_statement(problem.spec),
        "picture": problem_picture(problem.spec),
        "recall_statement": render_statement(source.spec) if source else "",
        "recall_attempt": item.source_attempt,
        "zone": selectors.review_settings_of(user_id=request.user.pk).zone,
        **extra,
    }


@login_required
@require_GET
def review(request: HttpRequest, copy_id: int, item_id: int) -> HttpResponse:
    """Show one review: the explained mistake folded away, then a fresh variant to answer."""
    item = selectors.access_review_item(user=request.user, copy_id=copy_id, item_id=item_id)
    problem = review_open(copy=item.copy, item=item)
    selectors.review_with_last_credit([item])
    context = _review_context(request, item, problem, form=AnswerForm.fresh(spec=problem.spec))
    return render(request, "review/review.html", context)


@login_required
@require_POST
def answer(request: HttpRequest, copy_id: int, problem_id: int) -> HttpResponse:
    """Submit an answer to a review variant through practice's answer flow; show the result."""
    problem = practice_selectors.access_problem(
        user=request.user, problem_id=problem_id, copy_id=copy_id
    )
    if problem.purpose != ProblemInstance.Purpose.REVIEW:
        raise Http404("No such review")
    form = AnswerForm(request.POST, spec=problem.spec)
    if not form.is_valid():
        item = selectors.review_item_for_problem(problem=problem)
        if item is None:
            raise Http404("No such review")
        context = _review_context(request, item, problem, form=form)
        return render(request, "review/review.html", context, status=400)
    attempt = answer_submit(request, problem, form)
    if attempt is None:
        return redirect("review:queue", copy_id=copy_id)
    return redirect("review:result", copy_id=copy_id, attempt_id=attempt.pk)


@login_required
@require_GET
def result(request: HttpRequest, copy_id: int, attempt_id: int) -> HttpResponse:
    """Show the Verdict of a review answer and when the mistake comes back."""
    attempt = practice_selectors.access_attempt(
        user=request.user, attempt_id=attempt_id, copy_id=copy_id
    )
    item = selectors.review_item_for_attempt(attempt=attempt)
    if item is None or attempt.problem.purpose != ProblemInstance.Purpose.REVIEW:
        raise Http404("No such review")
    retry = attempt.status != Status.CORRECT and attempt.problem.state == "open"
    context = _review_context(
        request,
        item,
        attempt.problem,
        attempt=attempt,
        verdict=attempt.verdict,
        form=AnswerForm.fresh(text=attempt.text, spec=attempt.problem.spec) if retry else None,
        next_items=selectors.review_next(copy=attempt.copy)[:1],
        credit=selectors.review_attempt_credit(attempt=attempt, item=item),
        item_rated=item.logs.filter(attempt=attempt).exists(),
    )
    return render(request, "review/result.html", context)


def _workload_context(user_id: int, current: float) -> dict:
    """Return the workload picture, its table and counts for the settings page (no picture
    when the learner has no reviewed items)."""
    found = selectors.review_workload(user_id=user_id)
    if not found.points:
        return {"workload": found}
    return {
        "workload": found,
        "workload_svg": mark_safe(workload_picture(found.points, current=current)),  # noqa: S308
        "workload_rows": workload_rows(found.points, current=current),
        "retention_low": f"{MIN_DESIRED_RETENTION:.2f}",
        "retention_high": f"{MAX_DESIRED_RETENTION:.2f}",
    }


@login_required
@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> HttpResponse:
    """Show and change the learner's review settings, with the expected workload of the
    learner's own items at each desired retention."""
    row = review_settings_get_or_create(user_id=request.user.pk)
    if request.method == "POST":
        form = ReviewSettingsForm(request.POST)
        if form.is_valid():
            review_settings_update(user=request.user, **form.cleaned_data)
            messages.success(request, _("Your review settings are saved."))
            return redirect("review:settings")
    else:
        form = ReviewSettingsForm(
            offer_browser_zone=not row.time_zone_chosen,
            initial={
                "desired_retention": row.desired_retention,
                "time_zone": row.time_zone,
                "daily_limit": row.daily_limit,
                "reminders": row.reminders,
            },
        )
    status = 400 if form.is_bound else 200
    context = {
        "form": form,
        "copies": copies_of(user=request.user),
        **_workload_context(request.user.pk, row.desired_retention),
    }
    return render(request, "review/settings.html", context, status=status)


@login_required
@require_GET
def export(request: HttpRequest, copy_id: int) -> HttpResponse:
    """Download the copy's review items, cards and logs as JSON."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    response = JsonResponse(review_export(copy=copy), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="basislab-review-{copy.pk}.json"'
    # A learner's history: kept by no shared cache and no browser cache.
    patch_cache_control(response, private=True, no_store=True)
    return response


# The token in the link is the only secret: a forged cross-site POST would need it anyway, and
# mail clients' one-click unsubscribe (RFC 8058) posts without a CSRF token.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Turn reminder emails off from the link in an email: no sign-in, confirmed by a POST.

    GET only shows the button (mail scanners follow links); an unknown token is a 404.
    """
    row = selectors.review_settings_by_token(token=token)
    if row is None:
        raise Http404("No such link")
    done = False
    if request.method == "POST":
        review_unsubscribe(token=token)
        done = True
    context = {
        "token": token,
        "done": done,
        "account": masked_account(row.user),
        "copies": copies_of(user=row.user) if done else [],
    }
    return render(request, "review/unsubscribe.html", context)


def masked_account(user: AbstractBaseUser) -> str:
    """Return whose link this is without giving the address away: ``a•••@example.org``."""
    local, at, domain = (getattr(user, "email", "") or "").partition("@")
    if not at:
        return user.get_username()
    return f"{local[:1]}{'•' * 3}@{domain}"
