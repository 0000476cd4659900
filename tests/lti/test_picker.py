"""The deep-linking picker inside the platform's frame: no site navigation, nothing placed by an
unread default, and a response that carries ``data`` only as the request gave it."""

import re

import pytest
from django.test import Client

from courses.models import Page
from lti.claims import DEEP_LINKING_CLAIM, DEEP_LINKING_DATA_CLAIM
from lti.forms import DeepLinkForm

from .conftest import launch
from .platform import INSTRUCTOR

CHOICE = "idea:first-page/weighted-sum"


def open_picker(platform, *, edit=None) -> tuple[Client, str]:
    client = Client()
    response, _, _ = launch(
        client,
        platform,
        sub="t-1",
        roles=(INSTRUCTOR,),
        message_type="LtiDeepLinkingRequest",
        edit=edit,
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    return client, page.content.decode()


def place(client: Client, target: str | None = CHOICE):
    return client.post("/lti/deep-link/", {"target": target} if target else {})


def test_the_picker_shows_no_site_navigation(platform):
    client, page = open_picker(platform)
    assert 'id="lti-framed-header"' in page
    for absent in ("Sign out", "/accounts/logout/", "site-nav", "My course"):
        assert absent not in page
    # The same session's other pages keep the navigation (what the picker leaves out).
    assert "Sign out" in client.get("/course/", follow=True).content.decode()
    returned = place(client).content.decode()
    assert "lti-deep-link-return" in returned
    assert "Sign out" not in returned
    assert "site-nav" not in returned


def test_the_picker_preselects_nothing_among_several_choices(platform):
    _, page = open_picker(platform)
    radios = re.findall(r"<input[^>]*type=\"radio\"[^>]*>", page)
    assert len(radios) > 1
    assert not [radio for radio in radios if "checked" in radio]
    assert 'autocomplete="off"' in page  # a browser does not restore an earlier choice


def test_placing_nothing_is_refused_with_a_message_and_sends_nothing(platform):
    client, _ = open_picker(platform)
    response = place(client, None)
    assert response.status_code == 400
    assert "Pick a page or an idea for the link." in response.content.decode()
    assert "token" not in response.context
    # The request is still there: a choice then places the link.
    assert place(client).status_code == 200


def test_a_refused_choice_is_not_replaced_by_another(platform):
    client, _ = open_picker(platform)
    response = place(client, "idea:first-page/no-such-idea")
    assert response.status_code == 400
    radios = re.findall(r"<input[^>]*type=\"radio\"[^>]*>", response.content.decode())
    assert not [radio for radio in radios if "checked" in radio]


def test_the_only_choice_is_preselected(course):
    pages = list(Page.objects.filter(version=course, slug="second-page"))
    form = DeepLinkForm(pages=pages)
    assert [value for value, _ in form.fields["target"].choices] == ["page:second-page"]
    assert "checked" in str(form["target"])
    assert "checked" not in str(DeepLinkForm(pages=list(Page.objects.filter(version=course))))


@pytest.mark.parametrize(("data", "sent"), [("dl-data-1", True), (None, False)])
def test_data_is_returned_only_when_the_request_gave_it(platform, data, sent):
    def settings_data(body):
        if data is None:
            body[DEEP_LINKING_CLAIM].pop("data")

    client, _ = open_picker(platform, edit=settings_data)
    token = place(client).context["token"]
    claims = platform.verify_tool_jwt(token, audience=platform.issuer)
    assert (DEEP_LINKING_DATA_CLAIM in claims) is sent
    if sent:
        assert claims[DEEP_LINKING_DATA_CLAIM] == data
