"""Options the platform commands share: a platform named by its issuer and client id."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from lti.models import Platform
from lti.services.registration import RegistrationError, platform_named


def add_platform_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", help="needed only when the issuer has several registrations")


def platform_of(options: dict[str, Any]) -> Platform:
    """Return the platform the options name; raise CommandError saying what is wrong."""
    try:
        return platform_named(issuer=options["issuer"], client_id=options.get("client_id"))
    except RegistrationError as error:
        raise CommandError(str(error)) from error


def describe(counts: dict[str, int]) -> str:
    """Return the counts per model as one line, e.g. ``lti.Platform 1, lti.Deployment 2``."""
    return ", ".join(f"{label} {count}" for label, count in counts.items()) or "nothing"
