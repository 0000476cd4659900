"""A declared kind as the engine sees it: a `Kind` built from a `KindSource`.

`build_kind(source)` returns a registered-ready `Kind` subclass: its spec (`{"kind": name,
"params": {...}}`), its shape and right answer (the steps computed exactly), its worked
solution (one step per declared step), and its catalogue: the derived mistakes
(`grading.declared.derive`) that can happen in this answer, renamed, merged or silenced as the
file says, and the author's own. `register_source` puts it beside the built-in kinds.

A derived variant is left out of the catalogue when it is not a mistake at all: on sample
problems of every level it gives the right answer every time (`dot(q, k)` with q and k
swapped), or the same answer as a variant listed before it every time (a rule that rewrites
the same computation another way). What is left may still coincide on one problem; the
generator redraws such a problem, as it does for the built-in kinds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..kinds.base import REGISTRY, Kind, MistakeDef, Numbered, Step, register, variant
from ..shapes import ScalarShape, Shape, Vector
from ..spec import SpecError, canonical_number
from ..verdict import Diagnosis
from .derive import (
    RULE_BY_CODE,
    RULES,
    Site,
    explain_site,
    find_sites,
    site_variants,
    value_key,
)
from .expr import EvaluationError, calls, evaluate, is_scalar, tex, value_tex
from .source import (
    DRAW_TRIES,
    PLACEHOLDER,
    KindSource,
    MistakeWords,
    draw_once,
    run_steps,
    satisfied,
)

SAMPLES_PER_LEVEL = 4


@dataclass(frozen=True, eq=False)
class DeclaredProblem:
    """One problem of a declared kind: the parameters, every step's value, and the variants
    computed once (`catalogue`)."""

    values: Mapping[str, Any]
    env: Mapping[str, Any]
    memo: dict[str, Any] = field(default_factory=dict)


def fill(text: str, env: Mapping[str, Any]) -> str:
    """Return text with every {{name}} replaced by that value's TeX."""
    return PLACEHOLDER.sub(lambda m: value_tex(env[m.group(1)]), text)


def _spec_value(value: Any) -> Any:
    if is_scalar(value):
        return canonical_number(value)
    return [_spec_value(x) for x in value]


