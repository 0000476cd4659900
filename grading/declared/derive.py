"""Mistakes derived by rule from a declared kind's answer: nothing to author.

Each rule finds the places (`Site`) in the answer's expressions where a learner can go wrong
in one systematic way, and says what the answer becomes there. A site's variants on one
problem are Variants of the rule's code; `terms` say which site, term or step (see `RULES`).

| code | terms | what the learner did |
|---|---|---|
| omitted_self_term | [k] | left out the sum's own term j = k (k: the position parameter) |
| omitted_term | [k] | left out another term j = k of a sum over subscripted terms |
| flipped_sign | [s] | added where site s subtracts, or dropped a minus sign |
| product_for_sum | [s] | multiplied the terms of sum s instead of adding them |
| sum_for_product | [s] | added the factors of product s instead of multiplying them |
| mean_for_sum | [s] | averaged the terms of sum s instead of adding them |
| sum_for_mean | [s] | added the terms of mean s without dividing by their count |
| forgot_sqrt | [s] | left out the square root at site s (a norm: gave its square) |
| forgot_normalisation | [s] | left out the division at site s (a softmax: gave the exponentials) |
| swapped_power | [s] | exchanged base and exponent at site s |
| swapped_parameters | [a, b] | used parameter a for parameter b and back (same type and range) |
| off_by_one | [s, e] | ran sum s one term past its end (e = 1) or stopped one short (e = 0) |
| carried_wrong_step | [k, t, u] | in step k, used step u's result where step t's belongs |
| stopped_at_step | [t] | gave step t's result as the answer |
| swapped_indices | [s] | read entry [b][a] of a matrix where [a][b] belongs (site s) |

Rules a file turns on (its `rules:` list; kinds that do not name them keep the set above):

| code | terms | what the learner did |
|---|---|---|
| wrong_term_entry | [s, k, m] | in term j = k of a sum, read v[m] where v[k] belongs (s: v[j]) |
| swapped_term_entries | [s, a, b] | exchanged the entries v[a], v[b] of terms a < b (s: v[j]) |
| left_out_term_factor | [s, k, f] | left factor f (0 left, 1 right) of product s out of term k |
| left_out_factor | [s, f] | left factor f of product s out (in every term of a sum) |
| equal_weights | [s, f] | averaged the sum of product s's other factor, leaving factor f out |
| reversed_difference | [s] | subtracted the wrong way round at subtraction s (b - a for a - b) |
| one_side | [s, e] | gave one side of subtraction s alone: e = 0 the left, e = 1 the right |
| multiplied_for_division | [s] | multiplied where division s divides |
| forgot_every_sqrt | [] | left out every square root (a norm: gave its square) at once |
| wrong_parameter | [s, p] | used parameter p at place s of another of its type (rational, choice) |
| skipped_lookup | [s] | read X[i] where X[v[i]] belongs: the position, not the entry it looks up |
| index_off_by_one | [s, e] | read the entry next to a computed index: e = 1 past, e = 0 before |
| wrong_entry | [s, m] | read v[m] where v[i] belongs (i an integer parameter) |
| left_out_addend | [s, e] | gave one side of addition s alone: e = 0 the left, e = 1 the right |
| subtracted_addend | [s] | subtracted where addition s adds (a - b for a + b) |

A variant whose entry read instead has the same value as the right one, or as one read before
it, is not listed (it is no other mistake); nor is a variant whose value is not of the answer's
shape (a scalar for a vector answer).

The position parameter is the first integer parameter that also indexes a vector or matrix
(`w[i][j]`, `x[i]`). A sum over subscripted terms has no off-by-one (its answer would be a
left-out term's). A variant that cannot be computed on a problem is not listed on it. Steps,
sites and terms count from 0 in `terms`, and from 1 where the words name a step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .expr import (
    REDUCTIONS,
    EvaluationError,
    Node,
    evaluate,
    num,
    reduction_range,
    ref,
    substituted,
    term,
    tex,
    value_tex,
)
from .source import OPT_IN_RULES, KindSource


@dataclass(frozen=True)
class Rule:
    code: str
    number: int
    label: str
    parts: str


RULES = (
    Rule("omitted_self_term", 1, "left out the self term of a sum", "[k]: the term left out"),
    Rule("omitted_term", 2, "left out a term of a sum", "[k]: the term left out"),
    Rule("flipped_sign", 3, "flipped a sign", "[s]: the subtraction or minus sign"),
    Rule("product_for_sum", 4, "multiplied where the sum adds", "[s]: the sum"),
    Rule("sum_for_product", 5, "added where the product multiplies", "[s]: the product"),
    Rule("mean_for_sum", 6, "averaged where the sum adds", "[s]: the sum"),
    Rule("sum_for_mean", 7, "added without dividing by the count", "[s]: the mean"),
    Rule("forgot_sqrt", 8, "left out a square root", "[s]: the root or norm"),
    Rule("forgot_normalisation", 9, "left out a division", "[s]: the division"),
    Rule("swapped_power", 10, "swapped base and exponent", "[s]: the power"),
    Rule("swapped_parameters", 11, "swapped two parameters", "[a, b]: the parameters"),
    Rule("off_by_one", 12, "ran a sum one term off", "[s, e]: the sum, 1 past the end, 0 short"),
    Rule("carried_wrong_step", 13, "carried the wrong step's result", "[k, t, u]: steps"),
    Rule("stopped_at_step", 14, "gave an earlier step's result", "[t]: the step"),
    Rule("swapped_indices", 15, "swapped a matrix's row and column", "[s]: the entry"),
    # opt-in (source.OPT_IN_RULES): only for a file that names them under `rules:`
    Rule("wrong_term_entry", 16, "used another term's entry in a term", "[s, k, m]"),
    Rule("swapped_term_entries", 17, "exchanged the entries of two terms", "[s, a, b]"),
    Rule("left_out_term_factor", 18, "left a factor out of one term", "[s, k, f]"),
    Rule("left_out_factor", 19, "left a factor out", "[s, f]: the product, the factor"),
    Rule("equal_weights", 20, "averaged with equal weights", "[s, f]: the product, the factor"),
    Rule("reversed_difference", 21, "subtracted the wrong way round", "[s]: the subtraction"),
    Rule("one_side", 22, "gave one side of a difference", "[s, e]: 0 the left, 1 the right"),
    Rule("multiplied_for_division", 23, "multiplied instead of dividing", "[s]: the division"),
    Rule("forgot_every_sqrt", 24, "left out every square root", "[]"),
    Rule("wrong_parameter", 25, "used the wrong parameter", "[s, p]: the place, the parameter"),
    Rule("skipped_lookup", 26, "used the position instead of the entry it looks up", "[s]"),
    Rule("index_off_by_one", 27, "read the entry next to the right one", "[s, e]"),
    Rule("wrong_entry", 28, "read another entry", "[s, m]: the entry, the index read"),
    Rule(
        "left_out_addend", 29, "left a term of an addition out", "[s, e]: 0 the left, 1 the right"
    ),
    Rule("subtracted_addend", 30, "subtracted where the answer adds", "[s]: the addition"),
)
assert {r.code for r in RULES[15:]} == set(OPT_IN_RULES)
RULE_BY_CODE = {rule.code: rule for rule in RULES}


@dataclass(frozen=True)
class Site:
    """One place a rule applies: which step and node, and the rule's own facts."""

    code: str
    number: int  # the site's number among the rule's sites
    step: int
    path: tuple[int, ...] = ()
    facts: tuple = ()  # swapped_parameters: (a, b); carried_wrong_step: (t, u)


