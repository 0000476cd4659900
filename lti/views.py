"""The tool's endpoints: OIDC login, launch, JWKS, the deep-linking choice, the setup of a
plain link, the class view.

Login and launch are posted by the platform's page, cross-site, so they are exempt from CSRF:
``state`` (bound to this browser by a cookie) and the single-use ``nonce`` protect them. Every
form the tool itself shows keeps Django's CSRF check.
"""

import csv
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from pylti1p3.exception import LtiException, OIDCException

from basislab.accounts.services import SIGN_IN_BACKEND
from basislab.limits import limit_reached, too_many
from courses.models import CourseCopy, Idea, Page

from . import selectors
from .claims import DEEP_LINKING_CLAIM, DEPLOYMENT_CLAIM, MessageType
from .forms import DeepLinkForm, LinkTargetForm, link_choice
from .framing import SESSION_KEY
from .keys import jwks as tool_jwks
from .launch import LaunchRefused, ToolLogin, launch_check
from .models import Platform, ResourceLink
from .services import launches
from .tasks import sync_roster

logger = logging.getLogger(__name__)
DEEP_LINK_SESSION_KEY = "lti_deep_link"


def _refused(request: HttpRequest, reason: str, status: int = 403) -> HttpResponse:
    logger.info("LTI launch refused: %s", reason)
    return render(request, "lti/refused.html", {"reason": reason}, status=status)


