"""Reads of the mistake counts: a class's table (summed over its learners' rows) and the
site's (the key rows), grouped per idea and kind, each cause with its learners and attempts
over every level and try, and per level and try class.

Outside the staff view a number of fewer than ``PRIVATE_BELOW`` learners is hidden (with its
attempts): a small count could name a learner.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext

from courses.labels import kind_label
from courses.models import Idea
from lti.models import Context, Membership, RosterEntry
from lti.selectors import Standing
from practice.labels import mistake_label, status_label
from practice.models import ProblemInstance, Reveal
from practice.review.models import CardState, ReviewItem

from .codes import ALL_LEVELS, ANY_CODE, CORRECT, KIND_LEVEL, UNEXPLAINED, TryClass
from .models import (
    ExplainedProblem,
    LearnerMistakeCount,
    MistakeCount,
    MistakeRecurrence,
    ParameterCount,
    RecurrenceCount,
    UnexplainedValue,
)

PRIVATE_BELOW = 5
KEY = ("page_slug", "idea_slug", "kind", "level", "code", "try_class")
TRY_ORDER = {TryClass.FIRST: 0, TryClass.RETRY: 1, TryClass.REVIEW: 2}


def code_label(code: str, kind: str) -> str:
    """Return the words for a counted code: a mistake's label, or what ``unexplained`` and
    ``correct`` stand for."""
    if code == CORRECT:
        return status_label(CORRECT)
    return mistake_label(None if code == UNEXPLAINED else code, kind)


@lru_cache(maxsize=4096)
def _cell_format(language: str | None, learners: int) -> str:
    """Return the translated words of a cell of ``learners`` (in ``language``, the active one
    when called): looked up once per number, since a class's table has over a thousand."""
    return ngettext(
        "%(learners)d learner, %(attempts)d×", "%(learners)d learners, %(attempts)d×", learners
    )


# Tuples (NamedTuple), not dataclasses: a table makes and hashes thousands of them.
class Tally(NamedTuple):
    attempts: int
    learners: int
    hidden: bool  # fewer than PRIVATE_BELOW learners, outside the staff view

    @property
    def text(self) -> str:
        """Return the cell's words: "6 learners, 9×", or "fewer than 5" when hidden."""
        if self.hidden:
            return gettext("fewer than 5")
        return _cell_format(get_language(), self.learners) % {
            "learners": self.learners,
            "attempts": self.attempts,
        }


class Column(NamedTuple):
    level: int
    try_class: str

    @property
    def label(self) -> str:
        return gettext("level %(level)d, %(try)s") % {
            "level": self.level,
            "try": TryClass(self.try_class).label,
        }


@dataclass(frozen=True)
class CauseRow:
    code: str
    label: str
    total: Tally
    cells: tuple[Tally | None, ...]  # one per column of the group, None where nobody

    @property
    def cells_html(self) -> SafeString:
        """Return the row's cells (the total, then one per column) as the page writes them:
        built once in Python, as the words are (a class's table has over a thousand cells,
        and the template's loop over them was most of the page's rendering)."""
        parts = []
        for cell in (self.total, *self.cells):
            if cell is None:
                parts.append("<td>—</td>")
            elif cell.hidden:
                parts.append(f'<td class="analytics-hidden">{escape(cell.text)}</td>')
            else:
                parts.append(f"<td>{escape(cell.text)}</td>")
        return mark_safe("".join(parts))  # noqa: S308 (every text escaped above)


@dataclass
class Group:
    page_slug: str
    idea_slug: str
    idea_title: str
    kind: str
    kind_label: str
    columns: list[Column] = field(default_factory=list)
    rows: list[CauseRow] = field(default_factory=list)


@dataclass(frozen=True)
class MistakeTable:
    private: bool
    groups: list[Group]

    def flat(self) -> list[dict[str, object]]:
        """Return one dict per number shown (CSV and JSON): the total over levels and tries
        (level None, try ``all``), then each level and try class."""
        rows = []
        for group in self.groups:
            for row in group.rows:
                cells = [(None, TryClass.ALL.value, row.total)]
                cells += [
                    (column.level, column.try_class, cell)
                    for column, cell in zip(group.columns, row.cells, strict=True)
                    if cell is not None
                ]
                for level, try_class, cell in cells:
                    rows.append(
                        {
                            "page": group.page_slug,
                            "idea": group.idea_slug,
                            "kind": group.kind,
                            "code": row.code,
                            "label": row.label,
                            "level": level,
                            "try": try_class,
                            "learners": None if cell.hidden else cell.learners,
                            "attempts": None if cell.hidden else cell.attempts,
                            "fewer_than_5": cell.hidden,
                        }
                    )
        return rows