def _subscripted(node: Node) -> bool:
    """Return True when a reduction's body indexes something by its index (x[j], w[i][j])."""
    return any(
        n.op == "item" and n.args[1].op == "ref" and n.args[1].name == node.name
        for _, n in node.args[0].walk()
    )


def self_parameter(source: KindSource) -> str | None:
    """Return the integer parameter a sum is taken at: the first that indexes a vector or
    matrix somewhere in the answer (`w[i][j]`, `x[i]`), or None."""
    integers = [p.name for p in source.parameters if p.type == "integer"]
    used = set()
    for step in source.steps:
        for _, n in step.expression.walk():
            if n.op == "item" and n.args[1].op == "ref":
                used.add(n.args[1].name)
    return next((name for name in integers if name in used), None)


def find_sites(source: KindSource) -> list[Site]:
    """Return every site of every rule in the answer, in rule order, numbered per rule."""
    found: dict[str, list[tuple[int, tuple[int, ...], tuple]]] = {r.code: [] for r in RULES}
    step_names = [s.name for s in source.steps]
    for s, step in enumerate(source.steps):
        for path, node in step.expression.walk():
            where = (s, path, ())
            if node.op == "Sum":
                if _subscripted(node):
                    found["omitted_term"].append(where)
                else:
                    found["off_by_one"].append(where)
                found["product_for_sum"].append(where)
                found["mean_for_sum"].append(where)
            elif node.op == "Product":
                found["sum_for_product"].append(where)
            elif node.op == "Mean":
                found["sum_for_mean"].append(where)
            elif node.op in ("-", "neg"):
                found["flipped_sign"].append(where)
            elif node.op == "call" and node.name in ("sqrt", "norm"):
                found["forgot_sqrt"].append(where)
            elif (node.op == "call" and node.name == "softmax") or (
                node.op == "/" and node.args[1].op != "num"
            ):
                found["forgot_normalisation"].append(where)
            elif node.op == "**":
                found["swapped_power"].append(where)
            elif (
                node.op == "item"
                and node.args[0].op == "item"
                and node.args[1] != node.args[0].args[1]
            ):
                found["swapped_indices"].append(where)
            elif node.op == "ref" and node.name in step_names[:s]:
                t = step_names.index(node.name)
                for u in range(s):
                    if u != t:
                        found["carried_wrong_step"].append((s, path, (t, u)))
    found["omitted_self_term"] = list(found["omitted_term"]) if self_parameter(source) else []
    used = set().union(*(step.expression.names() for step in source.steps))
    params = [p for p in source.parameters if p.name in used]
    for a in range(len(params)):
        for b in range(a + 1, len(params)):
            if params[a].signature() == params[b].signature():
                pa = source.parameters.index(params[a])
                pb = source.parameters.index(params[b])
                found["swapped_parameters"].append((0, (), (pa, pb)))
    found["stopped_at_step"] = [(t, (), ()) for t in range(len(source.steps) - 1)]
    if source.rules:
        _opt_in_sites(source, found)
        for code in OPT_IN_RULES:
            if code not in source.rules:
                found[code] = []
    return [
        Site(code, k, s, path, facts)
        for code in (r.code for r in RULES)
        for k, (s, path, facts) in enumerate(found[code])
    ]


