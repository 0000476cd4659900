"""The submit request's cost against a bare Django view that does one insert, in the same run.

Both go through the whole stack (middleware, session, signed-in user) with Django's test
Client against a real database of their own: SQLite in a temporary file, or PostgreSQL when
DATABASE_URL names it (a ``test_`` database is created and dropped). The bare view inserts one
Attempt row; the submit request reads the problem, grades the answer, stores the attempt,
records progress and review, and redirects. Cases are interleaved so drift hits both alike.
The cases that are request types of tests/budgets.py also show their CPU ms beside the budget.
"""

import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from unittest import mock

ROUNDS = int(os.environ.get("BENCH_SUBMIT_ROUNDS", "150"))
WARMUP = 10

_bare_state: dict = {}


def bare_insert(request):
    """Insert one attempt row and answer 204: the floor a submit request cannot go under.

    It checks sign-in as the submit view does (``login_required``), so both pay the same
    session and user reads; without the check the middleware never loads them.
    """
    from django.http import HttpResponse

    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    return _insert(request)


def bare_insert_anonymous(request):
    """The same insert without the sign-in check: no session or user read at all."""
    return _insert(request)


def _insert(request):
    from django.http import HttpResponse

    from practice.models import Attempt

    # The rows themselves, not their ids: the attempt hook (lti.signals) reads the copy's owner
    # and the problem's idea from them, as it does from the submit's, without a query.
    Attempt.objects.create(
        problem=_bare_state["problem"],
        copy=_bare_state["copy"],
        text=request.POST.get("text", ""),
        status="incorrect",
        score=0.0,
        verdict=_bare_state["verdict"],
        form_token=uuid.uuid4(),
    )
    return HttpResponse(status=204)


def _urlconf():
    """Return a URLconf module: the project's URLs plus the bare view."""
    import types

    from django.urls import include, path

    module = types.ModuleType("bench_submit_urls")
    module.urlpatterns = [
        path("bench/bare-insert/", bare_insert, name="bench_bare_insert"),
        path("bench/bare-insert-anonymous/", bare_insert_anonymous, name="bench_bare_anonymous"),
        path("", include("basislab.urls")),
    ]
    return module


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _row(case: str, times: list[float], **extra) -> dict:
    return {
        "benchmark": "submit",
        "case": case,
        "n": len(times),
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": _percentile(times, 0.99) * 1000,
        **extra,
    }


# This process's CPU seconds per case (the bench process serves the requests itself): on a
# machine shared with other work, waiting for a CPU inflates the wall clock, not these.
_cpu: dict[str, list[float]] = {}


def _timed(name: str, call: Callable[[], object], record: bool) -> float:
    """Call once; return the wall seconds, and record the CPU seconds under name."""
    cpu_started, started = time.process_time(), time.perf_counter()
    call()
    elapsed = time.perf_counter() - started
    if record:
        _cpu.setdefault(name, []).append(time.process_time() - cpu_started)
    return elapsed


def _cpu_ratio(name: str, base: str) -> float:
    return statistics.median(_cpu[name]) / statistics.median(_cpu[base])


# This benchmark's cases that are request types of tests/budgets.py, with their CPU samples'
# names; their statements are counted by bench_budgets.
BUDGETED = {
    "submit, incorrect answer": ("submit, repeated wrong answer", "submit, incorrect answer"),
    "submit, incorrect, new problem (card rated)": ("submit, first wrong answer", "fresh wrong"),
    "submit, correct answer": ("submit, right after wrong", "correct"),
    "preview (htmx)": ("preview (htmx)", "preview (htmx)"),
    "problem page (one attempt)": ("problem page", "problem page (one attempt)"),
    "verdict page": ("Verdict page", "verdict page"),
    "course page": ("course page", "course page"),
}


def _budget_columns(case: str) -> dict:
    """Return the median CPU ms of a budgeted case beside its CPU budget, and the verdict."""
    from tests.budgets import BUDGETS, verdict

    if case not in BUDGETED:
        return {}
    name, samples = BUDGETED[case]
    cpu_ms = statistics.median(_cpu[samples]) * 1000
    return {
        "cpu_ms": cpu_ms,
        "budget_cpu_ms": BUDGETS[name].cpu_ms,
        "budget": f"{verdict(name, None, cpu_ms)} ({name})",
    }