def _ideas() -> dict[tuple[str, str], tuple[int, str]]:
    """Return (page, idea) -> (course order, title) from the course's newest version that has
    the idea (titles change between versions; slugs do not)."""
    found: dict[tuple[str, str], tuple[int, str]] = {}
    ideas = (
        Idea.objects.filter(page__version__course__slug=settings.BASISLAB_COURSE_SLUG)
        .order_by("-page__version__number", "page__order", "order")
        .values_list("page__slug", "slug", "title")
    )
    for page, slug, title in ideas:
        found.setdefault((page, slug), (len(found), title))
    return found


def _table(rows: QuerySet, *, private: bool) -> MistakeTable:
    """Group key rows (dicts of KEY, attempts, learners) per idea and kind."""
    ideas = _ideas()
    totals: dict[tuple, dict[str, Tally]] = defaultdict(dict)
    cells: dict[tuple, dict[tuple[str, Column], Tally]] = defaultdict(dict)
    for row in rows:
        tally = Tally(row["attempts"], row["learners"], private and row["learners"] < PRIVATE_BELOW)
        group = (row["page_slug"], row["idea_slug"], row["kind"])
        if row["level"] == ALL_LEVELS:
            totals[group][row["code"]] = tally
        else:
            cells[group][(row["code"], Column(row["level"], row["try_class"]))] = tally
    groups = []
    for key in sorted(totals, key=lambda k: (ideas.get(k[:2], (len(ideas), ""))[0], k)):
        page, idea, kind = key
        columns = sorted(
            {column for _code, column in cells[key]},
            key=lambda c: (c.level, TRY_ORDER[TryClass(c.try_class)]),
        )
        group = Group(
            page_slug=page,
            idea_slug=idea,
            idea_title=ideas.get((page, idea), (0, idea))[1],
            kind=kind,
            kind_label=str(kind_label(kind)),
            columns=columns,
        )

        def rank(code: str, key: tuple = key) -> tuple:
            # Named causes first, by learners (most first), then unexplained, then correct.
            tally = totals[key][code]
            return (code == CORRECT, code == UNEXPLAINED, -tally.learners, -tally.attempts, code)

        for code in sorted(totals[key], key=rank):
            group.rows.append(
                CauseRow(
                    code=code,
                    label=code_label(code, kind),
                    total=totals[key][code],
                    cells=tuple(cells[key].get((code, column)) for column in columns),
                )
            )
        groups.append(group)
    return MistakeTable(private=private, groups=groups)


def _departed(context: Context) -> QuerySet:
    """Return the users of the context's members who left it or are inactive, as the class
    view counts them (``lti.selectors.standing``: the latest roster answer no longer listed
    them and they have not launched since, or it says Inactive), as a subquery: the class's
    numbers leave them out in the same statement."""
    roster = RosterEntry.objects.filter(context=context, sub=OuterRef("lti_user__sub"))
    left = roster.filter(left_at__isnull=False)
    return (
        Membership.objects.filter(context=context)
        .filter(
            Exists(roster.filter(status__iexact=Standing.INACTIVE.value))
            | (Q(last_launch_at__isnull=True) & Exists(left))
            | Exists(left.filter(left_at__gte=OuterRef("last_launch_at")))
        )
        .values("lti_user__user_id")
    )


def class_mistake_table(*, context: Context) -> MistakeTable:
    """Return the table of a class: the rows of the context's active learners (members who
    are not its instructors, and have not left it: ``_departed``) summed per key, counts
    under ``PRIVATE_BELOW`` learners hidden."""
    rows = (
        LearnerMistakeCount.objects.filter(
            course__slug=settings.BASISLAB_COURSE_SLUG,
            copy__owner__lti_identity__memberships__context=context,
            copy__owner__lti_identity__memberships__instructor=False,
        )
        .exclude(copy__owner_id__in=_departed(context))
        .values(*KEY)
        # COUNT(*), not of the primary key: the learner rows' unique index has every column
        # read here, so PostgreSQL reads it alone (an index-only scan).
        .annotate(attempts=Sum("attempts"), learners=Count("*"))
        .order_by()
    )
    return _table(rows, private=True)


