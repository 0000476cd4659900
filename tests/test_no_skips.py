"""A skipped test fails (tests/no_skips.py), whichever way it was skipped."""

import os
import subprocess
import sys

from tests.postgres_server import ROOT

SKIPPING = """
import pytest

def test_skips_inside():
    pytest.skip("not today")

@pytest.mark.skipif(True, reason="never here")
def test_skipped_by_marker():
    pass

def test_passes():
    assert True
"""


def test_a_skip_is_reported_as_a_failure_naming_its_reason(tmp_path):
    test_file = tmp_path / "test_skipping.py"
    test_file.write_text(SKIPPING)

    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:django",
         "-p", "tests.no_skips", "-q", "--rootdir", str(tmp_path), "-c", os.devnull,
         str(test_file)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip

    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    # A skip inside the test fails it; one while setting it up (a marker) is an error.
    assert "1 failed, 1 passed, 1 error" in output.splitlines()[-1]
    assert "skipped" not in output.splitlines()[-1]
    assert "test_skips_inside was skipped (Skipped: not today)" in output
    assert "test_skipped_by_marker was skipped (Skipped: never here)" in output
