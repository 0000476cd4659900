"""The project's modules import each other without a cycle, and in layers.

The layers, top down (docs/review.md, "Layers"): the web layer (``views``, ``forms``,
``presenters``, ``urls``, template tags, ``practice.web``), then services, then selectors and
models, then the pure packages. A views module imports no other views module (the answer flow
both practice and review show lives in ``practice.web.answering``); selectors and services
import nothing of the web layer; review's domain (everything in ``practice.review`` but its web
layer) reaches none of practice's flow (its services, reveals and web layer), which calls it.

Every import counts, at module level or inside a function (an import tucked into a function
still ties the two modules together), except anything under ``if TYPE_CHECKING:``. A Celery
``tasks`` module imports the services it calls and nothing imports it back: a service that
enqueues takes the task's ``delay_on_commit`` as an argument.
Importing ``a.b.c`` also loads the packages ``a`` and ``a.b``, except those the importing
module lives in: they were loaded before it.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("basislab", "courses", "grading", "lti", "practice")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


def _imports(
    body: list[ast.stmt], *, typing: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """Yield every import statement, at module level or inside a function (and, with
    ``typing``, under ``if TYPE_CHECKING:`` too)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif (
            not typing
            and isinstance(node, ast.If)
            and (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        ):
            continue
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _imports(node.body, typing=typing)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    yield from _imports(block, typing=typing)


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: k + 1]) for k in range(len(parts))]