def site_mistake_table() -> MistakeTable:
    """Return the table of every learner of the site's course (the staff view: nothing
    hidden)."""
    rows = (
        MistakeCount.objects.filter(course__slug=settings.BASISLAB_COURSE_SLUG)
        .values(*KEY, "attempts", "learners")
        .order_by()
    )
    return _table(rows, private=False)


@dataclass(frozen=True)
class Share:
    """Of ``of`` learners with a next problem (or review), ``again`` made the mistake again."""

    again: int
    of: int
    hidden: bool  # fewer than PRIVATE_BELOW learners in the denominator, outside staff view

    @property
    def percent(self) -> int | None:
        return None if self.hidden or not self.of else round(100 * self.again / self.of)

    @property
    def text(self) -> str:
        """Return the cell's words: "2 of 9 (22%)", "fewer than 5", or a dash for nobody."""
        if self.hidden:
            return gettext("fewer than 5")
        if not self.of:
            return "—"
        return gettext("%(again)d of %(of)d (%(percent)d%%)") % {
            "again": self.again,
            "of": self.of,
            "percent": self.percent,
        }


@dataclass(frozen=True)
class RecurrenceRow:
    kind: str
    kind_label: str
    mistake: str
    label: str
    made: Tally  # learners who made the mistake (attempts: the same number)
    next_problem: Share
    next_review: Share
    month: str | None = None  # "2026-12": the learners who first made it that month (UTC)

    def flat(self) -> dict[str, object]:
        """Return the row as the CSV and JSON write it."""
        row: dict[str, object] = {"kind": self.kind, "mistake": self.mistake, "label": self.label}
        row["month"] = self.month
        row["learners"] = None if self.made.hidden else self.made.learners
        for name, share in (("next_problem", self.next_problem), ("next_review", self.next_review)):
            row[f"{name}_again"] = None if share.hidden else share.again
            row[f"{name}_of"] = None if share.hidden else share.of
            row[f"{name}_fewer_than_5"] = share.hidden
        row["fewer_than_5"] = self.made.hidden
        return row


def recurrence_table(
    *, rows: QuerySet, private: bool, by_month: bool = False
) -> list[RecurrenceRow]:
    """Return per kind and mistake (and, ``by_month``, per month of the first time, in UTC),
    from recurrence rows (one per learner who made it): how many learners made it, and of those
    with a next problem of the kind (a next review of the mistake), how many made it again
    there; in one statement. Learners with none yet are left out of that share's
    denominator."""
    keys = ("kind", "mistake", *(("month",) if by_month else ()))
    grouped = rows.values(*keys).annotate(
        made=Count("pk"),
        problem_of=Count("pk", filter=Q(next_problem__isnull=False)),
        problem_again=Count("pk", filter=Q(next_problem=True)),
        review_of=Count("pk", filter=Q(next_review__isnull=False)),
        review_again=Count("pk", filter=Q(next_review=True)),
    )
    order = (*(("month",) if by_month else ()), "kind", "-made", "mistake")
    return _recurrence_rows(grouped.order_by(*order), private=private, by_month=by_month)


RECURRENCE_NUMBERS = ("made", "problem_of", "problem_again", "review_of", "review_again")


def _recurrence_rows(
    grouped: Iterable[dict], *, private: bool, by_month: bool
) -> list[RecurrenceRow]:
    """Build the rows from grouped numbers (``made``, ``problem_of``, ... per kind, mistake and
    perhaps month), in their order, small ones hidden when ``private``."""
    table = []
    for row in grouped:
        made = row["made"]
        table.append(
            RecurrenceRow(
                kind=row["kind"],
                kind_label=str(kind_label(row["kind"])),
                mistake=row["mistake"],
                label=code_label(row["mistake"], row["kind"]),
                made=Tally(made, made, private and made < PRIVATE_BELOW),
                next_problem=Share(
                    row["problem_again"],
                    row["problem_of"],
                    private and row["problem_of"] < PRIVATE_BELOW,
                ),
                next_review=Share(
                    row["review_again"],
                    row["review_of"],
                    private and row["review_of"] < PRIVATE_BELOW,
                ),
                month=f"{row['month']:%Y-%m}" if by_month else None,
            )
        )
    return table


