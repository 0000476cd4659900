"""The staff preview of a kind: any seed and level, the right answer, every catalogued mistake
with the grader's diagnosis and explanation; learners get 404, bad input a message."""

from django.urls import reverse

import grading
from practice.generators import generate

URL = reverse("practice:kind_preview", kwargs={"kind": "scaled_dot_score"})


def test_staff_see_a_declared_kinds_problem_right_answer_and_derived_mistakes(client_for, staff):
    response = client_for(staff).get(URL, {"seed": 5, "level": 2})
    assert response.status_code == 200
    html = response.content.decode()
    spec = generate("scaled_dot_score", seed=5, level=2)
    loaded = grading.spec.load_problem(spec)
    assert loaded.shape.typed(loaded.kind.right(loaded.problem)) in html
    for diagnosis, _ in grading.mistaken_answers(spec):
        assert f'data-mistake="{diagnosis.mistake}"' in html
    assert html.count("<tr data-mistake=") == len(grading.mistaken_answers(spec))
    assert "scaled_dot_score.yaml" in html  # where it is declared
    assert "swapped_parameters" in html  # left out: q and k swapped give the right answer
    assert "tex-error" not in html


def test_another_seed_shows_another_problem(client_for, staff):
    client = client_for(staff)
    first = client.get(URL, {"seed": 1, "level": 3}).content
    second = client.get(URL, {"seed": 2, "level": 3}).content
    assert first != second


def test_a_level_the_kind_lacks_is_refused_with_a_message(client_for, staff):
    response = client_for(staff).get(URL, {"seed": 1, "level": 9})
    assert response.status_code == 400
    assert "level must be one of" in response.content.decode()


def test_a_seed_that_is_not_a_number_is_refused_with_a_message(client_for, staff):
    response = client_for(staff).get(URL, {"seed": "x"})
    assert response.status_code == 400
    assert 'id="preview-error"' in response.content.decode()


def test_learners_get_404(client_for, other_learner):
    assert client_for(other_learner).get(URL).status_code == 404


def test_a_vector_kinds_preview_draws_it_solved_and_a_scalar_kinds_draws_nothing(client_for, staff):
    client = client_for(staff)
    url = reverse("practice:kind_preview", kwargs={"kind": "temperature_softmax"})
    html = client.get(url, {"seed": 2, "level": 3}).content.decode()
    spec = generate("temperature_softmax", seed=2, level=3)
    n = len(spec["params"]["z"])
    assert html.count('data-role="right"') == n and 'data-role="unknown"' not in html
    assert "The problem drawn solved, the right answer in it." in html
    assert "<svg" not in client.get(URL, {"seed": 5, "level": 2}).content.decode()