def _enclosing_sum(expression: Node, path: tuple[int, ...]) -> tuple[int, ...] | None:
    """Return the path of the nearest Sum whose body holds the node at `path`, or None."""
    for cut in range(len(path) - 1, -1, -1):
        if expression.at(path[:cut]).op == "Sum" and path[cut] == 0:
            return path[:cut]
    return None


def _in_limits(expression: Node, path: tuple[int, ...]) -> bool:
    """Return whether the node at `path` is part of a reduction's low or high end."""
    return any(
        expression.at(path[:cut]).op in REDUCTIONS and path[cut] in (1, 2)
        for cut in range(len(path))
    )


def _opt_in_sites(source: KindSource, found: dict[str, list]) -> None:
    """Add the sites of the opt-in rules (source.OPT_IN_RULES) to `found`."""
    integers = {p.name for p in source.parameters if p.type == "integer"}
    scalars = {p.name: p.type for p in source.parameters if p.type in ("rational", "choice")}
    roots = 0
    for s, step in enumerate(source.steps):
        expression = step.expression
        for path, node in expression.walk():
            if _in_limits(expression, path):
                continue  # a reduction's ends are off_by_one's, not these rules'
            where = (s, path, ())
            total = _enclosing_sum(expression, path)
            if node.op == "item" and node.args[0].op == "ref":
                index = node.args[1]
                if (
                    total is not None
                    and index.op == "ref"
                    and index.name == expression.at(total).name
                ):
                    found["wrong_term_entry"].append((s, path, (total,)))
                    found["swapped_term_entries"].append((s, path, (total,)))
                elif index.op == "ref" and index.name in integers:
                    found["wrong_entry"].append(where)
                elif index.op == "item":
                    found["skipped_lookup"].append(where)
                if index.op not in ("num", "ref"):
                    found["index_off_by_one"].append(where)
            elif node.op == "*":
                if total is not None:
                    found["left_out_term_factor"].append((s, path, (total,)))
                    if path == (*total, 0):
                        found["equal_weights"].append((s, path, (total,)))
                found["left_out_factor"].append(where)
            elif node.op == "-":
                found["reversed_difference"].append(where)
                found["one_side"].append(where)
            elif node.op == "+":
                found["left_out_addend"].append(where)
                found["subtracted_addend"].append(where)
            elif node.op == "/" and node.args[1].op != "num":
                found["multiplied_for_division"].append(where)
            elif node.op == "call" and node.name in ("sqrt", "norm"):
                roots += 1
            elif node.op == "ref" and node.name in scalars:
                kind = scalars[node.name]
                if any(n != node.name and t == kind for n, t in scalars.items()):
                    found["wrong_parameter"].append(where)
    if roots >= 2:
        found["forgot_every_sqrt"].append((0, (), ()))


