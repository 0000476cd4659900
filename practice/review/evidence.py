"""What a right first try proves about a review item, as a share of one explicit interval.

Pure: plain numbers in, a share out; no Django.

A right first try at a problem of kind K proves that the learner did not make, on that
problem, the mistakes of K the problem could have shown. How much that says about an item
depends on how likely the item's mistake was there:

- a problem aimed at the item's mistake (its own review variant, or any variant targeted at
  that mistake) was built to show it: the evidence is strong (likelihood 1);
- an untargeted problem of the kind (or one aimed at another mistake; every accepted problem
  makes every catalogued mistake of its kind possible) shows the mistake only if the learner
  happens to make it there, one of the kind's catalogued mistakes among several: the evidence
  is weak (likelihood ``1 / the number of the kind's mistakes``);
- a kind-level item (an unexplained mistake, a worked solution shown) stands for the kind as a
  whole: a right answer to any problem of the kind says something about it (likelihood 0.5);
- a mistake the problem could not show (not in its kind's catalog) is proved nothing about.

The share also grows with how often the item's mistake came back (``(lapses + 1) / (reps +
1)``): avoiding a mistake one keeps making says more than avoiding one already reviewed well.
It never exceeds ``MAX_SHARE`` of the item's last explicit interval, so credit can postpone a
review by at most half a step of the schedule the item's own explicit reviews support, and it
never rates the card: FSRS's memory state moves only on explicit outcomes.
"""

MAX_SHARE = 0.5
KIND_LEVEL_LIKELIHOOD = 0.5


def mistake_likelihood(
    *,
    mistake: str,
    kind_mistakes: frozenset[str] | tuple[str, ...],
    target: str | None,
    kind_level: bool,
) -> float:
    """Return how likely the item's ``mistake`` was to show on a problem whose generator aimed
    at ``target`` (None: untargeted), among the kind's catalogued ``kind_mistakes``; 0 when the
    problem could not show it."""
    if kind_level:
        return KIND_LEVEL_LIKELIHOOD
    if mistake not in kind_mistakes:
        return 0.0
    if target == mistake:
        return 1.0
    return 1.0 / len(kind_mistakes)


def evidence_share(*, reps: int, lapses: int, likelihood: float) -> float:
    """Return the share (0 to ``MAX_SHARE``) of the item's last explicit interval that a right
    first try postpones it by, given how likely its mistake was on the problem."""
    if not 0 <= likelihood <= 1:
        raise ValueError(f"a likelihood lies in [0, 1]: {likelihood}")
    if reps < 0 or lapses < 0:
        raise ValueError("reps and lapses are counts")
    recurrence = min(1.0, (lapses + 1) / (reps + 1))
    return MAX_SHARE * recurrence * likelihood
