"""In a real browser: home → an answer → its course page → sign up → that page in the new copy."""

import re

import pytest

from courses.models import CourseCopy

from .learner import fill_sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_visitor_goes_from_an_answer_to_the_page_to_their_own_copy(
    page, live_server, real_course
):
    page.goto(live_server.url + "/")
    page.get_by_role(
        "link", name="Why does the same word get a different vector depending on the sentence"
    ).first.click()

    assert page.get_by_role("heading", level=1).inner_text().startswith("Why does the same word")
    assert page.locator(".prose math").count() >= 3
    assert page.get_by_role("heading", name="Worth keeping").is_visible()
    page.get_by_role("link", name="Read that page").click()

    page.wait_for_url(live_server.url + "/course/the-same-word-twice/")
    assert page.get_by_role("heading", name="The Same Word Twice", level=1).is_visible()
    boxes = page.locator(".idea-box")
    assert boxes.count() == 6
    assert page.locator(".prose math").count() >= 5
    first_box = boxes.first
    assert first_box.locator(".tag").count() >= 1  # the practice under it, by label
    first_box.get_by_role("link", name="Sign up to practise this").click()

    fill_sign_up(page, "babbage", email="charles@example.org")

    page.wait_for_url(re.compile(r"/course/\d+/pages/the-same-word-twice/$"))
    copy = CourseCopy.objects.get(owner__username="babbage")
    assert page.url == f"{live_server.url}/course/{copy.pk}/pages/the-same-word-twice/"
    assert page.get_by_role("heading", name="The Same Word Twice", level=1).is_visible()
    assert page.get_by_role("heading", name="Your notes").is_visible()

    # Back on the public page, signed in: a link into the copy instead of the invitation.
    page.goto(live_server.url + "/course/the-same-word-twice/")
    assert page.get_by_role("link", name="Open it in your copy").is_visible()
    assert page.get_by_role("link", name="Sign up to practise this").count() == 0
