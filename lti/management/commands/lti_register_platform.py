"""Register (or update) a learning platform and its deployment ids."""

from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from lti.models import Deployment, Platform


class Command(BaseCommand):
    help = "Register an LTI 1.3 platform (issuer + client id) with its URLs and deployment ids."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--name", required=True)
        parser.add_argument("--issuer", required=True)
        parser.add_argument("--client-id", required=True)
        parser.add_argument("--login-url", required=True, help="OIDC authorization endpoint")
        parser.add_argument("--token-url", required=True, help="OAuth 2 token endpoint")
        parser.add_argument("--jwks-url", required=True, help="the platform's JWKS URL")
        parser.add_argument("--deployment", action="append", default=[], dest="deployments")
        parser.add_argument("--frame-origin", action="append", default=[], dest="origins")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["deployments"]:
            raise CommandError("Name at least one --deployment id.")
        with transaction.atomic():
            platform = Platform.objects.filter(
                issuer=options["issuer"], client_id=options["client_id"]
            ).first() or Platform(issuer=options["issuer"], client_id=options["client_id"])
            platform.name = options["name"]
            platform.auth_login_url = options["login_url"]
            platform.auth_token_url = options["token_url"]
            platform.key_set_url = options["jwks_url"]
            platform.frame_origins = " ".join(options["origins"])
            platform.active = True
            try:
                platform.full_clean(validate_unique=False)
            except ValidationError as error:
                raise CommandError(
                    "; ".join(
                        f"{field}: {' '.join(msgs)}" for field, msgs in error.message_dict.items()
                    )
                ) from error
            platform.save()
            for deployment_id in options["deployments"]:
                Deployment.objects.get_or_create(platform=platform, deployment_id=deployment_id)
        self.stdout.write(
            f"Registered {platform.name}: issuer {platform.issuer}, client {platform.client_id}, "
            f"deployments {', '.join(options['deployments'])}"
        )
