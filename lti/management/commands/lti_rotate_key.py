"""Create a new tool signing key; keep the previous one published until the next rotation."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from lti.keys import key_rotate


class Command(BaseCommand):
    help = "Rotate the LTI tool's signing key (the JWKS keeps the newest --keep keys)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--keep", type=int, default=2)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            key = key_rotate(keep=options["keep"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"New signing key {key.kid}")
