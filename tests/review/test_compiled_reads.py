"""Review's reads against the querysets they stand for: the learner's settings, the review logs
a right answer left, with and without the reviewed item's own (plain ORM reads), and the locked
card (a compiled read, basislab.compiled_reads)."""

from datetime import timedelta

import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from grading.kinds import MistakeCode, Status
from practice.review.models import ReviewItem, ReviewLog, ReviewSettings
from practice.review.selectors import (
    review_attempt_credit,
    review_settings_of,
    review_settings_stored,
)
from practice.review.services.recording import _locked_item, review_record_attempt
from practice.review.services.review_settings import review_settings_get_or_create
from practice.review.services.variants import review_open

from .conftest import NOW, make_attempt, make_problem


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _items(copy, *mistakes: str) -> list[ReviewItem]:
    with time_machine.travel(NOW, tick=False):
        for mistake in mistakes:
            review_record_attempt(
                attempt=make_attempt(make_problem(copy), mistake=MistakeCode(mistake))
            )
    return list(ReviewItem.objects.filter(copy=copy).order_by("pk"))


def _orm_logs(attempt, item=None) -> list[ReviewLog]:
    logs = ReviewLog.objects.filter(attempt=attempt).exclude(item_id=item.pk if item else None)
    return list(logs.select_related("item").order_by("item__kind", "item__mistake"))


def test_settings_are_the_stored_row_or_unsaved_defaults(copy):
    owner = copy.owner
    default = review_settings_of(user_id=owner.pk)
    assert default.pk is None and default.user_id == owner.pk
    stored = review_settings_get_or_create(user_id=owner.pk)
    found = review_settings_of(user_id=owner.pk)
    assert found.pk == stored.pk
    assert _fields(found) == _fields(ReviewSettings.objects.get(user=owner))


def test_getting_stored_settings_is_the_querysets_one_statement(copy):
    owner = copy.owner
    created = review_settings_get_or_create(user_id=owner.pk)
    queryset = ReviewSettings.objects.filter(user_id=owner.pk)[:1]
    with CaptureQueriesContext(connection) as captured:
        again = review_settings_get_or_create(user_id=owner.pk)
    assert [q["sql"] for q in captured] == [str(queryset.query)]
    assert _fields(again) == _fields(created) == _fields(queryset.get())
    assert review_settings_stored(user_id=owner.pk + 1000) is None


def test_a_practice_answers_credit_logs_are_the_querysets_with_their_items(copy):
    a, b = _items(copy, "omitted_term", "wrong_row")
    at = NOW + timedelta(hours=3)
    with time_machine.travel(at, tick=False):
        attempt = make_attempt(make_problem(copy), status=Status.CORRECT)
        review_record_attempt(attempt=attempt)
    orm = _orm_logs(attempt)
    assert len(orm) == 2
    with CaptureQueriesContext(connection) as captured:
        credit = review_attempt_credit(attempt=attempt)
        items = [log.item for log in credit.credited]
    assert [_fields(log) for log in credit.credited] == [_fields(log) for log in orm]
    assert [_fields(item) for item in items] == [_fields(log.item) for log in orm]
    assert {item.pk for item in items} == {a.pk, b.pk}
    # The logs (items joined) and the learner's time zone: nothing more.
    assert len(captured.captured_queries) == 2


def test_a_reviews_own_log_is_left_out_of_its_credit(copy):
    first, other = _items(copy, "omitted_term", "wrong_row")
    with time_machine.travel(first.due, tick=False):
        variant = review_open(copy=copy, item=first)
        attempt = make_attempt(variant, status=Status.CORRECT)
        review_record_attempt(attempt=attempt)
    assert ReviewLog.objects.filter(attempt=attempt, item=first).exists()
    credit = review_attempt_credit(attempt=attempt, item=first)
    orm = _orm_logs(attempt, first)
    assert [log.pk for log in credit.credited] == [log.pk for log in orm]
    assert [log.item_id for log in credit.credited] == [other.pk]


def test_the_locked_card_says_whether_this_problem_rated_it(copy):
    (item,) = _items(copy, "omitted_term")
    rated_problem = ReviewLog.objects.get(item=item).attempt.problem
    other = make_problem(copy)
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        args = {"copy_id": copy.pk, "kind": item.kind, "mistake": item.mistake}
        assert _locked_item(**args, problem_id=rated_problem.pk).rated_by_problem is True
        assert _locked_item(**args, problem_id=other.pk).rated_by_problem is False
        assert _locked_item(**{**args, "mistake": "wrong_row"}, problem_id=other.pk) is None
    selects = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 3
    assert (
        all(s.endswith("FOR UPDATE") for s in selects) == connection.features.has_select_for_update
    )
