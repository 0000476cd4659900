"""Mistake counts kept on write: one row per learner and key, and one per key.

A key is (course, page, idea, kind, level, code, try class); the code is a catalogued mistake,
``unexplained`` or ``correct``. Each attempt is counted under two keys: its own level and try
class, and the ``ALL_LEVELS``/``all`` key of the same mistake, so the number of distinct
learners is exact for both (distinct counts do not add up across keys). ``AttemptCounted``
marks an attempt counted, so counting it again changes nothing.

The parameter counts (``LearnerParameterCount``, ``ParameterCount``) are kept the same way, in
the same statement, per variant parameter of the attempt's problem (``parameters.py``).
"""

from django.db import models
from django.db.models import Q

from .codes import TryClass
from .parameters import BUCKET_MAX_LENGTH, NAME_MAX_LENGTH


class AttemptCounted(models.Model):
    """An attempt whose counts are in the tables (its primary key is the attempt's)."""

    attempt = models.OneToOneField(
        "practice.Attempt", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"attempt #{self.attempt_id} counted"


class LearnerMistakeCount(models.Model):
    """How many attempts of one learner (their copy) fall under one key."""

    # No index of its own: the unique key leads with the copy (a class's rows by learner); on
    # PostgreSQL it also carries the attempts (migration 0005), so a class's table is read from
    # the index alone.
    copy = models.ForeignKey(
        "courses.CourseCopy", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    page_slug = models.SlugField(max_length=100)
    idea_slug = models.SlugField(max_length=100)
    kind = models.CharField(max_length=32)
    level = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=40)
    try_class = models.CharField(max_length=8, choices=TryClass.choices)
    attempts = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "copy",
                    "course",
                    "page_slug",
                    "idea_slug",
                    "kind",
                    "level",
                    "code",
                    "try_class",
                ],
                name="analytics_learner_count_key",
            ),
            models.CheckConstraint(
                condition=Q(try_class__in=TryClass.values), name="analytics_learner_try_known"
            ),
        ]
        indexes = [
            # The author's view of a kind: its learners' first tries, read from the index alone.
            models.Index(
                fields=["course", "kind", "try_class"],
                include=["copy", "code", "attempts"],
                name="analytics_learner_kind_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"copy {self.copy_id}: {self.kind}/{self.code} x{self.attempts}"


class MistakeCount(models.Model):
    """How many attempts fall under one key, and of how many distinct learners."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    page_slug = models.SlugField(max_length=100)
    idea_slug = models.SlugField(max_length=100)
    kind = models.CharField(max_length=32)
    level = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=40)
    try_class = models.CharField(max_length=8, choices=TryClass.choices)
    attempts = models.PositiveIntegerField()
    learners = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["course", "page_slug", "idea_slug", "kind", "level", "code", "try_class"],
                name="analytics_count_key",
            ),
            models.CheckConstraint(
                condition=Q(try_class__in=TryClass.values), name="analytics_count_try_known"
            ),
            # Every learner counted made at least one attempt.
            models.CheckConstraint(
                condition=Q(learners__lte=models.F("attempts")),
                name="analytics_count_learners_le_attempts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.code} L{self.level} {self.try_class}: {self.attempts}"


class MistakeRecurrence(models.Model):
    """The first time a learner made a catalogued mistake of a kind (and so was shown its
    explanation), and whether they made it again at their next problem of the kind and at the
    mistake's next review: None until there is one."""

    # No index of its own: the unique (copy, kind, mistake) leads with the copy.
    copy = models.ForeignKey(
        "courses.CourseCopy", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    page_slug = models.SlugField(max_length=100)
    idea_slug = models.SlugField(max_length=100)
    kind = models.CharField(max_length=32)
    mistake = models.CharField(max_length=40)
    attempt = models.ForeignKey("practice.Attempt", on_delete=models.CASCADE, related_name="+")
    made_at = models.DateTimeField()
    month = models.DateField()  # the first day of made_at's month, in UTC
    next_problem = models.BooleanField(null=True)
    next_review = models.BooleanField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["copy", "kind", "mistake"], name="analytics_recurrence_one_per_mistake"
            ),
        ]
        indexes = [models.Index(fields=["course", "kind"], name="analytics_recurrence_kind_idx")]

    def __str__(self) -> str:
        return f"copy {self.copy_id}: {self.kind}/{self.mistake}"


class RecurrenceCount(models.Model):
    """The recurrence rows summed per course, kind, mistake and month of the first time: what
    the staff view reads (a class sums its learners' rows).

    Each share's numbers are at most ``made`` (``again <= of <= made``), but no constraint says
    so: the write path adds to a row by an upsert whose proposed row carries only the increment
    (``made`` 0), and PostgreSQL checks that row before it resolves the conflict. The tests
    compare the rows with the recurrence rows they sum."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    mistake = models.CharField(max_length=40)
    month = models.DateField()
    made = models.PositiveIntegerField()
    problem_of = models.PositiveIntegerField()
    problem_again = models.PositiveIntegerField()
    review_of = models.PositiveIntegerField()
    review_again = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["course", "kind", "mistake", "month"], name="analytics_recurrence_count_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.mistake} {self.month:%Y-%m}: {self.made}"


class ExplainedProblem(models.Model):
    """A problem at which a catalogued mistake was explained; whether it was answered right
    afterwards is the problem's state (kept on write by the attempt's service)."""

    problem = models.ForeignKey(
        "practice.ProblemInstance", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    copy = models.ForeignKey("courses.CourseCopy", on_delete=models.CASCADE, related_name="+")
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    level = models.PositiveSmallIntegerField()
    mistake = models.CharField(max_length=40)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["problem", "mistake"], name="analytics_explained_once_per_problem"
            ),
        ]
        # Carries the mistake and the problem (PostgreSQL's INCLUDE): the author's page joins
        # these to the problems' states from the two indexes alone, never reading the tables.
        indexes = [
            models.Index(
                fields=["course", "kind"],
                include=["mistake", "problem"],
                name="analytics_explained_kind_idx",
            )
        ]

    def __str__(self) -> str:
        return f"problem {self.problem_id}: {self.mistake}"


# The longest value an unexplained answer is clustered by (longer ones are cut there).
VALUE_MAX_LENGTH = 200


class UnexplainedValue(models.Model):
    """How many wrong answers of a kind that no catalogued mistake explains were read as one
    value (the Verdict's ``interpreted``)."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    value = models.CharField(max_length=VALUE_MAX_LENGTH)
    attempts = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["course", "kind", "value"], name="analytics_unexplained_value_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.value} x{self.attempts}"


class LearnerParameterCount(models.Model):
    """How many attempts of one learner (their copy) fall under one parameter key: a kind, a
    level (or ``ALL_LEVELS``), a variant parameter's name and bucket (``parameters.py``), and a
    code (a mistake, ``unexplained``, ``correct``, or ``ANY_CODE`` for every graded answer)."""

    # No index of its own: the unique key leads with the copy.
    copy = models.ForeignKey(
        "courses.CourseCopy", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    level = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    bucket = models.CharField(max_length=BUCKET_MAX_LENGTH)
    sort = models.FloatField()  # the bucket's lower end: the order its rows are shown in
    code = models.CharField(max_length=40)
    attempts = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["copy", "course", "kind", "level", "name", "bucket", "code"],
                name="analytics_learner_parameter_key",
            ),
        ]

    def __str__(self) -> str:
        return f"copy {self.copy_id}: {self.kind} {self.name}={self.bucket}/{self.code}"


class ParameterCount(models.Model):
    """How many attempts fall under one parameter key, and of how many distinct learners."""

    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    level = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    bucket = models.CharField(max_length=BUCKET_MAX_LENGTH)
    sort = models.FloatField()
    code = models.CharField(max_length=40)
    attempts = models.PositiveIntegerField()
    learners = models.PositiveIntegerField()

    class Meta:
        constraints = [
            # Leads with (course, kind, level): the author's view reads one kind's rows.
            models.UniqueConstraint(
                fields=["course", "kind", "level", "name", "bucket", "code"],
                name="analytics_parameter_count_key",
            ),
            models.CheckConstraint(
                condition=Q(learners__lte=models.F("attempts")),
                name="analytics_parameter_learners_le_attempts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.name}={self.bucket}/{self.code} L{self.level}: {self.attempts}"
