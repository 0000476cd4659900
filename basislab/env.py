"""Read settings from the environment, with safe development defaults."""

import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def env_str(name: str, default: str = "") -> str:
    """Return the variable's value, or the default when it is unset or empty."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool = False) -> bool:
    """Read 1/0, true/false, yes/no, on/off; refuse anything else."""
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1 or 0)")


def _env_parsed(name: str, default: T, parse: Callable[[str], T], what: str) -> T:
    """Read the variable with ``parse``, naming it and ``what`` it should be when it is not."""
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    try:
        return parse(raw)
    except ValueError as exc:
        raise ValueError(f"{name}={raw!r} is not {what}") from exc


def env_int(name: str, default: int) -> int:
    """Read an integer, naming the variable when it is not one."""
    return _env_parsed(name, default, int, "an integer")


def env_float(name: str, default: float) -> float:
    """Read a decimal number, naming the variable when it is not one."""
    return _env_parsed(name, default, float, "a number")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list."""
    raw = os.environ.get(name, "").strip()
    if raw == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]
