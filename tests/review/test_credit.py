"""Review that learns from every answer: implicit credit from right first tries, fractional
credit down the idea graph, unexplained mistakes as items, a failed review counted once, the
queue choosing reviews that clear others, and each policy's switch."""

import uuid
from datetime import timedelta

import pytest
import time_machine

from grading.kinds import KINDS, MISTAKES_BY_KIND, MistakeCode, ProblemKind, Status
from practice.generators import generate
from practice.models import ProblemInstance
from practice.review import evidence, scheduling
from practice.review.codes import KIND_LEVEL, UNEXPLAINED
from practice.review.models import ReviewItem, ReviewLog
from practice.review.selectors import (
    review_attempt_credit,
    review_done_today,
    review_next,
    review_with_last_credit,
)
from practice.review.services.export import review_export
from practice.review.services.recording import review_record_attempt
from practice.review.services.review_settings import (
    review_settings_get_or_create,
    review_settings_update,
)
from practice.review.services.variants import review_open
from practice.services import attempt_submit

from .conftest import NOW, make_attempt, make_problem

WS = ProblemKind.WEIGHTED_SUM
LATER = NOW + timedelta(hours=3)


def _item(copy, mistake: str, kind: ProblemKind = WS, *, at=NOW) -> ReviewItem:
    with time_machine.travel(at, tick=False):
        review_record_attempt(
            attempt=make_attempt(make_problem(copy, kind=kind), mistake=MistakeCode(mistake))
        )
    return ReviewItem.objects.get(copy=copy, kind=kind, mistake=mistake)


def _right(copy, kind: ProblemKind = WS, *, at, problem=None) -> list[ReviewLog]:
    with time_machine.travel(at, tick=False):
        problem = problem or make_problem(copy, kind=kind)
        return review_record_attempt(attempt=make_attempt(problem, status=Status.CORRECT))


def _card_after(item: ReviewItem, rating, at) -> scheduling.CardState:
    return scheduling.card_review(scheduling.card_of(item), rating, at=at)


def _set_graph(copy, edges: list[dict]) -> None:
    version = copy.version
    version.credit_graph = edges
    version.save(update_fields=["credit_graph"])


# --- 1. implicit credit ---------------------------------------------------------------------


def test_a_right_first_try_moves_only_the_due_dates_of_the_kinds_items_by_its_evidence(copy):
    a = _item(copy, "omitted_term")
    b = _item(copy, "wrong_row", at=NOW + timedelta(minutes=5))
    other = _item(copy, "off_by_one_row", ProblemKind.LOOKUP)
    logs = _right(copy, at=LATER)
    assert sorted(log.item_id for log in logs) == sorted([a.pk, b.pk])
    # An untargeted problem: each mistake one of the kind's catalogued ones, never repeated yet.
    share = evidence.evidence_share(reps=1, lapses=0, likelihood=1 / len(MISTAKES_BY_KIND[WS]))
    for log, before in zip(sorted(logs, key=lambda log: log.item_id), (a, b), strict=True):
        assert (log.origin, log.rating, log.credit) == ("implicit", 3, share)
        item = ReviewItem.objects.get(pk=log.item_id)
        # Evidence, not a review: the memory state and the review count are unchanged.
        assert (item.stability, item.difficulty, item.reps, item.state) == (
            before.stability,
            before.difficulty,
            before.reps,
            before.state,
        )
        explicit = before.due - before.last_review
        assert before.due <= item.due <= before.due + explicit * share
    other_after = ReviewItem.objects.get(pk=other.pk)
    assert (other_after.due, other_after.reps) == (other.due, other.reps)


def test_a_variant_aimed_at_the_mistake_says_more_than_an_untargeted_problem(copy):
    item = _graduated(copy, "omitted_term")
    untargeted = _right(copy, at=item.due - timedelta(hours=2))
    with time_machine.travel(item.due - timedelta(hours=1), tick=False):
        spec = generate(WS, seed=11, level=1, target="omitted_term")
        aimed = make_problem(copy, spec=spec)
    targeted = _right(copy, at=item.due - timedelta(hours=1), problem=aimed)
    assert targeted[0].credit > untargeted[0].credit
    assert targeted[0].credit <= evidence.MAX_SHARE
    after = ReviewItem.objects.get(pk=item.pk)
    # Never past half a step of the schedule the item's own explicit reviews support.
    assert after.due <= item.due + (item.due - item.last_review) * evidence.MAX_SHARE
    assert after.stability == item.stability