def _class_learner_filter(context: Context, prefix: str = "") -> Q:
    """Return the filter of a class's active learners' rows (members who are not its
    instructors and have not left it or become inactive: ``_departed``)."""
    return Q(
        **{
            f"{prefix}copy__course__slug": settings.BASISLAB_COURSE_SLUG,
            f"{prefix}copy__owner__lti_identity__memberships__context": context,
            f"{prefix}copy__owner__lti_identity__memberships__instructor": False,
        }
    ) & ~Q(**{f"{prefix}copy__owner_id__in": _departed(context)})


def class_recurrence(*, context: Context, by_month: bool = False) -> list[RecurrenceRow]:
    """Return the recurrence table of a class's learners, small numbers hidden."""
    return recurrence_table(
        rows=MistakeRecurrence.objects.filter(_class_learner_filter(context)),
        private=True,
        by_month=by_month,
    )


def site_recurrence(*, by_month: bool = False) -> list[RecurrenceRow]:
    """Return the recurrence table of every learner of the site's course (nothing hidden),
    from its summary rows (per kind, mistake and month), in one statement."""
    rows = RecurrenceCount.objects.filter(course__slug=settings.BASISLAB_COURSE_SLUG)
    keys = ("kind", "mistake", *(("month",) if by_month else ()))
    # Summed under other names: an annotation may not take a field's name.
    grouped = (
        rows.values(*keys)
        .annotate(**{f"sum_{name}": Sum(name) for name in RECURRENCE_NUMBERS})
        .order_by(*(("month",) if by_month else ()), "kind", "-sum_made", "mistake")
    )
    summed = (
        {**{k: row[k] for k in keys}, **{n: row[f"sum_{n}"] for n in RECURRENCE_NUMBERS}}
        for row in grouped
    )
    return _recurrence_rows(summed, private=False, by_month=by_month)


class Holder(NamedTuple):
    name: str
    sub: str
    lapsed: bool  # the item is relearning (forgotten since it was learned), else only due


@dataclass(frozen=True)
class HoldersRow:
    kind: str
    kind_label: str
    mistake: str
    label: str
    learners: tuple[Holder, ...]

    @property
    def text(self) -> str:
        """Return the learners' names as the page lists them, built once in Python (a class
        can have thousands of names due): "Ada, Ben (lapsed), ..."."""
        lapsed = gettext("lapsed")
        return ", ".join(f"{h.name} ({lapsed})" if h.lapsed else h.name for h in self.learners)

    def flat(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "mistake": self.mistake,
            "label": self.label,
            "learners": [{"name": h.name, "sub": h.sub, "lapsed": h.lapsed} for h in self.learners],
        }


def class_holders(*, context: Context, now: datetime | None = None) -> list[HoldersRow]:
    """Return per kind and catalogued mistake the class's learners who have it now: their
    review item for it is due (at or before ``now``) or lapsed (relearning); in one statement.
    Names are shown to the class's instructors, as the class view shows them."""
    now = now or timezone.now()
    items = (
        ReviewItem.objects.filter(_class_learner_filter(context))
        .filter(Q(due__lte=now) | Q(state=CardState.RELEARNING))
        .exclude(mistake__in=KIND_LEVEL)
        .values_list(
            "kind",
            "mistake",
            "copy__owner__lti_identity__name",
            "copy__owner__lti_identity__sub",
            "state",
        )
        .order_by("kind", "mistake", "copy__owner__lti_identity__name", "copy__owner_id")
    )
    grouped: dict[tuple[str, str], list[Holder]] = defaultdict(list)
    relearning = int(CardState.RELEARNING)  # compared as a plain int: thousands of rows
    for kind, mistake, name, sub, state in items:
        grouped[kind, mistake].append(Holder(name or sub, sub, state == relearning))
    rows = [
        HoldersRow(
            kind=kind,
            kind_label=str(kind_label(kind)),
            mistake=mistake,
            label=code_label(mistake, kind),
            learners=tuple(holders),
        )
        for (kind, mistake), holders in grouped.items()
    ]
    rows.sort(key=lambda row: (row.kind, -len(row.learners), row.mistake))
    return rows


# How many of a kind's most common unexplained values the author sees.
TOP_VALUES = 10


