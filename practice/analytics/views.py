"""The mistake tables: a class's (its instructors only) and the site's (staff only), each as
a page, as CSV and as JSON with the same numbers."""

import csv
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from lti.selectors import access_context
from practice.web.access import staff_required

from . import pictures, selectors

CSV_FIELDS = ("page", "idea", "kind", "code", "label", "level", "try", "learners", "attempts")
RECURRENCE_FIELDS = (
    "month",
    "kind",
    "mistake",
    "label",
    "learners",
    "next_problem_again",
    "next_problem_of",
    "next_review_again",
    "next_review_of",
)


def _picture(draw: Callable[[list], str], rows: list) -> str:
    """Return the picture of the rows as markup to place (the toolkit escapes every text), or
    nothing for no rows."""
    return mark_safe(draw(rows)) if rows else ""  # noqa: S308


def _table(table: selectors.MistakeTable) -> dict[str, object]:
    """Return the page's context for a mistake table: the table, and each group beside the
    picture of its causes."""
    # the toolkit escapes every text of the picture
    groups = [(group, mark_safe(pictures.causes_picture(group))) for group in table.groups]  # noqa: S308
    return {"table": table, "groups": groups}


def _csv(table: selectors.MistakeTable, filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(CSV_FIELDS)
    hidden = _("fewer than 5")
    for row in table.flat():
        level = "all" if row["level"] is None else row["level"]
        numbers = [hidden, hidden] if row["fewer_than_5"] else [row["learners"], row["attempts"]]
        writer.writerow([*(row[name] for name in CSV_FIELDS[:5]), level, row["try"], *numbers])
    return response


def _recurrence_csv(rows: list[selectors.RecurrenceRow], filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(RECURRENCE_FIELDS)
    hidden = _("fewer than 5")
    for row in rows:
        flat = row.flat()
        flat["month"] = flat["month"] or "all"
        writer.writerow(
            [hidden if flat[name] is None else flat[name] for name in RECURRENCE_FIELDS]
        )
    return response


def _json(
    table: selectors.MistakeTable, scope: str, recurrence: list[selectors.RecurrenceRow], **more
) -> JsonResponse:
    return JsonResponse(
        {
            "scope": scope,
            "private_below": selectors.PRIVATE_BELOW if table.private else None,
            "rows": table.flat(),
            "recurrence": [row.flat() for row in recurrence],
            **{name: [row.flat() for row in rows] for name, rows in more.items()},
        }
    )


@login_required
@require_GET
def class_mistakes(request: HttpRequest, context_id: int) -> HttpResponse:
    """Show a class's instructor the mistakes of its learners, by cause."""
    context = access_context(user=request.user, context_id=context_id)
    recurrence = selectors.class_recurrence(context=context)
    return render(
        request,
        "analytics/mistakes.html",
        {
            "title": _("Mistakes in %(class)s") % {"class": context},
            **_table(selectors.class_mistake_table(context=context)),
            "recurrence": recurrence,
            "recurrence_picture": _picture(pictures.recurrence_picture, recurrence),
            "holders": selectors.class_holders(context=context),
            "recurrence_csv_url": reverse("analytics:class_recurrence_csv", args=[context.pk]),
            "csv_url": reverse("analytics:class_csv", args=[context.pk]),
            "json_url": reverse("analytics:class_json", args=[context.pk]),
            "back_url": reverse("lti:class", args=[context.pk]),
        },
    )


@login_required
@require_GET
def class_mistakes_csv(request: HttpRequest, context_id: int) -> HttpResponse:
    """Export a class's mistake table as CSV."""
    context = access_context(user=request.user, context_id=context_id)
    return _csv(selectors.class_mistake_table(context=context), f"mistakes-{context.pk}.csv")


@login_required
@require_GET
def class_mistakes_json(request: HttpRequest, context_id: int) -> JsonResponse:
    """Export a class's mistake table as JSON."""
    context = access_context(user=request.user, context_id=context_id)
    return _json(
        selectors.class_mistake_table(context=context),
        "class",
        selectors.class_recurrence(context=context),
        recurrence_by_month=selectors.class_recurrence(context=context, by_month=True),
        who_has_this_now=selectors.class_holders(context=context),
    )


@login_required
@require_GET
def class_recurrence_csv(request: HttpRequest, context_id: int) -> HttpResponse:
    """Export a class's recurrence after feedback as CSV."""
    context = access_context(user=request.user, context_id=context_id)
    rows = selectors.class_recurrence(context=context)
    rows += selectors.class_recurrence(context=context, by_month=True)
    return _recurrence_csv(rows, f"recurrence-{context.pk}.csv")


@staff_required
@require_GET
def site_mistakes(request: HttpRequest) -> HttpResponse:
    """Show staff the mistakes of every learner, by cause (nothing hidden)."""
    recurrence = selectors.site_recurrence()
    return render(
        request,
        "analytics/mistakes.html",
        {
            "title": _("Mistakes of every learner"),
            **_table(selectors.site_mistake_table()),
            "recurrence": recurrence,
            "recurrence_picture": _picture(pictures.recurrence_picture, recurrence),
            "holders": None,  # a class's view only: names are its instructors' to see
            "reveals": selectors.site_reveals(),
            "values": selectors.site_unexplained_values(),
            "top_values": selectors.TOP_VALUES,
            "recurrence_csv_url": reverse("analytics:site_recurrence_csv"),
            "csv_url": reverse("analytics:site_csv"),
            "json_url": reverse("analytics:site_json"),
            "back_url": reverse("practice:stats"),
        },
    )


@staff_required
@require_GET
def site_mistakes_csv(request: HttpRequest) -> HttpResponse:
    """Export the site's mistake table as CSV."""
    return _csv(selectors.site_mistake_table(), "mistakes.csv")


@staff_required
@require_GET
def site_mistakes_json(request: HttpRequest) -> JsonResponse:
    """Export the site's mistake table as JSON."""
    return _json(
        selectors.site_mistake_table(),
        "site",
        selectors.site_recurrence(),
        recurrence_by_month=selectors.site_recurrence(by_month=True),
        reveals=selectors.site_reveals(),
        unexplained_values=selectors.site_unexplained_values(),
    )


@staff_required
@require_GET
def site_recurrence_csv(request: HttpRequest) -> HttpResponse:
    """Export the site's recurrence after feedback as CSV."""
    rows = selectors.site_recurrence() + selectors.site_recurrence(by_month=True)
    return _recurrence_csv(rows, "recurrence.csv")


@staff_required
@require_GET
def kind_author(request: HttpRequest, kind: str) -> HttpResponse:
    """Show staff (authors) how one kind fares: per level, per explanation, per learner."""
    view = selectors.kind_view(kind=kind)
    parameters = [(table, pictures.parameter_picture(table)) for table in view.parameters]
    return render(
        request,
        "analytics/kind.html",
        {
            "title": _("How learners fare with %(kind)s") % {"kind": view.kind_label},
            "view": view,
            "levels_picture": _picture(pictures.levels_picture, view.levels),
            "parameters": [(table, mark_safe(svg)) for table, svg in parameters],  # noqa: S308
            "json_url": reverse("analytics:kind_json", args=[kind]),
            "csv_url": reverse("analytics:kind_csv", args=[kind]),
            "back_url": reverse("analytics:site"),
        },
    )


@staff_required
@require_GET
def kind_author_json(request: HttpRequest, kind: str) -> JsonResponse:
    """Export the author's view of one kind as JSON."""
    return JsonResponse(selectors.kind_view(kind=kind).flat())


@staff_required
@require_GET
def kind_author_csv(request: HttpRequest, kind: str) -> HttpResponse:
    """Export one kind's answers per variant parameter value as CSV: one row per parameter,
    value, level (``all`` first) and code (``any``: every graded answer of the value)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="kind-{kind}-parameters.csv"'
    writer = csv.writer(response)
    writer.writerow(selectors.PARAMETER_FIELDS)
    for row in selectors.parameter_counts(kind=kind):
        level = "all" if row["level"] == selectors.ALL_LEVELS else row["level"]
        writer.writerow(
            [
                kind,
                row["name"],
                row["bucket"],
                row["sort"],
                level,
                row["code"],
                row["learners"],
                row["attempts"],
            ]
        )
    return response
