"""Every kind the course in the repository declares (its `kinds/*.yaml`) passes the author's
whole check, `manage.py check_kind` at its documented 1,000 seeds per level, as an author runs
it before learners see the kind: a kind file added to the course is checked here with no test
of its own to write. (`test_check_kind.py` checks the command itself, on fewer seeds.)"""

from pathlib import Path

import pytest
from django.core.management import call_command

COURSE = Path(__file__).resolve().parents[2] / "courses/content/how-text-becomes-numbers"
KIND_FILES = sorted((COURSE / "kinds").glob("*.yaml"))


def test_the_course_declares_kinds():
    assert KIND_FILES, COURSE / "kinds"


@pytest.mark.parametrize("path", KIND_FILES, ids=[path.stem for path in KIND_FILES])
def test_each_declared_kind_passes_the_authors_check_at_1000_seeds(path, capsys):
    call_command("check_kind", COURSE.name, path.stem)
    out = capsys.readouterr().out
    assert f"{path.stem}: " in out and "x 1000 seeds" in out
    assert "each diagnosed as itself" in out