def test_a_mistake_the_problem_could_not_show_gets_nothing():
    assert (
        evidence.mistake_likelihood(
            mistake="off_by_one_row",
            kind_mistakes=("omitted_term", "wrong_row"),
            target=None,
            kind_level=False,
        )
        == 0
    )
    assert evidence.evidence_share(reps=3, lapses=0, likelihood=0) == 0
    with pytest.raises(ValueError, match="likelihood"):
        evidence.evidence_share(reps=1, lapses=0, likelihood=1.5)


def test_the_share_never_exceeds_half_an_interval():
    for reps, lapses in ((0, 0), (1, 5), (10, 0), (4, 4)):
        share = evidence.evidence_share(reps=reps, lapses=lapses, likelihood=1)
        assert 0 < share <= evidence.MAX_SHARE == 0.5
    assert evidence.evidence_share(reps=9, lapses=0, likelihood=1) == pytest.approx(0.05)


def test_a_right_answer_after_a_wrong_try_credits_nothing(copy):
    item = _item(copy, "omitted_term")
    with time_machine.travel(LATER, tick=False):
        problem = make_problem(copy)
        review_record_attempt(attempt=make_attempt(problem, mistake=MistakeCode.WRONG_ROW))
        logs = review_record_attempt(attempt=make_attempt(problem, status=Status.CORRECT))
    assert logs == []
    assert ReviewItem.objects.get(pk=item.pk).reps == item.reps


def test_a_wrong_answer_relapses_its_own_mistake_only(copy):
    a = _item(copy, "omitted_term")
    b = _item(copy, "wrong_row")
    with time_machine.travel(LATER, tick=False):
        logs = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    assert [log.item_id for log in logs] == [a.pk]
    assert ReviewItem.objects.get(pk=b.pk).reps == b.reps


def test_a_review_answered_with_another_mistake_relapses_that_one_and_not_the_reviewed(copy):
    a = _item(copy, "omitted_term")
    with time_machine.travel(a.due, tick=False):
        variant = review_open(copy=copy, item=a)
        logs = review_record_attempt(attempt=make_attempt(variant, mistake=MistakeCode.WRONG_ROW))
    b = ReviewItem.objects.get(copy=copy, mistake="wrong_row")
    assert [(log.item_id, log.rating) for log in logs] == [(b.pk, ReviewLog.Rating.AGAIN)]
    assert ReviewItem.objects.get(pk=a.pk).reps == a.reps  # not rated Again
    # The variant stays open for a retry, which rates the reviewed item Hard.
    with time_machine.travel(a.due + timedelta(minutes=2), tick=False):
        logs = review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    assert [(log.item_id, log.rating) for log in logs] == [(a.pk, ReviewLog.Rating.HARD)]
    # The failed review and its retry are one review against the daily limit.
    assert review_done_today(copy=copy, now=a.due + timedelta(minutes=3)) == 1


def test_a_failed_review_and_its_retry_count_once_against_the_daily_limit(copy, settings):
    a = _item(copy, "omitted_term")
    at = a.due + timedelta(minutes=1)
    with time_machine.travel(at, tick=False):
        variant = review_open(copy=copy, item=a)
        review_record_attempt(attempt=make_attempt(variant, mistake=MistakeCode.OMITTED_TERM))
        review_record_attempt(attempt=make_attempt(variant, status=Status.CORRECT))
    ratings = list(ReviewLog.objects.filter(item=a, origin="review").values_list("rating"))
    assert sorted(r for (r,) in ratings) == [ReviewLog.Rating.AGAIN, ReviewLog.Rating.HARD]
    assert review_done_today(copy=copy, now=at) == 1
    settings.REVIEW_IMPLICIT_CREDIT = False  # today's policy counted both
    assert review_done_today(copy=copy, now=at) == 2


def test_a_right_review_credits_the_kinds_other_items_but_rates_its_own_once(copy):
    a = _item(copy, "omitted_term")
    b = _item(copy, "wrong_row")
    with time_machine.travel(a.due, tick=False):
        variant = review_open(copy=copy, item=a)
    logs = _right(copy, at=a.due, problem=variant)
    assert sorted((log.item_id, log.origin) for log in logs) == [
        (a.pk, "review"),
        (b.pk, "implicit"),
    ]
    assert review_done_today(copy=copy, now=a.due) == 1  # credit is no review done


