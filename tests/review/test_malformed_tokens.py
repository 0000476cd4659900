"""A malformed unsubscribe token is a plain 404 (PostgreSQL refuses NUL bytes in text: before,
`/review/unsubscribe/%00/` answered 500 there). CI runs this file on PostgreSQL."""

import pytest


@pytest.mark.parametrize(
    "path",
    [
        "/review/unsubscribe/%00/",
        "/review/unsubscribe/abc%00def/",
        "/review/unsubscribe/%C3%A9t%C3%A9/",
        "/review/unsubscribe/" + "a" * 129 + "/",
        "/review/unsubscribe/a%20b/",
    ],
)
@pytest.mark.django_db
def test_a_malformed_unsubscribe_token_is_404_for_get_and_post(client, path, copy):
    assert client.get(path).status_code == 404
    assert client.post(path).status_code == 404