def _measure(cases: dict[str, Callable[[], None]], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in cases}
    for index in range(WARMUP + rounds):
        for name, call in cases.items():
            elapsed = _timed(name, call, index >= WARMUP)
            if index >= WARMUP:
                times[name].append(elapsed)
    return times


def _prepare_database() -> tuple[str, Callable[[], None]]:
    """Create a fresh test database; return its label and how to drop it."""
    import django
    from django.conf import settings

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basislab.settings_test")
    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    tmpdir = None
    if connection.vendor == "sqlite":
        tmpdir = tempfile.TemporaryDirectory(prefix="bench-submit-")
        settings.DATABASES["default"].setdefault("TEST", {})
        settings.DATABASES["default"]["TEST"]["NAME"] = str(Path(tmpdir.name) / "bench.sqlite3")
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    label = f"{connection.vendor} {connection.settings_dict['NAME']}"

    def drop() -> None:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
        if tmpdir is not None:
            tmpdir.cleanup()

    return label, drop


def run() -> list[dict]:
    """Time the submit request and the bare insert view; return table rows with the ratio."""
    label, drop = _prepare_database()
    try:
        return _run(label)
    finally:
        drop()


def _run(label: str) -> list[dict]:
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings
    from django.urls import reverse

    import grading
    from courses.services import copy_get_or_create, course_load
    from practice import services
    from practice.models import Attempt
    from tests.answers import right_answer, wrong_answer

    course_dir = Path(__file__).resolve().parents[1] / "courses" / "fixtures" / "mini-course"
    version = course_load(directory=course_dir).version
    user = get_user_model().objects.create_user(username="bench", password="bench-password-1")
    copy = copy_get_or_create(user=user, course_slug=version.course.slug)
    problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    diagnosis, wrong = wrong_answer(problem.spec)
    _bare_state.update(
        problem=problem,
        copy=copy,
        verdict=grading.grade(problem.spec, wrong).to_dict(),
    )

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    submit_url = reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": problem.pk})
    preview_url = reverse("practice:preview", kwargs={"copy_id": copy.pk, "problem_id": problem.pk})

    def submit_wrong() -> None:
        response = client.post(submit_url, {"text": wrong, "token": str(uuid.uuid4())})
        assert response.status_code == 302, response.status_code

    def submit_double() -> None:
        # The second click of a double submit: the token is known, nothing is graded again.
        response = client.post(submit_url, {"text": wrong, "token": str(known_token)})
        assert response.status_code == 302, response.status_code

    def submit_wrong_without_review() -> None:
        # The same request with spaced review switched off: what review_record_attempt adds.
        with mock.patch.object(services, "review_record_attempt", lambda **_: []):
            submit_wrong()

    def bare() -> None:
        response = client.post("/bench/bare-insert/", {"text": wrong})
        assert response.status_code == 204, response.status_code

    def bare_anonymous() -> None:
        response = client.post("/bench/bare-insert-anonymous/", {"text": wrong})
        assert response.status_code == 204, response.status_code

    def grade_only() -> None:
        grading.grade(problem.spec, wrong)

    def preview() -> None:
        response = client.post(preview_url, {"text": wrong}, headers={"HX-Request": "true"})
        assert response.status_code == 200, response.status_code

    # The pages a learner reads between answers, warm (fragments cached by the first round):
    # a problem with one wrong answer, that answer's Verdict, and the course page it sits on.
    # A problem of its own (another kind), so its short attempt list is what a learner sees,
    # not the hundreds of answers the submit cases above pile onto theirs.
    page_problem = services.problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="contrast"
    )
    page_problem_url = reverse(
        "practice:problem", kwargs={"copy_id": copy.pk, "problem_id": page_problem.pk}
    )
    course_page_url = reverse(
        "courses:page", kwargs={"copy_id": copy.pk, "page_slug": page_problem.page_slug}
    )
    _page_diagnosis, page_wrong = wrong_answer(page_problem.spec)

    def problem_page() -> None:
        response = client.get(page_problem_url)
        assert response.status_code == 200, response.status_code

    def verdict_page() -> None:
        response = client.get(verdict_url)
        assert response.status_code == 200, response.status_code

    def course_page() -> None:
        response = client.get(course_page_url)
        assert response.status_code == 200, response.status_code

    known_token = uuid.uuid4()
    with override_settings(ROOT_URLCONF=_urlconf(), PRACTICE_PREVIEW_RATE="1000000/m"):
        client.post(submit_url, {"text": wrong, "token": str(known_token)})
        verdict_url = client.post(
            page_problem_url, {"text": page_wrong, "token": str(uuid.uuid4())}
        )["Location"]
        times = _measure(
            {
                "bare view, one insert": bare,
                "bare view, no sign-in check": bare_anonymous,
                "submit, incorrect answer": submit_wrong,
                "submit, incorrect, review off": submit_wrong_without_review,
                "submit, repeated token": submit_double,
                "grade() alone": grade_only,
                "preview (htmx)": preview,
                "problem page (one attempt)": problem_page,
                "verdict page": verdict_page,
                "course page": course_page,
            },
            ROUNDS,
        )
        # A correct answer closes its problem, so each round needs a fresh one (made untimed).
        # Each fresh problem first gets a wrong answer: the first on the problem, so its
        # mistake's review card is rated (Again) -- the repeated wrong answer above is not.
        # A bare request in each of these rounds too: their ratios are to these, timed alike.
        correct_times, fresh_wrong_times, fresh_bare_times = [], [], []
        responses = []
        for index in range(WARMUP + ROUNDS // 3):
            fresh = services.problem_new_variant(copy=copy, problem=problem)
            url = reverse("practice:problem", kwargs={"copy_id": copy.pk, "problem_id": fresh.pk})
            _diagnosis, fresh_wrong = wrong_answer(fresh.spec)
            text = right_answer(fresh)
            elapsed = _timed("fresh bare", bare, index >= WARMUP)
            if index >= WARMUP:
                fresh_bare_times.append(elapsed)
            for answer, out, name in (
                (fresh_wrong, fresh_wrong_times, "fresh wrong"),
                (text, correct_times, "correct"),
            ):
                elapsed = _timed(
                    name,
                    lambda answer=answer, url=url: responses.append(
                        client.post(url, {"text": answer, "token": str(uuid.uuid4())})
                    ),
                    index >= WARMUP,
                )
                assert responses.pop().status_code == 302
                if index >= WARMUP:
                    out.append(elapsed)
            problem = fresh
    assert Attempt.objects.filter(status="correct").count() == WARMUP + ROUNDS // 3
    assert Attempt.objects.filter(status="incorrect").count() > 2 * ROUNDS

    base = statistics.median(times["bare view, one insert"])
    bare_cpu_ms = statistics.median(_cpu["bare view, one insert"]) * 1000
    rows = [
        _row(
            "bare view, one insert",
            times["bare view, one insert"],
            ratio=1.0,
            cpu_ratio=1.0,
            note=f"{label}; CPU {bare_cpu_ms:.1f} ms",
        )
    ]
    for case in (
        "submit, incorrect answer",
        "submit, incorrect, review off",
        "submit, repeated token",
        "preview (htmx)",
        "problem page (one attempt)",
        "verdict page",
        "course page",
        "bare view, no sign-in check",
    ):
        rows.append(
            _row(
                case,
                times[case],
                ratio=statistics.median(times[case]) / base,
                cpu_ratio=_cpu_ratio(case, "bare view, one insert"),
                **_budget_columns(case),
            )
        )
    fresh_base = statistics.median(fresh_bare_times)
    rows.append(
        _row(
            "submit, incorrect, new problem (card rated)",
            fresh_wrong_times,
            ratio=statistics.median(fresh_wrong_times) / fresh_base,
            cpu_ratio=_cpu_ratio("fresh wrong", "fresh bare"),
            note=f"bare view in these rounds {fresh_base * 1000:.1f} ms",
            **_budget_columns("submit, incorrect, new problem (card rated)"),
        )
    )
    rows.append(
        _row(
            "submit, correct answer",
            correct_times,
            ratio=statistics.median(correct_times) / fresh_base,
            cpu_ratio=_cpu_ratio("correct", "fresh bare"),
            **_budget_columns("submit, correct answer"),
        )
    )
    rows.append(
        _row(
            "grade() alone",
            times["grade() alone"],
            ratio=statistics.median(times["grade() alone"]) / base,
            note=f"mistake {diagnosis.mistake}",
        )
    )
    return rows
