"""Every URL of the project, walked as another learner and as an anonymous visitor.

Kwargs are filled from objects owned by learner A; learner B must get 404 (405 for a method the
view does not take) and an anonymous visitor a redirect to sign in. A URL added later is walked
automatically: a kwarg without a filler fails the test until one is added here, and a URL that
needs no ownership check must be named in an allow-list below.
"""

import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from practice import services
from tests.answers import wrong_answer

from .conftest import IDEA_SLUG, PAGE_SLUG

# Reachable by anyone (signed in or not), or only about the visitor's own account: no object of
# another learner can be named in them.
PUBLIC = {
    "home",
    "signup",
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    # The signed-in visitor's own account: settings, email change (its link is signed for one
    # account), deletion.
    "account_settings",
    "email_change",
    "email_change_confirm",
    "account_delete",
    # The course index: open to everyone; a signed-in learner's own copy.
    "courses:dashboard",
    # The open course and its answers, the same for everyone (issue 15): no copy is named.
    "public:page",
    "public:answers",
    "public:answer",
    "public:sitemap",
    "public:robots",
    # Sends the signed-in visitor to the page in their own copy; it takes no copy id.
    "public:page_open",
    "review:settings",
    # The visitor's own daily goal: it takes no id.
    "practice:goal",
    # Signed tokens from review emails: the token is the credential, no session is needed.
    "review:unsubscribe",
    # LTI: the platform's login and launch posts (checked by state, nonce and signature), the
    # tool's public keys, and the deep-linking choice of the visitor's own launched session.
    "lti:login",
    "lti:launch",
    "lti:jwks",
    "lti:deep_link",
}
# Staff-only namespaces guarded by Django's admin (a non-staff visitor is sent to its sign-in).
STAFF_NAMESPACES = {"admin"}
# Staff-only practice pages: 404 for a learner, sign-in for an anonymous visitor.
STAFF_ONLY = {
    "practice:stats",
    "practice:stats_kind",
    # Any seed and level of a kind with its right answer and catalogued mistakes (authors).
    "practice:kind_preview",
    # The site's mistake table, every learner's counts (practice/analytics).
    "analytics:site",
    "analytics:site_csv",
    "analytics:site_json",
    "analytics:site_recurrence_csv",
    # The author's view of a kind, every learner's numbers.
    "analytics:kind",
    "analytics:kind_json",
    "analytics:kind_csv",
}


def _params(pattern) -> list[str]:
    converters = getattr(pattern, "converters", None)
    if converters is not None:
        return list(converters)
    return list(pattern.regex.groupindex)


