"""A deleted copy (an account deleted, say) takes its attempts out of the key rows."""

from typing import Any

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from courses.models import CourseCopy

from .services import counts_forget_copy


@receiver(pre_delete, sender=CourseCopy, dispatch_uid="analytics_forget_copy")
def forget_copy(sender: type, instance: CourseCopy, **kwargs: Any) -> None:
    counts_forget_copy(copy_id=instance.pk)
