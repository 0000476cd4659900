"""Run `python -m grading check` in a subprocess, as authors and outside checkers do."""

import json
import subprocess
import sys
from pathlib import Path

from .conftest import content_spec, seed_weighted_sum

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "grading", "check", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_problem_and_answer_print_one_verdict(tmp_path):
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps(seed_weighted_sum()))
    result = run("--problem", str(problem), "--answer", "[0, 1]")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "incorrect"
    assert verdict["diagnosis"]["mistake"] == "omitted_term"
    assert verdict["diagnosis"]["terms"] == [0]


def test_jsonl_prints_one_verdict_per_line_in_order_and_unreadable_answers_are_verdicts(
    tmp_path,
):
    lines = [
        {"problem": seed_weighted_sum(), "answer": "(0.5, 1)", "id": 1},
        {"problem": seed_weighted_sum(), "answer": "__import__('os')"},
        {"problem": content_spec(), "answer": "[2e, 1+e]"},
        {"problem": seed_weighted_sum(), "answer": 12},
    ]
    source = tmp_path / "answers.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    result = run("--jsonl", str(source))
    assert result.returncode == 0, result.stderr
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert [v["status"] for v in verdicts] == ["correct", "invalid", "incorrect", "invalid"]
    assert verdicts[2]["diagnosis"]["mistake"] == "unnormalised_weights"


def test_malformed_spec_exits_non_zero_naming_line_and_field():
    bad = seed_weighted_sum() | {"weights": ["1/2"]}
    stdin = "\n".join(
        [
            json.dumps({"problem": seed_weighted_sum(), "answer": "[1/2, 1]"}),
            json.dumps({"problem": bad, "answer": "[1/2, 1]"}),
            "not json",
        ]
    )
    result = run("--jsonl", "-", stdin=stdin)
    assert result.returncode != 0
    assert "<stdin>:2: problem.weights" in result.stderr
    assert "<stdin>:3" in result.stderr
    outputs = [json.loads(line) for line in result.stdout.splitlines()]
    assert outputs[0]["status"] == "correct"
    assert outputs[1] == {
        "error": "has 1 entry; rows has 2",
        "line": 2,
        "field": "problem.weights",
    }
    assert outputs[2]["line"] == 3


def test_malformed_problem_file_exits_non_zero(tmp_path):
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps({"kind": "sideways"}))
    result = run("--problem", str(problem), "--answer", "[1, 2]")
    assert result.returncode != 0
    assert "kind" in result.stderr
    assert result.stdout == ""


def test_problem_without_answer_is_a_usage_error(tmp_path):
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps(seed_weighted_sum()))
    result = run("--problem", str(problem))
    assert result.returncode == 2
    assert "--answer" in result.stderr
