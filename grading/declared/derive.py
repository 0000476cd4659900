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
from .source import KindSource


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
)
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
    return [
        Site(code, k, s, path, facts)
        for code in (r.code for r in RULES)
        for k, (s, path, facts) in enumerate(found[code])
    ]


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
    elif code == "swapped_indices":
        matrix, row = node.args[0].args
        new = Node("item", (Node("item", (matrix, node.args[1])), row))
        computed(terms, {}, _rewrite(source, site, new))
    return out


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
    # stopped_at_step
    name = source.steps[site.step].name
    return (
        f"You gave the result of step {site.step + 1}, ${_name_tex(source, name)} = "
        f"{value_tex(value)}$, and stopped there: the answer takes "
        f"{'the step' if site.step + 2 == len(source.steps) else 'the steps'} after it too."
    )


__all__ = ["REDUCTIONS", "RULES", "Site", "explain_site", "find_sites", "site_variants"]
