"""Course content: validating the authored course, and rendering its pages' Markdown and TeX.

Pure (no database): ``read_course`` is what ``load_course`` does before writing, and
``render_markdown`` (timed uncached, through ``_render``) is what a page view does on its first
request per process; the rendered body is then cached per page text. ``ratio`` compares each
case with one formula conversion in the same run.
"""

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from courses.loader import read_course
from courses.mathml import _render, tex_to_mathml

COURSE_DIR = (
    Path(__file__).resolve().parents[2] / "courses" / "content" / "how-text-becomes-numbers"
)
VECTOR = r"\begin{bmatrix}\frac{1}{2}\\1\end{bmatrix}"


def _time(fn: Callable[[], object], rounds: int) -> tuple[float, float]:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def run() -> list[dict]:
    """Time course validation, whole-page rendering and one formula; return the table rows."""
    source = read_course(COURSE_DIR)
    rows = []
    base_median, base_p99 = _time(lambda: tex_to_mathml(VECTOR, display=True), 500)
    rows.append(
        {
            "benchmark": "courses",
            "case": "tex_to_mathml 2-vector",
            "n": 500,
            "median_ms": base_median,
            "p99_ms": base_p99,
            "ratio": 1.0,
        }
    )
    median, p99 = _time(lambda: read_course(COURSE_DIR), 20)
    rows.append(
        {
            "benchmark": "courses",
            "case": f"read_course ({len(source.pages)} pages, every formula)",
            "n": 20,
            "median_ms": median,
            "p99_ms": p99,
            "ratio": median / base_median,
        }
    )
    for page in source.pages:
        median, p99 = _time(lambda body=page.body: _render(body), 20)
        rows.append(
            {
                "benchmark": "courses",
                "case": f"render_markdown {page.slug}",
                "n": 20,
                "median_ms": median,
                "p99_ms": p99,
                "ratio": median / base_median,
                "note": f"{len(page.body)} chars",
            }
        )
    return rows