@dataclass(frozen=True)
class RevealRow:
    kind: str
    kind_label: str
    reveals: int
    learners: int

    def flat(self) -> dict[str, object]:
        return {"kind": self.kind, "reveals": self.reveals, "learners": self.learners}


def site_reveals(*, kind: str | None = None) -> list[RevealRow]:
    """Return per kind how many worked solutions were revealed, and to how many learners (the
    reveals are rows kept on write, one per problem); in one statement."""
    rows = Reveal.objects.filter(copy__course__slug=settings.BASISLAB_COURSE_SLUG)
    if kind is not None:
        rows = rows.filter(problem__kind=kind)
    grouped = (
        rows.values(kind=F("problem__kind"))
        .annotate(reveals=Count("pk"), learners=Count("copy", distinct=True))
        .order_by("-reveals", "kind")
    )
    return [
        RevealRow(row["kind"], str(kind_label(row["kind"])), row["reveals"], row["learners"])
        for row in grouped
    ]


@dataclass(frozen=True)
class ValueRow:
    kind: str
    kind_label: str
    value: str
    attempts: int

    def flat(self) -> dict[str, object]:
        return {"kind": self.kind, "value": self.value, "attempts": self.attempts}


def site_unexplained_values(*, kind: str | None = None, top: int = TOP_VALUES) -> list[ValueRow]:
    """Return per kind its ``top`` most common values of wrong answers no catalogued mistake
    explains (as the grader read them), with how many answers were read so; in one statement
    (a window over the value rows kept on write)."""
    rows = UnexplainedValue.objects.filter(course__slug=settings.BASISLAB_COURSE_SLUG)
    if kind is not None:
        rows = rows.filter(kind=kind)
    ranked = (
        rows.annotate(
            rank=Window(
                RowNumber(), partition_by=[F("kind")], order_by=[F("attempts").desc(), F("value")]
            )
        )
        .filter(rank__lte=top)
        .values_list("kind", "value", "attempts")
        .order_by("kind", "-attempts", "value")
    )
    return [ValueRow(k, str(kind_label(k)), value, n) for k, value, n in ranked]


@dataclass(frozen=True)
class LevelRow:
    level: int
    first_tries: int
    first_right: int
    mistakes: tuple[tuple[str, str, int], ...]  # (code, label, answers), most answers first

    @property
    def percent(self) -> int | None:
        return round(100 * self.first_right / self.first_tries) if self.first_tries else None


@dataclass(frozen=True)
class TeachingRow:
    """Problems at which a mistake was explained, by what became of them."""

    mistake: str
    label: str
    explained: int
    solved: int  # answered right afterwards
    closed_unsolved: int  # replaced by a fresh variant or its solution revealed, never right
    still_open: int


@dataclass(frozen=True)
class Spread:
    """First-try rates of the kind's learners: the top and bottom fifth's means (percent)."""

    learners: int
    top: float | None  # None with fewer than 5 learners (no fifth to speak of)
    bottom: float | None

    @property
    def points(self) -> float | None:
        return None if self.top is None or self.bottom is None else self.top - self.bottom


@dataclass(frozen=True)
class BucketRow:
    """The answers to a kind's problems whose variant parameter fell in one bucket."""

    bucket: str
    sort: float
    answers: int  # graded answers, any try
    learners: int  # distinct learners who gave them
    wrong: int  # answers that were not right (a mistake or unexplained)
    hidden: bool  # fewer than PRIVATE_BELOW learners, outside the staff view
    mistakes: tuple[tuple[str, str, Tally], ...]  # (code, label, tally), most answers first

    @property
    def percent(self) -> int | None:
        """Return the share of the answers that were wrong, in percent (None when hidden)."""
        return None if self.hidden or not self.answers else round(100 * self.wrong / self.answers)

    @property
    def text(self) -> str:
        if self.hidden:
            return gettext("fewer than 5")
        return gettext("%(percent)d%% wrong · %(wrong)d of %(answers)d") % {
            "percent": self.percent,
            "wrong": self.wrong,
            "answers": self.answers,
        }


@dataclass(frozen=True)
class ParameterTable:
    name: str
    rows: list[BucketRow]


