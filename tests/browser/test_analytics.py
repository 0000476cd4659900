"""The class's mistake page (its table, recurrence after feedback with its picture, who has each
mistake now) and the staff pages (the site's, with revealed solutions and unexplained values,
and the author's view of a kind, with its tables and pictures per variant parameter) in a
browser, at a desk (1280 px) and on a phone (390 px): axe-core (WCAG 2.x A and AA) finds
nothing, nothing is wider than the phone (a table scrolls in its own region), and the pictures'
text is drawn at 11 px or more."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from lti.models import Context
from practice.review.models import ReviewItem
from tests.analytics.cohort import cohort
from tests.classroom import make_class

from .learner import sign_in
from .test_today_accessibility import violations

pytestmark = pytest.mark.browser


def _classroom(make_user, course) -> Context:
    teacher = make_user(username="teacher")
    members = [(teacher, True)] + [
        (copy.owner, False) for copy in cohort(make_user, course.course.slug, learners=6)
    ]
    context = make_class(members)
    # Every review item due now: the page lists who has each mistake.
    ReviewItem.objects.update(due=timezone.now() - datetime.timedelta(hours=1))
    return context


def _fits(page, width: int) -> None:
    """Check axe-core, the page's width and the size of every picture's text at this width."""
    assert violations(page) == [], width
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, (width, scroll)
    sizes = page.evaluate(
        "Array.from(document.querySelectorAll('figure svg text'))"
        ".map(t => parseFloat(getComputedStyle(t).fontSize))"
    )
    assert sizes and min(sizes) >= 11, (width, sizes)
    widths = page.evaluate(
        "Array.from(document.querySelectorAll('figure svg'))"
        ".map(s => s.getBoundingClientRect().right)"
    )
    assert max(widths) <= width, (width, widths)


def test_the_class_mistake_table_is_accessible_at_a_desk_and_on_a_phone(
    browser, live_server, course, make_user
):
    context = _classroom(make_user, course)
    url = f"{live_server.url}{reverse('analytics:class', args=[context.pk])}"
    for width in (1280, 390):
        session = browser.new_context(viewport={"width": width, "height": 900})
        page = session.new_page()
        sign_in(page, live_server, "teacher")
        page.goto(url)
        page.locator("#analytics-mistakes").wait_for()
        assert page.locator("table.analytics-table").count() >= 2
        assert page.locator("tr[data-code='correct']").count() >= 2
        assert "fewer than 5" in page.content()
        assert page.locator("#recurrence-table tbody tr").count() >= 1
        assert page.locator("#recurrence-picture svg").count() == 1
        assert page.locator("figure.analytics-causes svg").count() >= 1
        assert page.locator(".analytics-holders").count() >= 1
        _fits(page, width)
        session.close()


def test_the_staff_pages_are_accessible_at_a_desk_and_on_a_phone(
    browser, live_server, course, make_user
):
    _classroom(make_user, course)
    author = make_user(username="author")
    author.is_staff = True
    author.save(update_fields=["is_staff"])
    site = f"{live_server.url}{reverse('analytics:site')}"
    kind = f"{live_server.url}{reverse('analytics:kind', args=['weighted_sum'])}"
    for width in (1280, 390):
        session = browser.new_context(viewport={"width": width, "height": 900})
        page = session.new_page()
        sign_in(page, live_server, "author")
        page.goto(site)
        page.locator("#analytics-values").wait_for()
        assert page.locator("#recurrence-picture svg").count() == 1
        _fits(page, width)
        page.goto(kind)
        page.locator("#analytics-kind").wait_for()
        assert page.locator("#kind-levels-picture svg rect[data-role='right']").count() >= 1
        assert page.locator("#kind-teaching-table tbody tr").count() >= 1
        # Per variant parameter, a table and its picture: the self weight among them.
        self_weight = page.locator(".kind-parameter-table[data-parameter='weights[position]']")
        assert self_weight.locator("tbody tr").count() >= 1
        pictures = page.locator(".kind-parameter-picture svg")
        assert pictures.count() == page.locator(".kind-parameter-table").count() >= 2
        assert page.locator(".kind-parameter-picture svg rect[data-role='wrong']").count() >= 1
        _fits(page, width)
        session.close()
