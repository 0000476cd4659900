"""The course as versioned rows, and each learner's copy of one version with its history.

Authored content (``Course``, ``CourseVersion``, ``Page``, ``Idea``) is written only by the loader.
A learner's history (``IdeaProgress``, ``Note``) is keyed by page and idea *slugs*, not by rows of
one version, so a copy can move to a newer version without losing anything.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

# A learner has mastered an idea after this many correct answers (the progress bar is full).
MASTERY_CORRECT = 5
# Consecutive correct answers that raise the idea's problem level by one.
LEVEL_UP_STREAK = 3
FIRST_LEVEL = 1


class Course(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.title

    def latest_version(self) -> "CourseVersion | None":
        """Return the newest loaded version, or None before the first load."""
        return self.versions.order_by("-number").first()


class CourseVersion(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    content_hash = models.CharField(max_length=64)
    title = models.CharField(max_length=200)
    summary = models.TextField(blank=True)
    # The idea graph for review credit (``courses.graph``), as validated from graph.yaml:
    # [{"from", "to", "fraction", "why"}, ...]; empty when the course declares none.
    credit_graph = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["course", "number"]
        constraints = [
            models.UniqueConstraint(fields=["course", "number"], name="course_version_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="course_version_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.course.slug} v{self.number}"


class Page(models.Model):
    version = models.ForeignKey(CourseVersion, on_delete=models.CASCADE, related_name="pages")
    slug = models.SlugField(max_length=100)
    title = models.CharField(max_length=200)
    order = models.PositiveIntegerField()
    question = models.TextField()
    summary = models.TextField()
    body = models.TextField(help_text=_("Markdown with $TeX$ and '::: idea <slug>' markers."))

    class Meta:
        ordering = ["version", "order"]
        constraints = [
            models.UniqueConstraint(fields=["version", "slug"], name="page_slug_in_version"),
            models.UniqueConstraint(fields=["version", "order"], name="page_order_in_version"),
        ]

    def __str__(self) -> str:
        return self.title


class Idea(models.Model):
    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="ideas")
    slug = models.SlugField(max_length=100)
    title = models.CharField(max_length=200)
    order = models.PositiveIntegerField()
    summary = models.TextField()
    # Names of registered grading kinds (grading.KINDS); empty while no generator stands under
    # the idea.
    problem_kinds = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["page", "order"]
        constraints = [
            models.UniqueConstraint(fields=["page", "slug"], name="idea_slug_in_page"),
        ]

    def __str__(self) -> str:
        return self.title


class Answer(models.Model):
    """A public answer to one question, authored beside the course and versioned with it."""

    version = models.ForeignKey(CourseVersion, on_delete=models.CASCADE, related_name="answers")
    # The course page that teaches the answer, in the same version.
    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="answers")
    slug = models.SlugField(max_length=100)
    order = models.PositiveIntegerField()
    question = models.TextField()
    summary = models.TextField(help_text=_("The one-line answer."))
    body = models.TextField(help_text=_("Markdown with $TeX$."))
    worth_keeping = models.JSONField(default=list)
    # Slugs of other answers in the same version, in the author's order.
    related = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["version", "order"]
        constraints = [
            models.UniqueConstraint(fields=["version", "slug"], name="answer_slug_in_version"),
            models.UniqueConstraint(fields=["version", "order"], name="answer_order_in_version"),
        ]

    def __str__(self) -> str:
        return self.question


class CourseCopy(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="course_copies"
    )
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="copies")
    version = models.ForeignKey(CourseVersion, on_delete=models.PROTECT, related_name="copies")
    created_at = models.DateTimeField(auto_now_add=True)
    upgraded_at = models.DateTimeField(null=True, blank=True)
    # True once the owner came through an LTI resource link (set by ``lti``, never reset): only
    # then can an attempt owe a platform a score, so the attempt hook reads nothing otherwise.
    lti_linked = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name_plural = "course copies"
        constraints = [
            models.UniqueConstraint(fields=["owner", "course"], name="one_copy_per_owner_course"),
        ]

    def __str__(self) -> str:
        return f"{self.owner} · {self.version}"


class IdeaProgress(models.Model):
    copy = models.ForeignKey(CourseCopy, on_delete=models.CASCADE, related_name="progress")
    page_slug = models.SlugField(max_length=100)
    idea_slug = models.SlugField(max_length=100)
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    # Consecutive correct answers since the last wrong one or the last level change.
    streak = models.PositiveIntegerField(default=0)
    level = models.PositiveSmallIntegerField(default=FIRST_LEVEL)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "idea progress"
        constraints = [
            models.UniqueConstraint(
                fields=["copy", "page_slug", "idea_slug"], name="one_progress_per_idea"
            ),
            models.CheckConstraint(
                condition=Q(correct__lte=F("attempts")), name="progress_correct_le_attempts"
            ),
            models.CheckConstraint(condition=Q(level__gte=FIRST_LEVEL), name="progress_level_min"),
        ]

    def __str__(self) -> str:
        return f"{self.page_slug}/{self.idea_slug}: {self.correct}/{self.attempts}"

    @property
    def fraction(self) -> float:
        """Return how full the idea's progress bar is, from 0 to 1."""
        return min(self.correct, MASTERY_CORRECT) / MASTERY_CORRECT


class Note(models.Model):
    copy = models.ForeignKey(CourseCopy, on_delete=models.CASCADE, related_name="notes")
    page_slug = models.SlugField(max_length=100)
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["copy", "page_slug"], name="one_note_per_page"),
        ]

    def __str__(self) -> str:
        return f"{self.copy} · {self.page_slug}"
