"""Finish touches in a real browser: the time-zone list and the browser's zone, the reminders
checkbox beside its label, the word after signing out, and whose unsubscribe link it is."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from courses.services import copy_get_or_create
from practice.review.models import ReviewItem, ReviewSettings
from practice.review.services.digest import review_digest_send
from practice.review.services.review_settings import review_settings_get_or_create
from practice.services import attempt_submit, problem_open
from tests.answers import wrong_answer

from .learner import PASSWORD, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _signed_in(browser, live_server, username: str, **context_options):
    get_user_model().objects.create_user(
        username=username, email=f"{username}@example.org", password=PASSWORD
    )
    context = browser.new_context(**context_options)
    page = context.new_page()
    sign_in(page, live_server, username)
    return context, page


def test_the_zone_list_is_grouped_and_the_browser_zone_is_offered(browser, live_server, course):
    context, page = _signed_in(browser, live_server, "tz", timezone_id="Asia/Kolkata")
    page.goto(live_server.url + "/review/settings/")
    select = page.locator("#id_time_zone")
    groups = select.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)")
    assert {"Africa", "America", "Asia", "Europe"} <= set(groups)
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert "Europe/Paris" in values
    assert not {"localtime", "Factory", "posixrules", "US/Eastern"} & set(values)
    # Never chosen: the browser's zone is selected, and the page says so.
    assert select.input_value() == "Asia/Kolkata"
    assert page.locator("#browser-zone").is_visible()

    select.select_option("Europe/Paris")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("text=Your review settings are saved.")
    row = ReviewSettings.objects.get(user__username="tz")
    assert (row.time_zone, row.time_zone_chosen) == ("Europe/Paris", True)
    # Chosen now: the stored zone stays, whatever the browser says.
    assert page.locator("#id_time_zone").input_value() == "Europe/Paris"
    assert not page.locator("#browser-zone").is_visible()
    context.close()


def test_without_javascript_the_stored_zone_stays_selected(browser, live_server, course):
    context, page = _signed_in(
        browser, live_server, "nojs", timezone_id="Asia/Kolkata", java_script_enabled=False
    )
    page.goto(live_server.url + "/review/settings/")
    assert page.locator("#id_time_zone").input_value() == "UTC"
    context.close()


def test_the_reminders_checkbox_sits_beside_its_label(browser, live_server, course):
    context, page = _signed_in(browser, live_server, "box")
    page.goto(live_server.url + "/review/settings/")
    box = page.locator("#id_reminders").bounding_box()
    label = page.locator("label[for=id_reminders]").bounding_box()
    assert box["x"] + box["width"] <= label["x"]  # to its left
    box_middle = box["y"] + box["height"] / 2
    assert label["y"] <= box_middle <= label["y"] + label["height"]  # on the same line
    context.close()


def test_signing_out_says_so(browser, live_server, course):
    context, page = _signed_in(browser, live_server, "bye")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_text("You are signed out.").is_visible()
    # Once only.
    page.reload()
    assert page.get_by_text("You are signed out.").count() == 0
    context.close()


def test_the_unsubscribe_pages_name_the_account_and_link_the_queue(browser, live_server, course):
    user = get_user_model().objects.create_user(
        username="mail", email="marie@example.org", password=PASSWORD
    )
    copy = copy_get_or_create(user=user, course_slug=course.course.slug)
    token = review_settings_get_or_create(user_id=user.pk).unsubscribe_token
    context = browser.new_context()  # not signed in
    page = context.new_page()
    page.goto(f"{live_server.url}/review/unsubscribe/{token}/")
    account = page.locator("#unsubscribe-account").inner_text()
    assert "m•••@example.org" in account
    assert "marie@" not in page.content()
    page.get_by_role("button", name="Stop the reminders").click()
    page.wait_for_selector("text=You will get no more review reminders.")
    assert "m•••@example.org" in page.locator("#unsubscribe-account").inner_text()
    queue = page.locator(f"#unsubscribe a[href='/review/{copy.pk}/']")
    settings = page.locator("#unsubscribe a[href='/review/settings/']")
    assert queue.count() == 1 and settings.count() == 1
    assert ReviewSettings.objects.get(user=user).reminders is False
    # The links lead on: to sign in first, then to the queue.
    queue.click()
    page.wait_for_url(re.compile(r"/accounts/login/\?next=/review/\d+/$"))
    context.close()


def test_every_email_is_addressed_by_site_url(browser, live_server, course, settings):
    # SITE_URL is the live server here, so the links can be followed in the browser; the pages
    # themselves are asked for as "localhost", a host the emails must not take.
    settings.SITE_URL = live_server.url
    host = live_server.url.replace("127.0.0.1", "localhost")
    user = get_user_model().objects.create_user(
        username="post", email="post@example.org", password=PASSWORD
    )
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{host}/accounts/password_reset/")
    page.fill("#id_email", "post@example.org")
    page.get_by_role("button", name=re.compile("reset|send", re.I)).click()
    page.wait_for_url(re.compile(r"/password_reset/done/$"))
    reset = re.search(r"https?://\S+/accounts/reset/\S+/", mail.outbox[-1].body).group(0)
    assert reset.startswith(live_server.url + "/")

    # The review reminder follows the same rule.
    copy = copy_get_or_create(user=user, course_slug=course.course.slug)
    problem = problem_open(
        copy=copy, page_slug="first-page", idea_slug="weighted-sum", kind="weighted_sum"
    )
    attempt_submit(copy=copy, problem=problem, text=wrong_answer(problem)[1], token="1" * 32)
    assert review_digest_send(user_id=user.pk, now=ReviewItem.objects.get().due)
    links = re.findall(r"https?://\S+", mail.outbox[-1].body)
    assert links and all(link.startswith(live_server.url + "/") for link in links)

    page.goto(reset)
    page.fill("#id_new_password1", "a-brand-new-passphrase-31")
    page.fill("#id_new_password2", "a-brand-new-passphrase-31")
    page.get_by_role("button", name=re.compile("password", re.I)).click()
    page.wait_for_url(re.compile(r"/reset/done/$"))
    user.refresh_from_db()
    assert user.check_password("a-brand-new-passphrase-31")
    context.close()
