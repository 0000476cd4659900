"""No test of this suite is ever skipped: a skip (``pytest.skip``, ``skipif``, ``importorskip``)
is reported as a failure naming its reason. A test that does not hold on the database the suite
runs on is deselected and run on its own database instead (tests/other_database.py)."""

from collections.abc import Iterator

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Turn the report of a skipped test into a failure (an expected failure stays one)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid} was skipped ({reason}); no test here may be skipped"