def _with_index(node: Node, name: str, k: int) -> Node:
    """Return a reduction's body with its index `name` read as the number k."""
    if node.op == "ref" and node.name == name:
        return num(k)
    if not node.args:
        return node
    return replace(node, args=tuple(_with_index(a, name, k) for a in node.args))


def _same_shape(a: Any, b: Any) -> bool:
    """Return whether two values are both numbers, or both vectors of one length."""
    if isinstance(a, tuple) != isinstance(b, tuple):
        return False
    return not isinstance(a, tuple) or (
        len(a) == len(b) and all(_same_shape(x, y) for x, y in zip(a, b, strict=True))
    )


def _distinct_reads(base: Node, own: int, indices: list[int], env: dict[str, Any]) -> list[int]:
    """Return the indices m whose entry base[m] differs from base[own] and from every entry
    listed before it (reading an equal entry is no other mistake)."""
    try:
        seen = [value_key(evaluate(Node("item", (base, num(own))), env))]
    except (EvaluationError, KeyError):
        return []
    out = []
    for m in indices:
        try:
            key = value_key(evaluate(Node("item", (base, num(m))), env))
        except (EvaluationError, KeyError):
            continue
        if key not in seen:
            seen.append(key)
            out.append(m)
    return out


def value_key(value: Any) -> Any:
    """Return a hashable key telling exact values apart (irrational ones to 12 digits)."""
    if isinstance(value, tuple):
        return tuple(value_key(x) for x in value)
    if isinstance(value, Fraction):
        return ("q", value)
    try:
        return ("f", round(float(value), 12))
    except (TypeError, ValueError, OverflowError):
        return ("s", str(value))


def _term_changed(total: Node, body_k: Node, new_k: Node) -> Node:
    """Return the Sum with one term's body replaced: Sum + (new term - old term)."""
    return Node("+", (total, Node("-", (new_k, body_k))))


# ---- what a variant computes --------------------------------------------------------------


def _rewrite(source: KindSource, site: Site, new: Node):
    steps = list(source.steps)
    step = steps[site.step]
    steps[site.step] = replace(step, expression=step.expression.put(site.path, new))
    return steps


def _final(source: KindSource, values: dict[str, Any], steps) -> Any:
    steps = source.steps if steps is None else steps
    env = dict(values)
    for step in steps:
        env[step.name] = evaluate(step.expression, env)
    return env[steps[-1].name]


def site_variants(
    source: KindSource, site: Site, values: dict[str, Any], env: dict[str, Any]
) -> list[tuple[tuple[int, ...], dict[str, Any], Any]]:
    """Return the site's variants on one problem: (terms, detail, value) for each one that can
    be computed; `env` is the right computation's names (parameters and steps)."""
    code = site.code
    out: list[tuple[tuple[int, ...], dict[str, Any], Any]] = []
    node = (
        source.steps[site.step].expression.at(site.path) if code != "swapped_parameters" else None
    )

    def computed(terms: tuple[int, ...], detail: dict[str, Any], steps=None, vals=None) -> None:
        try:
            value = _final(source, vals if vals is not None else values, steps)
        except (EvaluationError, KeyError, ZeroDivisionError):
            return
        if code in OPT_IN_RULES and not _same_shape(value, env[source.steps[-1].name]):
            return  # a scalar for a vector answer (or back) is no answer of this kind
        out.append((terms, detail, value))

    if code in ("omitted_term", "omitted_self_term"):
        sums = [s for s in find_sites(source) if s.code == "omitted_term"]
        position = self_parameter(source)
        self_k = int(values[position]) if position else None
        try:
            indices = list(reduction_range(node, env))
        except (EvaluationError, KeyError):
            return []
        for k in indices:
            if (k == self_k) != (code == "omitted_self_term") or len(indices) < 2:
                continue
            terms = (k,) if len(sums) == 1 else (site.number, k)
            computed(terms, {"term": k}, _rewrite(source, site, replace(node, skip=k)))
        return out
    terms = (site.number,)
    if code == "flipped_sign":
        new = node.args[0] if node.op == "neg" else Node("+", node.args)
        computed(terms, {}, _rewrite(source, site, new))
    elif code in ("product_for_sum", "sum_for_product", "mean_for_sum", "sum_for_mean"):
        target = {
            "product_for_sum": "Product",
            "sum_for_product": "Sum",
            "mean_for_sum": "Mean",
            "sum_for_mean": "Sum",
        }[code]
        computed(terms, {}, _rewrite(source, site, replace(node, op=target)))
    elif code == "forgot_sqrt":
        arg = node.args[0]
        new = arg if node.name == "sqrt" else Node("call", (arg, arg), name="dot")
        computed(terms, {}, _rewrite(source, site, new))
    elif code == "forgot_normalisation":
        new = node.args[0] if node.op == "/" else replace(node, name="exps")
        computed(terms, {}, _rewrite(source, site, new))
    elif code == "swapped_power":
        computed(terms, {}, _rewrite(source, site, Node("**", node.args[::-1])))
    elif code == "off_by_one":
        _, low, high = node.args
        for end, new_high in ((1, Node("+", (high, num(1)))), (0, Node("-", (high, num(1))))):
            new = Node(node.op, (node.args[0], low, new_high), name=node.name)
            computed((site.number, end), {}, _rewrite(source, site, new))
    elif code == "swapped_parameters":
        a, b = (source.parameters[k].name for k in site.facts)
        swapped = {**values, a: values[b], b: values[a]}
        computed(site.facts, {}, vals=swapped)
    elif code == "carried_wrong_step":
        t, u = site.facts
        new = ref(source.steps[u].name)
        computed((site.step, t, u), {}, _rewrite(source, site, new))
    elif code == "stopped_at_step":
        computed(terms, {}, source.steps[: site.step + 1])
    elif code in OPT_IN_RULES:
        _opt_in_variants(source, site, node, values, env, computed)
    elif code == "swapped_indices":
        matrix, row = node.args[0].args
        new = Node("item", (Node("item", (matrix, node.args[1])), row))
        computed(terms, {}, _rewrite(source, site, new))
    return out


