"""Submit a learner's answer from a web request: the one answer flow of a practice problem and
of a review variant (practice's and review's views both call it)."""

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext as _

from practice import services
from practice.forms import AnswerForm
from practice.models import Attempt, ProblemInstance


def answer_submit(
    request: HttpRequest, problem: ProblemInstance, form: AnswerForm
) -> Attempt | None:
    """Submit a valid answer form to the problem (a practice problem or a review variant).

    Returns None, with a message for the learner, when the problem is closed (solved or
    replaced) and the answer was not recorded.
    """
    try:
        return services.attempt_submit(
            copy=problem.copy,
            problem=problem,
            text=form.cleaned_data["text"],
            token=form.cleaned_data["token"],
        )
    except services.ProblemClosedError:
        messages.info(request, _("This problem is closed; your answer was not recorded."))
        return None
