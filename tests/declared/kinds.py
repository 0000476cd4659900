"""Kind files for the declared-kind tests, written out as text (factories, not fixture files)."""

from __future__ import annotations

from pathlib import Path

EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "courses/content/how-text-becomes-numbers/kinds/scaled_dot_score.yaml"
)

# Every rule the scaled dot-product score does not reach: a self term (i indexes x), a sum
# with an off-by-one (over j, no subscript), a subtraction, a power, two parameters of one type
# and range (a, b), and four steps whose results are carried into one another.
RULES_DEMO = """\
kind: rules_demo
label: Every rule at once
version: 1
levels: [1, 2]
parameters:
  n: {type: integer, levels: {1: [3, 3], 2: [4, 4]}}
  i: {type: integer, levels: {1: [0, 2], 2: [0, 3]}}
  x: {type: vector, length: n, entries: integer, levels: {1: [1, 5], 2: [-3, 5]}}
  a: {type: integer, levels: {1: [5, 6], 2: [5, 7]}}
  b: {type: integer, levels: {1: [5, 6], 2: [5, 7]}}
constraints:
  - i < n
  - a != b
statement: |
  With $x = {{x}}$, $i = {{i}}$, $a = {{a}}$ and $b = {{b}}$, compute $v$.
steps:
  - {name: m, value: "Sum(x[i]*x[j], (j, 0, n-1))"}
  - {name: r, value: "Sum(j^2, (j, 1, a))"}
  - {name: u, value: m - r}
  - {name: v, value: u + b^a}
shape: scalar
"""


def write(directory: Path, text: str, name: str = "rules_demo") -> Path:
    """Write a kind file `<name>.yaml` in a course-like folder and return its path."""
    kinds = directory / "kinds"
    kinds.mkdir(parents=True, exist_ok=True)
    path = kinds / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path