def _opt_in_variants(source, site, node, values, env, computed) -> None:
    """Compute the variants of an opt-in rule's site (see the module's second table)."""
    code, n = site.code, site.number
    expression = source.steps[site.step].expression
    if code in ("wrong_term_entry", "swapped_term_entries", "left_out_term_factor"):
        (where,) = site.facts
        total = expression.at(where)
        inner = site.path[len(where) + 1 :]  # the site's path inside the Sum's body
        try:
            indices = list(reduction_range(total, env))
        except (EvaluationError, KeyError):
            return
        body = total.args[0]

        def term_put(k: int, new: Node) -> Node:
            return _with_index(body.put(inner, new), total.name, k)

        def changed(*parts: tuple[int, Node]) -> list:
            out = total
            for k, new in parts:
                out = _term_changed(out, _with_index(body, total.name, k), new)
            return _rewrite(source, replace(site, path=where), out)

        if code == "left_out_term_factor":
            for k in indices:
                for f in (0, 1):
                    computed((n, k, f), {}, changed((k, term_put(k, node.args[1 - f]))))
            return
        base = node.args[0]
        for a in indices:
            if code == "wrong_term_entry":
                for m in _distinct_reads(base, a, [m for m in indices if m != a], env):
                    new = term_put(a, Node("item", (base, num(m))))
                    computed((n, a, m), {}, changed((a, new)))
            else:
                later = [b for b in indices if b > a]
                for b in later:
                    if not _distinct_reads(base, a, [b], env):
                        continue  # equal entries: exchanging them changes nothing
                    new_a = term_put(a, Node("item", (base, num(b))))
                    new_b = term_put(b, Node("item", (base, num(a))))
                    computed((n, a, b), {}, changed((a, new_a), (b, new_b)))
        return
    if code == "left_out_factor":
        for f in (0, 1):
            computed((n, f), {}, _rewrite(source, site, node.args[1 - f]))
    elif code == "equal_weights":
        (where,) = site.facts
        total = expression.at(where)
        for f in (0, 1):
            mean = Node("Mean", (node.args[1 - f], *total.args[1:]), name=total.name)
            computed((n, f), {}, _rewrite(source, replace(site, path=where), mean))
    elif code == "reversed_difference":
        computed((n,), {}, _rewrite(source, site, Node("-", node.args[::-1])))
    elif code == "one_side":
        for e in (0, 1):
            computed((n, e), {}, _rewrite(source, site, node.args[e]))
    elif code == "multiplied_for_division":
        computed((n,), {}, _rewrite(source, site, Node("*", node.args)))
    elif code == "left_out_addend":
        for e in (0, 1):
            computed((n, e), {}, _rewrite(source, site, node.args[e]))
    elif code == "subtracted_addend":
        computed((n,), {}, _rewrite(source, site, Node("-", node.args)))
    elif code == "forgot_every_sqrt":
        steps = []
        for step in source.steps:
            out = step.expression
            for path, part in reversed(step.expression.walk()):  # inner roots first
                if part.op == "call" and part.name in ("sqrt", "norm"):
                    arg = out.at(path).args[0]
                    new = arg if part.name == "sqrt" else Node("call", (arg, arg), name="dot")
                    out = out.put(path, new)
            steps.append(replace(step, expression=out))
        computed((), {}, steps)
    elif code == "wrong_parameter":
        own = source.parameter(node.name)
        for b, other in enumerate(source.parameters):
            if (
                other.name != own.name
                and other.type == own.type
                and value_key(values[other.name]) != value_key(values[own.name])
            ):
                computed((n, b), {}, _rewrite(source, site, ref(other.name)))
    elif code == "skipped_lookup":
        base, index = node.args
        computed((n,), {}, _rewrite(source, site, Node("item", (base, index.args[1]))))
    elif code == "index_off_by_one":
        base, index = node.args
        for e, new in ((1, Node("+", (index, num(1)))), (0, Node("-", (index, num(1))))):
            computed((n, e), {}, _rewrite(source, site, Node("item", (base, new))))
    elif code == "wrong_entry":
        base, index = node.args
        try:
            seq = evaluate(base, env)
            own = int(evaluate(index, env))
        except (EvaluationError, KeyError):
            return
        others = [m for m in range(len(seq)) if m != own]
        for m in _distinct_reads(base, own, others, env):
            computed((n, m), {}, _rewrite(source, site, Node("item", (base, num(m)))))


