"""The analytics pages' pictures: horizontal bars of shares, drawn with the one SVG toolkit
(``practice.generators.draw.svg``) by the progress pictures' rules: presentation attributes only,
every text escaped, a ``<title>`` and ``<desc>``, at most ``WIDTH`` pixels wide with text of
``FONT_SIZE`` pixels, so on a 390 px phone it is drawn at its own size. Each picture stands
beside the table of its numbers; the bars carry their numbers (``data-value``) for the tests.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from practice.generators.draw.svg import COLOURS, document, rect, text

from .codes import CORRECT, UNEXPLAINED
from .selectors import Group, LevelRow, ParameterTable, RecurrenceRow, Share

WIDTH = 340
FONT_SIZE = 12
BAR_WIDTH = 150
BAR_HEIGHT = 12
LABEL_CHARS = 46  # a label longer than this is cut (the table beside it has it whole)
TRACK = "#e5e7eb"
ROLES = {
    "next-problem": COLOURS["answer"],
    "next-review": COLOURS["term"],
    "right": "#047857",
    "wrong": COLOURS["answer"],
}


@dataclass(frozen=True)
class Bar:
    role: str  # a key of ROLES: the bar's colour and its data-role
    value: float | None  # a share in [0, 1]; None: not drawn (hidden or nobody yet)
    caption: str  # what is written after the bar


@dataclass(frozen=True)
class BarGroup:
    label: str
    bars: tuple[Bar, ...]


def _cut(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def bars_picture(*, title: str, desc: str, groups: Sequence[BarGroup]) -> str:
    """Draw one labelled group of horizontal bars per entry: each bar's share of a track
    ``BAR_WIDTH`` long, its caption after it."""
    body: list[str] = []
    y = 4.0
    for group in groups:
        body.append(text(0, y + FONT_SIZE, _cut(group.label), fill=COLOURS["text"]))
        y += FONT_SIZE + 6
        for bar in group.bars:
            body.append(rect(0, y, BAR_WIDTH, BAR_HEIGHT, fill=TRACK))
            if bar.value is not None:
                body.append(
                    rect(
                        0,
                        y,
                        BAR_WIDTH * max(0.0, min(1.0, bar.value)),
                        BAR_HEIGHT,
                        fill=ROLES[bar.role],
                        data_role=bar.role,
                        data_value=f"{bar.value:.4f}",
                    )
                )
            body.append(text(BAR_WIDTH + 6, y + BAR_HEIGHT - 1, bar.caption, fill=COLOURS["text"]))
            y += BAR_HEIGHT + 4
        y += 8
    return document(WIDTH, max(y, 24), title, desc, body, key=[title, desc], font_size=FONT_SIZE)


def _share_bar(share: Share, role: str, name: str) -> Bar:
    value = None if share.hidden or not share.of else share.again / share.of
    if share.hidden:
        words = share.text
    elif not share.of:
        words = _("nobody yet")
    else:
        words = f"{share.percent}%"
    return Bar(role, value, f"{words} · {name}")


def causes_picture(group: Group) -> str:
    """Draw per named cause of one idea and kind its share of the group's explained wrong
    answers (over every level and try), as the table's first column counts them. A cause of
    fewer than 5 learners (outside the staff view) is not drawn, and not counted in the whole,
    so no share lets its count be worked out. Right and unexplained answers are not causes;
    a group with no cause has no picture (the empty string)."""
    named = [row for row in group.rows if row.code not in (CORRECT, UNEXPLAINED)]
    if not named:
        return ""
    shown = sum(row.total.attempts for row in named if not row.total.hidden)
    groups = [
        BarGroup(
            row.label,
            (
                Bar(
                    "wrong",
                    None if row.total.hidden or not shown else row.total.attempts / shown,
                    row.total.text
                    if row.total.hidden
                    else f"{round(100 * row.total.attempts / shown)}% · {row.total.text}",
                ),
            ),
        )
        for row in named
    ]
    return bars_picture(
        title=_("Causes of wrong answers: %(kind)s") % {"kind": group.kind_label},
        desc=_(
            "Per cause the grader named, its share of the explained wrong answers counted in "
            "the table below (every level and try); the table has the numbers."
        ),
        groups=groups,
    )


def recurrence_picture(rows: Sequence[RecurrenceRow]) -> str:
    """Draw per mistake the share who made it again at the next problem and at its review."""
    groups = [
        BarGroup(
            row.label,
            (
                _share_bar(row.next_problem, "next-problem", _("next problem")),
                _share_bar(row.next_review, "next-review", _("next review")),
            ),
        )
        for row in rows
    ]
    return bars_picture(
        title=_("Made again after the explanation"),
        desc=_(
            "Per mistake, the share of learners who made it again at their next problem of "
            "the kind and at its next review; the table beside it has the numbers."
        ),
        groups=groups,
    )


def levels_picture(rows: Sequence[LevelRow]) -> str:
    """Draw per level the share of first tries that were right."""
    groups = [
        BarGroup(
            _("level %(level)d") % {"level": row.level},
            (
                Bar(
                    "right",
                    row.first_right / row.first_tries if row.first_tries else None,
                    f"{row.percent}% · {row.first_right}/{row.first_tries}"
                    if row.first_tries
                    else _("nobody yet"),
                ),
            ),
        )
        for row in rows
    ]
    return bars_picture(
        title=_("First tries right, per level"),
        desc=_("Per level, the share of first tries that were right; the table has the numbers."),
        groups=groups,
    )


def parameter_picture(table: ParameterTable) -> str:
    """Draw per value (bucket) of one variant parameter the share of answers that were wrong."""
    groups = [
        BarGroup(
            f"{table.name} = {row.bucket}",
            (Bar("wrong", None if row.percent is None else row.wrong / row.answers, row.text),),
        )
        for row in table.rows
    ]
    return bars_picture(
        title=_("Wrong answers by %(parameter)s") % {"parameter": table.name},
        desc=_(
            "Per value of the parameter %(parameter)s, the share of answers (any try, every "
            "level) that were wrong; the table beside it has the numbers."
        )
        % {"parameter": table.name},
        groups=groups,
    )