def _guard(request: HttpRequest) -> HttpResponse | None:
    """Refuse a request past the launch rate or size limit; None when it may go on."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > settings.LTI_MAX_LAUNCH_BYTES:
        return _refused(request, _("The launch is too large."), status=413)
    if len(request.META.get("QUERY_STRING", "")) > settings.LTI_MAX_LAUNCH_BYTES:
        return _refused(request, _("The launch is too large."), status=413)
    if limit_reached(request, group="lti-launch", key="ip", setting="LTI_LAUNCH_RATE"):
        return too_many(request, message=_("Too many launches from your address; wait a minute."))
    return None


def _launch_url(request: HttpRequest) -> str:
    return request.build_absolute_uri(reverse("lti:launch"))


@csrf_exempt
@require_http_methods(["GET", "POST"])
def oidc_login(request: HttpRequest) -> HttpResponse:
    """Start the OIDC third-party login: send the browser to the platform with state and nonce."""
    refused = _guard(request)
    if refused is not None:
        return refused
    try:
        return ToolLogin(request).redirect(_launch_url(request))
    except LaunchRefused as error:
        return _refused(request, str(error.reason))
    except (OIDCException, LtiException) as error:
        return _refused(
            request, _("This platform is not registered with the tool (%(why)s).") % {"why": error}
        )


@csrf_exempt
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    """Check the id token in full, sign the platform user in, and send them where they go."""
    refused = _guard(request)
    if refused is not None:
        return refused
    try:
        with transaction.atomic():
            checked = launch_check(request)
            claims = checked.claims()
            platform = launches.find_platform_of(checked.registration())
            accepted = launches.launch_accept(platform=platform, claims=claims)
            if accepted.message_type == MessageType.DEEP_LINKING and not accepted.instructor:
                # Raised inside the transaction: the refused launch stores nothing.
                raise LaunchRefused(_("only an instructor can place practice in a course"))
    except LaunchRefused as error:
        return _refused(request, _("The launch was refused: %(why)s.") % {"why": error.reason})
    except (launches.LaunchTargetError, LtiException) as error:
        return _refused(
            request, _("The launch names nothing this course has (%(what)s).") % {"what": error}
        )
    auth_login(request, accepted.user, backend=SIGN_IN_BACKEND)
    request.session[SESSION_KEY] = {
        "platform": accepted.platform.pk,
        "context": accepted.context.pk if accepted.context else None,
    }
    if accepted.context is not None and accepted.instructor and accepted.context.memberships_url:
        context_pk = accepted.context.pk
        transaction.on_commit(lambda: sync_roster.delay(context_pk))
    if accepted.message_type == MessageType.DEEP_LINKING:
        request.session[DEEP_LINK_SESSION_KEY] = {
            "platform": accepted.platform.pk,
            "deployment_id": claims.get(DEPLOYMENT_CLAIM),
            "settings": claims.get(DEEP_LINKING_CLAIM) or {},
        }
        return redirect("lti:deep_link")
    link = accepted.link
    if accepted.instructor and accepted.context is not None:
        if link is not None and not link.set_up:
            # A plain link no one has set up: its instructor chooses what it shows.
            return redirect("lti:link_setup", link_id=link.pk)
        return redirect("lti:class", context_id=accepted.context.pk)
    if link is None:
        return redirect("courses:dashboard")
    return redirect(_destination(request, link=link, copy=accepted.copy, scored=accepted.scored))


def _destination(
    request: HttpRequest, *, link: ResourceLink, copy: CourseCopy, scored: bool
) -> str:
    """Return where a learner's launch of the link goes: its idea's first problem, its page,
    the course; for a link not set up yet, the course's first page with a note saying so."""
    if link.target == ResourceLink.Target.COURSE:
        return reverse("courses:dashboard")
    if not link.set_up:
        note = _(
            "Your instructor has not chosen what this link shows yet, so here is the course's "
            "first page."
        )
        if scored:
            note += " " + _(
                "Practise as you like: once they have chosen, your progress on it is sent to "
                "your course's gradebook."
            )
        messages.info(request, note)
        first = Page.objects.filter(version_id=copy.version_id).order_by("order").first()
        if first is None:
            return reverse("courses:dashboard")
        return reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": first.slug})
    if link.idea_slug:
        idea = Idea.objects.filter(
            page__version_id=copy.version_id, page__slug=link.page_slug, slug=link.idea_slug
        ).first()
        if idea is not None and idea.problem_kinds:
            return reverse(
                "practice:problem_open",
                kwargs={
                    "copy_id": copy.pk,
                    "page_slug": link.page_slug,
                    "idea_slug": link.idea_slug,
                    "kind": idea.problem_kinds[0],
                },
            )
    return reverse("courses:page", kwargs={"copy_id": copy.pk, "page_slug": link.page_slug})


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    """Publish the tool's public keys (every active key, each named by its kid)."""
    response = JsonResponse(tool_jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def deep_link(request: HttpRequest) -> HttpResponse:
    """Let an instructor pick a page or an idea; answer the platform with a signed link."""
    pending = request.session.get(DEEP_LINK_SESSION_KEY)
    if not isinstance(pending, dict):
        raise Http404("No deep-linking request in this session")
    copy = selectors.learner_copy(user=request.user)
    if copy is None:
        raise Http404("No course copy")
    pages = list(
        Page.objects.filter(version_id=copy.version_id).prefetch_related("ideas").order_by("order")
    )
    # A post with no choice at all is still a post: refused with a message, not shown afresh.
    form = DeepLinkForm(request.POST if request.method == "POST" else None, pages=pages)
    if request.method == "POST" and form.is_valid():
        platform = Platform.objects.filter(pk=pending["platform"], active=True).first()
        if platform is None:
            raise Http404("The platform is no longer registered")
        page, idea = form.chosen()
        return_url, token = launches.deep_link_response(
            platform=platform,
            deployment_id=str(pending["deployment_id"]),
            settings_claim=pending["settings"],
            launch_url=_launch_url(request),
            page=page,
            idea=idea,
        )
        del request.session[DEEP_LINK_SESSION_KEY]
        response = render(
            request, "lti/deep_link_return.html", {"return_url": return_url, "token": token}
        )
        # The page's form posts to the platform: allow that one origin (read by django-csp).
        parts = urlsplit(return_url)
        response._csp_update = {"form-action": [f"{parts.scheme}://{parts.netloc}"]}
        return response
    return render(
        request,
        "lti/deep_link.html",
        {"form": form, "pages": pages},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def link_setup(request: HttpRequest, link_id: int) -> HttpResponse:
    """Let an instructor of the link's context choose what a plain link shows (the whole
    course, a page, an idea), for every launch of it after; or change it."""
    link = selectors.access_link(user=request.user, link_id=link_id)
    copy = selectors.learner_copy(user=request.user)
    if copy is None:
        raise Http404("No course copy")
    pages = list(
        Page.objects.filter(version_id=copy.version_id).prefetch_related("ideas").order_by("order")
    )
    current = link_choice(target=link.target, page_slug=link.page_slug, idea_slug=link.idea_slug)
    bound = request.method == "POST"
    form = LinkTargetForm(request.POST if bound else None, pages=pages, current=current)
    locked = link.target_from_launch
    if bound and locked:
        form.add_error(
            None,
            _(
                "This link was placed by deep linking: the platform names what it shows at "
                "every launch, so it is not changed here. Place a new link instead."
            ),
        )
    elif bound and form.is_valid():
        target, page, idea = form.chosen_target()
        launches.link_target_set(link=link, target=target, page=page, idea=idea)
        label = dict(form.fields["target"].choices)[form.cleaned_data["target"]]
        messages.success(
            request,
            _("The link “%(link)s” now shows %(what)s.")
            % {"link": link.title or link.resource_link_id, "what": label},
        )
        return redirect("lti:class", context_id=link.context_id)
    return render(
        request,
        "lti/link_setup.html",
        {
            "form": form,
            "link": link,
            "locked": locked,
            "current_label": dict(form.fields["target"].choices).get(current, ""),
        },
        status=400 if bound else 200,
    )


@login_required
@require_GET
def class_view(request: HttpRequest, context_id: int) -> HttpResponse:
    """Show an instructor their class: learners, progress per idea, frequent mistakes."""
    context = selectors.access_context(user=request.user, context_id=context_id)
    columns = selectors.class_columns(context=context)
    rows = selectors.class_rows(context=context, columns=columns)
    return render(
        request,
        "lti/class.html",
        {
            "context": context,
            "columns": columns,
            "rows": rows,
            "counts": selectors.class_counts(rows=rows),
            "mistakes": selectors.class_mistakes(context=context),
            "links": selectors.context_links(context=context),
        },
    )


@login_required
@require_GET
def class_csv(request: HttpRequest, context_id: int) -> HttpResponse:
    """Export the class's progress per idea as CSV (one row per learner)."""
    context = selectors.access_context(user=request.user, context_id=context_id)
    columns = selectors.class_columns(context=context)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="class-{context.pk}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["name", "user_id", "launched", "standing"]
        + [
            f"{column.page_slug}/{column.idea_slug} {part}"
            for column in columns
            for part in ("correct", "attempts", "percent")
        ]
    )
    for row in selectors.class_rows(context=context, columns=columns):
        writer.writerow(
            [_csv_safe(row.name), _csv_safe(row.sub), "yes" if row.launched else "no", row.standing]
            + [value for cell in row.cells for value in cell]
        )
    return response


def _csv_safe(text: str) -> str:
    """Return text a spreadsheet will not read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