# ---- words --------------------------------------------------------------------------------


def symbols(source: KindSource) -> dict[str, str]:
    """Return each parameter's TeX (its `tex`, else its name)."""
    return {p.name: p.tex for p in source.parameters if p.tex}


def _where(source: KindSource, site: Site) -> str:
    if len(source.steps) < 2:
        return ""
    step = source.steps[site.step]
    return f"In step {site.step + 1} (${_name_tex(source, step.name)}$), "


def _name_tex(source: KindSource, name: str) -> str:
    return symbols(source).get(name, name if len(name) == 1 else f"\\mathrm{{{name}}}")


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def _shown(node: Node, env: dict[str, Any], sym: dict[str, str]) -> str:
    """Return a part in TeX with its value, or alone when it depends on a sum's index."""
    try:
        return f"{tex(node, sym)} = {value_tex(evaluate(node, env))}"
    except (EvaluationError, KeyError):
        return tex(node, sym)


def explain_site(
    source: KindSource, site: Site, terms: tuple[int, ...], env: dict[str, Any], value: Any
) -> str:
    """Return the derived sentence for one variant: the site (step, term, parameter) and the
    values involved, then what the learner's answer was. A site inside another sum (whose
    values depend on that sum's index) is named by its TeX and the rule's label."""
    try:
        return _explain_site(source, site, terms, env, value)
    except (EvaluationError, KeyError):
        node = source.steps[site.step].expression.at(site.path)
        return _cap(
            f"{_where(source, site)}you {RULE_BY_CODE[site.code].label} at "
            f"${tex(node, symbols(source))}$. That gives ${value_tex(value)}$."
        )


