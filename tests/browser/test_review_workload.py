"""The review settings page's workload picture in a real browser: at 1280 px and at 390 px its
text shows at 11 px or more (font size times the element's scale on screen), the picture and
its table fit the window, and the page is no wider than the phone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from courses.models import CourseCopy
from practice.review import scheduling
from practice.review.models import ReviewItem

from .learner import sign_up

pytestmark = pytest.mark.browser

SMALLEST = 11.0

TEXT_SIZES = """
() => Array.from(document.querySelectorAll("#review-workload svg text"))
  .filter((t) => t.textContent.trim() && t.getBBox().width > 0)
  .map((t) => {
    const m = t.getScreenCTM();
    const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    const size = parseFloat(getComputedStyle(t).fontSize);
    return [t.textContent.trim(), Math.round(size * scale * 100) / 100];
  })
"""
RIGHT_EDGES = """
() => ["#review-workload svg", "#review-workload-table"].map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, r.left, r.right, r.width];
})
"""
PAGE_WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def _items(copy: CourseCopy) -> None:
    now = timezone.now()
    for k, mistake in enumerate(("omitted_term", "wrong_row", "wrong_weight", "plain_average")):
        card = scheduling.CardState(
            state=scheduling.State.Review,
            step=None,
            stability=1.5 * (k + 1) ** 2,
            difficulty=5.0 + k / 2,
            due=now + timedelta(days=k),
            last_review=now - timedelta(days=2 + k),
        )
        ReviewItem.objects.create(
            copy=copy, kind="weighted_sum", mistake=mistake, **scheduling.card_columns(card)
        )


@pytest.mark.parametrize("width", [1280, 390])
def test_the_workload_picture_reads_well_and_fits(page, live_server, course, width):
    page.set_viewport_size({"width": width, "height": 900})
    sign_up(page, live_server)
    _items(CourseCopy.objects.get())
    page.goto(f"{live_server.url}/review/settings/")
    assert page.locator("#review-workload svg").count() == 1
    rows = page.locator("#review-workload-table tbody tr")
    assert rows.count() == 10

    sizes = page.evaluate(TEXT_SIZES)
    assert len(sizes) >= 8  # the axis labels, the ticks, "yours"
    small = [f"{text!r} at {size} px" for text, size in sizes if size < SMALLEST]
    assert small == [], "\n".join(small)

    for selector, left, right, box in page.evaluate(RIGHT_EDGES):
        assert left >= 0 and right <= width, f"{selector} runs out: {left}-{right} of {width}"
        assert box > 0
    page_width, viewport = page.evaluate(PAGE_WIDTH)
    assert page_width <= viewport, f"the page is {page_width} px wide in {viewport} px"
    if width == 390:
        # On the phone the table comes under the picture, not beside it.
        svg_bottom = page.evaluate(
            "() => document.querySelector('#review-workload svg').getBoundingClientRect().bottom"
        )
        table_top = page.evaluate(
            "() => document.querySelector('#review-workload-table').getBoundingClientRect().top"
        )
        assert table_top >= svg_bottom