class DeclaredKind(Kind):
    """The base of every declared kind (`build_kind` makes one subclass per file)."""

    source: KindSource
    sites: tuple[Site, ...] = ()
    dropped: frozenset = frozenset()
    codes_of_rules: Mapping[str, str] = {}  # a rule's code -> the code it is listed under
    words_of: Mapping[str, MistakeWords] = {}

    # ---- spec ------------------------------------------------------------------------------

    def load(self, spec: dict[str, Any]) -> DeclaredProblem:
        params = spec.get("params")
        if not isinstance(params, dict):
            raise SpecError("params", "must be an object of the kind's parameters")
        names = [p.name for p in self.source.parameters]
        for key in params:
            if key not in names:
                raise SpecError(f"params.{str(key)[:20]}", f"is not a parameter of {self.name}")
        values: dict[str, Any] = {}
        for p in self.source.parameters:
            if p.name not in params:
                raise SpecError(f"params.{p.name}", "is missing")
            values[p.name] = self._read(p, params[p.name], values)
        if not satisfied(self.source, values):
            raise SpecError("params", "the parameters break the kind's constraints")
        try:
            env = run_steps(self.source, values)
        except EvaluationError as exc:
            raise SpecError("params", f"the answer cannot be computed: {exc}") from None
        problem = DeclaredProblem(values, env)
        problem.memo["kind"] = self
        return problem

    def _read(self, p: Any, raw: Any, values: dict[str, Any]) -> Any:
        where = f"params.{p.name}"

        def one(item: Any, at: str) -> Fraction:
            try:
                if isinstance(item, bool) or not isinstance(item, str | int):
                    raise ValueError
                x = Fraction(item)
            except (ValueError, ZeroDivisionError):
                raise SpecError(at, "must be an exact number such as 3 or -1/2") from None
            if not self._in_range(p, x):
                raise SpecError(at, f"{x} is outside every level's range")
            return x

        def size(declared: Any) -> int:
            return declared if isinstance(declared, int) else int(values[declared])

        if p.type in ("integer", "rational", "choice"):
            return one(raw, where)
        if p.type == "vector":
            if not isinstance(raw, list) or len(raw) != size(p.length):
                raise SpecError(where, f"must be a list of {size(p.length)} numbers")
            return tuple(one(x, f"{where}[{k}]") for k, x in enumerate(raw))
        rows, columns = size(p.length), size(p.columns)
        if not isinstance(raw, list) or len(raw) != rows:
            raise SpecError(where, f"must be a list of {rows} rows")
        out = []
        for k, row in enumerate(raw):
            if not isinstance(row, list) or len(row) != columns:
                raise SpecError(f"{where}[{k}]", f"must be a list of {columns} numbers")
            out.append(tuple(one(x, f"{where}[{k}][{c}]") for c, x in enumerate(row)))
        return tuple(out)

    @staticmethod
    def _in_range(p: Any, x: Fraction) -> bool:
        value_type = p.entries if p.type in ("vector", "matrix") else p.type
        for spec in p.levels.values():
            if value_type == "integer" and x.denominator == 1 and spec[0] <= x <= spec[1]:
                return True
            if value_type == "rational":
                (nlo, nhi), (dlo, dhi) = spec
                if any(
                    nlo <= x * d <= nhi and (x * d).denominator == 1 for d in range(dlo, dhi + 1)
                ):
                    return True
            if value_type == "choice" and x in spec:
                return True
        return False

    def normal(self, problem: DeclaredProblem) -> dict[str, Any]:
        return {"params": {name: _spec_value(v) for name, v in problem.values.items()}}

    def shape(self, problem: DeclaredProblem) -> Shape:
        right = self.right(problem)
        logs = any(calls(step.expression, "log") for step in self.source.steps)  # log is typed
        return ScalarShape(logs=logs) if is_scalar(right) else Vector(len(right), logs=logs)

    def right(self, problem: DeclaredProblem) -> Any:
        return problem.env[self.source.steps[-1].name]

    # ---- the catalogue on one problem ---------------------------------------------------

    def catalogue(self, problem: DeclaredProblem) -> dict[tuple[str, tuple[int, ...], str], Any]:
        """Return every listed variant on a problem: (code, terms, rule) -> (site, value), in
        catalogue order; the rule tells apart two merged rules' variants of one code and terms
        (it is the variant's `detail["site"]`); a site is None (rule "") for an author's own
        mistake."""
        found = problem.memo.get("catalogue")
        if found is None:
            found = {}
            for site in self.sites:
                code = self.codes_of_rules.get(site.code)
                if code is None:
                    continue
                for terms, _detail, value in site_variants(
                    self.source, site, dict(problem.values), dict(problem.env)
                ):
                    if (site.code, terms) not in self.dropped:
                        found.setdefault((code, terms, site.code), (site, value))
            for words in self.source.mistakes:
                if words.answer is not None:
                    try:
                        value = evaluate(words.answer, problem.env)
                    except EvaluationError:
                        continue
                    found.setdefault((words.code, (), ""), (None, value))
            problem.memo["catalogue"] = found
        return found

    def hint(self, problem: DeclaredProblem) -> str:
        if self.source.hint:
            return fill(self.source.hint, problem.env)
        steps = " then ".join(
            f"${_tex_name(self.source, s.name)} = {tex(s.expression, _symbols(self.source))}$"
            for s in self.source.steps
        )
        return f"Work it out step by step: {steps}."

    def steps(self, problem: DeclaredProblem) -> tuple[Step, ...]:
        sym = _symbols(self.source)
        given = ", ".join(
            f"${_tex_name(self.source, p.name)} = {value_tex(problem.values[p.name])}$"
            for p in self.source.parameters
        )
        out = [Step(f"The problem gives {given}.")]
        for k, step in enumerate(self.source.steps):
            value = problem.env[step.name]
            words = fill(step.text, problem.env) + " " if step.text else ""
            last = k == len(self.source.steps) - 1
            out.append(
                Step(
                    f"{words}${_tex_name(self.source, step.name)} = "
                    f"{tex(step.expression, sym)} = {value_tex(value)}$.",
                    value if last else None,
                )
            )
        return tuple(out)


def _symbols(source: KindSource) -> dict[str, str]:
    return {p.name: p.tex for p in source.parameters if p.tex}


def _tex_name(source: KindSource, name: str) -> str:
    return _symbols(source).get(name, name if len(name) == 1 else f"\\mathrm{{{name}}}")


# ---- building -----------------------------------------------------------------------------