def parameter_tables(rows: Iterable[dict], *, kind: str, private: bool) -> list[ParameterTable]:
    """Return per parameter (by name) its buckets (by their lower end) from parameter count
    rows of one kind and level: each bucket's answers and learners (its ``ANY_CODE`` row), its
    wrong answers (all but the right ones) and each mistake's tally. Outside the staff view
    (``private``) a bucket of fewer than ``PRIVATE_BELOW`` learners hides its numbers, and a
    mistake of fewer hides its own."""
    per: dict[str, dict[str, dict]] = defaultdict(dict)
    for row in rows:
        cell = per[row["name"]].setdefault(row["bucket"], {"sort": row["sort"], "codes": {}})
        cell["codes"][row["code"]] = (row["attempts"], row["learners"])
    tables = []
    for name in sorted(per):
        buckets = []
        for label, cell in per[name].items():
            codes = cell["codes"]
            answers, learners = codes.get(ANY_CODE, (0, 0))
            hidden = private and learners < PRIVATE_BELOW
            named = sorted(
                (
                    (code, n, who)
                    for code, (n, who) in codes.items()
                    if code not in (ANY_CODE, CORRECT)
                ),
                key=lambda item: (-item[1], item[0]),
            )
            buckets.append(
                BucketRow(
                    bucket=label,
                    sort=cell["sort"],
                    answers=answers,
                    learners=learners,
                    wrong=answers - codes.get(CORRECT, (0, 0))[0],
                    hidden=hidden,
                    mistakes=tuple(
                        (
                            code,
                            code_label(code, kind),
                            Tally(n, who, private and (hidden or who < PRIVATE_BELOW)),
                        )
                        for code, n, who in named
                    ),
                )
            )
        buckets.sort(key=lambda row: (row.sort, row.bucket))
        tables.append(ParameterTable(name, buckets))
    return tables


PARAMETER_FIELDS = ("kind", "parameter", "value", "sort", "level", "code", "learners", "attempts")


def parameter_counts(*, kind: str) -> list[dict[str, object]]:
    """Return every parameter count row of a kind over the site's course (the CSV's rows): per
    parameter, bucket, level (``ALL_LEVELS`` first) and code; one statement."""
    return list(
        ParameterCount.objects.filter(course__slug=settings.BASISLAB_COURSE_SLUG, kind=kind)
        .values("level", "name", "bucket", "sort", "code", "attempts", "learners")
        .order_by("name", "sort", "bucket", "level", "code")
    )


@dataclass(frozen=True)
class KindView:
    kind: str
    kind_label: str
    levels: list[LevelRow]
    teaching: list[TeachingRow]
    spread: Spread
    reveals: list[RevealRow]
    values: list[ValueRow]
    parameters: list[ParameterTable]

    def flat(self) -> dict[str, object]:
        """Return every number of the view as its JSON writes it."""
        return {
            "kind": self.kind,
            "levels": [
                {
                    "level": row.level,
                    "first_tries": row.first_tries,
                    "first_right": row.first_right,
                    "mistakes": [{"code": c, "answers": n} for c, _label, n in row.mistakes],
                }
                for row in self.levels
            ],
            "explained": [
                {
                    "mistake": row.mistake,
                    "explained": row.explained,
                    "solved": row.solved,
                    "closed_unsolved": row.closed_unsolved,
                    "still_open": row.still_open,
                }
                for row in self.teaching
            ],
            "spread": {
                "learners": self.spread.learners,
                "top_fifth": self.spread.top,
                "bottom_fifth": self.spread.bottom,
            },
            "reveals": [row.flat() for row in self.reveals],
            "unexplained_values": [row.flat() for row in self.values],
            "parameters": [
                {
                    "name": table.name,
                    "values": [
                        {
                            "value": row.bucket,
                            "answers": row.answers,
                            "learners": row.learners,
                            "wrong": row.wrong,
                            "mistakes": [
                                {"code": c, "answers": t.attempts, "learners": t.learners}
                                for c, _label, t in row.mistakes
                            ],
                        }
                        for row in table.rows
                    ],
                }
                for table in self.parameters
            ],
        }


