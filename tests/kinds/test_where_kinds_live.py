"""The table of docs/kinds.md, *Where a kind's parts live*, is true: every cell names a file that
exists, every registered kind has a row naming the modules its kind and its generator are
defined in, the draw and words cells are exactly what the generator imports from those
packages, the page cell is the page whose ideas list the kind, and `practice/generators/` holds
nothing but the kinds' modules and the shared ones the table's paragraph names."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from grading.kinds import KINDS
from practice.generators import GENERATORS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "kinds.md"
HEADING = "## Where a kind's parts live"
GENERATORS_DIR = ROOT / "practice" / "generators"
PAGES = "courses/content/how-text-becomes-numbers/pages/"
# The columns, in order: the folder each names its cells in.
COLUMNS = (
    "kind",
    "grading/",
    "practice/generators/",
    "practice/generators/draw/",
    "practice/generators/words/",
    "tests/",
    PAGES,
)
# What the folder holds besides the kinds' modules (docs/kinds.md says so under the table).
SHARED = {"__init__.py", "__main__.py", "base.py", "statement.py"}
PACKAGES = {"draw", "words"}
CELL = re.compile(r"^`([^`]+)`$")


def read_table(text: str) -> list[dict[str, list[str]]]:
    """Return the table's rows, each column's cell as the list of names in it ([] for a dash).

    Raises AssertionError, naming what is wrong, when the section or its header is not there."""
    assert HEADING in text, f"docs/kinds.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert len(lines) > 2, "the section has no table"
    header = [c.strip().strip("`") for c in lines[0].strip("|").split("|")]
    assert tuple(header) == COLUMNS, f"the table's columns are {header}, not {list(COLUMNS)}"
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == len(COLUMNS), f"row {line!r} has {len(cells)} cells"
        row = {}
        for column, cell in zip(COLUMNS, cells, strict=True):
            names = [] if cell == "—" else [part.strip() for part in cell.split(",")]
            for name in names:
                assert CELL.match(name), f"cell {name!r} of row {line!r} is not one `name`"
            row[column] = [CELL.match(name).group(1) for name in names]
        rows.append(row)
    return rows


def _module_file(module: str) -> str:
    return module.replace(".", "/") + ".py"


def _imported(generator_file: Path, package: str) -> set[str]:
    """Modules of `practice/generators/<package>/` the generator's module imports, anywhere in
    it (a picture's module may be imported inside the function that draws it)."""
    found = set()
    for node in ast.walk(ast.parse(generator_file.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            if node.module == package:
                found |= {f"{alias.name}.py" for alias in node.names}
            elif node.module.startswith(f"{package}."):
                found.add(f"{node.module.split('.')[1]}.py")
    return found


def _pages_listing() -> dict[str, list[str]]:
    listed: dict[str, list[str]] = {}
    for page in sorted((ROOT / PAGES).glob("*.md")):
        for match in re.finditer(r"problem_kinds:\s*\[([^\]]*)\]", page.read_text()):
            for kind in filter(None, (k.strip() for k in match.group(1).split(","))):
                listed.setdefault(kind, []).append(page.name)
    return listed


def problems(text: str) -> list[str]:
    """Return what the table gets wrong, one sentence each; [] when it is true."""
    rows = read_table(text)
    found = []
    kinds = [row["kind"][0] if row["kind"] else "" for row in rows]
    if kinds != sorted(kinds) or len(set(kinds)) != len(kinds):
        found.append("the rows are not one per kind, in the kinds' order")
    if set(kinds) != set(GENERATORS) or set(kinds) != set(KINDS):
        missing = sorted((set(GENERATORS) | set(KINDS)) - set(kinds))
        extra = sorted(set(kinds) - set(GENERATORS))
        found.append(f"kinds without a row: {missing}; rows of no kind: {extra}")
    pages = _pages_listing()
    for row, kind in zip(rows, kinds, strict=True):
        for column in COLUMNS[1:]:
            for name in row[column]:
                if not (ROOT / column / name).exists():
                    found.append(f"{kind}: {column}{name} does not exist")
        if kind not in GENERATORS or kind not in KINDS:
            continue
        generator_module = _module_file(type(GENERATORS[kind]).__module__)
        kind_module = _module_file(type(KINDS[kind]).__module__)
        if ["practice/generators/" + n for n in row["practice/generators/"]] != [generator_module]:
            found.append(f"{kind}: its generator is defined in {generator_module}")
        if ["grading/" + n for n in row["grading/"]] != [kind_module]:
            found.append(f"{kind}: its kind is defined in {kind_module}")
        for package in PACKAGES:
            column = f"practice/generators/{package}/"
            imported = _imported(ROOT / generator_module, package)
            if set(row[column]) != imported:
                found.append(f"{kind}: its generator imports {sorted(imported)} from {column}")
        if row[PAGES] != pages.get(kind, []):
            found.append(f"{kind}: the pages listing it are {pages.get(kind, [])}")
        for page in row[PAGES]:
            browser = ROOT / "tests" / "browser" / f"test_page_{page[:-3].replace('-', '_')}.py"
            if not browser.exists():
                found.append(f"{kind}: its page has no browser test {browser.name}")
        own = f"kinds/test_{kind}.py"
        if type(KINDS[kind]).__module__.startswith("grading.kinds.") and row["tests/"] != [own]:
            found.append(f"{kind}: its own tests are tests/{own}")
    named = {f"{kind}.py" for kind in kinds} | {
        name for row in rows for name in row["practice/generators/"]
    }
    for entry in sorted(GENERATORS_DIR.iterdir()):
        if entry.name == "__pycache__" or entry.name in SHARED or entry.name in named:
            continue
        if entry.is_dir() and entry.name in PACKAGES:
            continue
        found.append(f"practice/generators/{entry.name} is neither a kind's module nor shared")
    for package in PACKAGES:
        folder = GENERATORS_DIR / package
        used = {n for row in rows for n in row[f"practice/generators/{package}/"]}
        for module in sorted(folder.glob("*.py")):
            if module.name == "__init__.py" or module.name in used:
                continue
            others = [m for m in folder.glob("*.py") if m != module]
            if not any(module.stem in _imported_names(other) for other in others):
                found.append(f"practice/generators/{package}/{module.name} is used by no kind")
    return found


def _imported_names(path: Path) -> set[str]:
    """Sibling modules a module of draw/ or words/ imports (``from . import x``, ``from .x``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names |= {node.module} if node.module else {a.name for a in node.names}
    return names


def test_the_table_of_where_a_kinds_parts_live_is_true():
    assert problems(DOC.read_text()) == []


def test_the_table_has_a_row_of_every_kind_with_its_generator_in_the_folder():
    rows = {row["kind"][0]: row for row in read_table(DOC.read_text())}
    assert set(rows) == set(GENERATORS) and len(rows) >= 26
    for kind, row in rows.items():
        (module,) = row["practice/generators/"]
        assert (GENERATORS_DIR / module).is_file()
        assert type(GENERATORS[kind]).__module__ == f"practice.generators.{module[:-3]}"


# Each: a piece of the table, what it is changed to, and a word of the sentence saying so.
WRONG_TABLES = [
    # a file that does not exist
    ("| `lookup` | `kinds/lookup.py` |", "| `lookup` | `kinds/look_up.py` |", "does not exist"),
    # a generator module that is not where the kind's generator is defined
    ("| `kinds/lookup.py` | `lookup.py` |", "| `kinds/lookup.py` | `contrast.py` |", "generator"),
    # a drawing helper the generator does not import, and one left out
    ("| `contrast.py` | `figures.py`, `plane.py` |", "| `contrast.py` | `figures.py` |", "imports"),
    ("| `lookup.py` | `figures.py` |", "| `lookup.py` | `figures.py`, `svg.py` |", "imports"),
    # a word list left out
    ("`layers.py`, `vocab.py`", "`vocab.py`", "imports"),
    # the wrong page
    (
        "kinds/test_lookup.py` | `the-same-word-twice.md`",
        "kinds/test_lookup.py` | `why-gaussian-noise.md`",
        "pages",
    ),
    # a kind without a row
    ("| `word_ids` |", "| `word_idz` |", "without a row"),
]


@pytest.mark.parametrize(("piece", "changed", "said"), WRONG_TABLES)
def test_the_check_finds_a_table_that_is_wrong(piece, changed, said):
    text = DOC.read_text()
    assert piece in text
    found = problems(text.replace(piece, changed, 1))
    assert found and any(said in line for line in found), found


def test_the_check_finds_a_module_that_is_no_kind_in_the_folder(tmp_path, monkeypatch):
    # given a copy of the folder with a helper module beside the kinds
    copy = tmp_path / "generators"
    copy.mkdir()
    for entry in GENERATORS_DIR.iterdir():
        if entry.name != "__pycache__":
            (copy / entry.name).symlink_to(entry)
    (copy / "helpers.py").write_text("X = 1\n")
    monkeypatch.setattr(sys.modules[__name__], "GENERATORS_DIR", copy)
    # then the check names it
    assert problems(DOC.read_text()) == [
        "practice/generators/helpers.py is neither a kind's module nor shared"
    ]