def sample_problems(source: KindSource, seed: int = 1) -> list[DeclaredProblem]:
    """Return a few problems of every level drawn from a fixed stream (for the catalogue's
    structural check; never shown to a learner)."""
    rng = random.Random(seed)  # noqa: S311 (a fixed stream for a check, not a secret)
    out = []
    for level in source.levels:
        for _ in range(SAMPLES_PER_LEVEL):
            for _try in range(DRAW_TRIES):
                values = draw_once(source, level, rng.randrange)
                if satisfied(source, values):
                    out.append(DeclaredProblem(values, run_steps(source, values)))
                    break
    return out


def structural_drops(source: KindSource, sites: list[Site]) -> frozenset:
    """Return the (rule code, terms) variants that are no mistake: on every sample problem
    they give the right answer, or what an earlier variant gives."""
    seen: dict[tuple[str, tuple[int, ...]], dict[int, Any]] = {}
    rights: dict[int, Any] = {}
    for n, problem in enumerate(sample_problems(source)):
        rights[n] = value_key(problem.env[source.steps[-1].name])
        for site in sites:
            for terms, _detail, value in site_variants(
                source, site, dict(problem.values), dict(problem.env)
            ):
                seen.setdefault((site.code, terms), {})[n] = value_key(value)
    dropped = set()
    kept: list[dict[int, Any]] = []
    for key, values in seen.items():
        if all(values[n] == rights[n] for n in values):
            dropped.add(key)
            continue
        for other in kept:
            common = set(values) & set(other)
            if len(common) >= 2 and all(values[n] == other[n] for n in common):
                dropped.add(key)
                break
        else:
            kept.append(values)
    return frozenset(dropped)


def build_kind(source: KindSource) -> type[DeclaredKind]:
    """Return the Kind subclass of a kind file (not registered: see `register_source`)."""
    sites = find_sites(source)
    dropped = structural_drops(source, sites)
    words = {w.code: w for w in source.mistakes}
    for code in words:
        if code not in RULE_BY_CODE and words[code].answer is None:
            raise source.error(
                f"mistakes.{code}",
                f"is not a derived mistake ({', '.join(RULE_BY_CODE)}) and has no answer",
            )
    alive = []
    for rule in RULES:
        keys = [key for key in _possible(source, sites, rule.code) if key not in dropped]
        if keys:
            alive.append(rule)
    codes: dict[str, str] = {}
    for rule in alive:
        w = words.get(rule.code)
        if w and w.silence:
            continue
        codes[rule.code] = (
            (w.name if w and w.name else rule.code) if not (w and w.merge_into) else ""
        )
    for rule in alive:
        w = words.get(rule.code)
        if w and w.merge_into and not w.silence:
            if w.merge_into not in codes.values():
                raise source.error(
                    f"mistakes.{rule.code}.merge_into",
                    f"{w.merge_into!r} is not a mistake of this kind "
                    f"(listed: {', '.join(c for c in codes.values() if c)})",
                )
            codes[rule.code] = w.merge_into
    for code in words:
        if code in RULE_BY_CODE and code not in {r.code for r in alive}:
            raise source.error(
                f"mistakes.{code}", "names a derived mistake this answer never gives"
            )
    own_codes = {w.code for w in source.mistakes if w.answer is not None}
    for rule, name in codes.items():
        merged = bool(words.get(rule) and words[rule].merge_into)
        if not name or name == rule or merged:
            continue
        others = {
            other_name
            for other, other_name in codes.items()
            if other != rule and not (words.get(other) and words[other].merge_into)
        }
        if name in others or name in own_codes:
            raise source.error(f"mistakes.{rule}.name", f"{name!r} is already a mistake's code")
    mistakes: list[MistakeDef] = []
    listed = [c for c in dict.fromkeys(codes.values()) if c]
    for code in listed:
        rules = [r for r in alive if codes.get(r.code) == code]
        head = rules[0]
        w = words.get(code) or words.get(head.code)
        mistakes.append(
            _mistake(code, head.number, w.label if w and w.label else head.label, head.parts, w)
        )
    for w in source.mistakes:
        if w.answer is not None:
            if w.code in listed:
                raise source.error(f"mistakes.{w.code}", "is already a derived mistake's code")
            mistakes.append(_mistake(w.code, w.number, w.label, "[]", w))
    numbering = {"step": Numbered(count=_step_count)} if len(source.steps) > 1 else {}
    namespace = {
        "name": source.name,
        "label": source.label,
        "source": source,
        "sites": tuple(sites),
        "dropped": dropped,
        "codes_of_rules": {k: v for k, v in codes.items() if v},
        "words_of": words,
        "mistakes": tuple(mistakes),
        "numbering": numbering,
        "__module__": __name__,
    }
    cls = type(f"Declared_{source.name}", (DeclaredKind,), namespace)
    _check_own_mistakes(source, cls())
    return cls


