"""Turn a deactivated platform's launches back on."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from lti.management.options import add_platform_arguments, platform_of
from lti.services.registration import platform_set_active


class Command(BaseCommand):
    help = "Turn a deactivated platform's launches back on."

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_platform_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        platform = platform_of(options)
        if platform_set_active(platform=platform, active=True):
            self.stdout.write(f"Activated {platform}.")
        else:
            self.stdout.write(f"{platform} was already active; nothing changed.")
