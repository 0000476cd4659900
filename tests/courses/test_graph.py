"""The idea graph for review credit: parsed and validated (courses/graph.py), read by the loader
beside the pages, stored on the course version, and followed down from a kind."""

import shutil
from pathlib import Path

import pytest

from courses.graph import (
    CreditEdge,
    GraphError,
    credit_fraction,
    credit_targets,
    graph_from_json,
    graph_to_json,
    parse_graph,
)
from courses.loader import CourseSourceError, read_course
from courses.selectors import copy_credit_graph, copy_credit_targets
from courses.services import course_source_save
from grading.kinds import KINDS
from tests.conftest import FIXTURE_COURSE_DIR, REAL_COURSE_DIR


def _edge(source: str, to: str, fraction: float = 0.5, why: str = "a reason") -> dict:
    return {"from": source, "to": to, "fraction": fraction, "why": why}


@pytest.fixture
def course_dir(tmp_path: Path) -> Path:
    target = tmp_path / "mini-course"
    shutil.copytree(FIXTURE_COURSE_DIR, target)
    return target


def test_the_course_graph_is_read_with_a_reason_for_every_edge():
    graph = read_course(REAL_COURSE_DIR).graph
    pairs = {(edge.source, edge.target) for edge in graph}
    assert {
        ("contrast", "weighted_sum"),
        ("content_weights", "weighted_sum"),
        ("two_layers", "weighted_sum"),
        ("predict_clean", "closed_form_noise"),
        ("closed_form_noise", "noise_step"),
        ("greedy_loop", "greedy_steps"),
        ("nearest_by_cosine", "cosine_similarity"),
    } <= pairs
    for edge in graph:
        assert edge.source in KINDS and edge.kind in KINDS
        assert 0 < edge.fraction <= 1
        assert len(edge.why) > 40


def test_credit_flows_down_whole_kind_edges_multiplying_fractions():
    edges = parse_graph(
        {
            "edges": [
                _edge("predict_clean", "closed_form_noise", 0.5),
                _edge("closed_form_noise", "noise_step", 0.5),
                _edge("predict_clean", "noise_step", 0.1),
            ]
        }
    )
    targets = credit_targets(edges, "predict_clean")
    # the best path wins: 0.5 x 0.5 beats the direct 0.1
    assert targets == {("closed_form_noise", None): 0.5, ("noise_step", None): 0.25}
    assert credit_targets(edges, "noise_step") == {}
    assert credit_fraction(targets, "noise_step", "swapped_beta") == 0.25
    assert credit_fraction(targets, "lookup", "off_by_one_row") == 0.0


def test_an_edge_to_one_mistake_credits_that_item_only_and_stops_there():
    edges = parse_graph(
        {
            "edges": [
                _edge("contrast", "weighted_sum", 0.5),
                _edge("weighted_sum", "lookup/other_token_row", 0.5),
            ]
        }
    )
    targets = credit_targets(edges, "contrast")
    assert credit_fraction(targets, "lookup", "other_token_row") == 0.25
    assert credit_fraction(targets, "lookup", "row_by_position") == 0.0


def test_the_graph_survives_its_round_trip_through_the_version_row():
    edges = read_course(REAL_COURSE_DIR).graph
    assert graph_from_json(graph_to_json(edges)) == edges


@pytest.mark.parametrize(
    ("edges", "field", "fault"),
    [
        ([_edge("nonsense", "weighted_sum")], "edges[0].from", "is not a problem kind"),
        ([_edge("contrast", "nonsense")], "edges[0].to", "is not a problem kind"),
        ([_edge("contrast", "weighted_sum/nonsense")], "edges[0].to", "is not a mistake of"),
        ([_edge("contrast", "contrast")], "edges[0].to", "points back at contrast"),
        ([_edge("contrast", "weighted_sum", 0)], "edges[0].fraction", "is not in (0, 1]"),
        ([_edge("contrast", "weighted_sum", 1.5)], "edges[0].fraction", "is not in (0, 1]"),
        ([_edge("contrast", "weighted_sum", True)], "edges[0].fraction", "must be a number"),
        ([_edge("contrast", "weighted_sum", "1/2")], "edges[0].fraction", "must be a number"),
        ([_edge("contrast", "weighted_sum", why=" ")], "edges[0].why", "must say why"),
        ([{"from": "contrast", "to": "weighted_sum", "why": "x"}], "edges[0].fraction", "missing"),
        ([dict(_edge("contrast", "lookup"), weight=1)], "edges[0].weight", "unknown key"),
        (
            [_edge("contrast", "weighted_sum"), _edge("contrast", "weighted_sum", 0.2)],
            "edges[1]",
            "is already given by edges[0]",
        ),
        (
            [
                _edge("contrast", "weighted_sum"),
                _edge("weighted_sum", "two_layers"),
                _edge("two_layers", "contrast"),
            ],
            "edges[2]",
            "closes a cycle: contrast -> weighted_sum -> two_layers -> contrast",
        ),
        ("contrast -> weighted_sum", "edges", "must be a list"),
    ],
)
def test_a_malformed_graph_is_refused_naming_the_field(edges, field, fault):
    with pytest.raises(GraphError) as caught:
        parse_graph({"edges": edges})
    assert caught.value.field == field
    assert fault in caught.value.message


