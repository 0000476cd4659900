"""Review item codes that name no catalogued mistake: such an item stands for the kind as a
whole and comes back as a fresh untargeted variant of the kind.

No kind's catalog may use these codes (``tests/review`` checks every registered kind).
"""

UNEXPLAINED = "unexplained"  # a wrong answer that no catalogued mistake explains
REVEALED = "revealed"  # the learner asked for the worked solution
KIND_LEVEL = frozenset({UNEXPLAINED, REVEALED})
