"""Every kind the course in the repository declares (its `kinds/*.yaml`) passes the author's
whole check, `manage.py check_kind`, at 250 seeds per level (the command's default, 1,000, is
what an author runs before learners see a kind; 250 keeps the suite's time: about 5 minutes of
CPU at 1,000 for the four kinds, a quarter of that here): a kind file added to the course is
checked here with no test of its own to write. (`test_check_kind.py` checks the command itself;
`test_course_kinds.py` checks the course's kinds against NumPy.)"""

from pathlib import Path

import pytest
from django.core.management import call_command

COURSE = Path(__file__).resolve().parents[2] / "courses/content/how-text-becomes-numbers"
KIND_FILES = sorted((COURSE / "kinds").glob("*.yaml"))
SEEDS = 250


def test_the_course_declares_kinds():
    assert KIND_FILES, COURSE / "kinds"


@pytest.mark.parametrize("path", KIND_FILES, ids=[path.stem for path in KIND_FILES])
def test_each_declared_kind_passes_the_authors_check(path, capsys):
    call_command("check_kind", COURSE.name, path.stem, seeds=SEEDS)
    out = capsys.readouterr().out
    assert f"{path.stem}: " in out and f"x {SEEDS} seeds" in out
    assert "each diagnosed as itself" in out