def import_graph(*, typing: bool = False) -> dict[str, set[str]]:
    """Return, for each project module, the project modules loading it makes load first (with
    ``typing``, also those it imports only for type checkers)."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        ancestors = set(_with_parents(package)) if package else set()
        for node in _imports(ast.parse(path.read_text()).body, typing=typing):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                stem = node.module or ""
                origin = (f"{base}.{stem}" if stem else base) if node.level else stem
                targets = [origin]
                # ``from pkg import mod`` loads the submodule pkg.mod when there is one.
                targets += [f"{origin}.{alias.name}" for alias in node.names]
            for target in targets:
                for loaded in _with_parents(target):
                    if loaded in modules and loaded != name and loaded not in ancestors:
                        graph[name].add(loaded)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_a_module_inside_a_package_does_not_reload_it():
    graph = import_graph()
    assert "grading" not in graph["grading.marking"]
    assert "grading" in graph["practice.generators.base"]


def test_cycle_finder_finds_a_cycle_through_a_package():
    graph = {"a": {"a.b"}, "a.b": {"c"}, "c": {"a"}, "d": {"c"}}
    assert cycles(graph) == [["a", "a.b", "c"]]


def test_the_graph_sees_relative_and_submodule_imports():
    graph = import_graph()
    assert "practice.problems" in graph["practice.services"]
    assert "practice.review.services.recording" in graph["practice.services"]
    assert "practice.review.selectors" in graph["practice.review.services.digest"]


def test_no_module_of_the_project_imports_itself_through_others():
    assert cycles(import_graph()) == []


def test_no_module_imports_itself_even_for_type_checkers():
    # grading.kinds.weighted_sum and its solver once did, the solver only for an annotation.
    assert cycles(import_graph(typing=True)) == []


def test_no_service_imports_a_tasks_module():
    # A task imports the service it calls; a service that enqueues takes the task's
    # delay_on_commit as an argument (views and signal handlers may enqueue directly).
    graph = import_graph()
    services = {n for n in graph if "services" in n.split(".")}
    assert services
    assert {n for n in services if any(m.endswith(".tasks") for m in graph[n])} == set()


def test_courses_reach_no_module_of_practice():
    # Courses look kinds up in grading (labels included); practice builds on courses.
    graph = import_graph()
    reached = {
        (name, loaded)
        for name, modules in graph.items()
        if name.startswith("courses")
        for loaded in modules
        if loaded.startswith("practice")
    }
    assert reached == set()


def test_accounts_reach_none_of_the_apps_above_them():
    # The account pages get the learner's copies through the setting ACCOUNTS_COPIES.
    graph = import_graph()
    accounts = {name for name in graph if name.startswith("basislab.accounts")}
    assert "basislab.accounts.settings_views" in accounts
    reached, todo = set(), list(accounts)
    while todo:
        for loaded in graph[todo.pop()] - reached:
            reached.add(loaded)
            todo.append(loaded)
    assert {n for n in reached if n.split(".")[0] in ("courses", "practice", "lti")} == set()


WEB_NAMES = {"views", "forms", "presenters", "urls", "templatetags", "web"}
# Practice's flow: its write paths and its web layer (practice.review and practice.today apart).
PRACTICE_FLOW = {"practice.services", "practice.reveals", "practice.web"} | {
    f"practice.{name}" for name in WEB_NAMES
}


def _parts(name: str) -> list[str]:
    return name.split(".")


def is_web(name: str) -> bool:
    """Return whether the module belongs to a web layer (views, forms, presenters, ...)."""
    return any(part in WEB_NAMES for part in _parts(name)[1:])


def is_service_or_selector(name: str) -> bool:
    return any(part in ("services", "selectors") for part in _parts(name)[1:])


def in_review_domain(name: str) -> bool:
    """Return whether the module is review's domain: models, services, scheduling, tasks,
    selectors and the pure helpers of ``practice.review``, not its web layer or app config."""
    return (
        name.startswith("practice.review.")
        and not is_web(name)
        and name != ("practice.review.apps")
    )


def in_practice_flow(name: str) -> bool:
    return any(name == flow or name.startswith(f"{flow}.") for flow in PRACTICE_FLOW)


def views_importing_views(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    views = {n for n in graph if _parts(n)[-1] == "views"}
    return {(n, m) for n in views for m in graph[n] if m in views}


def review_domain_reaching_practice_flow(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {
        (n, m)
        for n in graph
        if in_review_domain(n) or _parts(n)[-1] == "selectors"
        for m in graph[n]
        if in_practice_flow(m)
    }


def lower_layers_importing_the_web(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(n, m) for n in graph if is_service_or_selector(n) for m in graph[n] if is_web(m)}


def test_the_layer_rules_see_their_modules():
    graph = import_graph()
    assert in_review_domain("practice.review.services.recording")
    assert in_review_domain("practice.review.tasks")
    assert not in_review_domain("practice.review.views")
    assert not in_review_domain("practice.review.templatetags.review_tags")
    assert in_practice_flow("practice.web.answering") and in_practice_flow("practice.services")
    assert not in_practice_flow("practice.review.services")
    assert is_web("practice.today.presenters") and is_web("courses.forms")
    assert not is_web("practice.review.services.export")
    assert "practice.web.answering" in graph["practice.review.views"]
    assert "practice.web.answering" in graph["practice.views"]


def test_the_layer_rules_find_a_crossing():
    graph = {
        "practice.views": {"practice.web.answering"},
        "practice.review.views": {"practice.views"},
        "practice.review.services.cards": {"practice.services"},
        "practice.review.selectors": {"practice.web.answering"},
        "practice.today.services": {"practice.today.forms"},
        "lti.selectors": {"courses.presenters"},
        "practice.web.answering": {"practice.services"},
    }
    assert views_importing_views(graph) == {("practice.review.views", "practice.views")}
    assert review_domain_reaching_practice_flow(graph) == {
        ("practice.review.services.cards", "practice.services"),
        ("practice.review.selectors", "practice.web.answering"),
    }
    assert lower_layers_importing_the_web(graph) == {
        ("practice.review.selectors", "practice.web.answering"),
        ("practice.today.services", "practice.today.forms"),
        ("lti.selectors", "courses.presenters"),
    }


def test_no_views_module_imports_another():
    assert views_importing_views(import_graph()) == set()


def test_review_domain_and_selectors_reach_none_of_practice_flow():
    assert review_domain_reaching_practice_flow(import_graph()) == set()


def test_no_service_or_selector_imports_the_web_layer():
    assert lower_layers_importing_the_web(import_graph()) == set()


def _third_party_roots(path: Path) -> set[str]:
    """Return the top-level names of every absolute import in one file (any depth, type
    checking included)."""
    roots = set()
    for node in _imports(ast.parse(path.read_text()).body, typing=True):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_grading_imports_neither_numpy_nor_django():
    """The grader is pure: SymPy and the standard library, no web framework and no NumPy
    (answers are exact; NumPy stays the tests' oracle)."""
    grading = {n: p for n, p in _project_modules().items() if n.split(".")[0] == "grading"}
    assert "grading.kinds.weighted_sum" in grading
    found = {
        (name, root)
        for name, path in grading.items()
        for root in _third_party_roots(path)
        if root in {"numpy", "django"}
    }
    assert found == set()


def test_the_third_party_import_finder_sees_nested_and_from_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "import os\nfrom numpy import array\nif True:\n    import django.db\n"
        "def f():\n    from . import sibling\n    import sympy\n"
    )
    assert _third_party_roots(module) == {"os", "numpy", "django", "sympy"}
