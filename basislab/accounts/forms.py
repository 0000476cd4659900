"""The sign-up form (username, email and the password twice) and the password reset form."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from basislab.site import site_domain, site_is_https


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Used only to reset a forgotten password and to send review reminders."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        """Refuse an address another account already uses (a reset mail must reach one person)."""
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class SiteUrlPasswordResetForm(PasswordResetForm):
    """Django's password reset form, whose emailed link is addressed by ``SITE_URL``.

    The request's ``Host`` header plays no part (see ``basislab.site``): every email the site
    sends is addressed the same way.
    """

    def save(self, **kwargs: object) -> None:
        kwargs["domain_override"] = site_domain()
        kwargs["use_https"] = site_is_https()
        super().save(**kwargs)
