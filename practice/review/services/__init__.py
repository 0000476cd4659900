"""Write paths for spaced review, one module per sub-domain; each service owns its transaction.

- ``review_settings``: a learner's settings (get or create, update) and the unsubscribe link;
- ``cards``: rating an item's FSRS card and appending its log, or moving its due date by credit;
- ``recording``: scheduling review from a graded attempt (inside the attempt's transaction);
- ``credit``: implicit and graph credit from a right first try (evidence, a share of an interval);
- ``revealing``: a worked solution shown, as an explicit outcome of the kind's item;
- ``variants``: drawing and storing a fresh variant aimed at an item's mistake;
- ``publishing``: the beat scan that claims due items for the workers;
- ``digest``: the daily reminder email;
- ``export``: the copy's review data as JSON;
- ``parameters``: fitting FSRS parameter sets from explicit outcomes, and adopting them;
- ``calibration``: scoring stored predicted recall against explicit outcomes (the weekly report);
- ``recall_maps``: the weekly calibration map of predicted recall, adopted on held-out reviews.

Pure reads (the due queue, counts, lookups) are in ``practice.review.selectors``.
"""
