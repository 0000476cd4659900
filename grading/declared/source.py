"""Read and validate a declared kind's file, `kinds/<name>.yaml` in a course folder.

Pure: no Django. `read_kind_file` returns the whole `KindSource` or raises `KindFileError`
naming the file, the field and its line, so nothing is loaded on a fault. The format is in
docs/authoring.md ("Declared kinds"); in short:

    kind, label, version, levels        the kind's stable name, its one label, its levels
    parameters: {name: {type, levels, length/rows/columns, tex}}   integer, rational, choice,
                                        vector, matrix; each level's range or options
    constraints: [comparisons]          what every drawn problem must satisfy
    statement                           Markdown with TeX; {{name}} is a parameter's value
    answer | steps                      one expression, or named steps (the last is the answer)
    shape                               scalar or vector
    words: {hint}                       optional advice for an answer nothing explains
    mistakes: {code: {...}}             optional: label, words, name, merge_into, silence of a
                                        derived mistake; a mistake of the author's own has an
                                        `answer` expression and a `number` of 100 or more
    rules: [codes]                      optional: derivation rules beyond the standard set
    tests: [{answer | typed, seed, level, status, mistake, terms}]   question tests
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from .expr import (
    EvaluationError,
    ExpressionError,
    Node,
    condition,
    evaluate,
    is_scalar,
    parse,
    parse_condition,
)

NAME = re.compile(r"^[a-z][a-z0-9_]{1,39}$")
PARAMETER = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,11}$")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}")
TOP_KEYS = (
    "kind",
    "label",
    "version",
    "levels",
    "parameters",
    "constraints",
    "statement",
    "answer",
    "steps",
    "shape",
    "words",
    "mistakes",
    "rules",
    "tests",
)
REQUIRED = ("kind", "label", "version", "levels", "parameters", "statement", "shape")
TYPES = ("integer", "rational", "choice", "vector", "matrix")
SHAPES = ("scalar", "vector")
MAX_PARAMETERS = 12
MAX_STEPS = 8
MAX_ENTRY = 1000
MAX_LENGTH = 8  # a vector's entries, a matrix's columns
MAX_ROWS = 10  # a matrix's rows (a vocabulary's table; a matrix is never drawn)
DRAW_TRIES = 500  # draws of one problem's parameters before the constraints are given up
AUTHOR_NUMBERS = 100  # an author's own mistakes are numbered from here (derived ones below)
STATUSES = ("correct", "incorrect", "invalid")
# Derivation rules a kind file turns on by naming them under `rules:` (grading.declared.derive,
# "Rules a file turns on"); every other rule applies to every kind.
OPT_IN_RULES = (
    "wrong_term_entry",
    "swapped_term_entries",
    "left_out_term_factor",
    "left_out_factor",
    "equal_weights",
    "reversed_difference",
    "one_side",
    "multiplied_for_division",
    "forgot_every_sqrt",
    "wrong_parameter",
    "skipped_lookup",
    "index_off_by_one",
    "wrong_entry",
    "left_out_addend",
    "subtracted_addend",
)


class KindFileError(ValueError):
    """A malformed kind file: which file, which field (and its line), and what was wrong."""

    def __init__(self, path: Path | str, field: str, message: str, line: int | None = None):
        self.path = str(path)
        self.field = field
        self.line = line
        self.message = message
        where = f"{self.path}: {field}" if field else self.path
        at = f" (line {line})" if line else ""
        super().__init__(f"{where}{at}: {message}")


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str
    levels: dict[int, Any]  # integer: (low, high); rational: ((nlo, nhi), (dlo, dhi)); choice
    entries: str = "integer"  # of a vector or matrix: integer or rational
    length: int | str | None = None  # vector length, or matrix rows: a number or a parameter
    columns: int | str | None = None
    tex: str | None = None

    def signature(self) -> tuple:
        """Return what two parameters must share to be swappable (type, entries, sizes)."""
        return (self.type, self.entries, self.length, self.columns, repr(self.levels))


@dataclass(frozen=True)
class StepSource:
    name: str
    expression: Node
    text: str  # the author's words for the step ("" for generated words)


@dataclass(frozen=True)
class MistakeWords:
    """An author's words on one mistake (derived or their own)."""

    code: str
    label: str | None = None
    explain: str | None = None
    name: str | None = None
    merge_into: str | None = None
    silence: bool = False
    answer: Node | None = None
    number: int | None = None


