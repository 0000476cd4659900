from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Context, Deployment, LtiUser, Platform, ResourceLink, Score, ToolKey
from .services import scores
from .tasks import send_score


class DeploymentInline(admin.TabularInline):
    model = Deployment
    extra = 1


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ["name", "issuer", "client_id", "active"]
    search_fields = ["name", "issuer", "client_id"]
    inlines = [DeploymentInline]
    # A platform's URLs are HTTPS; an address typed without a scheme is read as one.
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(ToolKey)
class ToolKeyAdmin(admin.ModelAdmin):
    list_display = ["kid", "active", "created_at"]
    fields = ["kid", "active", "public_jwk", "created_at"]
    readonly_fields = ["kid", "public_jwk", "created_at"]

    def has_add_permission(self, request: object) -> bool:
        # Keys are made by `manage.py lti_rotate_key`; the private half is never shown.
        return False


@admin.register(LtiUser)
class LtiUserAdmin(admin.ModelAdmin):
    list_display = ["name", "sub", "platform", "user"]
    search_fields = ["name", "sub"]
    raw_id_fields = ["user"]


@admin.register(Context)
class ContextAdmin(admin.ModelAdmin):
    list_display = ["title", "context_id", "platform", "deployment"]


@admin.register(ResourceLink)
class ResourceLinkAdmin(admin.ModelAdmin):
    list_display = [
        "title",
        "target",
        "page_slug",
        "idea_slug",
        "context",
        "lineitem_url",
        "score_maximum",
    ]


@admin.register(Score)
class ScoreAdmin(admin.ModelAdmin):
    list_display = [
        "attempt",
        "link_learner",
        "score_given",
        "score_maximum",
        "status",
        "tries",
        "timestamp",
        "next_try_at",
        "last_error",
    ]
    list_filter = ["status"]
    list_select_related = ["link_learner__lti_user", "link_learner__link", "attempt"]
    raw_id_fields = ["link_learner", "attempt"]
    actions = ["resend"]

    @admin.action(description=_("Send the selected failed scores again"))
    def resend(self, request: HttpRequest, queryset: QuerySet[Score]) -> None:
        ids = scores.scores_resend(
            score_ids=queryset.values_list("pk", flat=True), enqueue=send_score.delay_on_commit
        )
        skipped = queryset.count() - len(ids)
        self.message_user(
            request,
            ngettext(
                "%(count)d score queued to be sent again.",
                "%(count)d scores queued to be sent again.",
                len(ids),
            )
            % {"count": len(ids)},
            messages.SUCCESS if ids else messages.WARNING,
        )
        if skipped:
            self.message_user(
                request,
                ngettext(
                    "%(count)d score left as it is: only a failed score is sent again.",
                    "%(count)d scores left as they are: only a failed score is sent again.",
                    skipped,
                )
                % {"count": skipped},
                messages.INFO,
            )
