"""The "New variant" button is limited per learner: past the limit nothing is stored."""

from django.urls import reverse

from practice.models import ProblemInstance


def _variant_url(problem):
    return reverse(
        "practice:new_variant", kwargs={"copy_id": problem.copy_id, "problem_id": problem.pk}
    )


def test_new_variants_stop_at_the_limit_with_a_polite_429_and_store_nothing(
    learner_client, problem, settings
):
    settings.PRACTICE_VARIANT_RATE = "3/h"
    current = problem
    for _ in range(3):
        response = learner_client.post(_variant_url(current))
        assert response.status_code == 302
        current = ProblemInstance.objects.get(pk=int(response.url.rstrip("/").split("/")[-1]))
    stored = ProblemInstance.objects.count()

    refused = learner_client.post(_variant_url(current))

    assert refused.status_code == 429
    html = refused.content.decode()
    assert "many new variants in a short time" in html
    assert (
        reverse("practice:problem", kwargs={"copy_id": current.copy_id, "problem_id": current.pk})
        in html
    )
    assert ProblemInstance.objects.count() == stored
    current.refresh_from_db()
    assert current.state == ProblemInstance.State.OPEN