@dataclass(frozen=True)
class QuestionTest:
    index: int
    status: str
    mistake: str | None
    terms: tuple[int, ...] | None
    answer: Node | None
    typed: str | None
    seed: int
    level: int


@dataclass(frozen=True)
class KindSource:
    path: str
    name: str
    label: str
    version: int
    levels: tuple[int, ...]
    parameters: tuple[Parameter, ...]
    constraints: tuple[tuple[str, Node, Node, str], ...]
    statement: str
    steps: tuple[StepSource, ...]
    shape: str
    hint: str
    mistakes: tuple[MistakeWords, ...]
    tests: tuple[QuestionTest, ...]
    rules: tuple[str, ...] = ()  # the opt-in derivation rules the file turns on
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def parameter(self, name: str) -> Parameter:
        """Return the parameter of that name."""
        return next(p for p in self.parameters if p.name == name)

    def error(self, field: str, message: str) -> KindFileError:
        """Return a KindFileError for a field of this file, with its line when known."""
        return KindFileError(self.path, field, message, _line_of(self.lines, field))


# ---- YAML with lines ---------------------------------------------------------------------


class StrictLoader(yaml.SafeLoader):
    """A safe YAML loader that refuses a key given twice (the second would silently win): the
    one the course loader reads pages' and the graph's YAML with too."""


def _mapping(loader: StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} is given twice", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _lines(node: yaml.Node, prefix: str, out: dict[str, int]) -> None:
    out[prefix] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = f"{prefix}.{key.value}" if prefix else str(key.value)
            out[name] = key.start_mark.line + 1
            _lines(value, name, out)
            out[name] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for k, value in enumerate(node.value):
            _lines(value, f"{prefix}[{k}]", out)


def _line_of(lines: dict[str, int], field: str) -> int | None:
    while field:
        if field in lines:
            return lines[field]
        cut = max(field.rfind("."), field.rfind("["))
        field = field[:cut] if cut > 0 else ""
    return None


