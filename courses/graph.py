"""The course's idea graph for review credit: which simpler kinds and mistakes a right answer to
a kind also exercises, and with what fraction of a review.

Pure: no database, no files. ``parse_graph`` validates the parsed ``graph.yaml`` of a course
(``courses.loader`` reads the file and turns a ``GraphError`` into its ``CourseSourceError``,
naming the file); ``credit_targets`` follows the edges down from one kind. The layout:

    edges:
      - from: contrast             # a registered problem kind
        to: weighted_sum           # a kind (all its items) or kind/mistake (one item)
        fraction: 0.5              # the share of a review a right answer gives, in (0, 1]
        why: Every contrast ...    # the reasoning, shown to authors and in docs/review.md

Credit flows down whole-kind edges: ``contrast -> weighted_sum -> lookup`` gives lookup the
product of the two fractions (the largest product when several paths lead there). An edge to
one mistake ends there. The kind graph must have no cycle (a kind cannot be simpler than
itself) and no edge from a kind to itself (its own items get full implicit credit anyway).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from grading.kinds import KINDS

GRAPH_KEYS = ("edges",)
EDGE_KEYS = ("from", "to", "fraction", "why")


class GraphError(ValueError):
    """A malformed idea graph: which field, and what was wrong (the loader adds the file)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class CreditEdge:
    """One edge: a right answer to ``source`` also exercises ``kind`` (or one mistake of it)."""

    source: str
    kind: str
    mistake: str | None
    fraction: float
    why: str

    @property
    def target(self) -> str:
        """Return the edge's target as written in the file: ``kind`` or ``kind/mistake``."""
        return f"{self.kind}/{self.mistake}" if self.mistake else self.kind


def _keys(data: Any, field: str, allowed: tuple[str, ...]) -> dict:
    if not isinstance(data, dict):
        raise GraphError(field, f"must be a mapping of {', '.join(allowed)}")
    for key in data:
        if key not in allowed:
            raise GraphError(
                f"{field}.{key}", f"unknown key {str(key)!r} (allowed: {', '.join(allowed)})"
            )
    for key in allowed:
        if key not in data:
            raise GraphError(f"{field}.{key}", "is missing")
    return data