def test_the_loader_names_the_graph_file_and_field(course_dir):
    (course_dir / "graph.yaml").write_text(
        "edges:\n  - from: contrast\n    to: weighted_sum\n    fraction: 2\n    why: because\n",
        encoding="utf-8",
    )
    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.path == str(course_dir / "graph.yaml")
    assert caught.value.field == "edges[0].fraction"
    assert "graph.yaml: edges[0].fraction: 2 is not in (0, 1]" in str(caught.value)


def test_a_yaml_fault_in_the_graph_names_the_file_and_line(course_dir):
    (course_dir / "graph.yaml").write_text("edges:\n  - from: [\n", encoding="utf-8")
    with pytest.raises(CourseSourceError) as caught:
        read_course(course_dir)
    assert caught.value.path == str(course_dir / "graph.yaml")
    assert "line" in caught.value.message


def test_a_course_without_a_graph_keeps_its_hash_and_a_graph_changes_it(course_dir):
    before = read_course(course_dir)
    assert before.graph == ()
    (course_dir / "graph.yaml").write_text(
        "edges:\n  - from: contrast\n    to: weighted_sum\n    fraction: 0.5\n    why: sums\n",
        encoding="utf-8",
    )
    after = read_course(course_dir)
    assert after.graph == (CreditEdge("contrast", "weighted_sum", None, 0.5, "sums"),)
    assert after.content_hash != before.content_hash


@pytest.mark.django_db
def test_a_new_graph_is_a_new_course_version_that_stores_it(course_dir):
    first = course_source_save(source=read_course(course_dir)).version
    assert first.credit_graph == []
    (course_dir / "graph.yaml").write_text(
        "edges:\n  - from: contrast\n    to: weighted_sum\n    fraction: 0.5\n    why: sums\n",
        encoding="utf-8",
    )
    result = course_source_save(source=read_course(course_dir))
    assert result.created and result.version.number == first.number + 1
    result.version.refresh_from_db()
    assert result.version.credit_graph == [
        {"from": "contrast", "to": "weighted_sum", "fraction": 0.5, "why": "sums"}
    ]
    first.refresh_from_db()
    assert first.credit_graph == []


@pytest.mark.django_db
def test_a_versions_graph_is_read_once_per_process_and_afresh_when_the_version_is_saved(
    course_copy, django_assert_num_queries
):
    version = course_copy.version
    version.credit_graph = [{"from": "contrast", "to": "weighted_sum", "fraction": 0.5, "why": "x"}]
    version.save(update_fields=["credit_graph"])
    with django_assert_num_queries(1):
        assert copy_credit_targets(copy=course_copy, kind="contrast") == {
            ("weighted_sum", None): 0.5
        }
    with django_assert_num_queries(0):
        assert copy_credit_targets(copy=course_copy, kind="contrast") == {
            ("weighted_sum", None): 0.5
        }
        assert len(copy_credit_graph(copy=course_copy)) == 1
    # The targets handed out are the caller's own: changing them changes nothing cached.
    copy_credit_targets(copy=course_copy, kind="contrast").clear()
    assert copy_credit_targets(copy=course_copy, kind="contrast")
    version.credit_graph = []
    version.save(update_fields=["credit_graph"])
    assert copy_credit_targets(copy=course_copy, kind="contrast") == {}
    assert copy_credit_graph(copy=course_copy) == ()
