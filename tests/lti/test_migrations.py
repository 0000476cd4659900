"""The LTI app's data migrations, run forward over rows stored by the migration before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: tuple[str, str]):
    """Migrate the lti app to ``target``; return the app registry of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.fixture
def at_leaf():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_links_stored_before_plain_links_keep_their_deep_linked_target(at_leaf):
    old = migrate(("lti", "0003_score_retries_lineitems_roster_left"))
    platform = old.get_model("lti", "Platform").objects.create(
        name="P",
        issuer="https://p.example",
        client_id="c",
        auth_login_url="https://p.example/a",
        auth_token_url="https://p.example/t",
        key_set_url="https://p.example/j",
    )
    context = old.get_model("lti", "Context").objects.create(platform=platform, context_id="x")
    links = old.get_model("lti", "ResourceLink").objects
    links.create(context=context, resource_link_id="a", page_slug="first-page")
    links.create(
        context=context, resource_link_id="b", page_slug="first-page", idea_slug="weighted-sum"
    )
    new = migrate(("lti", "0004_plain_links"))
    rows = new.get_model("lti", "ResourceLink").objects.order_by("resource_link_id")
    assert [(r.target, r.page_slug, r.idea_slug, r.target_from_launch) for r in rows] == [
        ("page", "first-page", "", True),
        ("idea", "first-page", "weighted-sum", True),
    ]


@pytest.mark.django_db(transaction=True)
def test_existing_classes_get_their_platforms_single_deployment_or_wait_to_be_claimed(at_leaf):
    old = migrate(("lti", "0004_plain_links"))
    platforms = old.get_model("lti", "Platform").objects
    deployments = old.get_model("lti", "Deployment").objects
    contexts = old.get_model("lti", "Context").objects
    made = {}
    for name, deployment_ids in (("one", ["d-1"]), ("two", ["d-1", "d-2"]), ("none", [])):
        platform = platforms.create(
            name=name,
            issuer=f"https://{name}.example",
            client_id="c",
            auth_login_url=f"https://{name}.example/a",
            auth_token_url=f"https://{name}.example/t",
            key_set_url=f"https://{name}.example/j",
        )
        for deployment_id in deployment_ids:
            deployments.create(platform=platform, deployment_id=deployment_id)
        made[name] = contexts.create(platform=platform, context_id="course-101").pk
    new = migrate(("lti", "0005_contexts_per_deployment"))
    rows = new.get_model("lti", "Context").objects.select_related("deployment", "platform")
    found = {row.platform.name: row.deployment for row in rows}
    assert found["one"].deployment_id == "d-1"
    assert found["two"] is None and found["none"] is None
    assert {row.pk for row in rows} == set(made.values())
