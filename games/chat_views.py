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
from .models import Game, Seat


def _back(pk, anchor="chat"):
    return redirect(f"{reverse('game', args=[pk])}#{anchor}")


def _done(request, pk, action, success: str | None = None, anchor: str = "chat"):
    """Run ``action()`` (a ``games.chat`` call); its refusal or ``success`` as the message shown
    back on the game page."""
    try:
        action()
    except chat.ChatError as exc:
        messages.error(request, str(exc))
    else:
        if success:
            messages.success(request, success)
    return _back(pk, anchor)


@login_required
@require_POST
def post(request, pk):
    return _done(request, pk, lambda: chat.post(pk, request.user, request.POST.get("text", "")))


@login_required
@require_POST
def hide(request, pk, message_id):
    return _done(request, pk, lambda: chat.hide(pk, message_id, request.user, request.POST.get("reason", "")),
                 _("The message is hidden; the players can see who hid it and why."))


@login_required
@require_POST
def note(request, pk):
    return _done(request, pk, lambda: chat.save_note(pk, request.user, request.POST.get("text", "")),
                 _("Your notes are saved."), anchor="notes")


@login_required
@require_POST
def mute(request, pk):
    muted = request.POST.get("muted") == "1"
    return _done(request, pk, lambda: chat.set_muted(pk, request.user, muted),
                 _("The chat is left out of your mails for this game.") if muted
                 else _("Your mails for this game include the chat again."))


def history(request, pk):
    """Older chat messages, a page at a time (``before``: a message id)."""
    game = get_object_or_404(Game.objects.only("pk", "title", "status", "listed"), pk=pk)
    if game.status == Game.OPEN:
        raise Http404("This game has not started.")
    from . import visibility

    if not visibility.may_see(pk, game.listed, Seat.objects.filter(game_id=pk).values_list("user_id", flat=True),
                              request.user):
        return visibility.refuse(request)
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    context = chat.page_context(pk, request.user, before_id=before)
    return render(request, "games/chat_history.html", {"game": game, **context})
