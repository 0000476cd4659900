"""Admin for practice: problems and attempts are history, so they are read, not edited."""

from django.contrib import admin

from .models import Attempt, ProblemInstance


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
