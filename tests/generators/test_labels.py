"""The label placement pass: text boxes, segment and box geometry, candidates, the fallback."""

import math

import pytest

from practice.generators.draw.geometry import (
    Box,
    arrow_segments,
    char_width,
    clipped_length,
    polyline_segments,
    rect_segments,
    segment_hits_box,
    text_box,
    text_width,
)
from practice.generators.draw.labels import (
    Candidate,
    Label,
    along_segment,
    around_point,
    place,
    svg_text,
)

BOX = Box(0, 0, 10, 10)


def test_text_width_adds_the_widths_of_its_characters():
    assert text_width("il", 10) == pytest.approx(6.8)
    assert text_width("ab", 10) == pytest.approx(12.8)
    assert text_width("MW", 10) == pytest.approx(20)
    assert text_width("h₂ᴮ", 10) == pytest.approx(6.4 + 2 * 8.4)


def test_characters_of_unusual_kinds_are_given_safe_widths():
    assert char_width("e\u0301"[1]) == 0  # a combining accent takes no room of its own
    assert char_width("字") == 1.0  # wide East Asian
    assert char_width("%") == 1.0  # ASCII symbols as wide as an em
    assert char_width("Q") == 0.80


@pytest.mark.parametrize(
    ("anchor", "left"), [("start", 100), ("middle", 100 - 6.4), ("end", 100 - 12.8)]
)
def test_text_box_follows_the_anchor(anchor, left):
    box = text_box(100, 50, "ab", size=10, anchor=anchor)

    assert (box.left, box.right) == pytest.approx((left, left + 12.8))
    assert (box.top, box.bottom) == pytest.approx((42, 52.4))


def test_text_box_follows_the_baseline():
    middle = text_box(0, 50, "a", size=10, baseline="middle")
    hanging = text_box(0, 50, "a", size=10, baseline="hanging")

    assert (middle.top, middle.bottom) == pytest.approx((44.8, 55.2))
    assert (hanging.top, hanging.bottom) == pytest.approx((50, 60.4))


def test_text_box_refuses_an_unknown_anchor():
    with pytest.raises(ValueError, match="text-anchor 'left'"):
        text_box(0, 0, "a", size=10, anchor="left")


def test_boxes_that_touch_do_not_intersect():
    assert not BOX.intersects(Box(10, 0, 20, 10))
    assert BOX.intersects(Box(9.9, 0, 20, 10))
    assert BOX.overlap(Box(5, 5, 20, 20)) == 25
    assert BOX.grown(1) == Box(-1, -1, 11, 11)
    assert Box(1, 1, 2, 2).inside(BOX) and not Box(-1, 1, 2, 2).inside(BOX)
    assert Box(-5, 0, 5, 10).outside_area(BOX) == 50


@pytest.mark.parametrize(
    ("segment", "length"),
    [
        (((-5, 5), (15, 5)), 10),  # straight through
        (((5, 5), (5, 20)), 5),  # from inside out
        (((-5, -5), (15, 15)), 10 * math.sqrt(2)),  # the diagonal
        (((2, 3), (4, 6)), math.hypot(2, 3)),  # wholly inside
        (((-5, 0), (15, 0)), 0),  # along an edge: touching is not crossing
        (((10, -5), (10, 15)), 0),
        (((-5, 12), (15, 12)), 0),  # beside
        (((11, 5), (20, -5)), 0),  # beside, slanting away
        (((-10, 5), (0, 5)), 0),  # ends on the edge
        (((-5, 8), (8, -5)), 3 * math.sqrt(2)),  # clips a corner
    ],
)
def test_clipped_length_measures_the_part_inside(segment, length):
    assert clipped_length(segment, BOX) == pytest.approx(length)
    assert segment_hits_box(segment, BOX) == (length > 0)


def test_a_point_counts_only_strictly_inside():
    assert segment_hits_box(((5, 5), (5, 5)), BOX)
    assert not segment_hits_box(((0, 5), (0, 5)), BOX)


def test_arrow_segments_are_the_shaft_and_a_closed_head():
    shaft, *head = arrow_segments((0, 0), (100, 0))

    assert shaft == ((0, 0), (100, 0))
    corners = {tuple(round(v, 6) for v in p) for s in head for p in s}
    assert corners == {(91.9, 4.5), (100.9, 0), (91.9, -4.5)}
    assert head[0][0] == head[-1][1]  # closed


