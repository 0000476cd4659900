from django.contrib import admin
from django.db import models

from .models import Context, Deployment, LtiUser, Platform, ResourceLink, Score, ToolKey


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
    list_display = ["title", "context_id", "platform"]


@admin.register(ResourceLink)
class ResourceLinkAdmin(admin.ModelAdmin):
    list_display = ["title", "page_slug", "idea_slug", "context"]


@admin.register(Score)
class ScoreAdmin(admin.ModelAdmin):
    list_display = ["attempt", "score_given", "score_maximum", "status", "tries", "timestamp"]
    list_filter = ["status"]
    raw_id_fields = ["link_learner", "attempt"]