def _check_own_mistakes(source: KindSource, kind: DeclaredKind) -> None:
    """Refuse an author's own mistake that, on every sample problem, gives the right answer or
    what a listed derived variant gives (it could never be named)."""
    own = [w.code for w in source.mistakes if w.answer is not None]
    if not own:
        return
    samples = sample_problems(source)
    for code in own:
        same: set | None = None
        for problem in samples:
            problem.memo["kind"] = kind
            catalogue = kind.catalogue(problem)
            mine = catalogue.get((code, (), ""))
            if mine is None:
                continue
            key = value_key(mine[1])
            here = {"the right answer"} if key == value_key(kind.right(problem)) else set()
            here |= {
                f"{c} {list(t)}"
                for (c, t, rule), (_site, value) in catalogue.items()
                if rule and value_key(value) == key
            }
            same = here if same is None else same & here
        if same:
            raise source.error(
                f"mistakes.{code}.answer",
                f"gives what {sorted(same)[0]} gives on every sample problem",
            )


def _step_count(problem: DeclaredProblem) -> int:
    return len(_kind_of(problem).source.steps)


def _possible(source: KindSource, sites: list[Site], code: str) -> list[tuple[str, tuple]]:
    keys = []
    for problem in sample_problems(source)[:: max(1, SAMPLES_PER_LEVEL // 2)]:
        for site in sites:
            if site.code == code:
                keys.extend(
                    (code, terms)
                    for terms, _, _ in site_variants(
                        source, site, dict(problem.values), dict(problem.env)
                    )
                )
    return keys


def _mistake(code: str, number: int, label: str, parts: str, words: MistakeWords | None):
    def variants(problem: DeclaredProblem, code: str = code):
        kind = _kind_of(problem)
        return [
            variant(c, terms, {"site": rule} if rule else {})
            for (c, terms, rule) in kind.catalogue(problem)
            if c == code
        ]

    def apply(problem: DeclaredProblem, d: Any) -> Any:
        kind = _kind_of(problem)
        found = _entry(kind, problem, d)
        if found is None:
            raise EvaluationError(f"{d.mistake} {tuple(d.terms)} is not a variant here")
        return found[1]

    def explain(problem: DeclaredProblem, d: Diagnosis) -> str:
        kind = _kind_of(problem)
        found = _entry(kind, problem, d)
        if found is None:
            return f"{kind.mistake(d.mistake).label}."
        site, value = found
        env = dict(problem.env)
        right = f"The right answer is ${kind.shape(problem).tex(kind.right(problem))}$."
        own = kind.words_of.get(site.code) if site else None
        # the rule's own words first: a merged rule keeps what was written for it
        extra = (
            own.explain
            if own and own.explain
            else (words.explain if words and words.explain else "")
        )
        extra = f" {fill(extra, env)}" if extra else ""
        if site is None:
            return f"{fill(words.explain, env)} {right}"
        return f"{explain_site(kind.source, site, tuple(d.terms), env, value)}{extra} {right}"

    return MistakeDef(
        code=code,
        number=number,
        label=label,
        parts=parts,
        explain=explain,
        variants=variants,
        apply=apply,
    )


def _entry(kind: DeclaredKind, problem: DeclaredProblem, d: Any) -> tuple | None:
    """Return (site, value) of the variant a diagnosis or variant names: by its rule when its
    detail says (merged rules), else the first of its code and terms."""
    catalogue = kind.catalogue(problem)
    rule = (getattr(d, "detail", None) or {}).get("site")
    terms = tuple(d.terms)
    if rule is not None:
        return catalogue.get((d.mistake, terms, rule))
    return next(
        (found for (c, t, _r), found in catalogue.items() if c == d.mistake and t == terms), None
    )


def _kind_of(problem: DeclaredProblem) -> DeclaredKind:
    """Return the declared kind a problem belongs to (kept on the problem when loaded)."""
    return problem.memo["kind"]


def register_source(source: KindSource) -> DeclaredKind:
    """Build and register a declared kind; return the registered instance."""
    cls = build_kind(source)
    REGISTRY.pop(source.name, None)
    register(cls)
    return REGISTRY[source.name]


def unregister(name: str) -> None:
    """Remove a declared kind from the registry (check_kind's temporary registrations)."""
    found = REGISTRY.get(name)
    if isinstance(found, DeclaredKind):
        del REGISTRY[name]
