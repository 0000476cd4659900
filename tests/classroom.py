"""A class of an LTI platform for tests that need instructors and learners without a launch:
a registered platform (never contacted), a context, and its members."""

from __future__ import annotations

from lti.models import Context, LtiUser, Membership, Platform


def make_platform(*, name: str = "P", client_id: str = "c") -> Platform:
    """Register a platform at an address nothing listens on (no test here launches from it)."""
    return Platform.objects.create(
        name=name,
        issuer="https://platform.example",
        client_id=client_id,
        auth_login_url="https://platform.example/auth",
        auth_token_url="https://platform.example/token",
        key_set_url="https://platform.example/jwks",
    )


def enrol(platform: Platform, context: Context, user, *, instructor: bool) -> Membership:
    """Make `user` a member of `context` (its platform identity made once per user)."""
    identity, _ = LtiUser.objects.get_or_create(
        platform=platform, user=user, defaults={"sub": f"sub-{user.pk}"}
    )
    return Membership.objects.create(context=context, lti_user=identity, instructor=instructor)


def make_class(members, *, context_id: str = "class-1", title: str = "Class 1") -> Context:
    """Return a new platform's context whose members are `members`: (user, instructor) pairs."""
    platform = make_platform()
    context = Context.objects.create(platform=platform, context_id=context_id, title=title)
    for user, instructor in members:
        enrol(platform, context, user, instructor=instructor)
    return context
