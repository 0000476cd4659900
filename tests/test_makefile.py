"""The Makefile accepts Python 3.11 to 3.13 and, without PYTHON, picks the newest that runs.

Only ``make -n`` (print, run nothing) is used here: no venv is made or changed.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def planned(path_dirs: list[Path], **variables: str) -> list[str]:
    """Return the commands `make install` would run, with these directories first on PATH."""
    env = {**os.environ, "PATH": os.pathsep.join([*map(str, path_dirs), os.environ["PATH"]])}
    # Run as from a shell, not as a sub-make of `make test` (which would add
    # "make[1]: Entering directory" lines and pass its own flags down).
    for name in ("PYTHON", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):
        env.pop(name, None)
    args = [f"{k}={v}" for k, v in variables.items()]
    # -B: plan as if the venv's stamp were stale, so the install's commands are printed.
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", "install", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.splitlines()


def fake_python(directory: Path, name: str, *, runs: bool) -> None:
    script = directory / name
    if runs:
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    else:  # what a pyenv shim prints for a version that is not installed
        script.write_text(f'#!/bin/sh\necho "pyenv: {name}: command not found" >&2\nexit 127\n')
    script.chmod(0o755)


def test_the_newest_python_that_runs_is_chosen(tmp_path):
    fake_python(tmp_path, "python3.13", runs=False)
    fake_python(tmp_path, "python3.12", runs=True)

    commands = planned([tmp_path])

    assert commands[0].startswith("python3.12 -c ")
    assert "python3.12 -m venv" in "\n".join(commands)


def test_a_shim_without_its_version_is_passed_over(tmp_path):
    fake_python(tmp_path, "python3.13", runs=False)
    fake_python(tmp_path, "python3.12", runs=False)
    fake_python(tmp_path, "python3.11", runs=True)

    assert planned([tmp_path])[0].startswith("python3.11 -c ")


def test_python_named_on_the_command_line_wins(tmp_path):
    assert planned([tmp_path], PYTHON="/opt/python/bin/python3.13")[0].startswith(
        "/opt/python/bin/python3.13 -c "
    )


def _version_check() -> str:
    line = planned([], PYTHON="PY")[0]
    return re.fullmatch(r"PY -c '(.*)'", line).group(1)


def test_the_version_check_accepts_this_python_and_names_the_way_out():
    check = _version_check()
    assert subprocess.run([sys.executable, "-c", check], timeout=60).returncode == 0
    # The same check on a Python reported as 3.10 and as 3.14 refuses with a clear message.
    for version in ((3, 10), (3, 14)):
        faked = f"import sys; sys.version_info = {version!r} + (0, 'final', 0); " + check
        result = subprocess.run(
            [sys.executable, "-c", faked], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 1
        assert "Python 3.11 to 3.13 is required" in result.stderr
        assert "make PYTHON=" in result.stderr


def test_pyproject_accepts_the_same_versions():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11,<3.14"' in text
    assert shutil.which("make")
