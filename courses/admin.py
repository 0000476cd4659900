"""The Django admin for authors: courses, their versions and pages, and learners' copies.

Content is authored as files and loaded with ``manage.py load_course``; loaded versions are
shown read-only here so a history learners' copies point at is never edited in place.
"""

from django.contrib import admin

from .models import Answer, Course, CourseCopy, CourseVersion, Idea, IdeaProgress, Note, Page


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class VersionInline(ReadOnlyInline):
    model = CourseVersion
    fields = ("number", "title", "content_hash", "created_at")
    readonly_fields = fields


class PageInline(ReadOnlyInline):
    model = Page
    fields = ("order", "slug", "title")
    readonly_fields = fields


class AnswerInline(ReadOnlyInline):
    model = Answer
    fk_name = "version"
    fields = ("order", "slug", "question", "page")
    readonly_fields = fields


class IdeaInline(ReadOnlyInline):
    model = Idea
    fields = ("order", "slug", "title", "problem_kinds")
    readonly_fields = fields


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("slug", "title")
    search_fields = ("slug", "title")
    inlines = [VersionInline]


@admin.register(CourseVersion)
class CourseVersionAdmin(admin.ModelAdmin):
    list_display = ("course", "number", "title", "created_at")
    list_filter = ("course",)
    readonly_fields = ("course", "number", "content_hash", "title", "summary", "created_at")
    inlines = [PageInline, AnswerInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Page)
class PageAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "version", "order")
    list_filter = ("version__course", "version")
    search_fields = ("slug", "title")
    readonly_fields = ("version", "slug", "title", "order", "question", "summary", "body")
    inlines = [IdeaInline]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(CourseCopy)
class CourseCopyAdmin(admin.ModelAdmin):
    list_display = ("owner", "course", "version", "created_at", "upgraded_at")
    list_filter = ("course",)
    search_fields = ("owner__username", "owner__email")
    raw_id_fields = ("owner",)
    list_select_related = ("owner", "course", "version")


@admin.register(IdeaProgress)
class IdeaProgressAdmin(admin.ModelAdmin):
    list_display = ("copy", "page_slug", "idea_slug", "attempts", "correct", "level", "updated_at")
    search_fields = ("copy__owner__username", "page_slug", "idea_slug")
    raw_id_fields = ("copy",)


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ("copy", "page_slug", "updated_at")
    search_fields = ("copy__owner__username", "page_slug")
    raw_id_fields = ("copy",)
