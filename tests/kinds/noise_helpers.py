"""Helpers shared by the noise kinds' tests: spec numbers as floats, values as NumPy arrays."""

import xml.etree.ElementTree as ET

import numpy as np

SVG = "{http://www.w3.org/2000/svg}"


def number(text: str) -> float:
    """Return the float of a spec rational such as "9/25"."""
    numerator, _, denominator = str(text).partition("/")
    return int(numerator) / int(denominator or 1)


def field(value) -> float | np.ndarray:
    """Return a spec field (one rational or a list) as a float or an array."""
    if isinstance(value, list):
        return np.array([number(x) for x in value])
    return number(value)


def floats(value) -> float | np.ndarray:
    """Return an exact value (a number or a tuple) as a float or an array."""
    if isinstance(value, tuple):
        return np.array([float(x) for x in value])
    return float(value)


def roles(svg: str) -> set[str]:
    """Return every data-role drawn in an SVG."""
    return {e.get("data-role") for e in ET.fromstring(svg).iter() if e.get("data-role")}


def by_role(svg: str, role: str) -> list[ET.Element]:
    """Return the elements of one data-role."""
    return [e for e in ET.fromstring(svg).iter() if e.get("data-role") == role]
