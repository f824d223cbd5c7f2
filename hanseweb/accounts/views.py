from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from hanseweb import throttle
from hanseweb.mail.outbox import absolute, queue_mail

from .forms import ProfileForm, SignupForm
from .models import User, name_taken_message
from .tokens import confirmation_tokens, user_id_from_unsubscribe_token


def safe_next(request, value) -> str:
    """``value`` if it is a path on this site (where to go after signing up or logging in: an
    invitation link, a game), else ""."""
    from django.utils.http import url_has_allowed_host_and_scheme

    value = (value or "").strip()
    if value.startswith("/") and url_has_allowed_host_and_scheme(value, allowed_hosts={request.get_host()},
                                                                  require_https=request.is_secure()):
        return value
    return ""


def send_confirmation(user: User, next_path: str = "") -> None:
    """The confirmation mail; ``next_path`` (an invitation link the newcomer came by) rides along
    in the link, so the invitation survives sign-up even in another browser (``confirm``)."""
    from urllib.parse import urlencode

    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = confirmation_tokens.make_token(user)
    url = absolute(reverse("confirm", args=[uid, token]))
    if next_path:
        url += "?" + urlencode({"next": next_path})
    queue_mail(
        to=user.email,
        template="accounts/mail/confirm",
        context={"user": user, "confirm_url": url},
        kind="confirm",
    )


def send_account_exists(user: User) -> None:
    """Someone signed up with the address of an existing account: tell its owner, with a link to
    choose a new password (which also confirms an address that was never confirmed)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    queue_mail(
        to=user.email,
        template="accounts/mail/account_exists",
        context={"user": user, "login_url": absolute(reverse("login")),
                 "reset_url": absolute(reverse("password_reset_confirm", args=[uid, token]))},
        kind="account_exists",
    )


@ratelimit(group="signup", key="ip", rate=throttle.rate("signup_per_ip"), method="POST")
def signup(request):
    """The same answer for a new address and for one that has an account (nothing tells which
    addresses have accounts); the mail differs: a confirmation, or "you have an account"."""
    next_path = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    if request.user.is_authenticated:
        return redirect(next_path or "lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        mail_allowed = throttle.allowed("account_mail_per_address", email)
        existing = User.objects.filter(email__iexact=email).first()
        if existing is None:
            try:
                with transaction.atomic():
                    user = form.save()
                    if mail_allowed:
                        send_confirmation(user, next_path)
            except IntegrityError:  # the same address (or display name) signed up at the same moment
                existing = User.objects.filter(email__iexact=email).first()
                if existing is None:
                    form.add_error("display_name", name_taken_message())
                    return render(request, "accounts/signup.html", {"form": form})
        if existing is not None:
            make_password(form.cleaned_data["password1"])  # the same work (and time) as a new account
            if mail_allowed:
                with transaction.atomic():
                    send_account_exists(existing)
        return render(request, "accounts/signup_done.html", {"email": email})
    from urllib.parse import urlencode

    return render(request, "accounts/signup.html", {
        "form": form, "next": next_path, "next_query": "?" + urlencode({"next": next_path}) if next_path else ""})


class ConfirmForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("The password you chose when signing up"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password", "autofocus": True}))

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not the password chosen at sign-up. If you did not sign up "
                                          "yourself, or do not remember it, choose your own password below."))
        return password


def confirm(request, uidb64, token):
    """The link of the confirmation mail. Following it proves the mailbox, not who chose the
    password: someone else may have signed up with this address. So the account is activated
    only by whoever proves both: the password chosen at sign-up, typed here, or a new password
    chosen through the link this page gives (``password_reset_confirm``, which also confirms), which
    ends the other password."""
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (User.DoesNotExist, ValueError, TypeError, OverflowError):
        user = None
    if user is None or not confirmation_tokens.check_token(user, token):
        return render(request, "accounts/confirm_failed.html", status=400)
    form = ConfirmForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user.is_active = True
        user.email_confirmed = True
        user.save(update_fields=["is_active", "email_confirmed"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Your address is confirmed. Welcome to Hanseweb!"))
        next_path = safe_next(request, request.GET.get("next"))
        if next_path:
            # the invitation the newcomer signed up by (a game's or a club's join link): accepted now,
            # so they are at the table or in the club (hooks kind "accept_invitation")
            from hanseweb import hooks

            for accept, _label in hooks.callables("accept_invitation"):
                response = accept(request, next_path)
                if response is not None:
                    return response
            return redirect(next_path)
        return redirect("lobby")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    choose_url = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])
    return render(request, "accounts/confirm.html", {"form": form, "choose_url": choose_url, "email": user.email})


@login_required
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        if "language" in form.changed_data:  # the page that follows is in the new language
            translation.activate(request.user.language)
        messages.success(request, _("Profile saved."))
        return redirect("profile")
    from . import vacation

    return render(request, "accounts/profile.html", {
        "form": form, "away": vacation.is_away(request.user), "vacation_left": vacation.days_left(request.user),
        "vacation_max": vacation.MAX_DAYS, "vacation_notes": vacation.notes(request.user)})


@login_required
@require_POST
def vacation_view(request):
    """Go on vacation for ``days`` days, or come back (``back``): the profile page's form."""
    from . import vacation

    try:
        if request.POST.get("back"):
            user = vacation.end(request.user)
            messages.success(request, ngettext("Welcome back. %(days)d vacation day is left this year.",
                                               "Welcome back. %(days)d vacation days are left this year.",
                                               vacation.days_left(user)) % {"days": vacation.days_left(user)})
        else:
            raw = str(request.POST.get("days", "")).strip()
            if not raw.isdigit() or len(raw) > 4:
                raise vacation.VacationError(_("Give the number of days of your vacation (for example 5)."))
            user = vacation.start(request.user, int(raw))
            messages.success(request, _("You are on vacation until %(until)s; your deadlines wait for you.")
                             % {"until": date_format(timezone.localtime(user.vacation_until), _("D j M Y, H:i e"))})
            for note in vacation.notes(user):  # a league's cap or ban
                messages.warning(request, note)
    except vacation.VacationError as exc:
        messages.error(request, str(exc))
    return redirect("profile")


@csrf_exempt  # one-click unsubscribe (RFC 8058) posts without a session; the token is the proof
def unsubscribe(request, token):
    user_id = user_id_from_unsubscribe_token(token)
    if user_id is None:
        return render(request, "accounts/unsubscribe.html", {"ok": False}, status=400)
    if request.method == "POST":
        User.objects.filter(pk=user_id).update(notify=User.NOTIFY_OFF)
        if request.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded") and \
                request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse("unsubscribed", content_type="text/plain")
        throttle.accepted(request)
        return render(request, "accounts/unsubscribe.html", {"ok": True, "done": True})
    return render(request, "accounts/unsubscribe.html", {"ok": True, "done": False})
