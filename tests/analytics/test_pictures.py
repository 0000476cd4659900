"""The analytics pictures: bars that say the table's numbers, text of 11 px or more, no wider
than a phone; on the pages beside their tables."""

import re
import xml.etree.ElementTree as ET

from django.urls import reverse

from practice.analytics.pictures import LABEL_CHARS, levels_picture, recurrence_picture
from practice.analytics.selectors import LevelRow, RecurrenceRow, Share, Tally

SVG = "{http://www.w3.org/2000/svg}"


def _row(mistake: str, problem: Share, review: Share, label: str = "a mistake") -> RecurrenceRow:
    return RecurrenceRow(
        kind="weighted_sum",
        kind_label="Weighted sum",
        mistake=mistake,
        label=label,
        made=Tally(9, 9, False),
        next_problem=problem,
        next_review=review,
    )


def _bars(svg: str, role: str) -> list[float]:
    root = ET.fromstring(svg)
    return [
        float(e.get("data-value")) for e in root.iter(f"{SVG}rect") if e.get("data-role") == role
    ]


def _fits_a_phone(svg: str) -> None:
    root = ET.fromstring(svg)
    assert float(root.get("width")) <= 390 - 2 * 16
    sizes = [float(root.get("font-size"))]
    sizes += [float(e.get("font-size")) for e in root.iter() if e.get("font-size")]
    assert min(sizes) >= 11
    assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text


def test_the_recurrence_bars_are_the_shares_and_hidden_ones_are_not_drawn():
    long_label = "x" * (LABEL_CHARS + 20)
    rows = [
        _row("omitted_term", Share(1, 4, False), Share(3, 6, False)),
        _row("wrong_row", Share(0, 0, False), Share(2, 3, True), label=long_label),
    ]
    svg = recurrence_picture(rows)
    _fits_a_phone(svg)
    assert _bars(svg, "next-problem") == [0.25]
    assert _bars(svg, "next-review") == [0.5]
    texts = [e.text for e in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "25% · next problem" in texts and "fewer than 5 · next review" in texts
    assert "nobody yet · next problem" in texts
    assert long_label not in texts and any(t.endswith("…") for t in texts)


def test_the_levels_bars_are_the_first_tries_right():
    rows = [LevelRow(1, 10, 7, ()), LevelRow(2, 4, 1, ())]
    svg = levels_picture(rows)
    _fits_a_phone(svg)
    assert _bars(svg, "right") == [0.7, 0.25]
    assert "70% · 7/10" in [e.text for e in ET.fromstring(svg).iter(f"{SVG}text")]


def test_the_pages_draw_their_pictures_beside_their_tables(
    course, make_user, client_for, django_capture_on_commit_callbacks
):
    from .cohort import cohort

    with django_capture_on_commit_callbacks(execute=True):
        cohort(make_user, course.course.slug, learners=6)
    staff = make_user(username="author")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client = client_for(staff)
    response = client.get(reverse("analytics:site"))
    html = response.content.decode()
    figure = re.search(r'<figure [^>]*id="recurrence-picture">(.*?)</figure>', html, re.S)
    assert figure is not None
    shown = [
        row.next_problem.again / row.next_problem.of
        for row in response.context["recurrence"]
        if row.next_problem.of
    ]
    assert _bars(figure.group(1), "next-problem") == [round(v, 4) for v in shown]
    kind = client.get(reverse("analytics:kind", args=["weighted_sum"])).content.decode()
    figure = re.search(r'<figure [^>]*id="kind-levels-picture">(.*?)</figure>', kind, re.S)
    assert figure is not None and 'data-role="right"' in figure.group(1)
