"""Remove one deployment of a platform and its classes; its launches are refused from then on."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from lti.management.options import add_platform_arguments, describe, platform_of
from lti.services.registration import (
    RegistrationError,
    deployment_named,
    deployment_remove,
    removal_counts,
)


class Command(BaseCommand):
    help = (
        "Remove a deployment id of an LTI platform with its classes (launches naming it are "
        "refused). Says what would be removed unless --yes is given."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_platform_arguments(parser)
        parser.add_argument("--deployment", required=True, dest="deployment_id")
        parser.add_argument("--yes", action="store_true", help="remove, do not only say what")

    def handle(self, *args: Any, **options: Any) -> None:
        platform = platform_of(options)
        try:
            deployment = deployment_named(platform=platform, deployment_id=options["deployment_id"])
            if not options["yes"]:
                raise CommandError(
                    f"Nothing removed. Removing deployment {deployment.deployment_id} would "
                    f"delete {describe(removal_counts(deployment))}; add --yes to remove it."
                )
            removed = deployment_remove(deployment=deployment)
        except RegistrationError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"Removed deployment {options['deployment_id']} of {platform}: {describe(removed)}."
        )
