from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, SetPasswordForm

from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from hanseweb.names import NameField

from .models import User, name_taken, name_taken_message


class DisplayNameMixin:
    """The display name: visible characters only (``hanseweb.names``) and unique per site, case-
    and confusable-insensitive."""

    def clean_display_name(self):
        name = self.cleaned_data["display_name"]
        if name_taken(name, self.instance.pk):
            raise forms.ValidationError(name_taken_message(), code="name_taken")
        return name


class SignupForm(DisplayNameMixin, forms.ModelForm):
    display_name = NameField(label=capfirst(User._meta.get_field("display_name").verbose_name), max_length=40)
    password1 = forms.CharField(label=_("Password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=_("Password again"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    class Meta:
        model = User
        fields = ["email", "display_name"]

    def clean_email(self):
        # An address that has an account already is not an error here: the page must not tell
        # who has an account. The view mails that address instead (see views.signup).
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self):
        pass  # an address with an account is handled by the view, without telling (see clean_email)

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("The two passwords differ."))
        if p1:
            user = User(email=cleaned.get("email", ""), display_name=cleaned.get("display_name", ""))
            try:
                password_validation.validate_password(p1, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return cleaned

    def save(self, commit=True):
        from hanseweb.i18n import supported

        user = super().save(commit=False)
        user.set_password(self.cleaned_data["password1"])
        user.language = supported(translation.get_language()) or user.language  # the page's language
        user.time_zone = _browser_zone()  # the browser's (hanseweb/timezones.py), or "" until it tells
        user.is_active = False  # until the address is confirmed
        if commit:
            user.save()
        return user


def _browser_zone() -> str:
    from django.utils import timezone

    from hanseweb.timezones import valid

    current = timezone.get_current_timezone()
    return "" if current is timezone.get_default_timezone() else valid(getattr(current, "key", ""))


class LoginForm(AuthenticationForm):
    username = forms.EmailField(label=_("Email address"), widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}))

    error_messages = {
        **AuthenticationForm.error_messages,
        "inactive": _("This account is not confirmed yet: follow the link in the confirmation email."),
    }

    def clean(self):
        try:
            return super().clean()  # authenticate(): counted by the login lockout (axes)
        except forms.ValidationError:
            email = self.cleaned_data.get("username")
            password = self.cleaned_data.get("password")
            # Explain an unconfirmed account only to whom knows its password, and not during a
            # lockout (the password is not checked then).
            if email and password and not getattr(self.request, "axes_locked_out", False):
                user = User.objects.filter(email__iexact=email).first()
                if user and not user.is_active and not user.email_confirmed and user.check_password(password):
                    raise forms.ValidationError(self.error_messages["inactive"], code="inactive") from None
            raise


class ProfileForm(DisplayNameMixin, forms.ModelForm):
    display_name = NameField(label=capfirst(User._meta.get_field("display_name").verbose_name), max_length=40)

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "notify", "digest_hour"]
        widgets = {"notify": forms.RadioSelect}
        labels = {"notify": _("Game emails"), "digest_hour": _("Hour of the daily digest"),
                  "language": _("Language of pages and emails"), "time_zone": _("Your time zone")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["digest_hour"].required = False  # only the digest uses it; kept when not sent
        self.fields["language"].required = False  # kept when not sent
        from hanseweb.timezones import names

        # deadlines and the digest hour are shown in it (hanseweb/timezones.py); kept when not sent
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Your time zone"), required=False,
            choices=[("", _("As my browser says"))] + [(n, n.replace("_", " ")) for n in sorted(names())])

    def clean_language(self):
        return self.cleaned_data.get("language") or self.instance.language

    def clean_time_zone(self):
        if "time_zone" not in self.data:  # not sent: kept
            return self.instance.time_zone
        return self.cleaned_data.get("time_zone") or ""  # empty: the browser's again (its next request)

    def clean_digest_hour(self):
        hour = self.cleaned_data.get("digest_hour")
        return self.instance.digest_hour if hour in (None, "") else hour


class QueuedPasswordResetForm(PasswordResetForm):
    """Password reset whose mail goes through the outbox (sent by a worker, not in the request),
    at most ``HANSEWEB_RATES["account_mail_per_address"]`` to one address."""

    def get_users(self, email):
        """Active accounts, and accounts never confirmed: choosing a password from the mailed
        link confirms them (ConfirmingSetPasswordForm). Not accounts an admin deactivated."""
        for user in User.objects.filter(email__iexact=email.strip()):
            if user.has_usable_password() and (user.is_active or not user.email_confirmed):
                yield user

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        from hanseweb.mail.outbox import queue_mail
        from hanseweb.throttle import allowed

        if not allowed("account_mail_per_address", to_email):
            return  # the page says the same either way: nothing tells a flood it was cut
        queue_mail(to=to_email, template="accounts/mail/password_reset", context=context,
                   kind="password_reset")


class ConfirmingSetPasswordForm(SetPasswordForm):
    """Choosing a new password from a link mailed to the address also confirms that address (and
    activates an account that was waiting for its confirmation)."""

    def save(self, commit=True):
        user = super().save(commit=False)
        if not user.email_confirmed:
            user.email_confirmed = True
            user.is_active = True
        if commit:
            user.save()
        return user
