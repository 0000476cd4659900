"""``{% url %}`` with remembered reversals (basislab/url_tag.py): every template's tag is this
one, it gives Django's answer, and it never gives an answer from another URLconf, prefix,
namespace or argument."""

import types

import pytest
from django.template import Context, Template, engines
from django.test import override_settings
from django.urls import NoReverseMatch, path, reverse, set_script_prefix

from basislab import url_tag


def _render(source: str, **context) -> str:
    return Template("{% load i18n %}" + source).render(Context(context))


def test_every_templates_url_tag_is_the_remembering_one():
    engine = engines["django"].engine
    assert engine.template_builtins[-1].tags["url"] is url_tag.url
    template = engine.get_template("practice/problem.html")
    nodes = template.nodelist.get_nodes_by_type(url_tag.RememberedURLNode)
    assert nodes, "problem.html has {% url %} tags"


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("home", {}),
        ("practice:problem", {"copy_id": 12, "problem_id": 345}),
        ("practice:attempt", {"copy_id": 1, "attempt_id": 2}),
        ("courses:page", {"copy_id": 3, "page_slug": "the-same-word-twice"}),
        (
            "practice:problem_open",
            {"copy_id": 3, "page_slug": "p", "idea_slug": "i", "kind": "lookup"},
        ),
    ],
)
def test_the_tag_renders_djangos_url_and_remembers_it(name, kwargs):
    source = "{% url name " + " ".join(f"{k}={k}" for k in kwargs) + " %}"
    url_tag._reverse.cache_clear()
    first = _render(source, name=name, **kwargs)
    assert first == reverse(name, kwargs=kwargs)
    assert _render(source, name=name, **kwargs) == first
    info = url_tag._reverse.cache_info()
    assert (info.misses, info.hits) == (1, 1)


def test_positional_arguments_as_var_and_escaping_are_djangos():
    assert _render("{% url 'practice:history' 7 %}") == reverse("practice:history", args=[7])
    assert _render("{% url 'practice:history' 7 as there %}[{{ there }}]") == (
        "[" + reverse("practice:history", args=[7]) + "]"
    )
    assert _render("{% url 'nowhere' as there %}[{{ there }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        _render("{% url 'nowhere' %}")
    slug = "a&b"
    with pytest.raises(NoReverseMatch):  # slugs refuse it, as Django's tag does
        _render("{% url 'courses:page' copy_id=1 page_slug=s %}", s=slug)


def test_another_prefix_or_urlconf_gets_its_own_answer():
    plain = url_tag.url_reverse("practice:history", args=(7,))
    try:
        set_script_prefix("/under/")
        assert url_tag.url_reverse("practice:history", args=(7,)) == "/under" + plain
    finally:
        set_script_prefix("/")
    module = types.ModuleType("other_urls")
    module.urlpatterns = [path("elsewhere/<int:n>/", lambda r, n: None, name="home")]
    with override_settings(ROOT_URLCONF=module):
        assert url_tag.url_reverse("home", args=(5,)) == "/elsewhere/5/"
    assert url_tag.url_reverse("home") == reverse("home")


def test_a_model_argument_is_reversed_each_time_not_remembered():
    class Slugged:
        def __init__(self, text):
            self.text = text

        def __str__(self):
            return self.text

        def __hash__(self):
            return 1

        def __eq__(self, other):
            return True

    url_tag._reverse.cache_clear()
    one = url_tag.url_reverse("courses:page", kwargs={"copy_id": 1, "page_slug": Slugged("a")})
    two = url_tag.url_reverse("courses:page", kwargs={"copy_id": 1, "page_slug": Slugged("b")})
    assert (one, two) == (
        reverse("courses:page", kwargs={"copy_id": 1, "page_slug": "a"}),
        reverse("courses:page", kwargs={"copy_id": 1, "page_slug": "b"}),
    )
    assert url_tag._reverse.cache_info().currsize == 0
