"""Locust learners for `python -m tests.load`: open a problem, type (previews), answer, repeat.

Each learner takes a pre-signed-in session from LOAD_LEARNERS_FILE. For each problem it types
(two htmx previews), submits a catalogued wrong answer (about one time in ten an unreadable
one), reads the Verdict, then submits the right answer and opens the next problem. The right
and wrong answers come from an oracle: the stored spec (read from the scratch database) and
the grading engine's own right answer and mistake catalog, typed for the problem's answer shape
(tests/load/answers.py). Each answer names its request type of tests/budgets.py in an
``X-Load-Case`` header, for the server's per-type report (tests/load/gunicorn_cpu.py).

Over HTTPS (the production layout) the learners trust the throwaway certificate named by
LOAD_CA_FILE, and send the Origin header a browser sends with a form or htmx post (Django
checks it against CSRF_TRUSTED_ORIGINS on a secure request).
"""

import json
import os
import random
import re

import psycopg
from locust import HttpUser, between, events, task

from tests.load.answers import half_typed, typed_answers, unreadable

_DATA = json.loads(open(os.environ["LOAD_LEARNERS_FILE"]).read())  # noqa: SIM115
_LEARNERS = list(_DATA["learners"])
_IDEAS = _DATA["ideas"]
_COOKIE = _DATA.get("cookie", "sessionid")
_TOKEN = re.compile(r'name="token" value="([0-9a-f-]{36})"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_PROBLEM = re.compile(r"/problems/(\d+)/$")
_oracle: dict = {}
_RNG = random.Random()


@events.test_start.add_listener
def _connect(environment, **kwargs) -> None:
    _oracle["db"] = psycopg.connect(os.environ["LOAD_ORACLE_URL"], autocommit=True)


def _answers(problem_id: int) -> tuple[str, str | None]:
    """Return (right, wrong) answers for the stored problem, typed for its answer shape."""
    row = (
        _oracle["db"]
        .execute("SELECT spec FROM practice_probleminstance WHERE id = %s", (problem_id,))
        .fetchone()
    )
    return typed_answers(row[0], _RNG)


class Learner(HttpUser):
    wait_time = between(0.5, 1.5)

    def on_start(self) -> None:
        me = _LEARNERS.pop()
        self.copy_id = me["copy_id"]
        self.client.cookies.set(_COOKIE, me["session"])
        if os.environ.get("LOAD_CA_FILE"):
            self.client.verify = os.environ["LOAD_CA_FILE"]
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
        headers = {"X-CSRFToken": self.csrf, "Origin": self.host, **kwargs.pop("headers", {})}
        return self.client.post(path, data=data, headers=headers, name=name, **kwargs)

    @task
    def answer(self) -> None:
        if self.problem_id is None:
            self.open_problem()
            return
        base = f"/course/{self.copy_id}/problems/{self.problem_id}/"
        if self.wrong is None:
            self.step = 1  # no catalogued mistake differs from the right answer here
        text = self.wrong if self.step == 0 else self.right
        # The answer's request type in tests/budgets.py, for the server's per-type report.
        case = "submit, first wrong answer" if self.step == 0 else "submit, right after wrong"
        if self.wrong is None:
            case = "submit, right first try (credit)"
        if self.step == 0 and random.random() < 0.1:
            text = unreadable(text)  # costs the learner nothing
            case = "submit, unreadable answer"
        for typed in (half_typed(text), text):
            self._post(
                f"{base}preview/", {"text": typed}, "preview (htmx)", headers={"HX-Request": "true"}
            )
        with self._post(
            base,
            {"text": text, "token": self.token, "csrfmiddlewaretoken": self.csrf},
            "submit (302 + verdict)",
            catch_response=True,
            headers={"X-Load-Case": case},
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
