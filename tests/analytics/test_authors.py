"""What authors see on the site's page: worked solutions revealed per kind and the values of
wrong answers no catalogued mistake explains, checked against direct counts, a rebuild and a
deleted learner."""

from collections import Counter, defaultdict

import pytest
from django.urls import reverse

from practice import services
from practice.analytics.models import UnexplainedValue
from practice.analytics.selectors import TOP_VALUES
from practice.analytics.services import counts_rebuild
from practice.models import Attempt, Reveal
from practice.reveals import problem_reveal

from .cohort import IDEA, LOOKUP_IDEA, PAGE, cohort, submit, unexplained_answer


@pytest.fixture
def authored(course, make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        copies = cohort(make_user, course.course.slug, learners=7)
        for n, copy in enumerate(copies):
            problem = services.problem_open(
                copy=copy, page_slug=PAGE, idea_slug=IDEA, kind="weighted_sum"
            )
            if n % 2:
                problem_reveal(copy=copy, problem=problem)
            elif n == 0:
                # One value read twice: the same unexplained answer, then once more.
                text = unexplained_answer(problem)
                submit(copy, problem, text)
                submit(copy, problem, text)
        lookup = services.problem_open(
            copy=copies[2], page_slug=PAGE, idea_slug=LOOKUP_IDEA, kind="lookup"
        )
        problem_reveal(copy=copies[2], problem=lookup)
    return copies


def _direct_values() -> list[tuple[str, str, int]]:
    counted = Counter(
        (a.problem.kind, a.verdict["interpreted"][:200])
        for a in Attempt.objects.filter(status="incorrect", mistake=None).select_related("problem")
    )
    per_kind: dict[str, list] = defaultdict(list)
    for (kind, value), n in counted.items():
        per_kind[kind].append((kind, value, n))
    rows = []
    for kind in sorted(per_kind):
        rows += sorted(per_kind[kind], key=lambda r: (-r[2], r[1]))[:TOP_VALUES]
    return rows


def _direct_reveals() -> set[tuple[str, int, int]]:
    reveals: dict[str, list] = defaultdict(list)
    for reveal in Reveal.objects.select_related("problem"):
        reveals[reveal.problem.kind].append(reveal.copy_id)
    return {(kind, len(copies), len(set(copies))) for kind, copies in reveals.items()}


def test_reveals_and_unexplained_values_are_the_direct_counts(authored, client_for, staff):
    data = client_for(staff).get(reverse("analytics:site_json")).json()
    assert {(r["kind"], r["reveals"], r["learners"]) for r in data["reveals"]} == (
        _direct_reveals()
    )
    assert {r["kind"] for r in data["reveals"]} == {"weighted_sum", "lookup"}
    values = [(r["kind"], r["value"], r["attempts"]) for r in data["unexplained_values"]]
    assert values == _direct_values()
    assert values[0][2] >= 2, "the value read twice comes first"
    page = client_for(staff).get(reverse("analytics:site")).content.decode()
    assert 'id="reveals-table"' in page and 'id="values-table"' in page


def test_unexplained_values_survive_a_rebuild_and_forget_a_deleted_learner(authored):
    def stored():
        return set(UnexplainedValue.objects.values_list("kind", "value", "attempts"))

    before = stored()
    counts_rebuild()
    assert stored() == before
    authored[0].delete()
    assert {(k, v, n) for k, v, n in _direct_values()} == stored()
    assert len(stored()) < len(before)


def test_only_the_top_values_per_kind_are_listed(authored, client_for, staff):
    course = authored[0].course
    UnexplainedValue.objects.bulk_create(
        UnexplainedValue(course=course, kind="lookup", value=f"v{n:02d}", attempts=100 + n)
        for n in range(TOP_VALUES + 3)
    )
    data = client_for(staff).get(reverse("analytics:site_json")).json()
    lookup = [r["value"] for r in data["unexplained_values"] if r["kind"] == "lookup"]
    assert lookup == [f"v{n:02d}" for n in range(TOP_VALUES + 2, 2, -1)]


def _first_answers(kind: str) -> list[Attempt]:
    seen: set[int] = set()
    firsts = []
    for attempt in (
        Attempt.objects.exclude(status="invalid")
        .filter(problem__kind=kind, problem__purpose="practice")
        .select_related("problem")
        .order_by("pk")
    ):
        if attempt.problem_id not in seen:
            firsts.append(attempt)
        seen.add(attempt.problem_id)
    return firsts


def test_the_kind_view_is_the_direct_count_over_the_attempts(authored, client_for, staff):
    kind = "weighted_sum"
    data = client_for(staff).get(reverse("analytics:kind_json", args=[kind])).json()
    firsts = _first_answers(kind)
    levels = {}
    for attempt in firsts:
        tries, right = levels.get(attempt.problem.level, (0, 0))
        levels[attempt.problem.level] = (tries + 1, right + (attempt.status == "correct"))
    mistakes = Counter(
        (a.problem.level, a.mistake)
        for a in Attempt.objects.filter(problem__kind=kind).exclude(mistake=None)
    )
    assert {r["level"]: (r["first_tries"], r["first_right"]) for r in data["levels"]} == levels
    assert {
        (r["level"], m["code"]): m["answers"]
        for r in data["levels"]
        for m in r["mistakes"]
        if m["code"] != "unexplained"
    } == dict(mistakes)
    explained: dict[str, dict[int, str]] = defaultdict(dict)
    for a in Attempt.objects.filter(problem__kind=kind).exclude(mistake=None):
        explained[a.mistake][a.problem_id] = a.problem.state
    assert {
        r["mistake"]: (r["explained"], r["solved"], r["closed_unsolved"], r["still_open"])
        for r in data["explained"]
    } == {
        m: (
            len(states),
            sum(s == "solved" for s in states.values()),
            sum(s in ("replaced", "revealed") for s in states.values()),
            sum(s == "open" for s in states.values()),
        )
        for m, states in explained.items()
    }
    per_learner: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for attempt in firsts:
        per_learner[attempt.copy_id][0] += 1
        per_learner[attempt.copy_id][1] += attempt.status == "correct"
    rates = sorted(right / tries for tries, right in per_learner.values())
    fifth = len(rates) // 5
    spread = data["spread"]
    assert spread["learners"] == len(rates) == 7
    assert spread["top_fifth"] == pytest.approx(100 * sum(rates[-fifth:]) / fifth)
    assert spread["bottom_fifth"] == pytest.approx(100 * sum(rates[:fifth]) / fifth)
    assert [(r["kind"], r["reveals"]) for r in data["reveals"]] == [
        (kind, Reveal.objects.filter(problem__kind=kind).count())
    ]
    assert all(r["kind"] == kind for r in data["unexplained_values"])
    page = client_for(staff).get(reverse("analytics:kind", args=[kind]))
    assert page.status_code == 200
    assert 'id="kind-levels-table"' in page.content.decode()


def test_the_kind_view_of_an_unknown_kind_is_404(authored, client_for, staff):
    assert client_for(staff).get("/analytics/kinds/no_such_kind/").status_code == 404


def test_a_kind_with_under_five_learners_has_no_fifths(course, client_for, staff):
    data = client_for(staff).get(reverse("analytics:kind_json", args=["lookup"])).json()
    assert data["spread"] == {"learners": 0, "top_fifth": None, "bottom_fifth": None}
    assert data["levels"] == [] and data["explained"] == []


# user, per level, after the explanation, the spread (its fifths, one row), reveals, values,
# per variant parameter's value (the session from the cache).
KIND_PAGE_STATEMENTS = 7


def test_the_kind_page_takes_a_fixed_number_of_statements(
    authored, client_for, staff, django_assert_num_queries
):
    client = client_for(staff)
    with django_assert_num_queries(KIND_PAGE_STATEMENTS):
        assert client.get(reverse("analytics:kind", args=["weighted_sum"])).status_code == 200


def test_the_kind_json_takes_as_many_statements_as_its_page(
    authored, client_for, staff, django_assert_num_queries
):
    client = client_for(staff)
    with django_assert_num_queries(KIND_PAGE_STATEMENTS):
        assert client.get(reverse("analytics:kind_json", args=["weighted_sum"])).status_code == 200


def test_the_spread_is_the_mean_of_each_fifth_over_many_learners(course, make_user):
    """The fifths computed in SQL against the same means in Python, over learner rows made by
    hand: 12 learners with first tries at two levels (ties among them), so a fifth is two
    learners; retries, another kind and a learner with no first try are left out."""
    from courses.services import copy_get_or_create
    from practice.analytics.models import LearnerMistakeCount
    from practice.analytics.selectors import Spread, kind_spread

    slug = course.course.slug
    firsts = [(3, 1), (4, 0), (2, 2), (5, 5), (1, 0), (3, 3), (2, 1), (4, 2), (6, 3), (2, 0)]
    firsts += [(4, 2), (5, 4)]  # (tries, right), a tie with the learner at (4, 2) above
    rates = []
    for n, (tries, right) in enumerate([*firsts, (0, 0)]):
        copy = copy_get_or_create(user=make_user(username=f"spread-{n}"), course_slug=slug)
        key = dict(copy=copy, course=copy.course, page_slug=PAGE, idea_slug=IDEA)
        rows = [("weighted_sum", 1, "correct", "first", right - right // 2)]
        rows += [("weighted_sum", 2, "correct", "first", right // 2)]
        rows += [("weighted_sum", 1, "unexplained", "first", tries - right)]
        rows += [("weighted_sum", 1, "correct", "retry", 3), ("lookup", 1, "correct", "first", 2)]
        LearnerMistakeCount.objects.bulk_create(
            LearnerMistakeCount(kind=k, level=lv, code=c, try_class=t, attempts=a, **key)
            for k, lv, c, t, a in rows
        )
        if tries:
            rates.append(right / tries)
    rates.sort()
    fifth = len(rates) // 5
    spread = kind_spread(kind="weighted_sum")
    assert (spread.learners, fifth) == (12, 2)
    assert spread.top == pytest.approx(100 * sum(rates[-fifth:]) / fifth)
    assert spread.bottom == pytest.approx(100 * sum(rates[:fifth]) / fifth)
    assert kind_spread(kind="lookup") == Spread(13, 100.0, 100.0)
    assert kind_spread(kind="no_such_kind") == Spread(0, None, None)
