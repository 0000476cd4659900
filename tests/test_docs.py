"""The README and docs/ point at things that exist: every relative link resolves (a heading
anchor included), and every command in a shell code block names a real make target, module,
management command or file of the project.

A program the project does not ship (apt-get, systemctl, pg_dump, ...) is accepted only from
``SYSTEM_PROGRAMS``: a new one in the docs is added there on purpose, not by accident.
"""

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
SYSTEM_PROGRAMS = {
    "apt-get",
    "cd",
    "createdb",
    "curl",
    "dropdb",
    "git",
    "journalctl",
    "nginx",
    "openssl",
    "pg_dump",
    "pg_restore",
    "psql",
    "redis-cli",
    "sudo",
    "systemctl",
}
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
INLINE_MAKE = re.compile(r"`make ([a-z][\w-]*)")


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return {m.group(1) for m in re.finditer(r"^([A-Za-z][\w-]*):", text, re.M)}


def _module_exists(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _management_command_exists(name: str) -> bool:
    import django

    local = list(ROOT.glob(f"*/management/commands/{name}.py"))
    builtin = Path(django.__file__).parent.glob(f"**/management/commands/{name}.py")
    return bool(local) or any(True for _ in builtin)


def _path_exists(word: str) -> bool:
    return (ROOT / word.split("::")[0]).exists()


def _shell_lines(block: str) -> list[str]:
    """Return the block's commands: continuations joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n", " ", block)
    lines = []
    for line in joined.splitlines():
        line = line.strip().removeprefix("$ ")
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def command_faults(line: str, *, targets: set[str]) -> list[str]:
    """Return what in one shell command names nothing real (empty when all of it resolves)."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        return [f"cannot be read as a shell command ({error})"]
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words.pop(0)  # an environment assignment before the program
    if not words:
        return []
    program, args = words[0], words[1:]
    faults: list[str] = []
    if program == "make":
        faults += [f"no make target {a!r}" for a in args if "=" not in a and a not in targets]
        if not [a for a in args if "=" not in a] and "all" not in targets:
            faults.append("make with no target")
    elif program in {"python", "python3", ".venv/bin/python"}:
        if args[:1] == ["-m"]:
            if not _module_exists(args[1]):
                faults.append(f"no module {args[1]!r}")
        elif args[:1] == ["manage.py"]:
            if not _management_command_exists(args[1]):
                faults.append(f"no management command {args[1]!r}")
        elif args and not _path_exists(args[0]):
            faults.append(f"no script {args[0]!r}")
    elif program in {"pytest", ".venv/bin/pytest"}:
        paths = [a for a in args if not a.startswith("-")]
        faults += [f"no test path {p!r}" for p in paths if not _path_exists(p)]
    elif program == "gunicorn":
        if "-c" in args and not _path_exists(args[args.index("-c") + 1]):
            faults.append("no gunicorn config")
    elif program == "celery":
        if "-A" in args and not _module_exists(args[args.index("-A") + 1]):
            faults.append("no Celery app module")
    elif program == "bash":
        if args and not _path_exists(args[0]):
            faults.append(f"no script {args[0]!r}")
    elif program not in SYSTEM_PROGRAMS and not _path_exists(program):
        faults.append(f"{program!r} is neither a project file nor a known system program")
    return faults


def _slug(heading: str) -> str:
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text())
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, re.M)}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc):
    broken = []
    for target in LINK.findall(FENCE.sub("", doc.read_text())):
        if re.match(r"^[a-z]+:", target):
            continue  # an absolute URL or mailto
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        if not dest.exists() or (anchor and dest.suffix == ".md" and anchor not in _anchors(dest)):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_in_a_shell_block_names_something_real(doc):
    targets = _make_targets()
    faults = []
    for lang, block in FENCE.findall(doc.read_text()):
        if lang not in SHELL_LANGUAGES:
            continue
        for line in _shell_lines(block):
            faults += [f"{line}: {fault}" for fault in command_faults(line, targets=targets)]
    faults += [
        f"`make {t}`: no such target"
        for t in INLINE_MAKE.findall(doc.read_text())
        if t not in targets
    ]
    assert faults == []


def test_the_readme_is_a_front_door_with_a_map_of_every_document():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    linked = {Path(t).name for t in LINK.findall(readme) if t.startswith("docs/")}
    assert {name for name in linked if name.endswith(".md")} == {p.name for p in DOCS[1:]}
    # and one picture of a problem with its explained mistake (tests/browser/test_readme_picture.py)
    assert linked - {p.name for p in DOCS[1:]} == {"verdict.png"}


def test_the_checker_finds_what_does_not_exist():
    targets = _make_targets()
    assert command_faults("make nosuchtarget", targets=targets) == ["no make target 'nosuchtarget'"]
    assert command_faults("python -m grading.nosuch", targets=targets) == [
        "no module 'grading.nosuch'"
    ]
    assert command_faults(".venv/bin/python manage.py nosuch_command", targets=targets) == [
        "no management command 'nosuch_command'"
    ]
    assert command_faults(".venv/bin/pytest tests/nosuch.py", targets=targets) == [
        "no test path 'tests/nosuch.py'"
    ]
    assert command_faults("frobnicate --all", targets=targets) != []
    assert command_faults("DATABASE_URL=x make test", targets=targets) == []
    assert command_faults("python -m grading check --answer '[0, 1]'", targets=targets) == []
    assert _slug("## Production (`deploy/`)".lstrip("# ")) == "production-deploy"
