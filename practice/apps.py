import gc

from django.apps import AppConfig


class PracticeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "practice"
    verbose_name = "Practice"

    def ready(self) -> None:
        """Load the grading engine now and take start-up objects out of the collector's reach.

        SymPy (through grading) and NumPy leave ~150 000 long-lived objects; every full garbage
        collection walks them all, which added tens of milliseconds to whichever request
        happened to trigger it (measured: 383 ms of collection over 50 submit requests, 5 ms
        once frozen). ``gc.freeze`` moves everything alive now to a permanent generation.
        """
        import grading  # noqa: F401
        import practice.generators  # noqa: F401

        gc.collect()
        gc.freeze()