def _kind(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in KINDS:
        raise GraphError(
            field, f"{value!r} is not a problem kind (known: {', '.join(sorted(KINDS))})"
        )
    return value


def _edge(raw: Any, index: int) -> CreditEdge:
    field = f"edges[{index}]"
    data = _keys(raw, field, EDGE_KEYS)
    source = _kind(data["from"], f"{field}.from")
    target = data["to"]
    if not isinstance(target, str):
        raise GraphError(f"{field}.to", f"must be a kind or kind/mistake, not {target!r}")
    kind_name, slash, mistake = target.partition("/")
    kind_name = _kind(kind_name, f"{field}.to")
    if slash and mistake not in KINDS[kind_name].codes:
        raise GraphError(
            f"{field}.to",
            f"{mistake!r} is not a mistake of {kind_name} "
            f"(known: {', '.join(KINDS[kind_name].codes)})",
        )
    if kind_name == source:
        raise GraphError(
            f"{field}.to",
            f"points back at {source} itself (its own items get full implicit credit already)",
        )
    fraction = data["fraction"]
    if isinstance(fraction, bool) or not isinstance(fraction, int | float):
        raise GraphError(f"{field}.fraction", f"must be a number in (0, 1], not {fraction!r}")
    if not 0 < fraction <= 1:
        raise GraphError(f"{field}.fraction", f"{fraction} is not in (0, 1]")
    why = data["why"]
    if not isinstance(why, str) or not why.strip():
        raise GraphError(f"{field}.why", "must say why the edge holds (non-empty text)")
    return CreditEdge(
        source=source,
        kind=kind_name,
        mistake=mistake or None,
        fraction=float(fraction),
        why=" ".join(why.split()),
    )


def _check_acyclic(edges: tuple[CreditEdge, ...]) -> None:
    """Raise GraphError naming the edge that closes a cycle of kinds, with the cycle."""
    out: dict[str, list[tuple[int, str]]] = {}
    for index, edge in enumerate(edges):
        out.setdefault(edge.source, []).append((index, edge.kind))
    done: set[str] = set()

    def visit(kind: str, path: list[str]) -> None:
        if kind in done:
            return
        for index, nxt in out.get(kind, []):
            if nxt in path:
                cycle = " -> ".join([*path[path.index(nxt) :], nxt])
                raise GraphError(f"edges[{index}]", f"closes a cycle: {cycle}")
            visit(nxt, [*path, nxt])
        done.add(kind)

    for kind in list(out):
        visit(kind, [kind])


def parse_graph(data: Any) -> tuple[CreditEdge, ...]:
    """Return the validated edges of a parsed ``graph.yaml``; raise GraphError naming the field.

    Checked: known kinds and mistakes, fractions in (0, 1], a reason for every edge, no edge
    given twice, no edge from a kind to itself and no cycle among kinds.
    """
    data = _keys(data, "", GRAPH_KEYS) if data is not None else {"edges": []}
    raw = data["edges"]
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise GraphError("edges", "must be a list of edges (from, to, fraction, why)")
    edges = tuple(_edge(item, index) for index, item in enumerate(raw))
    seen: dict[tuple[str, str], int] = {}
    for index, edge in enumerate(edges):
        key = (edge.source, edge.target)
        if key in seen:
            raise GraphError(
                f"edges[{index}]",
                f"{edge.source} -> {edge.target} is already given by edges[{seen[key]}]",
            )
        seen[key] = index
    _check_acyclic(edges)
    return edges


def graph_to_json(edges: Iterable[CreditEdge]) -> list[dict[str, Any]]:
    """Return the edges as the JSON a course version stores (the file's own field names)."""
    return [{"from": e.source, "to": e.target, "fraction": e.fraction, "why": e.why} for e in edges]


def graph_from_json(data: Iterable[Mapping[str, Any]] | None) -> tuple[CreditEdge, ...]:
    """Return the edges a course version stores (validated when the version was loaded).

    An edge naming a kind or mistake no longer registered is skipped: it can credit nothing.
    """
    edges = []
    for row in data or ():
        kind_name, _slash, mistake = str(row["to"]).partition("/")
        if row["from"] not in KINDS or kind_name not in KINDS:
            continue
        edges.append(
            CreditEdge(
                source=row["from"],
                kind=kind_name,
                mistake=mistake or None,
                fraction=float(row["fraction"]),
                why=row.get("why", ""),
            )
        )
    return tuple(edges)


def credit_targets(edges: Iterable[CreditEdge], kind: str) -> dict[tuple[str, str | None], float]:
    """Return what a right answer to ``kind`` credits down the graph, with each fraction.

    Keys are ``(kind, None)`` for every item of a kind and ``(kind, mistake)`` for one item;
    the fraction is the product along a path of whole-kind edges (then at most one edge to a
    mistake), the largest over all paths. ``kind`` itself is not among the keys.
    """
    out: dict[str, list[CreditEdge]] = {}
    for edge in edges:
        out.setdefault(edge.source, []).append(edge)
    best: dict[tuple[str, str | None], float] = {}

    def walk(at: str, carried: float, seen: frozenset[str]) -> None:
        for edge in out.get(at, ()):
            if edge.kind in seen:  # never reached for a validated graph
                continue
            fraction = carried * edge.fraction
            key = (edge.kind, edge.mistake)
            if fraction <= best.get(key, 0.0):
                continue  # a better path was already followed from here
            best[key] = fraction
            if edge.mistake is None:
                walk(edge.kind, fraction, seen | {edge.kind})

    walk(kind, 1.0, frozenset({kind}))
    return best


def credit_fraction(
    targets: Mapping[tuple[str, str | None], float], kind: str, mistake: str
) -> float:
    """Return the credit an item (kind, mistake) gets from ``credit_targets`` (0 for none)."""
    return max(targets.get((kind, None), 0.0), targets.get((kind, mistake), 0.0))
