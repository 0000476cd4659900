"""Locust learners for `python -m tests.load`: open a problem, type (previews), answer, repeat.

Each learner takes a pre-signed-in session from LOAD_LEARNERS_FILE. For each problem it types
(two htmx previews), submits a catalogued wrong answer (about one time in ten an unreadable
one), reads the Verdict, then submits the right answer and opens the next problem. The right
and wrong answers come from an oracle: the stored spec (read from the scratch database) and
the grading engine's own `expected_answer` / `mistaken_answers`.
"""

import json
import os
import random
import re

import psycopg
import sympy
from locust import HttpUser, between, events, task

import grading

_DATA = json.loads(open(os.environ["LOAD_LEARNERS_FILE"]).read())  # noqa: SIM115
_LEARNERS = list(_DATA["learners"])
_IDEAS = _DATA["ideas"]
_TOKEN = re.compile(r'name="token" value="([0-9a-f-]{36})"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_PROBLEM = re.compile(r"/problems/(\d+)/$")
_oracle: dict = {}


@events.test_start.add_listener
def _connect(environment, **kwargs) -> None:
    _oracle["db"] = psycopg.connect(os.environ["LOAD_ORACLE_URL"], autocommit=True)


def _vector_text(vector) -> str:
    return "[" + ", ".join(sympy.sstr(x) for x in vector) + "]"


def _answers(problem_id: int) -> tuple[str, str]:
    """Return (right, wrong) answers for the stored problem."""
    row = (
        _oracle["db"]
        .execute("SELECT spec FROM practice_probleminstance WHERE id = %s", (problem_id,))
        .fetchone()
    )
    spec = row[0]
    right = _vector_text(grading.expected_answer(spec))
    expected = [float(x) for x in grading.expected_answer(spec)]
    # Some mistakes coincide with the right answer for some terms; a learner's wrong answer
    # here is one that is really wrong.
    wrong_vectors = [
        vector
        for _, vector in grading.mistaken_answers(spec)
        if len(vector) != len(expected)
        or max(abs(float(a) - b) for a, b in zip(vector, expected, strict=True)) > 1e-6
    ]
    wrong = _vector_text(random.choice(wrong_vectors)) if wrong_vectors else "[0, 0]"
    return right, wrong


class Learner(HttpUser):
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        me = _LEARNERS.pop()
        self.copy_id = me["copy_id"]
        self.client.cookies.set("sessionid", me["session"])
        self.open_problem()

    def _read_form(self, response) -> None:
        token = _TOKEN.search(response.text)
        csrf = _CSRF.search(response.text)
        if token is None or csrf is None:
            response.failure("no answer form on the problem page")
            return
        self.token, self.csrf = token.group(1), csrf.group(1)

    def open_problem(self) -> None:
        idea = random.choice(_IDEAS)
        url = f"/course/{self.copy_id}/pages/{idea['page']}/ideas/{idea['idea']}/{idea['kind']}/"
        with self.client.get(url, name="open problem (302 + page)", catch_response=True) as r:
            match = _PROBLEM.search(r.url or "")
            if r.status_code != 200 or match is None:
                r.failure(f"open problem: {r.status_code} {r.url}")
                self.problem_id = None
                return
            self.problem_id = int(match.group(1))
            self._read_form(r)
        self.right, self.wrong = _answers(self.problem_id)
        self.step = 0

    def _post(self, path: str, data: dict, name: str, **kwargs):
        headers = {"X-CSRFToken": self.csrf, **kwargs.pop("headers", {})}
        return self.client.post(path, data=data, headers=headers, name=name, **kwargs)

    @task
    def answer(self) -> None:
        if self.problem_id is None:
            self.open_problem()
            return
        base = f"/course/{self.copy_id}/problems/{self.problem_id}/"
        text = self.wrong if self.step == 0 else self.right
        if self.step == 0 and random.random() < 0.1:
            text = text[:-1] + " +"  # unreadable: costs the learner nothing
        for typed in (text[: len(text) // 2], text):
            self._post(
                f"{base}preview/", {"text": typed}, "preview (htmx)", headers={"HX-Request": "true"}
            )
        with self._post(
            base,
            {"text": text, "token": self.token, "csrfmiddlewaretoken": self.csrf},
            "submit (302 + verdict)",
            catch_response=True,
        ) as r:
            if r.status_code != 200 or "/attempts/" not in (r.url or ""):
                r.failure(f"submit: {r.status_code} {r.url}")
                return
            if text != self.right:
                self._read_form(r)  # the Verdict page offers the form again, new token
        if text == self.right:
            self.open_problem()
        elif text == self.wrong:
            self.step = 1
