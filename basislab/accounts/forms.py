"""The sign-up form (username, email and the password twice), the password reset form, and the
account settings' forms that ask for the password again (email change, account deletion)."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
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


class PasswordCheckForm(forms.Form):
    """Ask for the signed-in learner's password again before an action that cannot be undone."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: object, user: AbstractBaseUser, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """Refuse a password that is not this account's."""
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="password_wrong")
        return password


class EmailChangeForm(PasswordCheckForm):
    """A new email address and the password: the change waits for a link sent to the address."""

    new_email = forms.EmailField(
        label=_("New email address"),
        help_text=_("A link is sent there; the address changes when it is opened."),
    )
    field_order = ["new_email", "password"]

    def clean_new_email(self) -> str:
        """Refuse the current address and one another account already uses."""
        email = self.cleaned_data["new_email"].strip()
        if email.casefold() == (self.user.email or "").casefold():
            raise forms.ValidationError(_("That is already your address."), code="same")
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this email already exists."), code="taken"
            )
        return email