def test_recording_a_right_answer_twice_credits_once(copy):
    _item(copy, "omitted_term")
    with time_machine.travel(LATER, tick=False):
        attempt = make_attempt(make_problem(copy), status=Status.CORRECT)
        assert len(review_record_attempt(attempt=attempt)) == 1
        assert review_record_attempt(attempt=attempt) == []
    assert ReviewLog.objects.filter(origin="implicit").count() == 1


def test_a_double_submit_of_a_right_answer_credits_once(copy):
    item = _item(copy, "omitted_term")
    problem = make_problem(copy)
    token = uuid.uuid4()
    with time_machine.travel(LATER, tick=False):
        first = attempt_submit(copy=copy, problem=problem, text="[1/4, 3/2]", token=token)
        second = attempt_submit(copy=copy, problem=problem, text="[1/4, 3/2]", token=token)
    assert first.pk == second.pk and first.status == Status.CORRECT
    assert ReviewLog.objects.filter(item=item, origin="implicit").count() == 1
    assert ReviewItem.objects.get(pk=item.pk).reps == item.reps  # evidence, not a review


# --- 2. credit down the idea graph ----------------------------------------------------------


def _graduated(copy, mistake: str) -> ReviewItem:
    """Return an item of weighted_sum rated Good once by a right review: due days away."""
    item = _item(copy, mistake)
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
    _right(copy, at=item.due, problem=variant)
    return ReviewItem.objects.get(pk=item.pk)


def test_a_fraction_pushes_the_due_date_by_that_share_of_a_good_interval_within_one_step(copy):
    _set_graph(copy, [{"from": "contrast", "to": "weighted_sum", "fraction": 0.5, "why": "x"}])
    item = _graduated(copy, "omitted_term")
    interval = item.due - item.last_review
    assert interval > timedelta(hours=20)
    at = item.due + timedelta(hours=1)
    retention = review_settings_get_or_create(user_id=copy.owner_id).desired_retention
    good = scheduling.card_review(
        scheduling.card_of(item), scheduling.Rating.Good, at=at, desired_retention=retention
    )
    logs = _right(copy, ProblemKind.CONTRAST, at=at)
    assert [(log.item_id, log.origin, log.credit) for log in logs] == [(item.pk, "graph", 0.5)]
    after = ReviewItem.objects.get(pk=item.pk)
    wanted = at + (good.due - at) * 0.5
    bound = item.due + interval * 0.5
    assert after.due == min(wanted, bound) > at
    # Half a Good interval from now would reach past half a step of the card's own schedule.
    assert wanted > bound
    # Not a review: the memory state and the review count stay as they were.
    assert (after.stability, after.difficulty, after.reps, after.last_review) == (
        item.stability,
        item.difficulty,
        item.reps,
        item.last_review,
    )


def test_fractions_do_not_compound_past_one_step_of_the_cards_own_schedule(copy):
    _set_graph(copy, [{"from": "contrast", "to": "weighted_sum", "fraction": 0.5, "why": "x"}])
    item = _graduated(copy, "omitted_term")
    bound = item.due + (item.due - item.last_review) * 0.5
    for hours in (1, 2, 30, 60):
        _right(copy, ProblemKind.CONTRAST, at=item.due + timedelta(hours=hours))
    assert ReviewItem.objects.get(pk=item.pk).due == bound
    assert ReviewLog.objects.filter(item=item, origin="graph").count() == 4


def test_a_fraction_never_brings_a_due_date_earlier(copy):
    _set_graph(copy, [{"from": "contrast", "to": "weighted_sum", "fraction": 0.25, "why": "x"}])
    item = _item(copy, "omitted_term")
    far = _graduated(copy, "omitted_term")  # a right review: due days away
    _right(copy, ProblemKind.CONTRAST, at=item.due + timedelta(minutes=1))
    assert ReviewItem.objects.get(pk=item.pk).due == far.due


