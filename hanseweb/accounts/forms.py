from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm

from .models import User


class SignupForm(forms.ModelForm):
    password1 = forms.CharField(label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    class Meta:
        model = User
        fields = ["email", "display_name"]

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email address exists already. Log in or reset the password.")
        return email

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", "The two passwords differ.")
        if p1:
            user = User(email=cleaned.get("email", ""), display_name=cleaned.get("display_name", ""))
            try:
                password_validation.validate_password(p1, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return cleaned

    def save(self, commit=True):
        user = super().save(commit=False)
        user.set_password(self.cleaned_data["password1"])
        user.is_active = False  # until the address is confirmed
        if commit:
            user.save()
        return user


class LoginForm(AuthenticationForm):
    username = forms.EmailField(label="Email address", widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}))

    error_messages = {
        **AuthenticationForm.error_messages,
        "inactive": "This account is not confirmed yet: follow the link in the confirmation email.",
    }

    def clean(self):
        email = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if email and password:
            user = User.objects.filter(email__iexact=email).first()
            if user and not user.is_active and user.check_password(password):
                raise forms.ValidationError(self.error_messages["inactive"], code="inactive")
        return super().clean()


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "notify"]
        widgets = {"notify": forms.RadioSelect}


class QueuedPasswordResetForm(PasswordResetForm):
    """Password reset whose mail goes through the outbox (sent by a worker, not in the request)."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        from hanseweb.mail.outbox import queue_mail

        queue_mail(to=to_email, template="accounts/mail/password_reset", context=context,
                   kind="password_reset")