def read_kind_text(path: Path, *, max_chars: int) -> str:
    """Return a kind file's text; KindFileError when it is not UTF-8, cannot be read, or is
    longer than ``max_chars``."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise KindFileError(path, "", f"not UTF-8 (byte {exc.start})") from exc
    except OSError as exc:
        raise KindFileError(path, "", f"cannot be read: {exc.strerror}") from exc
    if len(text) > max_chars:
        raise KindFileError(path, "", f"is larger than {max_chars:,} characters".replace(",", " "))
    return text


def _load_yaml(path: Path) -> tuple[Any, dict[str, int]]:
    text = read_kind_text(path, max_chars=100_000)
    try:
        data = yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise KindFileError(
            path,
            "",
            f"YAML cannot be read: {exc.problem or exc.context or 'malformed'}",
            mark.line + 1 if mark else None,
        ) from exc
    except yaml.YAMLError as exc:
        raise KindFileError(path, "", f"YAML cannot be read: {exc}") from exc
    lines: dict[str, int] = {}
    if node is not None:
        _lines(node, "", lines)
    return data, lines


# ---- validation ----------------------------------------------------------------------------


class _Reader:
    def __init__(self, path: Path, lines: dict[str, int]) -> None:
        self.path = path
        self.lines = lines

    def fail(self, field: str, message: str) -> KindFileError:
        return KindFileError(self.path, field, message, _line_of(self.lines, field))

    def mapping(self, value: Any, field: str, allowed: tuple[str, ...], required=()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(field, f"must be a mapping of {', '.join(allowed)}")
        for key in value:
            if key not in allowed:
                raise self.fail(
                    f"{field}.{key}" if field else str(key),
                    f"unknown key {key!r} (allowed: {', '.join(allowed)})",
                )
        for key in required:
            if key not in value:
                raise self.fail(f"{field}.{key}" if field else key, "is missing")
        return value

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, "must be non-empty text")
        return value.strip()

    def integer(self, value: Any, field: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"must be a whole number from {low} to {high}, is {value!r}")
        return value

    def pair(self, value: Any, field: str, low: int, high: int) -> tuple[int, int]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(field, "must be a range [low, high]")
        a = self.integer(value[0], f"{field}[0]", low, high)
        b = self.integer(value[1], f"{field}[1]", low, high)
        if a > b:
            raise self.fail(field, f"is empty: {a} is above {b}")
        return a, b

    def number(self, value: Any, field: str) -> Fraction:
        try:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError
            out = Fraction(value)
        except (ValueError, ZeroDivisionError):
            message = f"must be a whole number or a fraction a/b, is {value!r}"
            raise self.fail(field, message) from None
        if max(abs(out.numerator), out.denominator) > MAX_ENTRY:
            raise self.fail(field, f"must be within {MAX_ENTRY} in size")
        return out

    def expression(self, value: Any, field: str, names: set[str]) -> Node:
        if not isinstance(value, str):
            raise self.fail(field, "must be an expression written as text")
        try:
            return parse(value, names=names)
        except ExpressionError as exc:
            raise self.fail(field, str(exc)) from None


def read_kind_file(path: Path | str) -> KindSource:
    """Read and validate one kind file; raise KindFileError (file, field, line) on a fault.

    Besides each field's form, the reader draws problems of every level and refuses a kind
    whose constraints no draw satisfies within DRAW_TRIES, whose expressions cannot be
    computed on a drawn problem, or whose answer is not of its declared shape."""
    path = Path(path)
    data, lines = _load_yaml(path)
    r = _Reader(path, lines)
    r.mapping(data, "", TOP_KEYS, REQUIRED)
    name = r.text(data["kind"], "kind")
    if not NAME.match(name):
        raise r.fail("kind", f"{name!r} must be lowercase letters, digits and _ (2 to 40)")
    if name != path.stem:
        raise r.fail("kind", f"{name!r} must equal the file name {path.stem!r}")
    label = r.text(data["label"], "label")
    version = r.integer(data["version"], "version", 1, 10**6)
    levels = data["levels"]
    if not isinstance(levels, list) or not levels or len(levels) > 6:
        raise r.fail("levels", "must be a list of 1 to 6 level numbers")
    levels = tuple(r.integer(v, f"levels[{k}]", 1, 6) for k, v in enumerate(levels))
    if list(levels) != sorted(set(levels)):
        raise r.fail("levels", "must be increasing, without repeats")
    parameters = _parameters(r, data["parameters"], levels)
    names = {p.name for p in parameters}
    constraints = []
    raw_constraints = data.get("constraints") or []
    if not isinstance(raw_constraints, list):
        raise r.fail("constraints", "must be a list of comparisons")
    for k, text in enumerate(raw_constraints):
        field_name = f"constraints[{k}]"
        if not isinstance(text, str):
            raise r.fail(field_name, "must be a comparison written as text")
        try:
            op, left, right = parse_condition(text, names=names)
        except ExpressionError as exc:
            raise r.fail(field_name, str(exc)) from None
        constraints.append((op, left, right, text))
    steps = _steps(r, data, names)
    shape = data["shape"]
    if shape not in SHAPES:
        raise r.fail("shape", f"{shape!r} is not one of {', '.join(SHAPES)}")
    statement = r.text(data["statement"], "statement")
    for found in PLACEHOLDER.findall(statement):
        if found not in names:
            raise r.fail(
                "statement", f"{{{{{found}}}}} names no parameter (known: {sorted(names)})"
            )
    words = r.mapping(data.get("words") or {}, "words", ("hint",))
    hint = r.text(words["hint"], "words.hint") if "hint" in words else ""
    step_names = names | {s.name for s in steps}
    mistakes = _mistakes(r, data.get("mistakes") or {}, step_names)
    tests = _tests(r, data.get("tests") or [], levels, step_names)
    rules = _rules(r, data.get("rules") or [])
    source = KindSource(
        path=str(path),
        name=name,
        label=label,
        version=version,
        levels=levels,
        parameters=parameters,
        constraints=tuple(constraints),
        statement=statement,
        steps=steps,
        shape=shape,
        hint=hint,
        mistakes=mistakes,
        tests=tests,
        rules=rules,
        lines=lines,
    )
    _check_draws(source)
    return source


def _parameters(r: _Reader, raw: Any, levels: tuple[int, ...]) -> tuple[Parameter, ...]:
    if not isinstance(raw, dict) or not raw or len(raw) > MAX_PARAMETERS:
        raise r.fail("parameters", f"must be a mapping of 1 to {MAX_PARAMETERS} parameters")
    out: list[Parameter] = []
    for name, spec in raw.items():
        field_name = f"parameters.{name}"
        if not isinstance(name, str) or not PARAMETER.match(name) or name in _RESERVED:
            raise r.fail(field_name, f"{name!r} must be a short name of letters and digits")
        spec = r.mapping(
            spec,
            field_name,
            ("type", "levels", "entries", "length", "rows", "columns", "tex"),
            ("type", "levels"),
        )
        kind = spec["type"]
        if kind not in TYPES:
            raise r.fail(f"{field_name}.type", f"{kind!r} is not one of {', '.join(TYPES)}")
        entries = spec.get("entries", "integer")
        if kind in ("vector", "matrix") and entries not in ("integer", "rational"):
            raise r.fail(f"{field_name}.entries", "must be integer or rational")
        value_type = entries if kind in ("vector", "matrix") else kind
        per_level = spec["levels"]
        if not isinstance(per_level, dict) or set(per_level) != set(levels):
            raise r.fail(f"{field_name}.levels", f"must give a range for each level {list(levels)}")
        ranges = {
            level: _range(r, value_type, per_level[level], f"{field_name}.levels.{level}")
            for level in levels
        }
        length = columns = None
        if kind == "vector":
            length = _size(r, spec, "length", field_name, out)
        if kind == "matrix":
            length = _size(r, spec, "rows", field_name, out, MAX_ROWS)
            columns = _size(r, spec, "columns", field_name, out)
        tex = spec.get("tex")
        if tex is not None:
            tex = r.text(tex, f"{field_name}.tex")
        out.append(Parameter(name, kind, ranges, entries, length, columns, tex))
    return tuple(out)


_RESERVED = {"sqrt", "exp", "log", "Abs", "dot", "norm", "softmax", "len", "Sum", "Product"}


def _range(r: _Reader, value_type: str, raw: Any, field: str) -> Any:
    if value_type == "integer":
        return r.pair(raw, field, -MAX_ENTRY, MAX_ENTRY)
    if value_type == "rational":
        spec = r.mapping(raw, field, ("numerator", "denominator"), ("numerator", "denominator"))
        numerator = r.pair(spec["numerator"], f"{field}.numerator", -MAX_ENTRY, MAX_ENTRY)
        denominator = r.pair(spec["denominator"], f"{field}.denominator", 1, MAX_ENTRY)
        return numerator, denominator
    if not isinstance(raw, list) or not raw or len(raw) > 20:
        raise r.fail(field, "must list 1 to 20 options")
    options = tuple(r.number(x, f"{field}[{k}]") for k, x in enumerate(raw))
    if len(set(options)) != len(options):
        raise r.fail(field, "lists an option twice")
    return options


def _size(
    r: _Reader,
    spec: dict,
    key: str,
    field: str,
    earlier: list[Parameter],
    most: int = MAX_LENGTH,
) -> int | str:
    if key not in spec:
        raise r.fail(f"{field}.{key}", "is missing")
    value = spec[key]
    if isinstance(value, str):
        found = next((p for p in earlier if p.name == value), None)
        if found is None or found.type != "integer":
            raise r.fail(f"{field}.{key}", f"{value!r} is not an integer parameter declared above")
        if any(not 1 <= low <= high <= most for low, high in found.levels.values()):
            raise r.fail(f"{field}.{key}", f"{value!r} must range within 1 to {most}")
        return value
    return r.integer(value, f"{field}.{key}", 1, most)


def _steps(r: _Reader, data: dict, names: set[str]) -> tuple[StepSource, ...]:
    if ("answer" in data) == ("steps" in data):
        raise r.fail("answer", "give either `answer` (one expression) or `steps`, not both")
    if "answer" in data:
        return (StepSource("answer", r.expression(data["answer"], "answer", names), ""),)
    raw = data["steps"]
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STEPS:
        raise r.fail("steps", f"must be a list of 1 to {MAX_STEPS} steps")
    steps: list[StepSource] = []
    known = set(names)
    for k, item in enumerate(raw):
        field_name = f"steps[{k}]"
        item = r.mapping(item, field_name, ("name", "value", "text"), ("name", "value"))
        step_name = item["name"]
        if not isinstance(step_name, str) or not PARAMETER.match(step_name) or step_name in known:
            raise r.fail(f"{field_name}.name", f"{step_name!r} must be a new short name")
        expression = r.expression(item["value"], f"{field_name}.value", known)
        text = r.text(item["text"], f"{field_name}.text") if "text" in item else ""
        for found in PLACEHOLDER.findall(text):
            if found not in known | {step_name}:
                raise r.fail(f"{field_name}.text", f"{{{{{found}}}}} names no parameter or step")
        steps.append(StepSource(step_name, expression, text))
        known.add(step_name)
    return tuple(steps)


def _mistakes(r: _Reader, raw: Any, names: set[str]) -> tuple[MistakeWords, ...]:
    if not isinstance(raw, dict):
        raise r.fail("mistakes", "must be a mapping of mistake codes")
    out = []
    for code, spec in raw.items():
        field_name = f"mistakes.{code}"
        if not isinstance(code, str) or not NAME.match(code):
            raise r.fail(field_name, f"{code!r} is not a mistake code (lowercase and _)")
        spec = r.mapping(
            spec or {},
            field_name,
            ("label", "explain", "name", "merge_into", "silence", "answer", "number"),
        )
        label = r.text(spec["label"], f"{field_name}.label") if "label" in spec else None
        explain = r.text(spec["explain"], f"{field_name}.explain") if "explain" in spec else None
        rename = spec.get("name")
        if rename is not None and (not isinstance(rename, str) or not NAME.match(rename)):
            raise r.fail(f"{field_name}.name", f"{rename!r} is not a mistake code")
        merge = spec.get("merge_into")
        if merge is not None and (not isinstance(merge, str) or not NAME.match(merge)):
            raise r.fail(f"{field_name}.merge_into", f"{merge!r} is not a mistake code")
        silence = spec.get("silence", False)
        if not isinstance(silence, bool):
            raise r.fail(f"{field_name}.silence", "must be true or false")
        answer = number = None
        if "answer" in spec:
            answer = r.expression(spec["answer"], f"{field_name}.answer", names)
            number = r.integer(spec.get("number"), f"{field_name}.number", AUTHOR_NUMBERS, 10**6)
            if label is None or explain is None:
                raise r.fail(field_name, "a mistake of your own needs a label and explain")
        elif "number" in spec:
            raise r.fail(f"{field_name}.number", "only a mistake of your own (with answer) has one")
        out.append(MistakeWords(code, label, explain, rename, merge, silence, answer, number))
    return tuple(out)


def _rules(r: _Reader, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise r.fail("rules", "must be a list of derivation rules to turn on")
    out: list[str] = []
    for k, code in enumerate(raw):
        if code not in OPT_IN_RULES:
            raise r.fail(
                f"rules[{k}]",
                f"{code!r} is not one of the rules a file turns on ({', '.join(OPT_IN_RULES)})",
            )
        if code in out:
            raise r.fail(f"rules[{k}]", f"{code!r} is listed twice")
        out.append(code)
    return tuple(out)


def _tests(
    r: _Reader, raw: Any, levels: tuple[int, ...], names: set[str]
) -> tuple[QuestionTest, ...]:
    if not isinstance(raw, list):
        raise r.fail("tests", "must be a list of question tests")
    out = []
    for k, item in enumerate(raw):
        field_name = f"tests[{k}]"
        item = r.mapping(
            item,
            field_name,
            ("answer", "typed", "seed", "level", "status", "mistake", "terms"),
            ("status",),
        )
        if ("answer" in item) == ("typed" in item):
            raise r.fail(field_name, "give either `answer` (an expression) or `typed` (text)")
        answer = (
            r.expression(item["answer"], f"{field_name}.answer", names)
            if "answer" in item
            else None
        )
        typed = r.text(item["typed"], f"{field_name}.typed") if "typed" in item else None
        status = item["status"]
        if status not in STATUSES:
            raise r.fail(f"{field_name}.status", f"{status!r} is not one of {', '.join(STATUSES)}")
        mistake = item.get("mistake")
        if mistake is not None and (status != "incorrect" or not isinstance(mistake, str)):
            raise r.fail(f"{field_name}.mistake", "names a mistake of an incorrect answer")
        terms = item.get("terms")
        if terms is not None:
            if not isinstance(terms, list) or any(
                isinstance(t, bool) or not isinstance(t, int) for t in terms
            ):
                raise r.fail(f"{field_name}.terms", "must be a list of whole numbers")
            terms = tuple(terms)
        seed = r.integer(item.get("seed", 0), f"{field_name}.seed", 0, 2**63 - 1)
        level = item.get("level", levels[0])
        if level not in levels:
            raise r.fail(f"{field_name}.level", f"must be one of {list(levels)}")
        out.append(QuestionTest(k, status, mistake, terms, answer, typed, seed, level))
    return tuple(out)


# ---- drawing ---------------------------------------------------------------------------


def _length(source: KindSource, size: int | str, values: dict[str, Any]) -> int:
    return size if isinstance(size, int) else int(values[size])


def _draw_value(p: Parameter, level: int, below, value_type: str | None = None) -> Fraction:
    spec = p.levels[level]
    value_type = value_type or (p.entries if p.type in ("vector", "matrix") else p.type)
    if value_type == "integer":
        low, high = spec
        return Fraction(low + below(high - low + 1))
    if value_type == "rational":
        (nlo, nhi), (dlo, dhi) = spec
        return Fraction(nlo + below(nhi - nlo + 1), dlo + below(dhi - dlo + 1))
    return spec[below(len(spec))]


def draw_once(source: KindSource, level: int, below) -> dict[str, Any]:
    """Draw one candidate's parameter values (exact), before the constraints are checked.
    `below(n)` gives a whole number in [0, n): the generators pass their seeded source."""
    values: dict[str, Any] = {}
    for p in source.parameters:
        if p.type == "vector":
            values[p.name] = tuple(
                _draw_value(p, level, below) for _ in range(_length(source, p.length, values))
            )
        elif p.type == "matrix":
            rows = _length(source, p.length, values)
            columns = _length(source, p.columns, values)
            values[p.name] = tuple(
                tuple(_draw_value(p, level, below) for _ in range(columns)) for _ in range(rows)
            )
        else:
            values[p.name] = _draw_value(p, level, below)
    return values


def satisfied(source: KindSource, values: dict[str, Any]) -> bool:
    """Return whether every constraint holds (an expression that cannot be computed: no)."""
    try:
        return all(
            condition(op, evaluate(left, values), evaluate(right, values))
            for op, left, right, _ in source.constraints
        )
    except EvaluationError:
        return False


def run_steps(source: KindSource, values: dict[str, Any], steps=None) -> dict[str, Any]:
    """Return the values with every step's result added (in order)."""
    env = dict(values)
    for step in steps if steps is not None else source.steps:
        env[step.name] = evaluate(step.expression, env)
    return env


def _check_draws(source: KindSource) -> None:
    import random

    rng = random.Random(0)  # noqa: S311 (a fixed stream: the check is the same on every load)
    for level in source.levels:
        for _ in range(8):
            for _try in range(DRAW_TRIES):
                values = draw_once(source, level, rng.randrange)
                if satisfied(source, values):
                    break
            else:
                raise source.error(
                    "constraints",
                    f"no problem of level {level} satisfies them in {DRAW_TRIES} draws "
                    "(do the parameters' ranges leave room for them?)",
                )
            try:
                env = run_steps(source, values)
            except EvaluationError as exc:
                raise source.error(
                    "steps" if len(source.steps) > 1 else "answer",
                    f"cannot be computed on a level {level} problem: {exc}",
                ) from None
            answer = env[source.steps[-1].name]
            if (source.shape == "scalar") != is_scalar(answer) or (
                not is_scalar(answer) and any(not is_scalar(x) for x in answer)
            ):
                raise source.error("shape", f"is {source.shape}, but the answer is not")
