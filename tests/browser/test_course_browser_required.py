"""Without Chromium the browser tests fail loudly; they never skip and hide the gap."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_browser_tests_fail_when_chromium_is_missing(tmp_path):
    env = {**os.environ, "BASISLAB_CHROMIUM": str(tmp_path / "no-chromium-here")}
    env.pop("DATABASE_URL", None)  # SQLite in memory: this run only needs to reach the fixture.

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "tests/browser/test_course_math.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Chromium not found" in output
    assert "skipped" not in output
    assert "1 error" in output
