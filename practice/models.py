"""Problem instances in a learner's course copy and the attempts made at them.

A problem instance stores everything needed to reproduce it forever: the generator's name,
version, seed and level, and the spec it produced. An attempt stores the learner's text and the
Verdict it received, so history never depends on today's grader.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from grading.verdict import Status


class ProblemInstance(models.Model):
    """One generated problem under one idea of a learner's course copy."""

    class Purpose(models.TextChoices):
        PRACTICE = "practice", _("practice")
        REVIEW = "review", _("review")

    class State(models.TextChoices):
        OPEN = "open", _("open")
        SOLVED = "solved", _("solved")
        REPLACED = "replaced", _("replaced by a new variant")
        REVEALED = "revealed", _("closed: worked solution shown")

    copy = models.ForeignKey(
        "courses.CourseCopy", on_delete=models.CASCADE, related_name="problems"
    )
    page_slug = models.SlugField(max_length=100)
    idea_slug = models.SlugField(max_length=100)
    # A registered grading kind (grading.KINDS). Checked by the services when a problem is
    # made, not by a constraint: the registry grows by adding a module, without a migration.
    kind = models.CharField(max_length=32)
    generator_name = models.CharField(max_length=100)
    generator_version = models.CharField(max_length=32)
    seed = models.PositiveBigIntegerField()
    level = models.PositiveSmallIntegerField(default=1)
    spec = models.JSONField()
    purpose = models.CharField(max_length=16, choices=Purpose.choices, default=Purpose.PRACTICE)
    state = models.CharField(max_length=16, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # At most one open practice problem per idea and kind: opening is idempotent and a
            # race between two opens ends in one row.
            models.UniqueConstraint(
                fields=["copy", "page_slug", "idea_slug", "kind"],
                condition=Q(state="open", purpose="practice"),
                name="practice_one_open_problem_per_idea_kind",
            ),
            models.CheckConstraint(
                condition=Q(purpose__in=["practice", "review"]),
                name="practice_problem_purpose_known",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["open", "solved", "replaced", "revealed"]),
                name="practice_problem_state_known",
            ),
        ]
        indexes = [
            models.Index(
                fields=["copy", "page_slug", "idea_slug", "kind", "-created_at"],
                name="practice_problem_idea_idx",
            ),
            # Carries the id and the state (PostgreSQL's INCLUDE): the author's page counts a
            # kind's explained problems by state from the index alone.
            models.Index(
                fields=["kind"], include=["id", "state"], name="practice_problem_kind_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.page_slug}/{self.idea_slug})"


class Attempt(models.Model):
    """One submitted answer to a problem instance and the Verdict it received."""

    problem = models.ForeignKey(ProblemInstance, on_delete=models.CASCADE, related_name="attempts")
    copy = models.ForeignKey(
        "courses.CourseCopy", on_delete=models.CASCADE, related_name="attempts"
    )
    text = models.TextField()
    status = models.CharField(max_length=16, choices=[(s.value, s.value) for s in Status])
    score = models.FloatField(default=0.0)
    verdict = models.JSONField()
    # NULL, not "", when no catalogued mistake explains the answer: the contract says nullable,
    # and the author stats group by it.
    # A code of the problem kind's catalog (the Verdict's diagnosis), unique within the kind.
    mistake = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    form_token = models.UUIDField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # A double click or a retry after a timeout carries the same token: one attempt.
            models.UniqueConstraint(
                fields=["copy", "form_token"], name="practice_attempt_one_per_form_token"
            ),
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in Status]),
                name="practice_attempt_status_known",
            ),
            models.CheckConstraint(
                condition=Q(score__gte=0.0, score__lte=1.0),
                name="practice_attempt_score_between_0_and_1",
            ),
            # Only an incorrect answer can be explained by a catalogued mistake.
            models.CheckConstraint(
                condition=Q(mistake__isnull=True) | Q(status="incorrect"),
                name="practice_attempt_mistake_only_when_incorrect",
            ),
        ]
        indexes = [
            models.Index(fields=["copy", "-created_at"], name="practice_attempt_history_idx"),
            models.Index(fields=["problem", "-created_at"], name="practice_attempt_problem_idx"),
            models.Index(fields=["mistake"], name="practice_attempt_mistake_idx"),
        ]

    def __str__(self) -> str:
        return f"attempt #{self.pk} on problem #{self.problem_id}: {self.status}"


# Bounds of a learner's daily goal, per unit (checked by the form and by the constraint).
GOAL_MAX_PROBLEMS = 100
GOAL_MAX_MINUTES = 240


class DailyGoal(models.Model):
    """How much a learner means to practise each day: a number of answers or of minutes."""

    class Unit(models.TextChoices):
        PROBLEMS = "problems", _("problems")
        MINUTES = "minutes", _("minutes")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_goal"
    )
    unit = models.CharField(max_length=16, choices=Unit.choices, default=Unit.PROBLEMS)
    amount = models.PositiveSmallIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # A goal of nothing, or of more than a day's practice, is a typo, not a goal.
            models.CheckConstraint(
                condition=(
                    Q(unit="problems", amount__gte=1, amount__lte=GOAL_MAX_PROBLEMS)
                    | Q(unit="minutes", amount__gte=1, amount__lte=GOAL_MAX_MINUTES)
                ),
                name="practice_daily_goal_amount_in_bounds",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.amount} {self.unit} a day"


# The most a goal may be, per unit: what the form and the service check before the constraint.
GOAL_BOUNDS = {DailyGoal.Unit.PROBLEMS: GOAL_MAX_PROBLEMS, DailyGoal.Unit.MINUTES: GOAL_MAX_MINUTES}


class Reveal(models.Model):
    """The learner asked for an open problem's worked solution: the problem closed as revealed,
    without credit toward the idea's level, and review brings the kind back."""

    # One reveal per problem: revealing twice records nothing the second time.
    problem = models.OneToOneField(ProblemInstance, on_delete=models.CASCADE, related_name="reveal")
    copy = models.ForeignKey("courses.CourseCopy", on_delete=models.CASCADE, related_name="reveals")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["copy", "-created_at"], name="practice_reveal_copy_idx")]

    def __str__(self) -> str:
        return f"reveal of problem #{self.problem_id}"
