"""The mistake tables: a class's for its instructors, the site's for staff, as a page, CSV and
JSON; numbers checked against a direct count over the attempts; privacy; statements pinned."""

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from lti.models import Context, Membership, Platform, RosterEntry
from practice.analytics.codes import KIND_LEVEL
from practice.analytics.selectors import PRIVATE_BELOW, code_label
from practice.review.models import CardState, ReviewItem
from tests.budgets import BUDGETS
from tests.classroom import enrol, make_platform

from .cohort import cohort, direct_counts, direct_recurrence

IN_CLASS = 6  # cohort-0 .. cohort-5 are the class's learners; cohort-6 is not


@pytest.fixture
def platform(db) -> Platform:
    return make_platform()


@pytest.fixture
def classroom(course, make_user, platform, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        copies = cohort(make_user, course.course.slug, learners=IN_CLASS + 1)
    context = Context.objects.create(platform=platform, context_id="class-1", title="Class 1")
    teacher = make_user(username="teacher")
    enrol(platform, context, teacher, instructor=True)
    for copy in copies[:IN_CLASS]:
        enrol(platform, context, copy.owner, instructor=False)
    # Another class, with its own instructor and the one learner left out of the first.
    other = Context.objects.create(platform=platform, context_id="class-2")
    enrol(platform, other, make_user(username="other-teacher"), instructor=True)
    enrol(platform, other, copies[IN_CLASS].owner, instructor=False)
    return {"context": context, "teacher": teacher, "copies": copies, "other": other}


def _expected(copy_ids: set[int] | None, *, private: bool) -> set[tuple]:
    """Return the flat table's rows computed from the attempts, for these copies (None: all)."""
    per_learner, _ = direct_counts()
    summed: dict[tuple, list[int]] = {}
    for (copy_id, _course, page, idea, kind, level, code, tried), n in per_learner.items():
        if copy_ids is not None and copy_id not in copy_ids:
            continue
        key = (page, idea, kind, code, code_label(code, kind), level or None, tried)
        total = summed.setdefault(key, [0, 0])
        total[0] += n
        total[1] += 1
    rows = set()
    for key, (attempts, learners) in summed.items():
        hidden = private and learners < PRIVATE_BELOW
        rows.add((*key, None if hidden else learners, None if hidden else attempts, hidden))
    return rows


def _as_set(rows: list[dict]) -> set[tuple]:
    names = ("page", "idea", "kind", "code", "label", "level", "try", "learners", "attempts")
    return {(*(row[n] for n in names), row["fewer_than_5"]) for row in rows}


def test_the_class_json_is_the_direct_count_over_its_learners(classroom, client_for):
    response = client_for(classroom["teacher"]).get(
        reverse("analytics:class_json", args=[classroom["context"].pk])
    )
    assert response.status_code == 200
    data = response.json()
    assert data["scope"] == "class" and data["private_below"] == 5
    members = {copy.pk for copy in classroom["copies"][:IN_CLASS]}
    assert _as_set(data["rows"]) == _expected(members, private=True)
    # Both sides of the threshold are there: some numbers shown, some hidden.
    assert {row["fewer_than_5"] for row in data["rows"]} == {True, False}
    right = [
        r
        for r in data["rows"]
        if (r["kind"], r["code"], r["try"], r["level"]) == ("weighted_sum", "correct", "all", None)
    ]
    assert [r["learners"] for r in right] == [IN_CLASS]


def test_the_class_csv_has_the_same_numbers(classroom, client_for):
    client = client_for(classroom["teacher"])
    context_id = classroom["context"].pk
    response = client.get(reverse("analytics:class_csv", args=[context_id]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "page", "idea", "kind", "code", "label", "level", "try", "learners", "attempts"
    ]  # fmt: skip
    expected = set()
    for page, idea, kind, code, label, level, tried, learners, attempts, hidden in _expected(
        {copy.pk for copy in classroom["copies"][:IN_CLASS]}, private=True
    ):
        numbers = ("fewer than 5", "fewer than 5") if hidden else (str(learners), str(attempts))
        expected.add((page, idea, kind, code, label, str(level or "all"), tried, *numbers))
    assert {tuple(row) for row in rows[1:]} == expected
    assert len(rows) - 1 == len(expected)


def test_the_class_page_shows_causes_by_label_and_hides_small_numbers(classroom, client_for):
    response = client_for(classroom["teacher"]).get(
        reverse("analytics:class", args=[classroom["context"].pk])
    )
    assert response.status_code == 200
    html = response.content.decode()
    table = response.context["table"]
    group = next(g for g in table.groups if g.kind == "weighted_sum")
    assert group.rows[-1].code == "correct"  # named causes first, right answers last
    named = [row for row in group.rows if row.code not in ("correct", "unexplained")]
    assert named, "the cohort made named mistakes"
    for row in named:
        assert row.label in html and row.label != row.code
    assert "fewer than 5" in html
    assert f"{IN_CLASS} learners" in html


def test_the_site_view_shows_every_number_to_staff(classroom, client_for, staff):
    response = client_for(staff).get(reverse("analytics:site_json"))
    assert response.status_code == 200
    data = response.json()
    assert data["private_below"] is None
    assert _as_set(data["rows"]) == _expected(None, private=False)
    assert not any(row["fewer_than_5"] for row in data["rows"])
    page = client_for(staff).get(reverse("analytics:site"))
    assert page.status_code == 200 and "fewer than 5" not in page.content.decode()
    csv_rows = client_for(staff).get(reverse("analytics:site_csv")).content.decode().splitlines()
    assert len(csv_rows) - 1 == len(data["rows"])


@pytest.mark.parametrize("name", ["analytics:class", "analytics:class_csv", "analytics:class_json"])
def test_a_learner_of_the_class_and_another_classs_instructor_get_404(classroom, client_for, name):
    url = reverse(name, args=[classroom["context"].pk])
    learner = classroom["copies"][0].owner
    other_teacher = Membership.objects.get(context=classroom["other"], instructor=True)
    for user in (learner, other_teacher.lti_user.user):
        assert client_for(user).get(url).status_code == 404, (name, user)
    assert client_for(classroom["teacher"]).get(url).status_code == 200


@pytest.mark.parametrize("name", ["analytics:site", "analytics:site_csv", "analytics:site_json"])
def test_the_site_views_are_404_for_instructors_and_learners(classroom, client_for, name):
    for user in (classroom["teacher"], classroom["copies"][0].owner):
        assert client_for(user).get(reverse(name)).status_code == 404


def test_another_class_sees_only_its_own_learner(classroom, client_for):
    other = classroom["other"]
    teacher = Membership.objects.get(context=other, instructor=True).lti_user.user
    data = client_for(teacher).get(reverse("analytics:class_json", args=[other.pk])).json()
    assert data["rows"] and all(row["fewer_than_5"] for row in data["rows"])
    assert _as_set(data["rows"]) == _expected({classroom["copies"][IN_CLASS].pk}, private=True)


# user, the instructor's context, the course's idea titles, the table, recurrence, who has
# each mistake now (the session from the cache: Django's cached_db): exactly its budget.
CLASS_PAGE_STATEMENTS = BUDGETS["analytics class page"].statements


def test_the_class_page_takes_a_fixed_number_of_statements(
    classroom, client_for, django_assert_num_queries
):
    client = client_for(classroom["teacher"])
    url = reverse("analytics:class", args=[classroom["context"].pk])
    with django_assert_num_queries(CLASS_PAGE_STATEMENTS):
        assert client.get(url).status_code == 200


def _expected_recurrence(copy_ids: set[int] | None, *, private: bool) -> set[tuple]:
    """Return the recurrence rows computed from the attempts, for these copies (None: all)."""
    summed: dict[tuple, list[int]] = {}
    for (copy_id, kind, mistake), (_first, problem, review) in direct_recurrence().items():
        if copy_ids is not None and copy_id not in copy_ids:
            continue
        row = summed.setdefault((kind, mistake), [0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += problem is True
        row[2] += problem is not None
        row[3] += review is True
        row[4] += review is not None
    rows = set()
    for (kind, mistake), (made, p_again, p_of, r_again, r_of) in summed.items():
        shown = [made, p_again, p_of, r_again, r_of]
        hide = [made, p_of, p_of, r_of, r_of]
        numbers = tuple(
            None if private and h < PRIVATE_BELOW else n for n, h in zip(shown, hide, strict=True)
        )
        rows.add((kind, mistake, *numbers))
    return rows


def _recurrence_set(rows: list[dict]) -> set[tuple]:
    names = (
        "kind",
        "mistake",
        "learners",
        "next_problem_again",
        "next_problem_of",
        "next_review_again",
        "next_review_of",
    )
    return {tuple(row[n] for n in names) for row in rows}


def test_the_class_recurrence_is_the_direct_computation_over_its_learners(classroom, client_for):
    client = client_for(classroom["teacher"])
    context_id = classroom["context"].pk
    data = client.get(reverse("analytics:class_json", args=[context_id])).json()
    members = {copy.pk for copy in classroom["copies"][:IN_CLASS]}
    assert data["recurrence"]
    assert _recurrence_set(data["recurrence"]) == _expected_recurrence(members, private=True)
    response = client.get(reverse("analytics:class_recurrence_csv", args=[context_id]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["month", "kind", "mistake"]
    totals = [r[1:] for r in rows[1:] if r[0] == "all"]
    assert len(totals) == len(data["recurrence"])
    assert len(rows) - 1 - len(totals) == len(data["recurrence_by_month"])
    written = {(r[0], r[1], r[3], r[4], r[5], r[6], r[7]) for r in totals}
    assert written == {
        tuple("fewer than 5" if v is None else str(v) for v in row)
        for row in _expected_recurrence(members, private=True)
    }


def test_the_site_recurrence_shows_every_number(classroom, client_for, staff):
    data = client_for(staff).get(reverse("analytics:site_json")).json()
    assert _recurrence_set(data["recurrence"]) == _expected_recurrence(None, private=False)
    assert "who_has_this_now" not in data  # names are a class's instructors' only
    page = client_for(staff).get(reverse("analytics:site")).content.decode()
    assert 'id="recurrence-table"' in page
    response = client_for(staff).get(reverse("analytics:site_recurrence_csv"))
    lines = response.content.decode().splitlines()
    assert len(lines) - 1 == len(data["recurrence"]) + len(data["recurrence_by_month"])


def test_who_has_this_now_lists_the_classs_learners_whose_item_is_due_or_lapsed(
    classroom, client_for
):
    now = timezone.now()
    copies = classroom["copies"]
    hour = datetime.timedelta(hours=1)
    ReviewItem.objects.update(due=now + 24 * hour, state=CardState.REVIEW)
    ReviewItem.objects.filter(copy=copies[0]).update(due=now - hour)  # due
    ReviewItem.objects.filter(copy=copies[1]).update(state=CardState.RELEARNING)  # lapsed
    ReviewItem.objects.filter(copy=copies[IN_CLASS]).update(due=now - hour)  # another class
    expected: dict[tuple[str, str], set[tuple[str, bool]]] = {}
    members = {copy.pk for copy in copies[:IN_CLASS]}
    for item in ReviewItem.objects.select_related("copy__owner__lti_identity"):
        has_it = item.due <= now or item.state == CardState.RELEARNING
        if item.copy_id in members and has_it and item.mistake not in KIND_LEVEL:
            sub = item.copy.owner.lti_identity.sub
            lapsed = item.state == CardState.RELEARNING
            expected.setdefault((item.kind, item.mistake), set()).add((sub, lapsed))
    assert expected, "the cohort's first two learners have named mistakes up for review"
    client = client_for(classroom["teacher"])
    data = client.get(reverse("analytics:class_json", args=[classroom["context"].pk])).json()
    got = {
        (row["kind"], row["mistake"]): {(h["sub"], h["lapsed"]) for h in row["learners"]}
        for row in data["who_has_this_now"]
    }
    assert got == expected
    outsider = copies[IN_CLASS].owner.lti_identity.sub
    assert all(outsider not in {sub for sub, _ in subs} for subs in got.values())
    html = client.get(reverse("analytics:class", args=[classroom["context"].pk])).content.decode()
    assert 'id="analytics-holders"' in html
    assert copies[0].owner.lti_identity.sub in html
    assert copies[1].owner.lti_identity.sub + " (lapsed)" in html
    # The other class's instructor sees their own learner there, never this class's.
    other = classroom["other"]
    teacher = Membership.objects.get(context=other, instructor=True).lti_user.user
    theirs = client_for(teacher).get(reverse("analytics:class_json", args=[other.pk])).json()
    subs = {h["sub"] for row in theirs["who_has_this_now"] for h in row["learners"]}
    assert subs == {outsider}


@pytest.mark.parametrize("how", ["left", "inactive"])
def test_a_learner_who_left_the_class_or_is_inactive_is_in_none_of_its_numbers(
    classroom, client_for, how
):
    now = timezone.now()
    copies = classroom["copies"]
    context = classroom["context"]
    ReviewItem.objects.update(due=now - datetime.timedelta(hours=1), state=CardState.REVIEW)
    gone = copies[0].owner.lti_identity
    RosterEntry.objects.create(
        context=context,
        sub=gone.sub,
        status="Active" if how == "left" else "Inactive",
        left_at=now if how == "left" else None,
    )
    # A roster row that lists a learner as active changes nothing for them.
    RosterEntry.objects.create(
        context=context, sub=copies[1].owner.lti_identity.sub, status="Active"
    )
    client = client_for(classroom["teacher"])
    data = client.get(reverse("analytics:class_json", args=[context.pk])).json()
    holders = {h["sub"] for row in data["who_has_this_now"] for h in row["learners"]}
    assert gone.sub not in holders
    assert copies[1].owner.lti_identity.sub in holders
    stayed = {copy.pk for copy in copies[1:IN_CLASS]}
    assert _as_set(data["rows"]) == _expected(stayed, private=True)
    assert _recurrence_set(data["recurrence"]) == _expected_recurrence(stayed, private=True)
    if how == "left":  # launching again after the roster dropped them brings them back
        Membership.objects.filter(context=context, lti_user=gone).update(
            last_launch_at=now + datetime.timedelta(minutes=1)
        )
        data = client.get(reverse("analytics:class_json", args=[context.pk])).json()
        assert gone.sub in {h["sub"] for row in data["who_has_this_now"] for h in row["learners"]}


# user, the course's idea titles, the table, recurrence, reveals, unexplained values (the
# session from the cache).
SITE_PAGE_STATEMENTS = 6


def test_the_site_page_takes_a_fixed_number_of_statements(
    classroom, client_for, staff, django_assert_num_queries
):
    client = client_for(staff)
    with django_assert_num_queries(SITE_PAGE_STATEMENTS):
        assert client.get(reverse("analytics:site")).status_code == 200


# Each export's statements: the user first (the session from the cache), then (a class's) its
# context, then its reads.
EXPORT_STATEMENTS = {
    # the idea titles, the table, recurrence in all and by month, who has each mistake now
    "analytics:class_json": 2 + 5,
    "analytics:class_csv": 2 + 2,  # the idea titles, the table
    "analytics:class_recurrence_csv": 2 + 2,  # recurrence in all and by month
    # the idea titles, the table, recurrence in all and by month, reveals, unexplained values
    "analytics:site_json": 1 + 6,
    "analytics:site_csv": 1 + 2,
    "analytics:site_recurrence_csv": 1 + 2,
}


@pytest.mark.parametrize("name", sorted(EXPORT_STATEMENTS))
def test_each_export_takes_a_fixed_number_of_statements(
    classroom, client_for, staff, django_assert_num_queries, name
):
    if name.startswith("analytics:class"):
        client = client_for(classroom["teacher"])
        url = reverse(name, args=[classroom["context"].pk])
    else:
        client, url = client_for(staff), reverse(name)
    with django_assert_num_queries(EXPORT_STATEMENTS[name]):
        assert client.get(url).status_code == 200


def test_each_kinds_causes_are_drawn_as_shares_of_its_named_wrong_answers(classroom, client_for):
    response = client_for(classroom["teacher"]).get(
        reverse("analytics:class", args=[classroom["context"].pk])
    )
    html = response.content.decode()
    drawn = 0
    for group in response.context["table"].groups:
        named = [r for r in group.rows if r.code not in ("correct", "unexplained")]
        figure = re.search(
            rf'<figure class="analytics-figure analytics-causes" data-kind="{group.kind}">'
            r"(.*?)</figure>",
            html,
            re.S,
        )
        if not named:
            assert figure is None, group.kind
            continue
        assert figure is not None, group.kind
        values = [float(v) for v in re.findall(r'data-value="([0-9.]+)"', figure.group(1))]
        # computed here from the table's own counts: one bar per cause of 5 learners or more
        shown = [r.total.attempts for r in named if not r.total.hidden]
        expected = [a / sum(shown) for a in shown]
        assert values == pytest.approx(expected, abs=1e-4), group.kind
        if shown:
            assert sum(values) == pytest.approx(1.0, abs=1e-3)
        # a hidden cause is named with "fewer than 5" and no bar
        hidden = [r for r in named if r.total.hidden]
        assert figure.group(1).count("fewer than 5") == len(hidden), group.kind
        drawn += bool(values)
    assert drawn, "no group of the cohort had a cause of 5 learners or more"
