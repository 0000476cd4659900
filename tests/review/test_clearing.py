"""The clearing queue's pure core: what a right answer to each due review would push past today,
and the greedy order that puts the reviews clearing the most first."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from courses.graph import parse_graph
from practice.review import clearing, scheduling

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY_END = datetime(2026, 3, 3, 0, 0, tzinfo=UTC)


def _item(pk: int, kind: str, mistake: str) -> SimpleNamespace:
    card = scheduling.card_review(
        scheduling.card_new(now=NOW - timedelta(days=3)),
        scheduling.Rating.Again,
        at=NOW - timedelta(days=3),
    )
    columns = scheduling.card_columns(card)
    # Reviewed 40 days ago and due an hour ago: credit may move it by a share of 40 days.
    columns.update(last_review=NOW - timedelta(days=40), due=NOW - timedelta(hours=1))
    return SimpleNamespace(pk=pk, kind=kind, mistake=mistake, reps=0, lapses=0, **columns)


def _covers(due, edges=(), *, implicit=True, graph=True, good_in=timedelta(days=40)):
    return clearing.coverage(
        due,
        edges=parse_graph({"edges": list(edges)}),
        implicit=implicit,
        graph=graph,
        good_due=lambda item: NOW + good_in,
        now=NOW,
        day_end=DAY_END,
    )


def test_a_review_covers_the_other_items_of_its_kind_only_with_implicit_credit():
    due = [_item(1, "weighted_sum", "omitted_term"), _item(2, "weighted_sum", "wrong_row")]
    assert _covers(due) == {1: {2}, 2: {1}}
    assert _covers(due, implicit=False) == {1: set(), 2: set()}


def test_a_graph_fraction_covers_only_when_it_pushes_past_the_learners_midnight():
    due = [_item(1, "contrast", "forgot_weight"), _item(2, "weighted_sum", "omitted_term")]
    edge = {"from": "contrast", "to": "weighted_sum", "why": "sums"}
    # A Good review would give 2 days: half of it (1 day) passes midnight (15 h away), a
    # quarter (12 h) does not.
    two = timedelta(days=2)
    assert _covers(due, [dict(edge, fraction=0.5)], good_in=two)[1] == {2}
    assert _covers(due, [dict(edge, fraction=0.25)], good_in=two)[1] == set()
    assert _covers(due, [dict(edge, fraction=0.5)], graph=False, good_in=two)[1] == set()
    assert _covers(due, [dict(edge, fraction=0.5)], good_in=two)[2] == set()  # down only


def test_the_greedy_order_puts_the_widest_cover_first_then_the_rest():
    due = [
        _item(1, "utf8_bytes", "code_point"),
        _item(2, "word_ids", "look_alike"),
        _item(3, "weighted_sum", "omitted_term"),
        _item(4, "weighted_sum", "wrong_row"),
        _item(5, "weighted_sum", "unweighted_sum"),
    ]
    order = clearing.clearing_order(due, limit=2, covers=_covers(due))
    assert [item.pk for item in order] == [3, 1, 2, 4, 5]


@given(
    kinds=st.lists(st.sampled_from(["lookup", "weighted_sum", "contrast"]), max_size=12),
    limit=st.integers(min_value=1, max_value=12),
)
def test_every_due_item_appears_once_and_the_first_clears_the_most(kinds, limit):
    due = [_item(pk, kind, f"m{pk}") for pk, kind in enumerate(kinds, start=1)]
    edges = [{"from": "contrast", "to": "weighted_sum", "fraction": 1, "why": "sums"}]
    covers = _covers(due, edges)
    order = clearing.clearing_order(due, limit=limit, covers=covers)
    assert sorted(item.pk for item in order) == [item.pk for item in due]
    if due:
        assert len(covers[order[0].pk]) == max(len(cover) for cover in covers.values())
