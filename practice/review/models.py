"""Review items (one FSRS card per learner, problem kind and explained mistake), their logs,
the learner's review settings and the record of digest emails sent.

The card lives in plain columns so the due queue is one indexed query; ``scheduling`` turns the
columns into a py-fsrs card and back.
"""

import secrets
import zoneinfo

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MIN_DESIRED_RETENTION = 0.80
MAX_DESIRED_RETENTION = 0.97
DEFAULT_DAILY_LIMIT = 20
MAX_DAILY_LIMIT = 500


def site_desired_retention() -> float:
    """Return the desired retention a new learner starts with: the site's
    ``REVIEW_DESIRED_RETENTION`` (0.97 unless the operator sets it; the system check
    ``review.E001`` refuses one outside the range a learner may choose)."""
    return float(settings.REVIEW_DESIRED_RETENTION)


def new_unsubscribe_token() -> str:
    """Return a fresh unguessable token (256 random bits) for the no-sign-in unsubscribe link."""
    return secrets.token_urlsafe(32)


class CardState(models.IntegerChoices):
    # The values of fsrs.State, stored as they are.
    LEARNING = 1, _("learning")
    REVIEW = 2, _("review")
    RELEARNING = 3, _("relearning")


class ReviewItem(models.Model):
    """One explained mistake that keeps coming back until it is gone."""

    # No index of its own: the (copy, due) index and the unique (copy, kind, mistake) lead
    # with the copy.
    copy = models.ForeignKey(
        "courses.CourseCopy",
        on_delete=models.CASCADE,
        related_name="review_items",
        db_index=False,
    )
    # A registered grading kind and a code of its catalog; checked by the service that creates
    # the item (from a graded attempt), not by a constraint: kinds are added without migrations.
    kind = models.CharField(max_length=32)
    mistake = models.CharField(max_length=40)
    # The FSRS card, in UTC.
    state = models.PositiveSmallIntegerField(choices=CardState.choices)
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField()
    last_review = models.DateTimeField(null=True, blank=True)
    reps = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    # The recall: the practice problem and the attempt whose explanation the item is about
    # (the most recent relapse replaces them, so the recall shows the freshest explanation).
    source_problem = models.ForeignKey(
        "practice.ProblemInstance", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    source_attempt = models.ForeignKey(
        "practice.Attempt", on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The fresh variant waiting for this due date (prepared by the worker or on opening), and
    # the one served before it, so two reviews running never show the same numbers.
    problem = models.ForeignKey(
        "practice.ProblemInstance",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    previous_problem = models.ForeignKey(
        "practice.ProblemInstance",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The publish claim: set when a scan hands the item to a worker; a claim older than the
    # lease whose variant was never prepared is claimed again (a worker died mid-batch).
    published_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["copy", "kind", "mistake"], name="review_item_one_per_copy_kind_mistake"
            ),
            models.CheckConstraint(
                condition=Q(state__in=CardState.values), name="review_item_state_known"
            ),
        ]
        indexes = [
            # The learner's due queue and the dashboard count.
            models.Index(fields=["copy", "due"], name="review_item_copy_due_idx"),
            # The publish scan: due items with no variant prepared, oldest first.
            models.Index(
                fields=["due"],
                condition=Q(problem__isnull=True),
                name="review_item_publish_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.mistake} for copy {self.copy_id} due {self.due:%Y-%m-%d %H:%M}"


class ReviewLog(models.Model):
    """One review of an item: the attempt (or the reveal of a worked solution) that rated it,
    and the card it left."""

    class Rating(models.IntegerChoices):
        # The values of fsrs.Rating.
        AGAIN = 1, _("again")
        HARD = 2, _("hard")
        GOOD = 3, _("good")
        EASY = 4, _("easy")

    class Origin(models.TextChoices):
        PRACTICE = "practice", _("a mistake in practice")
        REVIEW = "review", _("a review")
        # Credit from a right first-try answer to another problem: of the item's own kind
        # (implicit) or of a kind the course's idea graph says exercises it (graph).
        IMPLICIT = "implicit", _("a right answer to the same kind")
        GRAPH = "graph", _("a right answer to a kind built on it")
        REVEAL = "reveal", _("a worked solution shown")

    # Indexed by the (item, -reviewed_at) index and the unique (item, attempt).
    item = models.ForeignKey(
        ReviewItem, on_delete=models.CASCADE, related_name="logs", db_index=False
    )
    attempt = models.ForeignKey(
        "practice.Attempt",
        on_delete=models.CASCADE,
        related_name="review_logs",
        null=True,
        blank=True,
    )
    # Set instead of the attempt when a worked solution was shown (no answer was given).
    reveal = models.ForeignKey(
        "practice.Reveal",
        on_delete=models.CASCADE,
        related_name="review_logs",
        null=True,
        blank=True,
    )
    rating = models.PositiveSmallIntegerField(choices=Rating.choices)
    origin = models.CharField(max_length=16, choices=Origin.choices)
    reviewed_at = models.DateTimeField()
    state = models.PositiveSmallIntegerField(choices=CardState.choices)
    stability = models.FloatField()
    difficulty = models.FloatField()
    due = models.DateTimeField()
    # The share of a full review this log stands for: 1 for every review, implicit credit and
    # a graph edge of fraction 1; the graph's fraction otherwise (the card's memory state is
    # then unchanged and only its due date moves; see docs/review.md).
    credit = models.FloatField(default=1.0)
    # The item's due date before this log (null on logs written before it was kept): a credit
    # that moved a due item past today "counted for" that review.
    previous_due = models.DateTimeField(null=True, blank=True)
    # The fitted FSRS parameters that scheduled this review; null: the library's defaults. A
    # learner's own sets go with their account, and so do the logs that name them.
    parameters = models.ForeignKey(
        "ParameterSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The recall the scheduler predicted for the item just before this log (null: a card never
    # reviewed, or a log written before it was kept): what calibration scores explicit outcomes
    # against (services/calibration.py).
    predicted_recall = models.FloatField(null=True, blank=True)
    # FSRS's own predicted recall before any calibration map (``recall_map``): what the weekly
    # map is fitted on. Equal to ``predicted_recall`` when no map was in use.
    fsrs_recall = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            # Recording the same attempt twice changes nothing.
            models.UniqueConstraint(fields=["item", "attempt"], name="review_log_one_per_attempt"),
            # Recording the same reveal twice changes nothing either.
            models.UniqueConstraint(fields=["item", "reveal"], name="review_log_one_per_reveal"),
            # A log is rated by exactly one thing: an attempt or a reveal.
            models.CheckConstraint(
                condition=Q(attempt__isnull=False, reveal__isnull=True)
                | Q(attempt__isnull=True, reveal__isnull=False),
                name="review_log_attempt_or_reveal",
            ),
            models.CheckConstraint(
                condition=Q(rating__in=[1, 2, 3, 4]), name="review_log_rating_known"
            ),
            models.CheckConstraint(
                condition=Q(origin__in=["practice", "review", "implicit", "graph", "reveal"]),
                name="review_log_origin_known",
            ),
            models.CheckConstraint(
                condition=Q(credit__gt=0, credit__lte=1), name="review_log_credit_fraction"
            ),
        ]
        indexes = [
            models.Index(fields=["item", "-reviewed_at"], name="review_log_item_idx"),
        ]

    def __str__(self) -> str:
        return f"item {self.item_id} rated {self.get_rating_display()} at {self.reviewed_at}"


class ReviewSettings(models.Model):
    """A learner's review preferences and the secret of their unsubscribe link."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_settings"
    )
    desired_retention = models.FloatField(
        default=site_desired_retention,
        help_text=_("The chance of remembering you aim for when a review comes back."),
    )
    time_zone = models.CharField(max_length=64, default="UTC")
    # False until the learner saves the settings form: the form then offers the browser's zone.
    time_zone_chosen = models.BooleanField(default=False)
    daily_limit = models.PositiveSmallIntegerField(default=DEFAULT_DAILY_LIMIT)
    reminders = models.BooleanField(default=True)
    unsubscribe_token = models.CharField(max_length=64, unique=True, default=new_unsubscribe_token)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "review settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    desired_retention__gte=MIN_DESIRED_RETENTION,
                    desired_retention__lte=MAX_DESIRED_RETENTION,
                ),
                name="review_settings_retention_range",
            ),
            models.CheckConstraint(
                condition=Q(daily_limit__gte=1, daily_limit__lte=MAX_DAILY_LIMIT),
                name="review_settings_daily_limit_range",
            ),
        ]

    def __str__(self) -> str:
        return f"review settings of {self.user}"

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """Return the learner's time zone (UTC when the stored name is not a zone)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


class ReviewDigest(models.Model):
    """The claim and record of one reminder email: at most one per learner and local day."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_digests"
    )
    day = models.DateField()
    due_count = models.PositiveIntegerField()
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="review_digest_one_per_day"),
        ]

    def __str__(self) -> str:
        return f"digest for {self.user} on {self.day}"


class ParameterSet(models.Model):
    """One set of FSRS parameters fitted to review logs (the site's, or one learner's), with
    the data it was fitted on and its held-out scores against the set in use at the time.

    Every fit is kept; only an adopted set schedules, the newest adopted one of the learner's
    own, else the site's, else py-fsrs's defaults.
    """

    class Scope(models.TextChoices):
        SITE = "site", _("every learner")
        LEARNER = "learner", _("one learner")

    scope = models.CharField(max_length=8, choices=Scope.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="review_parameter_sets",
    )
    parameters = models.JSONField()
    # FSRS on a clock this many times slower (1: FSRS itself; ``scheduling``'s docstring): a
    # set fitted as one number keeps the weights in use and carries its scale here.
    time_scale = models.FloatField(default=1.0)
    fitted_at = models.DateTimeField()
    # The review logs read, and the examples trained on and held out (by time).
    logs = models.PositiveIntegerField()
    train_reviews = models.PositiveIntegerField()
    test_reviews = models.PositiveIntegerField()
    log_loss = models.FloatField()
    rmse_bins = models.FloatField()
    # The same scores of the parameters in use when this set was fitted, on the same reviews.
    previous = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    previous_log_loss = models.FloatField()
    previous_rmse_bins = models.FloatField()
    adopted = models.BooleanField()
    # Set when the weekly calibration found the predictions worse than a constant guess while
    # this set was in use: a withdrawn set schedules nothing (the last one not withdrawn does).
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # A learner's set names its learner; the site's names nobody.
            models.CheckConstraint(
                condition=Q(scope="site", user__isnull=True)
                | Q(scope="learner", user__isnull=False),
                name="review_parameters_scope_user",
            ),
            # scheduling.MIN_TIME_SCALE to MAX_TIME_SCALE.
            models.CheckConstraint(
                condition=Q(time_scale__gte=0.5, time_scale__lte=8.0),
                name="review_parameters_time_scale_range",
            ),
        ]
        indexes = [
            # The set in use: the newest adopted one of a learner, or of the site.
            models.Index(
                fields=["user", "-fitted_at"],
                condition=Q(adopted=True),
                name="review_parameters_adopted_idx",
            ),
        ]

    def __str__(self) -> str:
        whose = f"learner {self.user_id}" if self.user_id else "the site"
        return f"FSRS parameters of {whose} fitted {self.fitted_at:%Y-%m-%d}"


class CalibrationReport(models.Model):
    """How well the scheduler's predicted recall matched explicit review outcomes over one
    window, site-wide (``kind`` empty) or for one problem kind; written weekly."""

    computed_at = models.DateTimeField()
    window_start = models.DateTimeField()
    kind = models.CharField(max_length=32, blank=True)
    reviews = models.PositiveIntegerField()
    recalled = models.PositiveIntegerField()
    log_loss = models.FloatField()
    # The log loss of the best constant guess (the outcomes' own mean): the bar to beat.
    constant_log_loss = models.FloatField()
    rmse_bins = models.FloatField()
    # Null when every outcome is the same (no pair to rank).
    auc = models.FloatField(null=True, blank=True)
    # The parameter set in use (null: py-fsrs's defaults), and whether this report withdrew it.
    parameters = models.ForeignKey(
        ParameterSet, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    withdrew = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["-computed_at", "kind"], name="review_calibration_idx")]

    def __str__(self) -> str:
        return f"calibration of {self.kind or 'the site'} at {self.computed_at:%Y-%m-%d}"

    @property
    def worse_than_constant(self) -> bool:
        """Return whether a constant guess would have predicted the outcomes better."""
        return self.log_loss >= self.constant_log_loss


class CalibrationMap(models.Model):
    """One calibration map of FSRS's predicted recall (``recall_map``: ``logit(p_cal) = a *
    logit(p) + b``), fitted weekly on explicit review outcomes, with its held-out scores against
    the map in use. Every fit is kept; the newest adopted one calibrates when
    ``REVIEW_CALIBRATED_RECALL`` is on."""

    fitted_at = models.DateTimeField()
    a = models.FloatField()
    b = models.FloatField()
    # The lowest FSRS recall (5th percentile of the training predictions) the map is trusted at.
    lowest = models.FloatField()
    # The reviews read (what makes a second run of the same week a no-op), and their split.
    reviews = models.PositiveIntegerField()
    items = models.PositiveIntegerField()
    train_reviews = models.PositiveIntegerField()
    test_reviews = models.PositiveIntegerField()
    log_loss = models.FloatField()
    previous = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    previous_log_loss = models.FloatField()
    constant_log_loss = models.FloatField()
    adopted = models.BooleanField()

    class Meta:
        constraints = [
            # recall_map.A_RANGE and B_RANGE.
            models.CheckConstraint(
                condition=Q(a__gte=0.25, a__lte=4.0, b__gte=-4.0, b__lte=4.0),
                name="review_calibration_map_range",
            ),
        ]
        indexes = [
            models.Index(
                fields=["-fitted_at"], condition=Q(adopted=True), name="review_map_adopted_idx"
            ),
        ]

    def __str__(self) -> str:
        return f"calibration map a={self.a:.3f} b={self.b:.3f} fitted {self.fitted_at:%Y-%m-%d}"
