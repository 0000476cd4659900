"""Today's practice: the Continue redirect and the daily goal form. A few lines each."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from courses.selectors import access_copy
from practice.models import DailyGoal

from .forms import DailyGoalForm
from .selectors import next_step
from .services import daily_goal_set


@login_required
@require_GET
def continue_view(request: HttpRequest, copy_id: int) -> HttpResponse:
    """Go to the next thing worth doing in the copy (see ``selectors.next_step``)."""
    copy = access_copy(user=request.user, copy_id=copy_id)
    return redirect(next_step(copy=copy).url)


@login_required
@require_http_methods(["GET", "POST"])
def goal(request: HttpRequest) -> HttpResponse:
    """Show and set the learner's daily goal."""
    if request.method == "POST":
        form = DailyGoalForm(request.POST)
        if form.is_valid():
            daily_goal_set(user=request.user, **form.cleaned_data)
            messages.success(request, _("Your daily goal is saved."))
            return redirect("courses:dashboard")
    else:
        current = DailyGoal.objects.filter(user=request.user).first()
        initial = {"unit": current.unit, "amount": current.amount} if current else {}
        form = DailyGoalForm(initial=initial or {"unit": DailyGoal.Unit.PROBLEMS, "amount": 5})
    status = 400 if form.is_bound else 200
    return render(request, "practice/goal.html", {"form": form}, status=status)
