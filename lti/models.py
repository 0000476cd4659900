"""LTI 1.3 rows: registered platforms, the tool's keys, launches' nonces, who came from where,
the links an instructor placed, and the scores owed to the platform's gradebook.

A platform's learners are local users (``LtiUser`` maps the platform's ``(iss, sub)`` to one);
nothing here is read by ``courses`` or ``practice``: the app hooks into an attempt by a signal.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Platform(models.Model):
    """A learning platform (Canvas, Moodle, ...) registered with the tool: one client id."""

    name = models.CharField(max_length=200)
    issuer = models.URLField(max_length=500)
    client_id = models.CharField(max_length=255)
    auth_login_url = models.URLField(
        max_length=500, help_text=_("The platform's OIDC authorization endpoint.")
    )
    auth_token_url = models.URLField(
        max_length=500, help_text=_("The platform's OAuth 2 token endpoint (for AGS and NRPS).")
    )
    key_set_url = models.URLField(max_length=500, help_text=_("The platform's JWKS URL."))
    # Origins allowed to frame the tool for this platform's learners (CSP frame-ancestors);
    # empty means the origin of the issuer and of the login URL.
    frame_origins = models.TextField(
        blank=True,
        help_text=_(
            "Space-separated origins that show the tool in an iframe, if not the issuer's."
        ),
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "client_id"], name="lti_platform_client"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.issuer}, {self.client_id})"

    def origins(self) -> list[str]:
        """Return the web origins allowed to frame the tool for this platform."""
        if self.frame_origins.strip():
            return self.frame_origins.split()
        found = []
        for url in (self.issuer, self.auth_login_url):
            parts = urlsplit(url)
            origin = f"{parts.scheme}://{parts.netloc}"
            if parts.scheme in ("http", "https") and origin not in found:
                found.append(origin)
        return found


class Deployment(models.Model):
    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="deployments")
    deployment_id = models.CharField(max_length=255)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "deployment_id"], name="lti_deployment_per_platform"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.platform.name}: {self.deployment_id}"


class ToolKey(models.Model):
    """One RSA key pair of the tool. The newest active key signs; every active key is in the
    JWKS, so a platform that cached the previous key keeps verifying until it is retired."""

    kid = models.CharField(max_length=64, unique=True)
    private_pem = models.TextField()
    public_jwk = models.JSONField()
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.kid


class LaunchNonce(models.Model):
    """A nonce handed to the platform at login, bound to that login's state; used once."""

    value = models.CharField(max_length=128, unique=True)
    state = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["created_at"], name="lti_nonce_created_idx")]

    def __str__(self) -> str:
        return self.value


class LtiUser(models.Model):
    """The local learner of one platform user: ``(platform, sub)`` is the only key used."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="users")
    sub = models.CharField(max_length=255)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_identity"
    )
    name = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["platform", "sub"], name="lti_user_per_platform_sub"),
        ]

    def __str__(self) -> str:
        return self.name or self.sub


class Context(models.Model):
    """A course (class) of one deployment of a platform, as named by its context claim.

    Two deployments of one platform (two installations of the tool, in two sub-accounts, say)
    may name the same ``context_id``; they are two classes, with their own links, roster and
    members. ``deployment`` is empty only for a class stored before classes were kept per
    deployment, on a platform then registered with several deployments (which one was not
    recorded): the first launch naming it claims it for its deployment.
    """

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="contexts")
    deployment = models.ForeignKey(
        Deployment, on_delete=models.CASCADE, related_name="contexts", null=True, blank=True
    )
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    # The NRPS memberships URL when the platform offers the roster service.
    memberships_url = models.URLField(max_length=500, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deployment", "context_id"], name="lti_context_per_deployment"
            ),
            # At most one class of a context id waits to be claimed by a deployment.
            models.UniqueConstraint(
                fields=["platform", "context_id"],
                condition=Q(deployment__isnull=True),
                name="lti_context_unclaimed_once",
            ),
        ]

    def __str__(self) -> str:
        return self.title or self.context_id


class Membership(models.Model):
    """A platform user in a context, with the roles of their latest launch or roster row."""

    context = models.ForeignKey(Context, on_delete=models.CASCADE, related_name="members")
    lti_user = models.ForeignKey(LtiUser, on_delete=models.CASCADE, related_name="memberships")
    instructor = models.BooleanField(default=False)
    roles = models.JSONField(default=list)
    last_launch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["context", "lti_user"], name="lti_membership_per_context"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lti_user} in {self.context}"


class RosterEntry(models.Model):
    """A member the platform's roster (NRPS) lists, launched or not."""

    context = models.ForeignKey(Context, on_delete=models.CASCADE, related_name="roster")
    sub = models.CharField(max_length=255)
    name = models.CharField(max_length=255, blank=True)
    roles = models.JSONField(default=list)
    status = models.CharField(max_length=32, blank=True)
    # When the latest roster answer stopped listing the member (None while it lists them).
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["context", "sub"], name="lti_roster_per_context"),
        ]

    def __str__(self) -> str:
        return f"{self.name or self.sub} ({self.context})"


