"""List the registered platforms with their deployments and frame origins."""

from typing import Any

from django.core.management.base import BaseCommand

from lti.models import Platform


class Command(BaseCommand):
    help = "List the registered LTI platforms: issuer, client id, active or not, deployments."

    def handle(self, *args: Any, **options: Any) -> None:
        platforms = Platform.objects.prefetch_related("deployments").order_by("issuer", "client_id")
        if not platforms:
            self.stdout.write("No platform is registered.")
            return
        for platform in platforms:
            state = "active" if platform.active else "DEACTIVATED"
            deployments = sorted(row.deployment_id for row in platform.deployments.all())
            self.stdout.write(
                f"{platform.name} [{state}]\n"
                f"  issuer {platform.issuer}\n"
                f"  client id {platform.client_id}\n"
                f"  deployments {', '.join(deployments) or '(none: every launch is refused)'}\n"
                f"  frame origins {' '.join(platform.origins())}"
                + ("" if platform.frame_origins.strip() else " (the issuer's and login URL's)")
            )