def test_a_zero_length_arrow_points_right():
    _, *head = arrow_segments((5, 5), (5, 5))

    assert max(x for s in head for x, _ in s) == pytest.approx(5.9)


def test_polylines_and_rects_give_their_edges():
    assert polyline_segments([(0, 0), (1, 0), (1, 1)]) == [((0, 0), (1, 0)), ((1, 0), (1, 1))]
    assert len(polyline_segments([(0, 0), (1, 0), (1, 1)], closed=True)) == 3
    assert len(rect_segments(BOX)) == 4


def test_around_point_starts_outward_and_near():
    candidates = around_point((100, 100), "abc", 10, toward=(1, 0))
    first = candidates[0]
    box = text_box(first.x, first.y, "abc", size=10, anchor=first.anchor)

    assert first.anchor == "start" and box.left == pytest.approx(103)  # right of it, gap 3
    assert box.top < 100 < box.bottom
    assert len(candidates) == 16 * 6
    # Every candidate's box keeps its gap: none covers the anchor point.
    for c in candidates:
        b = text_box(c.x, c.y, "abc", size=10, anchor=c.anchor)
        assert not (b.left < 100 < b.right and b.top < 100 < b.bottom)


def test_around_point_without_a_preference_starts_upper_right():
    first = around_point((100, 100), "abc", 10)[0]
    box = text_box(first.x, first.y, "abc", size=10, anchor=first.anchor)

    assert box.left >= 100 and box.bottom <= 100


def test_along_segment_keeps_off_the_shaft_on_the_asked_side_first():
    shaft = ((0, 100), (200, 100))  # left to right on screen
    above, below = along_segment(shaft, "abc", 10, side=1)[:2]

    for c, is_above in ((above, True), (below, False)):
        box = text_box(c.x, c.y, "abc", size=10, anchor=c.anchor)
        assert not segment_hits_box(shaft, box)
        assert (box.bottom <= 100) == is_above
        assert box.left < 100 < box.right  # at the middle of the shaft


def test_place_takes_the_first_free_candidate():
    blocked = Candidate(0, 10, "start")
    free = Candidate(0, 50, "start")
    segments = [((-100, 5), (100, 5))]

    (placed,) = place([Label("ab", 10, (blocked, free))], segments=segments)

    assert placed.free and (placed.x, placed.y) == (0, 50)


def test_place_keeps_labels_apart_in_the_order_given():
    spots = (Candidate(0, 10, "start"), Candidate(0, 40, "start"))
    first, second = place([Label("ab", 10, spots), Label("cd", 10, spots)], segments=[])

    assert (first.y, second.y) == (10, 40)
    assert not first.box.intersects(second.box)


def test_place_keeps_labels_inside_their_bounds_and_off_obstacles():
    spots = (Candidate(-50, 10, "start"), Candidate(0, 40, "start"), Candidate(0, 80, "start"))
    obstacle = text_box(0, 40, "xy", size=10)

    (placed,) = place(
        [Label("ab", 10, spots, bounds=Box(-10, -10, 100, 100))],
        segments=[],
        obstacles=[obstacle],
    )

    assert placed.y == 80


def test_place_falls_back_to_the_least_overlapping_candidate():
    # Both candidates cross a line; the second crosses less of it.
    crossing = Candidate(0, 10, "start")
    grazing = Candidate(0, 60, "start")
    segments = [((-100, 5), (100, 5)), ((5, 45), (5, 60))]

    (placed,) = place([Label("abcdef", 10, (crossing, grazing))], segments=segments)

    assert not placed.free
    assert placed.y == 60
    assert 0 < placed.overlap < 40
    assert 'data-crowded="true"' in svg_text(placed)


def test_place_refuses_a_label_without_candidates():
    with pytest.raises(ValueError, match="'ab' has no candidate"):
        place([Label("ab", 10, ())], segments=[])


def test_placement_is_deterministic():
    labels = [Label(t, 12, tuple(around_point((50, 50), t, 12))) for t in ("one", "two", "three")]
    segments = arrow_segments((0, 0), (50, 50))

    assert place(labels, segments=segments) == place(labels, segments=segments)


def test_svg_text_writes_what_the_box_is_read_from():
    (placed,) = place([Label("a<b", 12, (Candidate(10.123, 20.456, "end"),))], segments=[])

    markup = svg_text(placed, data_role="row", fill="#000")

    assert markup == (
        '<text x="10.12" y="20.46" text-anchor="end" font-size="12" data-role="row" '
        'fill="#000">a&lt;b</text>'
    )
