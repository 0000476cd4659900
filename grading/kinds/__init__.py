"""The registry of problem kinds: every module of this package defines and registers one.

Adding a kind is adding a module here (see `base.py` for the interface); nothing else in the
engine names a kind. `KINDS` maps each kind's name to its `Kind`; `kind(name)` returns one.
`ProblemKind` and `MistakeCode` are string enums built from the registry, for code that lists
or validates names (model choices, admin filters); `MISTAKES_BY_KIND` lists each kind's codes
in catalog order.
"""

from __future__ import annotations

import importlib
import pkgutil
from enum import StrEnum

from ..verdict import Status
from .base import REGISTRY, Kind, MistakeDef, Variant, register


def _discover() -> None:
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name != "base" and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


_discover()
for _name in sorted(REGISTRY):  # in name order, the same in every process
    REGISTRY[_name] = REGISTRY.pop(_name)

KINDS: dict[str, Kind] = REGISTRY  # the registry itself: a kind registered later is known too


def kind(name: str) -> Kind:
    """Return the registered kind of that name; KeyError names the known kinds."""
    try:
        return KINDS[name]
    except (KeyError, TypeError):
        raise KeyError(f"{str(name)[:40]!r} is not one of {', '.join(KINDS)}") from None


ProblemKind = StrEnum("ProblemKind", {name.upper(): name for name in KINDS})  # type: ignore[misc]
ProblemKind.__doc__ = "The registered problem kinds (built from the registry)."
MistakeCode = StrEnum(  # type: ignore[misc]
    "MistakeCode",
    {code.upper(): code for k in KINDS.values() for code in k.codes},
)
MistakeCode.__doc__ = "Every registered kind's mistake codes (built from the registry)."
MISTAKES_BY_KIND: dict[ProblemKind, tuple[MistakeCode, ...]] = {
    ProblemKind(name): tuple(MistakeCode(code) for code in k.codes) for name, k in KINDS.items()
}
KIND_LABELS: dict[str, str] = {name: k.label for name, k in KINDS.items()}
MISTAKE_LABELS: dict[tuple[str, str], str] = {
    (name, m.code): m.label for name, k in KINDS.items() for m in k.mistakes
}

__all__ = [
    "KINDS",
    "KIND_LABELS",
    "MISTAKES_BY_KIND",
    "MISTAKE_LABELS",
    "Kind",
    "MistakeCode",
    "MistakeDef",
    "ProblemKind",
    "Status",
    "Variant",
    "kind",
    "register",
]
