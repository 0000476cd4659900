"""In a real browser: sign up, open the course, read a page, save a note, sign out."""

import pytest

from courses.models import Note

from .learner import fill_sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_then_dashboard_then_page_then_note_saved(page, live_server, course):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()

    fill_sign_up(page, "lovelace", email="ada@example.org")

    page.wait_for_url(live_server.url + "/course/")
    assert page.get_by_role("heading", name="A Mini Course").is_visible()
    assert page.locator(".page-card").count() == 2

    page.get_by_role("link", name="The First Page").click()
    assert page.get_by_role("heading", name="The First Page", level=1).is_visible()
    assert page.locator(".idea-box").count() == 2
    assert page.locator(".prose math").count() >= 1

    page.fill("#id_text", "The self term counts too.")
    page.get_by_role("button", name="Save note").click()

    assert page.get_by_text("Your note is saved.").is_visible()
    assert page.input_value("#id_text") == "The self term counts too."
    note = Note.objects.get(copy__owner__username="lovelace", page_slug="first-page")
    assert note.text == "The self term counts too."

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_role("link", name="Sign in").first.is_visible()


def test_repeated_wrong_passwords_show_the_locked_out_page(page, live_server, make_user):
    make_user(username="hopper")
    for _ in range(5):
        page.goto(live_server.url + "/accounts/login/")
        page.fill("#id_username", "hopper")
        page.fill("#id_password", "not-the-password")
        page.get_by_role("button", name="Sign in").click()

    assert page.get_by_role("heading", name="Too many failed sign-ins").is_visible()
    assert page.get_by_role("link", name="reset your password").is_visible()
