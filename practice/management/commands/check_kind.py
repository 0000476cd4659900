"""``manage.py check_kind <course> <kind>``: check a course folder's kind before learners see it."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from grading.declared import CONTENT_ROOT
from practice.kind_check import KindCheckError, check_kind_file, kind_file


class Command(BaseCommand):
    help = (
        "Check a kind of a course folder (kinds/<kind>.yaml, or a Python kind kinds/<kind>.py): "
        "every level and "
        "seed generated twice alike, the right answer correct in every form, every mistake "
        "diagnosed as itself, statements rendered, and the file's question tests."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "course", help="a course folder's name under courses/content, or a path"
        )
        parser.add_argument(
            "kind", help="the kind's name (its file is kinds/<kind>.yaml or kinds/<kind>.py)"
        )
        parser.add_argument("--seeds", type=int, default=1000, help="seeds per level (1000)")

    def handle(self, *args: object, course: str, kind: str, seeds: int, **options: object) -> None:
        if not 1 <= seeds <= 100_000:
            raise CommandError("--seeds must be from 1 to 100000")
        path = kind_file(course, kind, CONTENT_ROOT)
        try:
            report = check_kind_file(path, seeds=seeds)
        except KindCheckError as exc:
            raise CommandError(f"{kind} fails its check: {exc}") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"{report.name}: {len(report.levels)} levels x {report.seeds} seeds, "
                f"{report.answers_graded} answers graded as expected, mistakes "
                f"{', '.join(report.mistakes)} each diagnosed as itself, "
                f"{report.tests} question tests passed."
            )
        )