def _explain_site(
    source: KindSource, site: Site, terms: tuple[int, ...], env: dict[str, Any], value: Any
) -> str:
    sym = symbols(source)
    code = site.code
    where = _where(source, site)
    node = (
        source.steps[site.step].expression.at(site.path) if code != "swapped_parameters" else None
    )
    got = f"That gives ${value_tex(value)}$."
    if code in ("omitted_term", "omitted_self_term"):
        k = terms[-1]
        inner = {**env, node.name: Fraction(k)}
        body = substituted(node.args[0], inner, sym)
        part = value_tex(term(node, env, k))
        own = (
            f", the sum's own term: ${node.name} = {self_parameter(source)} = {k}$ is in the "
            "sum too"
            if code == "omitted_self_term"
            else ""
        )
        lo, hi = (value_tex(evaluate(a, env)) for a in node.args[1:])
        return _cap(
            f"{where}you left out the term ${node.name} = {k}$ of ${tex(node, sym)}$, "
            f"${body} = {part}${own}. The sum runs over every ${node.name}$ from ${lo}$ to "
            f"${hi}$. {got}"
        )
    if code == "flipped_sign":
        if node.op == "neg":
            inner = node.args[0]
            return _cap(
                f"{where}you dropped the minus sign of ${tex(node, sym)}$: "
                f"${_shown(inner, env, sym)}$ is taken with the "
                f"opposite sign. {got}"
            )
        b = node.args[1]
        return _cap(
            f"{where}you added where ${tex(node, sym)}$ subtracts: "
            f"${_shown(b, env, sym)}$ is taken away, not added. {got}"
        )
    if code in ("product_for_sum", "sum_for_product", "mean_for_sum", "sum_for_mean"):
        count = len(reduction_range(node, env))
        did, should = {
            "product_for_sum": ("multiplied", "adds"),
            "sum_for_product": ("added", "multiplies"),
            "mean_for_sum": (f"averaged (divided by {count})", "adds without dividing"),
            "sum_for_mean": ("added without dividing by their count", f"averages them ({count})"),
        }[code]
        right = value_tex(evaluate(node, env))
        return _cap(
            f"{where}you {did} the {count} terms of ${tex(node, sym)}$; it {should}, which "
            f"gives ${right}$. {got}"
        )
    if code == "forgot_sqrt":
        arg = node.args[0]
        if node.name == "norm":
            squared = value_tex(evaluate(Node("call", (arg, arg), name="dot"), env))
            return _cap(
                f"{where}you used the squared length ${squared}$ where ${tex(node, sym)}$ "
                f"is its square root, ${value_tex(evaluate(node, env))}$. {got}"
            )
        return _cap(
            f"{where}you left out the square root in ${tex(node, sym)}$: you used "
            f"${_shown(arg, env, sym)}$ instead of its square root. {got}"
        )
    if code == "forgot_normalisation":
        if node.op == "call":
            return _cap(
                f"{where}you took the exponentials in ${tex(node, sym)}$ but did not divide "
                f"them by their sum, so they do not add up to 1. {got}"
            )
        den = node.args[1]
        return _cap(
            f"{where}you did not divide by ${_shown(den, env, sym)}$ in ${tex(node, sym)}$. {got}"
        )
    if code == "swapped_power":
        base, exponent = node.args
        return _cap(
            f"{where}you swapped base and exponent in ${tex(node, sym)}$: the base is "
            f"${_shown(base, env, sym)}$ and the exponent ${_shown(exponent, env, sym)}$. {got}"
        )
    if code == "swapped_parameters":
        a, b = (source.parameters[k].name for k in site.facts)
        return (
            f"You used ${_name_tex(source, a)}$ where ${_name_tex(source, b)}$ belongs, and "
            f"back: ${_name_tex(source, a)} = {value_tex(env[a])}$ and "
            f"${_name_tex(source, b)} = {value_tex(env[b])}$. {got}"
        )
    if code == "off_by_one":
        body, low, high = node.args
        lo, hi = (int(evaluate(a, env)) for a in (low, high))
        if terms[-1] == 1:
            how = f"one term past its end, to ${node.name} = {hi + 1}$"
        else:
            how = f"one term short, stopping at ${node.name} = {hi - 1}$"
        last = value_tex(term(node, env, hi))
        return _cap(
            f"{where}you ran ${tex(node, sym)}$ {how}. It runs from ${node.name} = {lo}$ to "
            f"${node.name} = {hi}$, both ends included; its last term is ${last}$. {got}"
        )
    if code == "carried_wrong_step":
        t, u = site.facts
        nt, nu = source.steps[t].name, source.steps[u].name
        return (
            f"In step {site.step + 1} you carried the result of step {u + 1}, "
            f"${_name_tex(source, nu)} = {value_tex(env[nu])}$, where the result of step "
            f"{t + 1}, ${_name_tex(source, nt)} = {value_tex(env[nt])}$, belongs. {got}"
        )
    if code == "swapped_indices":
        matrix, row = node.args[0].args
        swapped = Node("item", (Node("item", (matrix, node.args[1])), row))
        return _cap(
            f"{where}you read ${tex(swapped, sym)}$ where ${tex(node, sym)}$ belongs: the first "
            f"index of ${tex(matrix, sym)}$ is its row, ${tex(row, sym)}$, and the second its "
            f"column, ${tex(node.args[1], sym)}$. {got}"
        )
    if code in OPT_IN_RULES:
        return _cap(f"{where}{_opt_in_words(source, site, node, terms, env, sym)} {got}")
    # stopped_at_step
    name = source.steps[site.step].name
    return (
        f"You gave the result of step {site.step + 1}, ${_name_tex(source, name)} = "
        f"{value_tex(value)}$, and stopped there: the answer takes "
        f"{'the step' if site.step + 2 == len(source.steps) else 'the steps'} after it too."
    )


