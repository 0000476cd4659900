"""Mistakes per variant parameter: the rule that reads a spec's parameters and buckets their
values, the counts kept on write checked against a direct count over a generated cohort's
attempts (and after a rebuild, a repeated count and a deleted learner), the author's kind page
with its tables and pictures, its CSV, and the "fewer than 5" rule outside the staff view."""

import csv
import io
import re
from collections import Counter
from fractions import Fraction

import pytest
from django.urls import reverse

from practice.analytics.codes import ANY_CODE
from practice.analytics.models import AttemptCounted, LearnerParameterCount, ParameterCount
from practice.analytics.parameters import bucket, parameters_of
from practice.analytics.pictures import parameter_picture
from practice.analytics.selectors import PRIVATE_BELOW, parameter_tables
from practice.analytics.services import _graded, count_attempt, counts_rebuild, counts_record
from practice.generators import GENERATORS, generate
from practice.models import Attempt

from .cohort import cohort

PARAMETER_KEY = ("course_id", "kind", "level", "name", "bucket", "code")


@pytest.fixture
def learners(course, make_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return cohort(make_user, course.course.slug, learners=7)


def direct_parameter_counts() -> tuple[dict, dict]:
    """Return (per learner and key: attempts, per key: (attempts, learners)) computed from the
    attempts and their problems' specs, by the definitions in docs/analytics.md."""
    per_learner: Counter = Counter()
    for attempt in Attempt.objects.exclude(status="invalid").select_related("problem", "copy"):
        problem = attempt.problem
        code = "correct" if attempt.status == "correct" else (attempt.mistake or "unexplained")
        for name, label, _sort in parameters_of(problem.spec):
            for level in (problem.level, 0):
                for counted in (code, ANY_CODE):
                    key = (attempt.copy.course_id, problem.kind, level, name, label, counted)
                    per_learner[(attempt.copy_id, *key)] += 1
    per_key: dict = {}
    for (_copy, *key), attempts in per_learner.items():
        total, who = per_key.get(tuple(key), (0, 0))
        per_key[tuple(key)] = (total + attempts, who + 1)
    return dict(per_learner), per_key


def stored_parameter_counts() -> tuple[dict, dict]:
    per_learner = {
        tuple(row[:-1]): row[-1]
        for row in LearnerParameterCount.objects.values_list("copy_id", *PARAMETER_KEY, "attempts")
    }
    per_key = {
        tuple(row[:-2]): (row[-2], row[-1])
        for row in ParameterCount.objects.values_list(*PARAMETER_KEY, "attempts", "learners")
    }
    return per_learner, per_key


def test_the_self_weight_is_a_parameter_of_weighted_sum():
    spec = generate("weighted_sum", seed=3, level=1)
    found = {name: (label, sort) for name, label, sort in parameters_of(spec)}
    self_weight = Fraction(spec["weights"][spec["position"]])
    assert found["weights[position]"] == bucket(self_weight)
    assert found["position"] == (str(spec["position"]), float(spec["position"]))
    # Words, rows and the generator's record are never parameters.
    assert not {"tokens", "rows", "weights", "kind", "level", "generator"} & set(found)


def test_every_kind_gives_parameters_by_the_one_rule():
    for kind in GENERATORS:
        for name, label, sort in parameters_of(generate(kind, seed=11, level=1)):
            assert 0 < len(name) <= 40 and 0 < len(label) <= 24, (kind, name, label)
            assert isinstance(sort, float)
    # The declared kinds' params are read too; a kind of words alone has none.
    assert "T" in {
        name for name, *_ in parameters_of(generate("temperature_softmax", seed=1, level=1))
    }
    assert parameters_of(generate("utf8_bytes", seed=1, level=1)) == ()


@pytest.mark.parametrize(
    ("value", "label", "sort"),
    [
        ("3", "3", 3.0),
        ("-9", "-9", -9.0),
        ("1/2", "0.5 to under 0.6", 0.5),
        ("1/6", "0.1 to under 0.2", 0.1),
        ("-1/3", "-0.4 to under -0.3", -0.4),
        ("7/2", "3 to under 4", 3.0),
        ("10", "10 to under 20", 10.0),
        ("6679", "6000 to under 7000", 6000.0),
        ("-23", "-30 to under -20", -30.0),
        ("3141592653", "3e9 to under 4e9", 3e9),
    ],
)
def test_a_value_falls_in_its_bucket(value, label, sort):
    assert bucket(Fraction(value)) == (label, sort)


def test_the_parameter_counts_are_the_direct_counts(learners):
    assert stored_parameter_counts() == direct_parameter_counts()
    per_key = stored_parameter_counts()[1]
    names = {(key[1], key[3]) for key in per_key}
    assert {("weighted_sum", "weights[position]"), ("lookup", "position")} <= names
    # Every graded weighted_sum answer is counted once under each of its parameters' any row.
    graded = Attempt.objects.exclude(status="invalid").filter(problem__kind="weighted_sum")
    assert (
        sum(
            n
            for key, (n, _who) in per_key.items()
            if key[1:4] == ("weighted_sum", 0, "weights[position]") and key[5] == ANY_CODE
        )
        == graded.count()
    )


def test_a_rebuild_gives_the_same_parameter_counts(learners):
    before = stored_parameter_counts()
    ParameterCount.objects.all().delete()
    counts_rebuild()
    assert stored_parameter_counts() == before


def test_an_attempt_counted_twice_is_counted_once(learners):
    before = stored_parameter_counts()
    attempt_ids = list(Attempt.objects.values_list("pk", flat=True))
    assert counts_record(attempt_ids=attempt_ids) == 0
    facts = _graded(attempt_ids[:3])
    assert facts and not any(count_attempt(f) for f in facts)
    assert stored_parameter_counts() == before
    # Counted again from scratch (its marker gone), an attempt adds exactly its own rows.
    one = facts[0]
    AttemptCounted.objects.filter(attempt_id=one.attempt_id).delete()
    LearnerParameterCount.objects.all().delete()
    ParameterCount.objects.all().delete()
    assert count_attempt(one)
    rows = set(ParameterCount.objects.values_list("level", "name", "code", "attempts", "learners"))
    expected = {
        (level, name, code, 1, 1)
        for name, _b, _s in one.parameters
        for level in (one.level, 0)
        for code in (one.code, ANY_CODE)
    }
    assert rows == expected and len(expected) == 4 * len(one.parameters) > 0


def test_a_deleted_learner_leaves_the_parameter_counts(learners):
    learners[0].delete()
    assert stored_parameter_counts() == direct_parameter_counts()
    assert not LearnerParameterCount.objects.filter(copy_id=learners[0].pk).exists()


def test_the_kind_page_shows_the_wrong_share_per_value(learners, client_for, staff):
    client = client_for(staff)
    data = client.get(reverse("analytics:kind_json", args=["weighted_sum"])).json()
    per_key = direct_parameter_counts()[1]
    for table in data["parameters"]:
        for row in table["values"]:
            key = (learners[0].course_id, "weighted_sum", 0, table["name"], row["value"])
            answers, who = per_key[(*key, ANY_CODE)]
            right = per_key.get((*key, "correct"), (0, 0))[0]
            assert (row["answers"], row["learners"], row["wrong"]) == (
                answers,
                who,
                answers - right,
            )
            assert {m["code"]: (m["answers"], m["learners"]) for m in row["mistakes"]} == {
                k[5]: v
                for k, v in per_key.items()
                if k[:5] == key and k[5] not in (ANY_CODE, "correct")
            }
    assert "weights[position]" in {t["name"] for t in data["parameters"]}
    page = client.get(reverse("analytics:kind", args=["weighted_sum"])).content.decode()
    assert 'class="analytics-table kind-parameter-table" data-parameter="weights[position]"' in page
    assert page.count('<figure class="analytics-figure kind-parameter-picture"') == len(
        data["parameters"]
    )
    assert 'data-role="wrong"' in page and "fewer than 5" not in page


def test_the_kind_csv_has_every_parameter_count(learners, client_for, staff):
    response = client_for(staff).get(reverse("analytics:kind_csv", args=["weighted_sum"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "kind",
        "parameter",
        "value",
        "sort",
        "level",
        "code",
        "learners",
        "attempts",
    ]
    course = learners[0].course_id
    written = {
        (course, kind, 0 if level == "all" else int(level), name, value, code): (
            int(attempts),
            int(who),
        )
        for kind, name, value, _sort, level, code, who, attempts in rows[1:]
    }
    direct = {k: v for k, v in direct_parameter_counts()[1].items() if k[1] == "weighted_sum"}
    assert written == direct and direct


def test_fewer_than_five_learners_are_hidden_outside_the_staff_view():
    rows = [
        {"name": "p", "bucket": "1", "sort": 1.0, "code": ANY_CODE, "attempts": 9, "learners": 4},
        {"name": "p", "bucket": "1", "sort": 1.0, "code": "correct", "attempts": 3, "learners": 3},
        {"name": "p", "bucket": "2", "sort": 2.0, "code": ANY_CODE, "attempts": 20, "learners": 8},
        {
            "name": "p",
            "bucket": "2",
            "sort": 2.0,
            "code": "wrong_row",
            "attempts": 6,
            "learners": 2,
        },
        {
            "name": "p",
            "bucket": "2",
            "sort": 2.0,
            "code": "omitted_term",
            "attempts": 7,
            "learners": PRIVATE_BELOW,
        },
    ]
    (table,) = parameter_tables(rows, kind="weighted_sum", private=True)
    small, big = table.rows
    assert small.hidden and small.percent is None and small.text == "fewer than 5"
    assert not big.hidden and big.percent == 100 and big.wrong == 20
    tallies = {code: tally.hidden for code, _label, tally in big.mistakes}
    assert tallies == {"omitted_term": False, "wrong_row": True}
    (staff_table,) = parameter_tables(rows, kind="weighted_sum", private=False)
    assert staff_table.rows[0].percent == 67 and not staff_table.rows[0].hidden


def test_each_bar_is_the_wrong_share_of_its_value(learners):
    from practice.analytics.selectors import kind_view

    tables = kind_view(kind="weighted_sum").parameters
    assert tables
    for table in tables:
        svg = parameter_picture(table)
        drawn = [float(v) for v in re.findall(r'data-value="([0-9.]+)"', svg)]
        assert drawn == [round(r.wrong / r.answers, 4) for r in table.rows]
        assert "<title" in svg and "<desc" in svg and table.name in svg


def test_the_kind_csv_takes_two_statements(learners, client_for, staff, django_assert_num_queries):
    client = client_for(staff)
    with django_assert_num_queries(2):  # the user, the kind's parameter rows
        assert client.get(reverse("analytics:kind_csv", args=["weighted_sum"])).status_code == 200
