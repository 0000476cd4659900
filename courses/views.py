"""Views of the learner's course copy: dashboard, page, note, upgrade. A few lines each."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .forms import NoteForm
from .models import CourseCopy, Page
from .presenters import dashboard_pages, page_segments
from .selectors import (
    access_copy,
    access_copy_noted,
    copy_newer_version,
    copy_page,
    copy_pages,
    copy_progress,
)
from .services import copy_get_or_create, copy_upgrade, note_save


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Show the learner's copy of the course (created on the first visit)."""
    copy = copy_get_or_create(user=request.user, course_slug=settings.BASISLAB_COURSE_SLUG)
    return render(
        request,
        "courses/dashboard.html",
        {
            "copy": copy,
            "pages": dashboard_pages(copy=copy, progress=copy_progress(copy=copy)),
            "newer_version": copy_newer_version(copy=copy),
        },
    )


@login_required
def page(request: HttpRequest, copy_id: int, page_slug: str) -> HttpResponse:
    """Show one page of the learner's copy, with its idea boxes and the learner's note."""
    copy, note_text = access_copy_noted(user=request.user, copy_id=copy_id, page_slug=page_slug)
    course_page = copy_page(copy=copy, page_slug=page_slug)
    form = NoteForm(initial={"text": note_text})
    return _render_page(request, copy, course_page, form)


def _render_page(
    request: HttpRequest, copy: CourseCopy, course_page: Page, form: NoteForm
) -> HttpResponse:
    pages = copy_pages(copy=copy)
    index = next(i for i, p in enumerate(pages) if p.pk == course_page.pk)
    return render(
        request,
        "courses/page.html",
        {
            "copy": copy,
            "page": course_page,
            "segments": page_segments(
                copy=copy, page=course_page, progress=copy_progress(copy=copy)
            ),
            "note_form": form,
            "previous_page": pages[index - 1] if index > 0 else None,
            "next_page": pages[index + 1] if index + 1 < len(pages) else None,
        },
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


@login_required
@require_POST
def note(request: HttpRequest, copy_id: int, page_slug: str) -> HttpResponse:
    """Save the learner's note on a page."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    course_page = copy_page(copy=copy, page_slug=page_slug)
    form = NoteForm(request.POST)
    if not form.is_valid():
        return _render_page(request, copy, course_page, form)
    note_save(copy=copy, page_slug=course_page.slug, text=form.cleaned_data["text"])
    messages.success(request, _("Your note is saved."))
    return redirect("courses:page", copy_id=copy.pk, page_slug=course_page.slug)


@login_required
@require_POST
def upgrade(request: HttpRequest, copy_id: int) -> HttpResponse:
    """Move the learner's copy to the newest course version, keeping its history."""
    copy = copy_upgrade(copy=access_copy(user=request.user, copy_id=copy_id))
    messages.success(
        request,
        _(
            "Your copy now follows version %(number)s of the course; "
            "your progress and notes came with it."
        )
        % {"number": copy.version.number},
    )
    return redirect("courses:dashboard")
