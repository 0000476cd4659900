"""Every request type of ``tests/budgets.py`` within its statement budget, on the configured
database (PostgreSQL in CI), through Django's test client; and the table that opens
docs/benchmarks.md is this one. CPU budgets are printed by ``make bench`` and ``make load``,
never asserted here."""

from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import budget_requests
from tests.budgets import BUDGETS, SQLITE_COUNTING, verdict

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


@pytest.fixture
def scenario(db, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        built = budget_requests.build()
    settings.BASISLAB_COURSE_SLUG = built.copy.version.course.slug
    return built


@pytest.mark.parametrize("request_type", budget_requests.REQUEST_TYPES, ids=lambda t: t.name)
def test_each_request_type_takes_at_most_its_budgets_statements(
    request_type, scenario, django_capture_on_commit_callbacks
):
    budget = BUDGETS[request_type.name]
    # Once to warm what is read once per process (a version's pages, the typeset fragments),
    # then counted, the work after the commit included.
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            request_type.prepare(scenario)
        with (
            CaptureQueriesContext(connection) as counted,
            django_capture_on_commit_callbacks(execute=True),
        ):
            request_type.send(scenario)
    statements = [query["sql"] for query in counted.captured_queries]
    allowed = budget.statements_on(connection.vendor)
    assert len(statements) <= allowed, (
        f"{request_type.name}: {len(statements)} statements, budget {allowed}:\n"
        + "\n".join(sql[:200] for sql in statements)
    )


def test_every_budget_has_its_request_and_every_request_its_budget():
    assert [t.name for t in budget_requests.REQUEST_TYPES] == list(BUDGETS)


def test_a_measure_over_its_budget_is_named():
    budget = BUDGETS["Verdict page"]
    assert verdict("Verdict page", budget.statements, budget.cpu_ms) == "ok"
    assert verdict("Verdict page", budget.statements + 1, None) == "OVER: statements"
    assert verdict("Verdict page", None, budget.cpu_ms * 2) == "OVER: CPU"
    assert verdict("Verdict page", budget.statements + 1, budget.cpu_ms * 2) == (
        "OVER: statements, CPU"
    )
    assert verdict("no such request", 1, 1.0) == "no budget"
    # SQLite's mistake counts take more statements after an answer's commit.
    name = "submit, repeated wrong answer"
    on_sqlite = BUDGETS[name].statements + SQLITE_COUNTING
    assert verdict(name, on_sqlite, None) == "OVER: statements"
    assert verdict(name, on_sqlite, None, vendor="sqlite") == "ok"


def doc_table(text: str) -> list[tuple[str, str, str, str, str]]:
    """Return the rows of the budgets table under the "## Budgets" heading of the text."""
    section = text.split("\n## Budgets\n", 1)
    assert len(section) == 2, 'docs/benchmarks.md has no "## Budgets" section'
    rows = []
    for line in section[1].split("\n## ", 1)[0].splitlines():
        if line.startswith("| ") and not line.startswith("| request type") and "---" not in line:
            cells = tuple(cell.strip() for cell in line.strip().strip("|").split("|"))
            assert len(cells) == 5, line
            rows.append(cells)
    return rows


def table_rows() -> list[tuple[str, str, str, str, str]]:
    """Return the rows the budgets table should have, from tests/budgets.py."""
    return [
        (
            name,
            str(budget.statements),
            f"{budget.cpu_ms:g}",
            f"`{budget.cpu_from}`",
            budget.what,
        )
        for name, budget in BUDGETS.items()
    ]


def test_the_docs_budget_table_is_the_one_in_tests_budgets():
    want = table_rows()
    got = doc_table(DOC.read_text(encoding="utf-8"))
    assert got == want, "docs/benchmarks.md's budgets table differs; it should read:\n" + "\n".join(
        "| " + " | ".join(row) + " |" for row in want
    )


def test_a_changed_budget_in_the_doc_is_seen():
    text = DOC.read_text(encoding="utf-8")
    first = table_rows()[0]
    row = "| " + " | ".join(first) + " |"
    assert row in text
    changed = text.replace(row, row.replace(f" | {first[1]} | ", f" | {int(first[1]) + 1} | ", 1))
    assert changed != text
    assert doc_table(changed) != table_rows()
