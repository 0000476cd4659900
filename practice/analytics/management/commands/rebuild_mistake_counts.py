"""Rebuild the mistake counts from the attempts (after a restore, or to check them)."""

from typing import Any

from django.core.management.base import BaseCommand

from practice.analytics.services import counts_rebuild


class Command(BaseCommand):
    help = "Rebuild every mistake count from the attempts, in one transaction."

    def handle(self, *args: Any, **options: Any) -> None:
        counted = counts_rebuild()
        self.stdout.write(f"{counted} attempts counted")
