"""Write paths for spaced review, one module per sub-domain; each service owns its transaction.

- ``review_settings``: a learner's settings (get or create, update) and the unsubscribe link;
- ``cards``: rating an item's FSRS card and appending its log;
- ``recording``: scheduling review from a graded attempt (inside the attempt's transaction);
- ``variants``: drawing and storing a fresh variant aimed at an item's mistake;
- ``publishing``: the beat scan that claims due items for the workers;
- ``digest``: the daily reminder email;
- ``export``: the copy's review data as JSON.

Pure reads (the due queue, counts, lookups) are in ``practice.review.selectors``.
"""