class ResourceLink(models.Model):
    """A link the platform shows, naming one page or one idea of the course, or the whole
    course; a plain link (no custom parameters) names nothing until an instructor chooses."""

    class Target(models.TextChoices):
        UNSET = "", _("not chosen yet")
        PAGE = "page", _("a page")
        IDEA = "idea", _("an idea")
        COURSE = "course", _("the whole course")

    context = models.ForeignKey(Context, on_delete=models.CASCADE, related_name="links")
    resource_link_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    # What the link shows. Empty on a plain link no instructor has set up yet: learners get
    # the course's first page, and nothing is scored for it.
    target = models.CharField(max_length=8, choices=Target.choices, blank=True, default="")
    # True when the launch's custom parameters (a deep-linked link) name the target; such a
    # link's target follows its launches and is not changed on the link setup page.
    target_from_launch = models.BooleanField(default=False)
    # Empty for a link to the whole course, or one not set up yet.
    page_slug = models.SlugField(max_length=100, blank=True)
    # Empty for a link to a whole page (or the whole course).
    idea_slug = models.SlugField(max_length=100, blank=True)
    lineitem_url = models.URLField(max_length=500, blank=True)
    # The platform's line items URL, kept only when its AGS claim lets the tool create line
    # items (scope lineitem): a link without a line item gets one made for it.
    lineitems_url = models.URLField(max_length=500, blank=True)
    # The AGS scopes the platform granted at the latest launch through the link.
    ags_scopes = models.JSONField(default=list, blank=True)
    # The line item's scoreMaximum as the platform last gave it (1 until read).
    score_maximum = models.FloatField(default=1.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["context", "resource_link_id"], name="lti_link_per_context"
            ),
            models.CheckConstraint(condition=Q(score_maximum__gt=0), name="lti_link_max_positive"),
            # The slugs say exactly what the target says: a page, a page's idea, or neither.
            models.CheckConstraint(
                condition=(
                    Q(target__in=["", "course"], page_slug="", idea_slug="")
                    | (Q(target="page", idea_slug="") & ~Q(page_slug=""))
                    | (Q(target="idea") & ~Q(page_slug="") & ~Q(idea_slug=""))
                ),
                name="lti_link_target_slugs",
            ),
        ]

    def __str__(self) -> str:
        return self.title or self.resource_link_id

    @property
    def set_up(self) -> bool:
        """Whether the link names what it shows (a deep-linked link, or one an instructor set)."""
        return self.target != self.Target.UNSET

    def resource_id(self) -> str:
        """Return the name of the link's target in a line item: ``page/idea``, ``page``, or
        ``course``."""
        if self.target == self.Target.COURSE:
            return "course"
        return f"{self.page_slug}/{self.idea_slug}" if self.idea_slug else self.page_slug


class LinkLearner(models.Model):
    """A learner who came through a link: their attempts on its idea or page are scored."""

    link = models.ForeignKey(ResourceLink, on_delete=models.CASCADE, related_name="learners")
    lti_user = models.ForeignKey(LtiUser, on_delete=models.CASCADE, related_name="links")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["link", "lti_user"], name="lti_link_learner_once"),
        ]

    def __str__(self) -> str:
        return f"{self.lti_user} via {self.link}"


class Score(models.Model):
    """One score owed to a platform's line item for one attempt (an outbox row)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed for good")

    link_learner = models.ForeignKey(LinkLearner, on_delete=models.CASCADE, related_name="scores")
    attempt = models.ForeignKey("practice.Attempt", on_delete=models.CASCADE, related_name="+")
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    # The attempt's time: the platform keeps the newest timestamp, so a late resend of an
    # older score never overwrites a newer one.
    timestamp = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    tries = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Since when the score is owed (recorded, or resent from the admin): tries stop and the
    # row is marked failed ``SCORE_RETRY_WINDOW`` after it.
    pending_since = models.DateTimeField(default=timezone.now)
    # When the next try is due; the sweep queues only a score whose try is overdue, so a
    # retry already waiting in the broker is not doubled.
    next_try_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Exactly one score per attempt and link, however often the hook or task runs.
            models.UniqueConstraint(
                fields=["link_learner", "attempt"], name="lti_score_once_per_attempt"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "sent", "failed"]), name="lti_score_status"
            ),
        ]
        indexes = [models.Index(fields=["status", "timestamp"], name="lti_score_status_idx")]

    def __str__(self) -> str:
        return f"{self.score_given}/{self.score_maximum} for attempt {self.attempt_id}"
