"""The daily reminder email: one per learner with due reviews and local day, at most."""

from collections.abc import Callable
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext

from basislab.site import site_url
from courses.models import CourseCopy

from ..models import ReviewDigest, ReviewSettings
from ..selectors import review_due_count
from .review_settings import review_settings_get_or_create


def review_digest_enqueue(
    *, enqueue: Callable[[int], object], now: datetime | None = None
) -> list[int]:
    """Enqueue one digest task per learner with due reviews who has not opted out.

    ``enqueue`` is called with each user id inside the transaction (the tasks module passes
    its digest task's ``delay_on_commit``). Returns the user ids. The per-learner task decides,
    under a lock, whether today's email was already sent, so enqueuing twice is harmless.
    """
    now = now or timezone.now()
    user_model = get_user_model()
    with transaction.atomic():
        user_ids = list(
            user_model.objects.filter(course_copies__review_items__due__lte=now, is_active=True)
            .exclude(email="")
            .exclude(review_settings__reminders=False)
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        for user_id in user_ids:
            enqueue(user_id)
    return user_ids


def review_digest_send(*, user_id: int, now: datetime | None = None) -> bool:
    """Send the learner today's reminder email, at most once per local day.

    The claim (a ReviewDigest row, unique per user and day) is written in the same transaction
    as the send: a second delivery of the task waits on the lock, then finds the claim; a send
    that raises rolls the claim back so a retry can send. Returns True when an email went out.
    """
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email:
        return False
    review_settings_get_or_create(user_id=user.pk)
    with transaction.atomic():
        row = ReviewSettings.objects.select_for_update().get(user=user)
        if not row.reminders:
            return False
        day = now.astimezone(row.zone).date()
        if ReviewDigest.objects.filter(user=user, day=day).exists():
            return False
        copies = [
            (copy, review_due_count(copy=copy, now=now))
            for copy in CourseCopy.objects.filter(owner=user).select_related("course")
        ]
        copies = [(copy, n) for copy, n in copies if n]
        total = sum(n for _copy, n in copies)
        if total == 0:
            return False
        ReviewDigest.objects.create(user=user, day=day, due_count=total, sent_at=now)
        context = {
            "user": user,
            "total": total,
            "copies": [
                {
                    "title": copy.course.title,
                    "count": n,
                    "url": site_url(reverse("review:queue", args=[copy.pk])),
                }
                for copy, n in copies
            ],
            "unsubscribe_url": site_url(
                reverse("review:unsubscribe", args=[row.unsubscribe_token])
            ),
        }
        subject = ngettext("%(count)d review is due", "%(count)d reviews are due", total) % {
            "count": total
        }
        send_mail(
            subject=subject,
            message=render_to_string("review/email/digest.txt", context),
            from_email=None,
            recipient_list=[user.email],
        )
    return True
