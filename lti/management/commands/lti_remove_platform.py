"""Remove a platform and everything of it; without --yes, only say what would go."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from lti.management.options import add_platform_arguments, describe, platform_of
from lti.services.registration import RegistrationError, platform_remove, removal_counts


class Command(BaseCommand):
    help = (
        "Remove an LTI platform with its deployments, learners' identities, classes, links and "
        "scores (local accounts stay). Says what would be removed unless --yes is given; "
        "lti_deactivate_platform keeps the rows."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_platform_arguments(parser)
        parser.add_argument("--yes", action="store_true", help="remove, do not only say what")

    def handle(self, *args: Any, **options: Any) -> None:
        platform = platform_of(options)
        try:
            if not options["yes"]:
                raise CommandError(
                    f"Nothing removed. Removing {platform} would delete "
                    f"{describe(removal_counts(platform))}; add --yes to remove it."
                )
            removed = platform_remove(platform=platform)
        except RegistrationError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Removed {platform}: {describe(removed)}.")
