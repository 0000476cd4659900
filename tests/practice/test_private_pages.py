"""Every URL of the project, fetched signed in: the answer is ``Cache-Control: private, no-store``.

The URLs are walked as the ownership test walks them (``test_ownership.walk``), with the owner's
own objects as kwargs, so a URL added later is checked without being named here. Only the views
that opted out with ``basislab.caching.shared_cache_allowed`` (the same for every visitor) are
allowed another header, and they are named below.
"""

from django.urls import reverse

from basislab.caching import PRIVATE, shared_cache_allowed

from .test_ownership import (
    STAFF_ONLY,
    owned,  # noqa: F401 (a fixture)
    walk,
)

# The same for every visitor, signed in or not: cacheable by anyone.
SHARED = {"public:robots", "public:sitemap"}
# Kwargs of URLs that name no object of the learner's (the open course, email tokens).
OTHER_FILLERS = {
    "answer_slug": "why-split-words-into-pieces",
    "uidb64": "MQ",
    "token": "set-password",
}


def _directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def _every_url(objects: dict) -> list[tuple[str, str]]:
    fillers = {**OTHER_FILLERS, **objects}
    urls = []
    for name, params in walk():
        namespace = name.rpartition(":")[0]
        kwargs = {}
        for param in params:
            key = f"{namespace}:{param}"
            value = fillers.get(key, fillers.get(param))
            if name == "review:unsubscribe":
                value = "A" * 32  # the converter's shape; unknown, so the view answers 404
            assert value is not None, f"{name}: no filler for {param}; add one here"
            kwargs[param] = value
        urls.append((name, reverse(name, kwargs=kwargs)))
    return urls


def test_every_response_to_a_signed_in_learner_is_private_and_not_stored(
    owned,  # noqa: F811 (the fixture imported above)
    client_for,
    learner,
    staff,
):
    urls = _every_url(owned)
    assert {"courses:dashboard", "practice:problem", "review:queue", "password_change"} <= {
        name for name, _ in urls
    }
    clients = {False: client_for(learner), True: client_for(staff)}
    checked = 0
    for name, url in urls:
        for method in ("get", "post"):
            # Signing out ends the session: that request gets a client of its own.
            client = client_for(learner) if name == "logout" else clients[name in STAFF_ONLY]
            response = getattr(client, method)(url)
            directives = _directives(response)
            if name in SHARED:
                if response.status_code == 200:
                    assert "public" in directives, (name, method, directives)
                continue
            # Django's never_cache (sign-in, sign-out) adds no-cache, max-age=0: stricter still.
            assert directives >= {"private", "no-store"}, (name, method, url, directives)
            assert "public" not in directives, (name, method, url, directives)
            assert "ETag" not in response, (name, method)
            checked += 1
    assert checked >= 2 * (len(urls) - len(SHARED))


def test_the_admin_is_private_for_staff(client_for, staff):
    response = client_for(staff).get(reverse("admin:index"))
    assert response.status_code == 200
    assert _directives(response) >= {"private", "no-store"}


def test_anonymous_visitors_keep_the_public_pages_cacheable(client, course):
    # The middleware leaves anonymous responses alone: the open pages stay public.
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "public" in _directives(response)
    assert "no-store" not in _directives(response)


def test_a_view_that_opts_out_keeps_its_own_header(rf, learner):
    from django.http import HttpResponse

    from basislab.caching import PrivateByDefaultMiddleware

    @shared_cache_allowed
    def shared(request):
        response = HttpResponse("same for all")
        response["Cache-Control"] = "public, max-age=60"
        return response

    def personal(request):
        response = HttpResponse("yours")
        response["Cache-Control"] = "public, max-age=60"
        response["ETag"] = '"abc"'
        return response

    request = rf.get("/")
    request.user = learner
    assert PrivateByDefaultMiddleware(shared)(request)["Cache-Control"] == "public, max-age=60"
    overwritten = PrivateByDefaultMiddleware(personal)(request)
    assert overwritten["Cache-Control"] == PRIVATE
    assert "ETag" not in overwritten
    assert "Cookie" in overwritten["Vary"]
