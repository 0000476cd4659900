"""``manage.py load_course <directory>``: load authored course files as a new version if changed."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from courses.loader import CourseSourceError
from courses.services import course_load


class Command(BaseCommand):
    help = "Load a course directory (course.yaml + pages/*.md); a new version only if it changed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory", help="e.g. courses/content/how-text-becomes-numbers")

    def handle(self, *args: object, directory: str, **options: object) -> None:
        try:
            result = course_load(directory=directory)
        except CourseSourceError as exc:
            raise CommandError(f"Refused, nothing loaded: {exc}") from exc
        version = result.version
        pages = version.pages.count()
        if result.created:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Loaded {version.course.slug} version {version.number} ({pages} pages)."
                )
            )
            for page_slug, idea_slug in result.removed_ideas:
                self.stdout.write(
                    self.style.WARNING(
                        f"The idea {page_slug}/{idea_slug} is gone from this version: learners' "
                        "progress on it is kept but no longer shown (renamed a slug by mistake?)."
                    )
                )
        else:
            self.stdout.write(
                f"{version.course.slug} is unchanged: "
                f"still version {version.number} ({pages} pages)."
            )