def _opt_in_words(
    source: KindSource,
    site: Site,
    node: Node,
    terms: tuple[int, ...],
    env: dict[str, Any],
    sym: dict[str, str],
) -> str:
    """Return what the learner did at an opt-in rule's site, naming the parts and values."""
    code = site.code
    expression = source.steps[site.step].expression
    if code in ("wrong_term_entry", "swapped_term_entries", "left_out_term_factor"):
        (where,) = site.facts
        total = expression.at(where)
        j = total.name
        whole = tex(total, sym)
        if code == "left_out_term_factor":
            _, k, f = terms
            factor = _shown(_with_index(node.args[f], j, k), env, sym)
            term_k = _shown(_with_index(total.args[0], j, k), env, sym)
            return (
                f"you left the factor ${factor}$ out of the term ${j} = {k}$ of ${whole}$; "
                f"that term is ${term_k}$."
            )
        base = node.args[0]

        def entry(k: int) -> str:
            return _shown(Node("item", (base, num(k))), env, sym)

        if code == "wrong_term_entry":
            _, k, m = terms
            return (
                f"in the term ${j} = {k}$ of ${whole}$ you used ${entry(m)}$, the entry of the "
                f"term ${j} = {m}$, where its own ${entry(k)}$ belongs."
            )
        _, a, b = terms
        return (
            f"you exchanged ${entry(a)}$ and ${entry(b)}$ between the terms ${j} = {a}$ and "
            f"${j} = {b}$ of ${whole}$: each term takes its own entry."
        )
    if code == "left_out_factor":
        _, f = terms
        inside = _enclosing_sum(expression, site.path)
        every = " in every term of the sum" if inside is not None else ""
        return f"you left the factor ${tex(node.args[f], sym)}$ out of ${tex(node, sym)}${every}."
    if code == "equal_weights":
        _, f = terms
        total = expression.at(site.facts[0])
        count = len(reduction_range(total, env))
        return (
            f"you averaged ${tex(node.args[1 - f], sym)}$ over the {count} terms of "
            f"${tex(total, sym)}$, each with the same weight $\\frac{{1}}{{{count}}}$, where "
            f"each term takes its own ${tex(node.args[f], sym)}$."
        )
    if code == "reversed_difference":
        a, b = node.args
        return (
            f"you subtracted the wrong way round: ${tex(Node('-', (b, a)), sym)}$ where "
            f"${tex(node, sym)}$ belongs."
        )
    if code == "one_side":
        _, e = terms
        return (
            f"you gave ${tex(node.args[e], sym)}$ alone where the difference "
            f"${tex(node, sym)}$ belongs: ${tex(node.args[1 - e], sym)}$ is left out."
        )
    if code == "left_out_addend":
        _, e = terms
        return (
            f"you gave ${tex(node.args[e], sym)}$ alone where the sum ${tex(node, sym)}$ "
            f"belongs: ${_shown(node.args[1 - e], env, sym)}$ is left out."
        )
    if code == "subtracted_addend":
        return (
            f"you subtracted ${_shown(node.args[1], env, sym)}$ where ${tex(node, sym)}$ adds it."
        )
    if code == "multiplied_for_division":
        return (
            f"you multiplied by ${_shown(node.args[1], env, sym)}$ where ${tex(node, sym)}$ "
            "divides by it."
        )
    if code == "forgot_every_sqrt":
        return "you left out every square root of the answer, using the squares themselves."
    if code == "wrong_parameter":
        _, b = terms
        other = source.parameters[b].name
        return (
            f"you used ${_name_tex(source, other)} = {value_tex(env[other])}$ where "
            f"${_name_tex(source, node.name)} = {value_tex(env[node.name])}$ belongs, in "
            f"${tex(expression, sym)}$."
        )
    base, index = node.args
    if code == "skipped_lookup":
        inner = index.args[1]
        return (
            f"you read ${tex(Node('item', (base, inner)), sym)}$, numbered by "
            f"${_shown(inner, env, sym)}$ itself, where ${tex(node, sym)}$ belongs: the entry "
            f"to read is ${_shown(index, env, sym)}$."
        )
    if code == "index_off_by_one":
        _, e = terms
        right = int(evaluate(index, env))
        used = right + 1 if e == 1 else right - 1
        return (
            f"you read entry {used} of ${tex(base, sym)}$, next to the right one: "
            f"${tex(node, sym)}$ is entry ${_shown(index, env, sym)}$."
        )
    # wrong_entry
    _, m = terms
    return (
        f"you read ${_shown(Node('item', (base, num(m))), env, sym)}$ where "
        f"${_shown(node, env, sym)}$ belongs (${_shown(index, env, sym)}$)."
    )


__all__ = ["REDUCTIONS", "RULES", "Site", "explain_site", "find_sites", "site_variants"]
