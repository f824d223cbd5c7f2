"""The profile page's API token forms: make a token (shown once), revoke one."""
import unicodedata

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from hanseweb import throttle

from .models import MAX_LIVE_TOKENS, ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60,
                           help_text=gettext_lazy("What the token is for, e.g. the name of your bot or app."))

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name or any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") for c in name):
            raise forms.ValidationError(_("Give the token a name of plain text."))
        return name


@login_required
@require_POST
@never_cache
@ratelimit(group="api_token", key="user", rate=throttle.rate("api_token_per_user"), method="POST")
def create_token(request):
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["name"][0])
        return redirect("profile")
    if request.user.api_tokens.filter(revoked_at__isnull=True).count() >= MAX_LIVE_TOKENS:
        messages.error(request, _("You have %(count)d API tokens already: revoke one you no longer use first.")
                       % {"count": MAX_LIVE_TOKENS})
        return redirect("profile")
    row, token = ApiToken.issue(request.user, form.cleaned_data["name"])
    throttle.accepted(request)
    # The token is shown on this response only (never stored, never cached): no redirect.
    return render(request, "api/token_created.html", {"row": row, "token": token})


@login_required
@require_POST
@ratelimit(group="api_token", key="user", rate=throttle.rate("api_token_per_user"), method="POST")
def revoke_token(request, pk):
    row = get_object_or_404(ApiToken, pk=pk, user=request.user)
    if row.revoked:
        messages.info(request, _("The token “%(name)s” was revoked already.") % {"name": row.name})
    else:
        row.revoke()
        messages.success(request, _("The token “%(name)s” is revoked: requests with it are refused from now on.")
                         % {"name": row.name})
    return redirect("profile")
