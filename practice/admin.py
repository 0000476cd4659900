"""Admin for practice: problems and attempts are history, so they are read, not edited."""

from django.contrib import admin
from django.http import HttpRequest

from .models import Attempt, ProblemInstance
from .review.models import CalibrationReport


class AttemptInline(admin.TabularInline):
    model = Attempt
    fields = ("created_at", "status", "mistake", "text")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(ProblemInstance)
class ProblemInstanceAdmin(admin.ModelAdmin):
    list_display = ("id", "copy", "page_slug", "idea_slug", "kind", "level", "state", "created_at")
    list_filter = ("kind", "state", "purpose", "level")
    search_fields = ("copy__owner__username", "page_slug", "idea_slug")
    readonly_fields = (
        "copy",
        "page_slug",
        "idea_slug",
        "kind",
        "generator_name",
        "generator_version",
        "seed",
        "level",
        "spec",
        "purpose",
        "state",
        "created_at",
    )
    list_select_related = ("copy", "copy__owner", "copy__version", "copy__version__course")
    inlines = [AttemptInline]


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("id", "copy", "problem", "status", "mistake", "created_at")
    list_filter = ("status", "mistake", "problem__kind")
    search_fields = ("copy__owner__username", "text")
    readonly_fields = (
        "problem",
        "copy",
        "text",
        "status",
        "score",
        "verdict",
        "mistake",
        "form_token",
        "created_at",
    )
    list_select_related = ("problem", "copy", "copy__owner", "copy__version__course")


@admin.register(CalibrationReport)
class CalibrationReportAdmin(admin.ModelAdmin):
    """The weekly calibration of predicted recall, site-wide (no kind) and per kind."""

    list_display = (
        "computed_at",
        "kind",
        "reviews",
        "log_loss",
        "constant_log_loss",
        "rmse_bins",
        "auc",
        "withdrew",
    )
    list_filter = ("kind", "withdrew")
    ordering = ("-computed_at", "kind")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