def walk(patterns=None, namespace: str = "", params: tuple[str, ...] = ()) -> Iterator[tuple]:
    """Yield (full name, kwarg names) for every named URL pattern, recursively."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace in STAFF_NAMESPACES:
                continue  # guarded as a whole: see test_admin_sends_learners_to_its_own_sign_in
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, inner, params + tuple(_params(entry.pattern)))
        elif isinstance(entry, URLPattern):
            if entry.name is None:
                raise AssertionError(f"unnamed URL pattern {entry.pattern}: name it to walk it")
            yield f"{namespace}{entry.name}", params + tuple(_params(entry.pattern))


@pytest.fixture
def owned(course_copy, client_for, other_learner):
    """Objects of learner A, keyed by the URL kwargs that name them."""
    problem = services.problem_open(
        copy=course_copy, page_slug=PAGE_SLUG, idea_slug=IDEA_SLUG, kind="weighted_sum"
    )
    _, wrong = wrong_answer(problem)
    attempt = services.attempt_submit(
        copy=course_copy, problem=problem, text=wrong, token=uuid.uuid4()
    )
    owned = {
        "copy_id": course_copy.pk,
        "problem_id": problem.pk,
        "attempt_id": attempt.pk,
        "page_slug": PAGE_SLUG,
        "idea_slug": IDEA_SLUG,
        "kind": "weighted_sum",
    }
    if apps.is_installed("practice.review"):
        # The diagnosed wrong answer above put the mistake up for review.
        item = apps.get_model("review", "ReviewItem").objects.filter(copy=course_copy).first()
        assert item is not None, "a diagnosed wrong answer should create a review item"
        owned["item_id"] = item.pk
        # Review answers go to review variants: a namespaced filler wins over the plain one.
        from practice.review.services.variants import review_open

        variant = review_open(copy=course_copy, item=item)
        owned["review:problem_id"] = variant.pk
        owned["review:attempt_id"] = services.attempt_submit(
            copy=course_copy, problem=variant, text=wrong_answer(variant)[1], token=uuid.uuid4()
        ).pk
    if apps.is_installed("lti"):
        # Learner A teaches a class of a platform: the class view names its context.
        from lti.models import ResourceLink
        from tests.classroom import make_class

        context = make_class(((course_copy.owner, True),))
        owned["context_id"] = context.pk
        # A plain link of that class: its setup page is for the class's instructors only.
        owned["link_id"] = ResourceLink.objects.create(context=context, resource_link_id="l-1").pk
    return owned


def _guarded_urls(owned: dict) -> list[tuple[str, str]]:
    urls = []
    for name, params in walk():
        if name in PUBLIC or name in STAFF_ONLY:
            continue
        namespace = name.rpartition(":")[0]
        keys = {p: f"{namespace}:{p}" if f"{namespace}:{p}" in owned else p for p in params}
        missing = [p for p, key in keys.items() if key not in owned]
        assert not missing, f"{name}: no filler for kwargs {missing}; add one to `owned`"
        urls.append((name, reverse(name, kwargs={p: owned[key] for p, key in keys.items()})))
    return urls


def test_every_guarded_url_is_404_for_another_learner(owned, client_for, other_learner, learner):
    urls = _guarded_urls(owned)
    assert {"practice:problem", "practice:reveal", "practice:export", "courses:page"} <= {
        n for n, _ in urls
    }
    if apps.is_installed("lti"):
        assert {"lti:class", "lti:class_csv", "lti:link_setup"} <= {n for n, _ in urls}
        # A class's mistake table, for its instructors only (practice/analytics).
        assert {
            "analytics:class",
            "analytics:class_csv",
            "analytics:class_json",
            "analytics:class_recurrence_csv",
        } <= {n for n, _ in urls}
    intruder = client_for(other_learner)
    for name, url in urls:
        statuses = {
            method: getattr(intruder, method)(url).status_code for method in ("get", "post")
        }
        assert set(statuses.values()) <= {404, 405}, (name, url, statuses)
        assert 404 in statuses.values(), (name, url, statuses)
    # The fillers are right: the owner reaches every one of those URLs.
    owner = client_for(learner)
    for name, url in urls:
        statuses = [getattr(owner, method)(url).status_code for method in ("get", "post")]
        assert any(s not in (404, 405) and s < 500 for s in statuses), (name, url, statuses)


def test_every_guarded_url_sends_an_anonymous_visitor_to_sign_in(owned):
    anonymous = Client()
    login = resolve_url(settings.LOGIN_URL)
    for name, url in _guarded_urls(owned) + [
        (name, reverse(name, kwargs={"kind": "weighted_sum"} if "kind" in params else {}))
        for name, params in walk()
        if name in STAFF_ONLY
    ]:
        for method in ("get", "post"):
            response = getattr(anonymous, method)(url)
            if response.status_code == 405:
                continue
            assert response.status_code == 302, (name, method, response.status_code)
            assert urlsplit(response["Location"]).path == login, (name, response["Location"])


def test_staff_pages_are_404_for_learners_and_open_to_staff(client_for, other_learner, staff):
    for name, params in walk():
        if name not in STAFF_ONLY:
            continue
        url = reverse(name, kwargs={"kind": "weighted_sum"} if "kind" in params else {})
        assert client_for(other_learner).get(url).status_code == 404, name
        assert client_for(staff).get(url).status_code == 200, name


def test_admin_sends_learners_to_its_own_sign_in(client_for, other_learner):
    response = client_for(other_learner).get(reverse("admin:index"))
    assert response.status_code == 302
    assert urlsplit(response["Location"]).path == reverse("admin:login")
