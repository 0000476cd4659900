"""The deep-linking choice: one page, or one idea of a page, of the instructor's course copy."""

from django import forms
from django.utils.translation import gettext_lazy as _

from courses.models import Idea, Page


class DeepLinkForm(forms.Form):
    """Pick ``page:<slug>`` or ``idea:<page slug>/<idea slug>`` among the copy's pages."""

    target = forms.ChoiceField(label=_("What the link opens"), widget=forms.RadioSelect)

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

    def chosen(self) -> tuple[Page, Idea | None]:
        """Return the chosen page and idea (None for a whole page); call after is_valid()."""
        kind, _sep, value = self.cleaned_data["target"].partition(":")
        if kind == "page":
            return self._pages[value], None
        page_slug, _sep, idea_slug = value.partition("/")
        page = self._pages[page_slug]
        return page, page.ideas.get(slug=idea_slug)
