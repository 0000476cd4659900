"""Register a learning platform, or change only what is named of one already registered."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from lti.services.registration import RegistrationError, platform_register


class Command(BaseCommand):
    help = (
        "Register an LTI 1.3 platform (issuer + client id) with its URLs and deployment ids. "
        "Run again, it changes only what the options name and adds deployments."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--issuer", required=True)
        parser.add_argument("--client-id", required=True)
        parser.add_argument("--name", help="required for a new platform")
        parser.add_argument("--login-url", help="OIDC authorization endpoint (new: required)")
        parser.add_argument("--token-url", help="OAuth 2 token endpoint (new: required)")
        parser.add_argument("--jwks-url", help="the platform's JWKS URL (new: required)")
        parser.add_argument(
            "--deployment",
            action="append",
            default=[],
            dest="deployments",
            help="a deployment id to add (repeatable; a new platform needs one)",
        )
        origins = parser.add_mutually_exclusive_group()
        origins.add_argument(
            "--frame-origin",
            action="append",
            dest="origins",
            help="an origin that frames the tool (repeatable); replaces the ones set before",
        )
        origins.add_argument(
            "--default-frame-origins",
            action="store_true",
            help="forget the frame origins set before: the issuer's and login URL's origins",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["default_frame_origins"]:
            origins: list[str] | None = []
        else:
            origins = options["origins"]
        try:
            done = platform_register(
                issuer=options["issuer"],
                client_id=options["client_id"],
                name=options["name"],
                urls={key: options[key] for key in ("login_url", "token_url", "jwks_url")},
                deployments=options["deployments"],
                frame_origins=origins,
            )
        except RegistrationError as error:
            raise CommandError(str(error)) from error
        platform = done.platform
        what = "Registered" if done.created else "Updated"
        changes = done.changed + [f"deployment {value}" for value in done.deployments_added]
        detail = "" if done.created else f" ({', '.join(changes) or 'nothing changed'})"
        self.stdout.write(
            f"{what} {platform.name}: issuer {platform.issuer}, client {platform.client_id}"
            f"{detail}; deployments "
            + ", ".join(
                platform.deployments.order_by("deployment_id").values_list(
                    "deployment_id", flat=True
                )
            )
            + f"; frame origins {' '.join(platform.origins())}"
        )
        if not platform.active:
            self.stdout.write(
                "The platform is deactivated: lti_activate_platform turns its launches back on."
            )