def test_credit_flows_down_the_graph_and_even_a_full_edge_is_half_a_step(copy):
    _set_graph(
        copy,
        [
            {"from": "predict_clean", "to": "closed_form_noise", "fraction": 1, "why": "x"},
            {"from": "closed_form_noise", "to": "noise_step", "fraction": 0.5, "why": "y"},
        ],
    )
    closed = _item(copy, "summed_betas", ProblemKind.CLOSED_FORM_NOISE)
    step = _item(copy, "swapped_beta", ProblemKind.NOISE_STEP)
    at = closed.due + timedelta(hours=1)
    logs = {log.item_id: log for log in _right(copy, ProblemKind.PREDICT_CLEAN, at=at)}
    assert (logs[closed.pk].origin, logs[closed.pk].credit) == ("graph", evidence.MAX_SHARE)
    assert ReviewItem.objects.get(pk=closed.pk).stability == closed.stability
    assert logs[step.pk].credit == 0.5
    assert ReviewItem.objects.get(pk=step.pk).stability == step.stability


def test_an_edge_to_one_mistake_credits_that_item_only(copy):
    _set_graph(
        copy,
        [{"from": "weighted_sum", "to": "lookup/other_token_row", "fraction": 0.5, "why": "x"}],
    )
    named = _item(copy, "other_token_row", ProblemKind.LOOKUP)
    other = _item(copy, "off_by_one_row", ProblemKind.LOOKUP)
    logs = _right(copy, at=LATER)
    assert [log.item_id for log in logs] == [named.pk]
    assert ReviewItem.objects.get(pk=other.pk).due == other.due


# --- 3. unexplained mistakes ----------------------------------------------------------------


def test_an_unexplained_wrong_answer_makes_an_item_served_as_an_untargeted_variant(copy):
    with time_machine.travel(NOW, tick=False):
        attempt = make_attempt(make_problem(copy), mistake=None, text="[7, 7]")
        logs = review_record_attempt(attempt=attempt)
    item = ReviewItem.objects.get(copy=copy)
    assert (item.kind, item.mistake, item.source_attempt) == (WS, UNEXPLAINED, attempt)
    assert [log.rating for log in logs] == [ReviewLog.Rating.AGAIN]
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
    assert variant.purpose == ProblemInstance.Purpose.REVIEW
    assert variant.spec == generate(WS, seed=variant.seed, level=variant.level, target=None)


def test_an_unexplained_items_variant_failed_without_a_name_rates_it_again(copy):
    with time_machine.travel(NOW, tick=False):
        review_record_attempt(attempt=make_attempt(make_problem(copy), mistake=None))
    item = ReviewItem.objects.get(copy=copy)
    with time_machine.travel(item.due, tick=False):
        variant = review_open(copy=copy, item=item)
        logs = review_record_attempt(attempt=make_attempt(variant, mistake=None))
    assert [(log.item_id, log.origin, log.rating) for log in logs] == [
        (item.pk, "review", ReviewLog.Rating.AGAIN)
    ]
    assert ReviewItem.objects.count() == 1


def test_no_registered_kind_uses_a_kind_level_code():
    for name, kind in KINDS.items():
        assert not set(kind.codes) & KIND_LEVEL, name
    assert not {code.value for code in MistakeCode} & KIND_LEVEL


# --- the switches ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("switch", "origin"),
    [("REVIEW_IMPLICIT_CREDIT", "implicit"), ("REVIEW_GRAPH_CREDIT", "graph")],
)
def test_each_credit_can_be_switched_off_at_call_time(copy, settings, switch, origin):
    _set_graph(copy, [{"from": "weighted_sum", "to": "lookup", "fraction": 0.5, "why": "x"}])
    _item(copy, "omitted_term")
    _item(copy, "off_by_one_row", ProblemKind.LOOKUP)
    setattr(settings, switch, False)
    origins = {log.origin for log in _right(copy, at=LATER)}
    assert origin not in origins
    assert origins == {"implicit", "graph"} - {origin}


def test_unexplained_items_can_be_switched_off(copy, settings):
    settings.REVIEW_UNEXPLAINED_ITEMS = False
    review_record_attempt(attempt=make_attempt(make_problem(copy), mistake=None))
    assert not ReviewItem.objects.exists()


# --- 4. the queue clears others -------------------------------------------------------------


def _crowded(copy):
    """Two lone items due first, then three of weighted_sum; a daily limit of two."""
    review_settings_update(
        user=copy.owner, desired_retention=0.9, time_zone="UTC", daily_limit=2, reminders=True
    )
    lone = [
        _item(copy, MISTAKES_BY_KIND[kind][0], kind, at=NOW + timedelta(minutes=n))
        for n, kind in enumerate((ProblemKind.UTF8_BYTES, ProblemKind.WORD_IDS))
    ]
    sums = [
        _item(copy, mistake, at=NOW + timedelta(minutes=10 + n))
        for n, mistake in enumerate(("omitted_term", "wrong_row", "unweighted_sum"))
    ]
    return lone, sums


