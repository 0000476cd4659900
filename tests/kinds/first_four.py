"""The first four kinds' problems with known numbers, worked by hand, and how to read their
arrow pictures back.

``lookup``, ``weighted_sum``, ``contrast`` and ``content_weights`` are the kinds the engine was
built on, so the grading and generator tests use these problems too (``tests/grading/conftest.py``
and ``tests/generators/conftest.py`` hand them out as fixtures); each kind's own tests are in
``tests/kinds/test_<kind>.py``.

Two sets: the grading problems (the seed's sentences, ``seed_weighted_sum`` and
``contrast_spec``, and one problem of each other kind), and the drawn problems (*the river
bank*, ``drawn_spec(kind, **overrides)``), whose pictures' numbers are checked by hand.
"""

import xml.etree.ElementTree as ET

# The grading problems ------------------------------------------------------------------------


def seed_weighted_sum() -> dict:
    """Return the seed's sentence B: bank [1, 0] with weight 1/2, its neighbour [0, 2]."""
    return {
        "kind": "weighted_sum",
        "tokens": ["bank", "river"],
        "position": 0,
        "weights": ["1/2", "1/2"],
        "rows": [["1", "0"], ["0", "2"]],
    }


def three_terms() -> dict:
    """Return a three-term weighted sum whose mistakes all give different vectors."""
    return {
        "kind": "weighted_sum",
        "tokens": ["the", "bank", "river"],
        "position": 1,
        "weights": ["1/6", "1/2", "1/3"],
        "rows": [["1", "1"], ["2", "0"], ["0", "3"]],
    }


def lookup_spec() -> dict:
    """Return a lookup problem where the position (2) and the id (1) differ."""
    return {
        "kind": "lookup",
        "vocab": ["the", "bank", "river", "money", "flows"],
        "table": [["1", "1"], ["1", "0"], ["0", "1"], ["2", "2"], ["3", "-1"]],
        "tokens": ["the", "river", "bank"],
        "position": 2,
    }


def contrast_spec() -> dict:
    """Return the seed's two sentences A and B as a contrast problem."""
    return {
        "kind": "contrast",
        "position": 0,
        "weights": ["1/2", "1/2"],
        "rows_a": [["1", "0"], ["0", "1"]],
        "rows_b": [["1", "0"], ["0", "2"]],
        "tokens_a": ["bank", "river"],
        "tokens_b": ["bank", "money"],
    }


def content_spec() -> dict:
    """Return a content_weights problem with three positions."""
    return {
        "kind": "content_weights",
        "tokens": ["bank", "of", "river"],
        "position": 0,
        "rows": [["1", "0"], ["0", "1"], ["1", "1"]],
    }


# The drawn problems --------------------------------------------------------------------------


def drawn_weighted_sum(**overrides) -> dict:
    """Return *the river bank* at *bank*: h = 1/4 [0, 1] + 1/4 [0, 2] + 1/2 [1, 0] = [1/2, 3/4]."""
    spec = {
        "kind": "weighted_sum",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows": [["0", "1"], ["0", "2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def drawn_contrast(**overrides) -> dict:
    spec = {
        "kind": "contrast",
        "tokens_a": ["the", "river", "bank"],
        "tokens_b": ["the", "savings", "bank"],
        "position": 2,
        "weights": ["1/4", "1/4", "1/2"],
        "rows_a": [["0", "1"], ["0", "2"], ["1", "0"]],
        "rows_b": [["0", "1"], ["2", "-2"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


def drawn_lookup(**overrides) -> dict:
    spec = {
        "kind": "lookup",
        "vocab": ["river", "bank", "the", "money"],
        "table": [["0", "1"], ["1", "0"], ["1", "1"], ["2", "0"]],
        "tokens": ["the", "river", "bank"],
        "position": 2,
    }
    spec.update(overrides)
    return spec


def drawn_content_weights(**overrides) -> dict:
    spec = {
        "kind": "content_weights",
        "tokens": ["the", "river", "bank"],
        "position": 2,
        "rows": [["0", "1"], ["1", "1"], ["1", "0"]],
    }
    spec.update(overrides)
    return spec


DRAWN = {
    "weighted_sum": drawn_weighted_sum,
    "contrast": drawn_contrast,
    "lookup": drawn_lookup,
    "content_weights": drawn_content_weights,
}


def drawn_spec(kind, **overrides) -> dict:
    """Return the drawn problem of a kind (one of the four), with ``overrides`` applied."""
    return DRAWN[str(kind)](**overrides)


# Reading an arrow picture back ---------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def arrows(root: ET.Element, role: str | None = None) -> list[ET.Element]:
    return [
        line
        for line in root.iter(f"{SVG}line")
        if "data-role" in line.attrib and (role is None or line.get("data-role") == role)
    ]


def panel_of(root: ET.Element, line: ET.Element) -> ET.Element:
    for panel in root.iter(f"{SVG}g"):
        if panel.get("class") == "panel" and line in list(panel):
            return panel
    raise AssertionError("arrow outside a panel")


def pixel_tip(root: ET.Element, line: ET.Element) -> tuple[float, float]:
    """Return the tip in problem coordinates, read back from the pixels."""
    panel = panel_of(root, line)
    ox, oy = (float(v) for v in panel.get("data-origin").split(","))
    scale = float(panel.get("data-scale"))
    return (float(line.get("x2")) - ox) / scale, (oy - float(line.get("y2"))) / scale
