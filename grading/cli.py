"""The command line: `python -m grading check`, for authors testing problems and for checking
the engine from outside.

    python -m grading check --problem FILE.json --answer TEXT
    python -m grading check --jsonl FILE        # lines {"problem": {...}, "answer": "..."}

Each answer gives one Verdict as one line of JSON on stdout. An answer that cannot be read is
an `invalid` Verdict, not an error. A malformed problem spec (or a line that is not a JSON
object) prints `{"error": ..., "line": n, "field": ...}` in that line's place, says the same
on stderr, and makes the exit status 1. `-` reads the JSONL from stdin.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .marking import grade
from .spec import SpecError

EXIT_MALFORMED = 1


def _emit(out: IO[str], data: dict[str, Any]) -> None:
    out.write(json.dumps(data, ensure_ascii=False) + "\n")


def _error(out: IO[str], err: IO[str], where: str, field: str, message: str, line: int) -> None:
    err.write(f"{where}: {field}: {message}\n")
    _emit(out, {"error": message, "line": line, "field": field})


def check_one(problem_path: str, answer: str, out: IO[str], err: IO[str]) -> int:
    """Grade one answer against the spec in a JSON file; return the exit status."""
    try:
        spec = json.loads(Path(problem_path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        err.write(f"{problem_path}: cannot read a JSON problem: {error}\n")
        return EXIT_MALFORMED
    try:
        verdict = grade(spec, answer)
    except SpecError as error:
        err.write(f"{problem_path}: {error.field}: {error.message}\n")
        return EXIT_MALFORMED
    _emit(out, verdict.to_dict())
    return 0


def check_lines(lines: IO[str], name: str, out: IO[str], err: IO[str]) -> int:
    """Grade every `{"problem", "answer"}` line in order; return the exit status."""
    status = 0
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{name}:{number}"
        try:
            item = json.loads(raw)
        except ValueError as error:
            _error(out, err, where, "line", f"not JSON: {error}", number)
            status = EXIT_MALFORMED
            continue
        if not isinstance(item, dict) or not isinstance(item.get("problem"), dict):
            _error(out, err, where, "problem", 'the line needs a "problem" object', number)
            status = EXIT_MALFORMED
            continue
        answer = item.get("answer", "")
        try:
            # A non-text answer is the learner's side: grade() makes it an invalid Verdict.
            verdict = grade(item["problem"], answer)
        except SpecError as error:
            _error(out, err, where, f"problem.{error.field}", error.message, number)
            status = EXIT_MALFORMED
            continue
        _emit(out, verdict.to_dict())
    return status


def main(
    argv: Sequence[str] | None = None, out: IO[str] = sys.stdout, err: IO[str] = sys.stderr
) -> int:
    """Parse arguments and run `check`; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m grading", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="grade answers and print Verdicts as JSON lines")
    source = check.add_mutually_exclusive_group(required=True)
    source.add_argument("--problem", metavar="FILE.json", help="a problem spec")
    source.add_argument("--jsonl", metavar="FILE", help='lines {"problem": ..., "answer": ...}')
    check.add_argument("--answer", metavar="TEXT", help="the answer, with --problem")
    args = parser.parse_args(argv)
    if args.problem is not None:
        if args.answer is None:
            parser.error("--problem needs --answer")
        return check_one(args.problem, args.answer, out, err)
    if args.jsonl == "-":
        return check_lines(sys.stdin, "<stdin>", out, err)
    try:
        with open(args.jsonl, encoding="utf-8") as lines:
            return check_lines(lines, args.jsonl, out, err)
    except OSError as error:
        err.write(f"{args.jsonl}: {error}\n")
        return EXIT_MALFORMED