def test_over_the_limit_items_still_learning_clear_nothing_so_due_order_stays(copy, settings):
    lone, _sums = _crowded(copy)
    at = NOW + timedelta(hours=2)
    # Evidence moves a one-hour step by at most half of it: no review clears another today.
    assert [i.pk for i in review_next(copy=copy, now=at)] == [lone[0].pk, lone[1].pk]
    settings.REVIEW_QUEUE_CLEARING = False  # today's order: due order, interleaved
    assert [i.pk for i in review_next(copy=copy, now=at)] == [lone[0].pk, lone[1].pk]


def test_a_right_review_credits_but_does_not_clear_items_still_learning(copy):
    _lone, sums = _crowded(copy)
    at = NOW + timedelta(hours=2)
    first = sums[0]
    with time_machine.travel(at, tick=False):
        variant = review_open(copy=copy, item=first)
        attempt = make_attempt(variant, status=Status.CORRECT)
        review_record_attempt(attempt=attempt)
    credit = review_attempt_credit(attempt=attempt, item=first)
    # Evidence moves a learning item by at most half its one-hour step: still due today.
    assert credit.cleared == []
    credited = ReviewLog.objects.filter(attempt=attempt, origin="implicit")
    assert sorted(credited.values_list("item_id", flat=True)) == sorted(i.pk for i in sums[1:])
    # The credited items say where their credit came from.
    upcoming = review_with_last_credit(list(ReviewItem.objects.filter(pk__in=[sums[1].pk])))
    assert upcoming[0].last_credit.attempt_id == attempt.pk


def test_the_export_lists_credit_logs_with_their_source(copy):
    _set_graph(copy, [{"from": "contrast", "to": "weighted_sum", "fraction": 0.5, "why": "x"}])
    item = _item(copy, "omitted_term")
    _right(copy, ProblemKind.CONTRAST, at=LATER)
    exported = review_export(copy=copy)
    (row,) = [i for i in exported["items"] if i["mistake"] == item.mistake]
    graph_logs = [log for log in row["logs"] if log["origin"] == "graph"]
    assert graph_logs == [
        {
            "attempt": graph_logs[0]["attempt"],
            "reveal": None,
            "rating": "good",
            "origin": "graph",
            "credit": 0.5,
            "credited_by_kind": "contrast",
            "reviewed_at": LATER.isoformat(),
            "previous_due": item.due.isoformat(),
            "due": ReviewItem.objects.get(pk=item.pk).due.isoformat(),
            "parameters": None,  # py-fsrs's defaults (no fitted set adopted)
        }
    ]


# --- issue 38, item 2: a mistake made in practice is a lapse of its item at once -------------


def test_a_practice_mistake_on_a_graduated_item_is_a_lapse_at_once(copy):
    item = _graduated(copy, "omitted_term")
    assert item.state == scheduling.State.Review and item.due > LATER + timedelta(hours=20)
    at = item.last_review + timedelta(hours=2)  # long before the item is due
    with time_machine.travel(at, tick=False):
        logs = review_record_attempt(
            attempt=make_attempt(make_problem(copy), mistake=MistakeCode.OMITTED_TERM)
        )
    assert [(log.item_id, log.origin, log.rating) for log in logs] == [
        (item.pk, "practice", ReviewLog.Rating.AGAIN)
    ]
    after = ReviewItem.objects.get(pk=item.pk)
    assert (after.lapses, after.reps) == (item.lapses + 1, item.reps + 1)
    assert after.state == scheduling.State.Relearning
    assert after.due <= at + scheduling.RELEARNING_STEPS[0]  # back within the hour


@pytest.mark.parametrize("fraction", [0.0, 0.51, 1.0])
def test_credit_is_never_a_full_review_nor_more_than_the_evidence_cap(fraction):
    from practice.review.services.cards import card_credit

    with pytest.raises(ValueError, match="never a full review"):
        card_credit(
            item=None,
            attempt=None,
            fraction=fraction,
            origin=ReviewLog.Origin.IMPLICIT,
            review_settings=None,
        )
