"""The math font really typesets: a vector's brackets stretch taller than a line of text."""

import os
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in_browser(page, live_server, client) -> None:
    """Give the browser the test client's session cookie."""
    page.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )


def test_vector_brackets_are_taller_than_a_line_of_text(
    page, live_server, course_copy, learner_client, tmp_path
):
    sign_in_browser(page, live_server, learner_client)
    url = reverse("courses:page", kwargs={"copy_id": course_copy.pk, "page_slug": "first-page"})

    page.goto(live_server.url + url)
    page.evaluate("document.fonts.ready")

    assert page.evaluate("document.fonts.check('20px \"Latin Modern Math\"')")
    vector = page.locator(".math-display math").first
    bracket = vector.locator("mo", has_text="[").first
    table = vector.locator("mtable").first
    line = page.locator(".prose p").first  # "The lookup gives the same row every time."
    line_height = float(
        page.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)", line.element_handle())
    )
    bracket_box, table_box, line_box = (
        bracket.bounding_box(),
        table.bounding_box(),
        line.bounding_box(),
    )
    screenshot = Path(os.environ.get("BASISLAB_SCREENSHOT_DIR", tmp_path)) / "vector.png"
    vector.screenshot(path=str(screenshot))

    assert line_box["height"] == pytest.approx(line_height, abs=2)  # one line of text
    assert table_box["height"] > 1.5 * line_height
    assert bracket_box["height"] > 1.5 * line_height
    assert bracket_box["height"] >= 0.9 * table_box["height"]
    assert screenshot.stat().st_size > 0
