"""The table talk's forms (games.chat does the work): post, hide, notes, mute, older messages.

No stale check (a message does not depend on the position), CSRF as every POST, throttled per
account in ``games.chat`` (so the page, mail replies and the API share one limit)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import chat
from .models import Game


def _back(pk, anchor="chat"):
    return redirect(f"{reverse('game', args=[pk])}#{anchor}")


@login_required
@require_POST
def post(request, pk):
    try:
        chat.post(pk, request.user, request.POST.get("text", ""))
    except chat.ChatError as exc:
        messages.error(request, str(exc))
    return _back(pk)


@login_required
@require_POST
def hide(request, pk, message_id):
    try:
        chat.hide(pk, message_id, request.user, request.POST.get("reason", ""))
    except chat.ChatError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The message is hidden; the players can see who hid it and why."))
    return _back(pk)


@login_required
@require_POST
def note(request, pk):
    try:
        chat.save_note(pk, request.user, request.POST.get("text", ""))
    except chat.ChatError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Your notes are saved."))
    return _back(pk, "notes")


@login_required
@require_POST
def mute(request, pk):
    muted = request.POST.get("muted") == "1"
    try:
        chat.set_muted(pk, request.user, muted)
    except chat.ChatError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The chat is left out of your mails for this game.") if muted
                         else _("Your mails for this game include the chat again."))
    return _back(pk)


def history(request, pk):
    """Older chat messages, a page at a time (``before``: a message id)."""
    game = get_object_or_404(Game.objects.only("pk", "title", "status", "listed"), pk=pk)
    if game.status == Game.OPEN:
        raise Http404("This game has not started.")
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    context = chat.page_context(pk, request.user, before_id=before)
    return render(request, "games/chat_history.html", {"game": game, **context})