def kind_spread(*, kind: str) -> Spread:
    """Return the spread of the kind's learners' first-try rates (their learner rows, first
    try, summed over levels): the mean rate (percent) of the best and of the worst fifth (a
    fifth is the learners divided by 5, rounded down; none under 5 learners). One statement:
    each learner's rate numbered by a window in SQL, the two fifths averaged over it, so one
    row comes back however many learners the kind has."""
    per_learner = (
        LearnerMistakeCount.objects.filter(
            course__slug=settings.BASISLAB_COURSE_SLUG, kind=kind, try_class=TryClass.FIRST
        )
        .values("copy")
        .annotate(tries=Sum("attempts"), firsts_right=Sum("attempts", filter=Q(code=CORRECT)))
        .filter(tries__gt=0)
        .order_by()
    )
    inner, params = per_learner.query.sql_with_params()
    # The grouped read (the ORM's SQL, its values as parameters) as a subquery: each
    # learner's rate, its place from the worst, and the learners; a fifth's mean is then a
    # CASE inside AVG (SQLite and PostgreSQL alike; n / 5 is integer division in both).
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT MAX(n),
                   AVG(CASE WHEN place > n - n / 5 THEN rate END),
                   AVG(CASE WHEN place <= n / 5 THEN rate END)
            FROM (
                SELECT rate, ROW_NUMBER() OVER (ORDER BY rate) AS place, COUNT(*) OVER () AS n
                FROM (
                    SELECT CAST(COALESCE(l.firsts_right, 0) AS DOUBLE PRECISION) / l.tries
                           AS rate
                    FROM ({inner}) AS l
                ) AS r
            ) AS t
            """,  # noqa: S608
            params,
        )
        learners, top, bottom = cursor.fetchone()
    learners = learners or 0
    if learners < PRIVATE_BELOW:
        return Spread(learners, None, None)
    return Spread(learners, 100 * float(top), 100 * float(bottom))


def kind_view(*, kind: str) -> KindView:
    """Return the author's view of one kind over every learner of the site's course, from the
    rows kept on write: per level the first tries right and the mistakes made (one statement),
    per mistake what became of the problems it was explained at (one), the spread of learners'
    first-try rates (one), then the kind's reveals and unexplained values (one each), and the
    answers per variant parameter's value over every level (one)."""
    course = Q(course__slug=settings.BASISLAB_COURSE_SLUG, kind=kind)
    first = Q(try_class=TryClass.FIRST)
    cells = (
        MistakeCount.objects.filter(course, level__gt=ALL_LEVELS)
        .exclude(try_class=TryClass.ALL)
        .values("level", "code")
        .annotate(answers=Sum("attempts"), first=Sum("attempts", filter=first))
        .order_by("level", "code")
    )
    per_level: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    for row in cells:
        per_level[row["level"]][row["code"]] = (row["answers"], row["first"] or 0)
    levels = []
    for level, codes in sorted(per_level.items()):
        named = [(c, n) for c, (n, _f) in codes.items() if c != CORRECT]
        named.sort(key=lambda item: (-item[1], item[0]))
        levels.append(
            LevelRow(
                level=level,
                first_tries=sum(f for _n, f in codes.values()),
                first_right=codes.get(CORRECT, (0, 0))[1],
                mistakes=tuple((c, code_label(c, kind), n) for c, n in named),
            )
        )
    state = ProblemInstance.State
    teaching = [
        TeachingRow(
            mistake=row["mistake"],
            label=code_label(row["mistake"], kind),
            explained=row["explained"],
            solved=row["solved"],
            closed_unsolved=row["closed"],
            still_open=row["open"],
        )
        # problem__kind selects the same rows (an explained problem is of its problem's kind)
        # and lets PostgreSQL join the two covering indexes instead of each problem's row.
        for row in ExplainedProblem.objects.filter(course, problem__kind=kind)
        .values("mistake")
        .annotate(
            # counted by problem (one row each, never null), a column the index carries
            explained=Count("problem"),
            solved=Count("problem", filter=Q(problem__state=state.SOLVED)),
            closed=Count("problem", filter=Q(problem__state__in=[state.REPLACED, state.REVEALED])),
            open=Count("problem", filter=Q(problem__state=state.OPEN)),
        )
        .order_by("-closed", "mistake")
    ]
    return KindView(
        kind=kind,
        kind_label=str(kind_label(kind)),
        levels=levels,
        teaching=teaching,
        spread=kind_spread(kind=kind),
        reveals=site_reveals(kind=kind),
        values=site_unexplained_values(kind=kind),
        parameters=parameter_tables(
            ParameterCount.objects.filter(course, level=ALL_LEVELS).values(
                "name", "bucket", "sort", "code", "attempts", "learners"
            ),
            kind=kind,
            private=False,
        ),
    )
