"""The deep-linking choice: one page, or one idea of a page, of the instructor's course copy."""

from django import forms
from django.utils.translation import gettext_lazy as _

from courses.models import Idea, Page

from .models import ResourceLink


class DeepLinkForm(forms.Form):
    """Pick ``page:<slug>`` or ``idea:<page slug>/<idea slug>`` among the copy's pages."""

    target = forms.ChoiceField(
        label=_("What the link opens"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Pick a page or an idea for the link.")},
    )

    def __init__(self, *args: object, pages: list[Page], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._pages = {page.slug: page for page in pages}
        choices: list[tuple[str, str]] = []
        for page in pages:
            choices.append((f"page:{page.slug}", _("Page: %(title)s") % {"title": page.title}))
            for idea in page.ideas.all():
                if idea.problem_kinds:
                    choices.append(
                        (
                            f"idea:{page.slug}/{idea.slug}",
                            _("Idea: %(title)s") % {"title": idea.title},
                        )
                    )
        self.fields["target"].choices = choices
        # Nothing is preselected (a link placed by an unread default is a wrong link in a
        # gradebook), unless there is only one thing to place.
        if len(choices) == 1 and not self.is_bound:
            self.initial["target"] = choices[0][0]

    def chosen(self) -> tuple[Page, Idea | None]:
        """Return the chosen page and idea (None for a whole page); call after is_valid()."""
        kind, _sep, value = self.cleaned_data["target"].partition(":")
        if kind == "page":
            return self._pages[value], None
        page_slug, _sep, idea_slug = value.partition("/")
        page = self._pages[page_slug]
        return page, page.ideas.get(slug=idea_slug)


Target = ResourceLink.Target
COURSE_CHOICE = Target.COURSE.value


class LinkTargetForm(DeepLinkForm):
    """What a plain link shows: the whole course, a page, or an idea; the link's current
    target preselected (nothing for a link not set up yet)."""

    def __init__(self, *args: object, pages: list[Page], current: str = "", **kwargs: object):
        super().__init__(*args, pages=pages, **kwargs)
        field = self.fields["target"]
        field.label = _("What the link shows")
        field.error_messages["required"] = _("Pick the whole course, a page or an idea.")
        field.choices = [(COURSE_CHOICE, _("The whole course")), *field.choices]
        self.initial["target"] = current or None

    def chosen_target(self) -> tuple[str, Page | None, Idea | None]:
        """Return (target, page, idea) as ``ResourceLink.Target`` names them; after is_valid()."""
        if self.cleaned_data["target"] == COURSE_CHOICE:
            return Target.COURSE, None, None
        page, idea = self.chosen()
        return (Target.IDEA if idea is not None else Target.PAGE), page, idea


def link_choice(*, target: str, page_slug: str, idea_slug: str) -> str:
    """Return the form's value for a link's stored target ("" for none)."""
    if target == Target.COURSE:
        return COURSE_CHOICE
    if target == Target.IDEA:
        return f"idea:{page_slug}/{idea_slug}"
    if target == Target.PAGE:
        return f"page:{page_slug}"
    return ""
