"""Today's practice: the one Continue step, the daily goal, days practised in a row, and the
progress pictures (review forecast, mistakes by week, ideas' levels, an item's history).

``selectors`` reads (nothing there writes); ``pictures`` draws SVG from plain data (no
Django); ``services`` holds the one write (the goal); ``views`` are the Continue redirect and
the goal form.
"""
