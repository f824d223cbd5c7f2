import functools
import hashlib
import re
from html import escape as html_escape
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db.models import Count
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from hanseweb import fastsql, pagecache, pageversion, throttle

from . import chat, export, history, holdings, notifications, presentation, replay, services, visibility
from . import marks as board_marks
from .forms import CreateGameForm, MoveForm, SeatOptionsForm
from .models import Game, Seat
from .engines import get_engine
from .templatetags.games_extras import deadline_text, time_left_texts


# Columns a view that does not show the board never loads (snapshot, undo step, setup events).
LARGE = ("state_cache", "undo_state", "setup_events", "options")  # lists and an open game need none of them


def _lobby_lists(uid: int | None):
    """The lobby's lists of others' games (``uid``: the viewer's id, None for a visitor): open
    games to join and running games to watch."""
    open_games = Game.objects.filter(status=Game.OPEN, listed=True).order_by("-created_at")
    watch = Game.objects.filter(status=Game.RUNNING, listed=True).order_by("-last_move_at")
    if uid is not None:
        open_games = open_games.exclude(seats__user_id=uid)
    watch = watch.exclude(seats__user=uid)  # a visitor: games with no empty seat (as before)
    return open_games, watch


def _lobby_parts(uid: int | None = None) -> list:
    """What the lobby shows that moves change, as values-list parts of its version
    (``pageversion``): the watched list (ids, move counts, order), and the viewer's seats with
    their games' statuses, move counts, who is to act, deadlines and last moves. The rest is in
    the scopes: ``"games"`` (a game created, joined, left, cancelled, started or finished; a seat
    resigned or taken over: the open list, the viewer's games and their players), ``"names"``.
    Titles, games and player counts never change once a game is made; the time left to a
    deadline is written into the page as it is served (``_time_left_in``)."""
    _open, watch = _lobby_lists(uid)
    parts = [watch.values_list("id", "move_count", "last_move_at")[:20]]
    if uid is not None:
        parts.append(Seat.objects.filter(user_id=uid).order_by()
                     .values_list("game_id", "number", "resigned", "game__status", "game__move_count",
                                  "game__to_act", "game__deadline_at", "game__last_move_at"))
    return parts


def _lobby_anonymous_parts() -> list:
    return _lobby_parts(None)


def _lobby_version(user) -> tuple:
    if user.is_authenticated:
        return pageversion.digest_of(_lobby_parts, user.pk)
    return pageversion.digest_of(_lobby_anonymous_parts)


def lobby(request):
    if not pagecache.enabled():
        return _time_left_in(_lobby(request))
    return _time_left_in(pagecache.respond(request, "lobby", functools.partial(_lobby, request),
                                           version=_lobby_version(request.user),
                                           scopes=("names", services.GAMES_SCOPE)))


_TIME_LEFT = re.compile(r'(<time datetime="([^"]+)" data-left>)[^<]*(</time>)')


def _time_left_in(response):
    """The time left to each deadline the page shows, as of now (a kept page was made earlier)."""
    if response.status_code != 200:
        return response
    html = response.content.decode()
    found = list(_TIME_LEFT.finditer(html))
    if not found:
        return response
    texts = time_left_texts([datetime.fromisoformat(m.group(2)) for m in found], timezone.now())
    pieces, at = [], 0
    for match, text in zip(found, texts):
        pieces += [html[at:match.end(1)], html_escape(text)]
        at = match.start(3)
    pieces.append(html[at:])
    response.content = "".join(pieces)
    return response


# A lobby row's columns (no snapshot, log, result or options): plain values, no model objects.
_LOBBY_ROW = ("id", "title", "engine", "players", "status", "move_count", "to_act", "deadline_at",
              "move_deadline_hours")


def _lobby(request):
    """The lobby's rows as plain values with their texts made here, once per row (a heavy
    player's lobby has a hundred and more rows: a template tag or filter a row cost more than
    the reads)."""
    user = request.user
    open_games, watch = _lobby_lists(user.pk if user.is_authenticated else None)
    url = _game_url()
    joined_text = _("%(joined)s/%(players)s joined")
    context = {}
    if user.is_authenticated:
        # the games being played and waiting (all of them: a player has few), and the last 20
        # finished: two reads through the player's seats, whatever the player's history holds
        seated = Seat.objects.filter(user=user).values("game_id")
        order = ("-last_move_at", "-created_at")
        mine = [*Game.objects.filter(pk__in=seated, status__in=[Game.RUNNING, Game.OPEN]).order_by(*order)
                .values_list(*_LOBBY_ROW),
                *Game.objects.filter(pk__in=seated, status=Game.FINISHED).order_by(*order)[:20]
                .values_list(*_LOBBY_ROW)]
        # the seats of these games as plain values (no seat or user objects): one query
        seats: dict[int, list[tuple]] = {}
        for game_id, *seat in (Seat.objects.filter(game_id__in=[g[0] for g in mine]).order_by()
                               .values_list("game_id", "number", "user_id", "resigned", "user__display_name",
                                            "user__email")):
            seats.setdefault(game_id, []).append(seat)
        to_act_text, by_text = _("to act: %(names)s"), _("by %(at)s")
        running, waiting, finished = [], [], []
        for pk, title, engine, players, status, _moves, to_act, deadline_at, _hours in mine:
            here = seats.get(pk, [])
            number, _user, resigned, *_name = next(s for s in here if s[1] == user.pk)
            # presentation.player_names from values: by seat number, the display name or the
            # address's local part
            names = [name or email.split("@")[0] for _n, _u, _r, name, email in
                     sorted((s for s in here if s[0] is not None), key=lambda s: s[0])]
            row = {"url": url(pk), "title": title}
            if status == Game.RUNNING:
                # who is to act (you first), and until when
                my_turn = number in (to_act or []) and not resigned
                row.update(meta=f"{get_engine(engine).name} · {', '.join(names)}", my_turn=my_turn, deadline_at=deadline_at)
                if not my_turn:
                    row["to_act"] = to_act_text % {"names": ", ".join(
                        names[n] for n in sorted(to_act or [], key=lambda n: n != number) if n < len(names))}
                if deadline_at is not None:
                    shown = timezone.localtime(deadline_at)
                    row.update(deadline=by_text % {"at": deadline_text(shown)}, deadline_iso=shown.isoformat())
                running.append(row)
            elif status == Game.OPEN:
                row["meta"] = f"{get_engine(engine).name} · " + joined_text % {"joined": len(here), "players": players}
                waiting.append(row)
            else:
                row["meta"] = f"{get_engine(engine).name} · {', '.join(names)}"
                finished.append(row)
        # your turn first; then by time left (no deadline last)
        far = timezone.now() + timedelta(days=36500)
        running.sort(key=lambda r: (not r["my_turn"], r["deadline_at"] or far))
        context.update(running=running, waiting=waiting, finished=finished[:20],
                       my_turns=sum(1 for r in running if r["my_turn"]))
    # open games show how many have joined: counted, not loaded with every seat and user
    hours_text = _("%(hours)s h per decision")
    context["open_games"] = [
        {"url": url(pk), "title": title,
         "meta": f"{get_engine(engine).name} · " + joined_text % {"joined": joined, "players": players}
                 + (" · " + hours_text % {"hours": hours} if hours else "")}
        for pk, title, engine, players, hours, joined in open_games.annotate(joined=Count("seats"))
        .values_list("id", "title", "engine", "players", "move_deadline_hours", "joined")[:50]]
    move_text = _("move %(n)s")
    context["watch_games"] = [
        {"url": url(pk), "title": title,
         "meta": f"{get_engine(engine).name} · " + ngettext("%(players)s player", "%(players)s players", players)
                 % {"players": players} + " · " + move_text % {"n": moves}}
        for pk, title, engine, players, moves in watch.values_list("id", "title", "engine", "players", "move_count")[:20]]
    return render(request, "games/lobby.html", context)


def _game_url():
    """A game's address by its id, reversed once per request (``Game.get_absolute_url``)."""
    head, _mark, tail = reverse("game", args=[987654321]).partition("987654321")
    return lambda pk: f"{head}{pk}{tail}"


@login_required
@ratelimit(group="create_game", key="user", rate=throttle.rate("create_game_per_user"), method="POST")
def create(request):
    slug = request.POST.get("engine") or request.GET.get("engine")
    form = CreateGameForm(request.POST if request.method == "POST" and "create" in request.POST else None, engine_slug=slug,
                          players_hint=request.POST.get("players") or request.GET.get("players"))
    if request.method == "POST" and "create" in request.POST and form.is_valid():
        try:
            game = services.create_game(
                creator=request.user, engine=form.cleaned_data["engine"], title=form.cleaned_data["title"],
                players=form.cleaned_data["players"], options=form.variant_options(), listed=form.cleaned_data["listed"],
                seat_order=form.cleaned_data["seat_order"], move_deadline_hours=form.cleaned_data["move_deadline_hours"],
                seat_options=form.seat_options(), bots=form.bots(),
            )
        except services.GameError as exc:
            form.add_error(None, str(exc))
        else:
            if game.status == Game.RUNNING:  # bots filled every other seat: nobody to invite
                messages.success(request, _("Practice game created: the bots have taken their seats and the game "
                                            "has begun."))
            else:
                messages.success(request, _("Game created. Share the join link below with the players you want."))
            return redirect(game)
    return render(request, "games/create.html", {"form": form})


def _game_context(request, game: Game) -> dict:
    engine = game.engine_obj
    seat = services.seat_of(game, request.user)
    names = presentation.player_names(game) if game.status != Game.OPEN else []
    context = {"game": game, "engine": engine, "seat": seat}
    if game.status == Game.OPEN:
        context["can_join"] = game.listed or request.session.get(_invite_key(game)) == game.invite_code
        # where a visitor goes after logging in or signing up: the join link itself, so that the
        # invitation survives (a new session, the confirmation mail opened in another browser)
        context["join_next"] = game.invite_url() if context["can_join"] else game.get_absolute_url()
        context["join_form"] = SeatOptionsForm(engine=engine)
        context["joined"] = [s.user for s in sorted(game.seats.all(), key=lambda s: (s.joined_at, s.pk))]
        context["seat_positions"] = range(game.players)
        return context
    state = services.current_state(game)
    number = seat.number if seat else None
    view = engine.view(state, number)
    if game.status != Game.RUNNING and view.get("to_act"):
        # a game ended by resignation or forfeit stops with a decision pending in its state: over
        # is over, nobody is to act (the players list, the text view, the board)
        view = {**view, "to_act": []}
    legal = engine.legal_moves(state, number) if (seat and not seat.resigned and game.status == Game.RUNNING) else []
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    marks = presentation.seat_marks(game.engine, game.players)
    log = history.recent(game, number, names)
    running = game.status == Game.RUNNING  # a finished game waits for nobody (even if its state still did)
    svg = presentation.board_svg(game.engine, view, names, legal=legal)
    marked = board_marks.recent(game, number)
    groups = presentation.move_groups(game.engine, view, legal, names)
    side_groups, board_groups = presentation.split_board_choices(groups, svg)
    context.update(
        view=view,
        names=names,
        players=[{"seat": s, "name": names[s.number], **marks[s.number],
                  "to_act": running and s.number in view["to_act"],
                  "away_until": _away_until(s.user.vacation_until, timezone.now())} for s in seats],
        waiting_for=[names[n] for n in view["to_act"]] if running else [],
        takeovers=_takeovers(game, names),
        svg=board_marks.mark_svg(svg, game.engine, view, marked),
        marked=_marked_context(marked, names, number, board_marks.marked_places(game.engine, view, marked)),
        view_text=presentation.view_text(game.engine, view, names),
        legal=legal,
        legal_groups=side_groups,
        board_groups=board_groups,
        board_choice_count=sum(len(g["moves"]) for g in board_groups),
        holdings=holdings.holdings(game.engine, view, names),
        can_undo=bool(legal) and services.can_undo(game, number),
        prompt=presentation.prompt_text(view),
        log=list(reversed(log.lines)),
        log_older=log.older,
        result_rows=_result_rows(game, names, marks),
        holdings_template=_existing_template(f"games/engines/{game.engine}.html"),
    )
    return context


def _marked_context(marked, names, viewer, drawn) -> dict:
    """What the page says about the marks on the board (and which log lines it marks)."""
    seat = marked.last_seat
    return {"seqs": marked.seqs, "last": bool(marked.last), "since": len(marked.since), "on_board": bool(drawn),
            "mover": names[seat] if seat is not None and seat < len(names) else "",
            "yours": seat is not None and seat == viewer}


@functools.lru_cache(maxsize=None)
def _existing_template(name: str) -> str | None:
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def _result_rows(game: Game, names, marks):
    result = game.result
    if not result:
        return []
    rows = []
    for i in range(game.players):
        rows.append({
            "name": names[i], **marks[i], "place": result["ranking"][i],
            "score": result["scores"][i] if result.get("scores") else None,
            "breakdown": (result.get("breakdown") or [None] * game.players)[i],
            "resigned": i in result.get("resigned", []),
            "forfeited": i in result.get("forfeited", []),
        })
    return sorted(rows, key=lambda r: r["place"])


def _takeovers(game: Game, names) -> list[dict]:
    """Who played a seat before whom (a league's replacement): [{"seat", "old", "new", "after"}]."""
    from .models import SeatTakeover

    return [{"seat": t.seat, "name": names[t.seat], "old": t.old_user.display_name,
             "new": t.new_user.display_name, "after": t.after_seq}
            for t in SeatTakeover.objects.filter(game_id=game.pk).select_related("old_user", "new_user")]


CSRF_SLOT = "<!--csrf-slot-->"
BODY_CONTEXT = ("game", "seat", "engine", "view", "names", "players", "waiting_for", "svg", "view_text", "legal", "legal_groups", "can_undo",
                "prompt", "log", "log_older", "result_rows", "takeovers", "board_groups", "board_choice_count", "holdings",
                "marked")


def _body_key(pk: int, invite_code: str, move_count: int, status: str, deadline_at, viewer,
              people: list[tuple]) -> str:
    """Everything a started game's page body shows depends on: the game's version (moves, status,
    deadline), who looks (seat number, or None for a spectator), the language, and the players'
    names, resignations and vacations (``people``: (number, display name, resigned, away until or
    None) per seat: going on or off vacation, or a vacation running out, is a new version). The invite code
    makes keys unique across databases that reuse primary keys."""
    digest = hashlib.blake2b(repr(sorted(people)).encode(), digest_size=8).hexdigest()
    # the deadline is shown in the reader's time zone with the time left (to the minute)
    deadline = f"{int(deadline_at.timestamp())}:{int(timezone.now().timestamp() // 60)}" if deadline_at else 0
    return (f"gamepage:7:{pk}:{invite_code}:{move_count}:{status}:{deadline}:"
            f"{'-' if viewer is None else viewer}:{get_language()}:{timezone.get_current_timezone_name()}:{digest}")


TOKEN_SLOT = "\x00csrf\x00"  # where a whole cached page takes the request's CSRF token (no page holds NUL)
NONCE_SLOT = "\x00nonce\x00"  # where a cached page or body takes the response's CSP nonce (settings)


def _nonce_out(request, html: str) -> str:
    """``html`` to be cached: this response's CSP nonce, if the page used it, as ``NONCE_SLOT``."""
    nonce = getattr(request, "_csp_nonce", None)
    return html.replace(nonce, NONCE_SLOT) if nonce else html


def _nonce_in(request, html: str) -> str:
    """A cached ``html`` with this response's CSP nonce in its slots (made only if it has one)."""
    return html.replace(NONCE_SLOT, str(request.csp_nonce)) if NONCE_SLOT in html else html


def _page_key(body_key: str, user, version: str, title: str, listed: bool) -> str:
    """A whole started game's page for one viewer: the body's key plus what the page around it
    shows (who is logged in, under which name; the self-refresh version; title; listing). The
    chat's version is kept in the value and compared on reading."""
    who = (user.pk, user.display_name) if user.is_authenticated else None
    digest = hashlib.blake2b(repr((who, version, title, listed)).encode(), digest_size=8).hexdigest()
    return f"gamewhole:1:{body_key}:{digest}"


def _away_until(until, now):
    """A seat's vacation end as part of the page's version: None unless the player is away now."""
    return until if until is not None and until > now else None


def _game_with_seats(pk) -> Game:
    """The game (without its large columns) and its seats with their users, in one query."""
    seats = list(Seat.objects.filter(game_id=pk).select_related("game", "user")
                 .defer(*(f"game__{name}" for name in LARGE[:3])))
    if not seats:  # every game has its creator's seat; none: there is no such game
        raise Http404(_("No such game."))
    game = seats[0].game
    services.set_seats(game, seats)
    return game


_VERSION = ("number", "user_id", "resigned", "user__display_name", "game__move_count", "game__status",
            "game__deadline_at", "game__invite_code", "game__title", "game__listed", "game__to_act",
            "user__vacation_until",
            "quiet_since_seq")  # last: the mail policy's debounce (not part of the page's version)


def _version_rows():
    return Seat.objects.filter(game_id=0).values_list(*_VERSION)  # its SQL is made once (fastsql.rows)


def game_page(request, pk):
    # What decides the page's version, read as plain values in one query (no models built).
    rows = fastsql.rows(_version_rows, [pk])
    if not rows:  # every game keeps its creator's seat; none: there is no such game
        raise Http404(_("No such game."))
    *_ignored, move_count, status, deadline_at, invite_code, title, listed, to_act, _until, _quiet = rows[0]
    if not listed:  # who may see it (docs/visibility.md); a listed game is public: no query
        invited = status == Game.OPEN and request.session.get(f"invite_{pk}") == invite_code
        if not visibility.may_see(pk, listed, [row[1] for row in rows], request.user, invited=invited):
            return visibility.refuse(request)
    version = _version(move_count, status, to_act, len(rows), sum(1 for row in rows if row[2]))
    if status == Game.OPEN:
        game = _game_with_seats(pk)
        return render(request, "games/game.html", {**_game_context(request, game), "title": game.title, "pk": pk,
                                                   "move_count": game.move_count, "seat_count": len(rows),
                                                   "version": version})
    # A started game's body is the same for every request of one viewer until the game changes:
    # it is rendered once per version and viewer (players reload and poll; spectators share it).
    uid = request.user.pk if request.user.is_authenticated else None
    viewer = next((number for number, user_id, *_rest in rows if user_id == uid), None)
    if uid is not None and any(row[1] == uid and row[-1] is not None for row in rows):
        notifications.mark_seen(pk, uid)  # mail policy: opening the page ends a debounce (only then an UPDATE)
    now = timezone.now()
    people = [(number, name, resigned, _away_until(until, now))
              for number, _uid, resigned, name, *_rest, until, _quiet in rows]
    seconds = settings.HANSEWEB_PAGE_CACHE_SECONDS
    body_key = _body_key(pk, invite_code, move_count, status, deadline_at, viewer, people)
    # A repeated view of the same version is the whole page from the cache (one cache round trip
    # with the chat's version), with this request's CSRF token put in its slots; on a miss, the
    # same round trip has brought the body if another request made it.
    refusal = request.session.pop(_refusal_key(pk), None) if uid is not None else None
    next_turn = request.session.pop(NEXT_TURN, None) if uid is not None and NEXT_TURN in request.session else None
    whole = (seconds and not request.GET and not len(messages.get_messages(request)) and refusal is None
             and next_turn is None)
    chat_version = body = None
    if whole:
        page_key = _page_key(body_key, request.user, version, title, listed)
        found = cache.get_many([page_key, chat.version_key(pk), body_key])
        chat_version = chat.current_version(pk, found.get(chat.version_key(pk)))
        kept = found.get(page_key)
        if kept is not None and kept[0] == chat_version:
            return HttpResponse(_nonce_in(request, kept[1].replace(TOKEN_SLOT, get_token(request))))
        body = found.get(body_key)
    elif seconds:
        body = cache.get(body_key)

    @functools.cache
    def full() -> dict:
        game = services.loaded(pk)
        if game is None:  # deleted since the version was read
            raise Http404(_("No such game."))
        return {**_game_context(request, game), "csrf_slot": mark_safe(CSRF_SLOT), "seat_count": game.players}

    same_version = True  # the body is of the version read above
    if body is None:
        context = full()
        game = context["game"]
        body = render_to_string("games/_game_body.html", context, request=request)
        if seconds:  # filed under the version it was made from (which may be newer than the rows above)
            people = [(s.number, s.user.display_name, s.resigned, _away_until(s.user.vacation_until, now))
                      for s in game.seats.all()]
            key = _body_key(pk, game.invite_code, game.move_count, game.status, game.deadline_at,
                            None if context["seat"] is None else context["seat"].number, people)
            cache.set(key, _nonce_out(request, body), seconds)
            same_version = key == body_key
        move_count, title = game.move_count, game.title
    token = get_token(request)
    csrf = format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
    body = _nonce_in(request, body).replace(CSRF_SLOT, csrf)
    refusal_top = None
    if refusal is not None:
        body, placed = _with_refusal(body, refusal)
        refusal_top = None if placed else refusal
    my_turn = status == Game.RUNNING and any(
        number == viewer and not resigned and number in (to_act or []) for number, _u, resigned, *_r in rows)
    context = {"title": title, "pk": pk, "move_count": move_count, "seat_count": len(rows), "version": version,
               "body": mark_safe(body), "csrf_token": token, "refusal": refusal_top, "my_turn": my_turn,
               "next_turn": next_turn,
               # table talk and notes: outside the cached body (a version of their own)
               **chat.page_context(pk, request.user, listed=listed, version=chat_version),
               "chat_version": chat_version or chat.current_version(pk)}
    # What the body was made from stays in the context, built only if something asks for it (tests).
    context.update({k: SimpleLazyObject(functools.partial(lambda k: full()[k], k)) for k in BODY_CONTEXT})
    response = render(request, "games/game.html", context)
    if whole and same_version:
        # kept only when made from the version read above (the body may be of a newer one)
        html = response.content.decode()
        cache.set(page_key, (chat_version, _nonce_out(request, html.replace(token, TOKEN_SLOT))),
                  min(seconds, chat.PAGE_SECONDS))
    return response


@ratelimit(group="game_export", key="ip", rate=throttle.rate("game_export_per_ip"), method=ratelimit.ALL)
def game_export(request, pk):
    """The game as JSON (docs/fairness.md): everything, seed included, once it is over; while it
    runs, only what the viewer may know (games.export)."""
    game = get_object_or_404(Game.objects.defer(*LARGE[:3]).prefetch_related("seats__user"), pk=pk)
    if game.status == Game.OPEN:
        raise Http404("This game has not started.")
    refused = visibility.check(request, game)
    if refused:
        return refused
    data = export.export_for(game, request.user)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'inline; filename="hanseweb-game-{game.pk}.json"'
    response["Cache-Control"] = "private, no-store" if game.status != Game.FINISHED else "public, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response


def game_status(request, pk):
    """Tiny JSON for the page's 'something happened' check (public facts only), in one query:
    the page polls it every few seconds and fetches its body only when ``version`` changed. The
    query is the game page's own version read (seats joined with their game and users, its SQL
    made once per process: ``fastsql.rows``)."""
    rows = fastsql.rows(_version_rows, [pk])
    if not rows:  # every game keeps its creator's seat; none: there is no such game
        raise Http404("No such game.")
    *_ignored, move_count, status, _deadline, invite_code, _title, listed, to_act, _until, _quiet = rows[0]
    seated = [row[1] for row in rows]
    mine = request.user.is_authenticated and request.user.pk in seated
    if not listed and not mine:  # the page's rule (docs/visibility.md)
        invited = status == Game.OPEN and request.session.get(f"invite_{pk}") == invite_code
        if not visibility.may_see(pk, listed, seated, request.user, invited=invited):
            raise Http404("No such game.")
    data = {"move_count": move_count, "status": status, "seats": len(rows),
            "version": _version(move_count, status, to_act, len(rows), sum(1 for row in rows if row[2]))}
    if status != Game.OPEN and (listed or mine):
        # the table talk's version (a cache read): the page fetches new chat lines when it changes.
        # Only for who may read the chat (a listed game's spectators, the players; moderators of
        # an invitation-only game see new lines on reload)
        data["chat"] = chat.current_version(pk)
    return JsonResponse(data)


def _version(move_count, status, to_act, seats, resigned) -> str:
    """What the page's self-refresh compares: a change means the page body may have changed."""
    return f"{move_count}:{status}:{','.join(map(str, to_act or []))}:{seats}:{resigned}"


def game_log(request, pk):
    """The whole log, a page of moves at a time, newest first, as the viewer may read it."""
    game = get_object_or_404(Game.objects.defer("state_cache", "undo_state").prefetch_related("seats__user"), pk=pk)
    if game.status == Game.OPEN:
        raise Http404(_("This game has not started."))
    refused = visibility.check(request, game)
    if refused:
        return refused
    seat = services.seat_of(game, request.user)
    try:
        before = int(request.GET["before"]) if request.GET.get("before") else None
    except ValueError:
        before = None
    window = history.recent(game, seat.number if seat else None, presentation.player_names(game),
                            before=before, limit=history.PAGE * 5)
    return render(request, "games/log.html", {"game": game, "seat": seat, "log": list(reversed(window.lines)),
                                              "takeovers": _takeovers(game, presentation.player_names(game)),
                                              "older": window.older, "newer": window.newer})


def game_replay(request, pk):
    """The game at move ``at`` (0: the setup), as the viewer saw it then: the board and the log
    drawn from the viewer's own view of the state after that move (a spectator's: the public
    view), so nobody sees in the past what they could not see then. At the end of a finished game
    that is the final view, which shows everything."""
    game = get_object_or_404(Game.objects.defer("state_cache", "undo_state").prefetch_related("seats__user"), pk=pk)
    if game.status == Game.OPEN:
        raise Http404(_("This game has not started."))
    refused = visibility.check(request, game)
    if refused:
        return refused
    seat = services.seat_of(game, request.user)
    number = seat.number if seat else None
    last = game.move_count
    try:
        at = max(0, min(int(request.GET.get("at", last)), last))
    except ValueError:
        at = last
    engine = game.engine_obj
    view = engine.view(replay.state_at(game, at), number)
    names = presentation.player_names(game)
    marks = presentation.seat_marks(game.engine, game.players)
    log = history.recent(game, number, names, before=at + 1, as_of=True)
    marked = board_marks.recent(game, number, end=at)
    seen = seat.seen_seq if seat is not None and seat.seen_seq < last else None
    steps = [("first", "« " + _("First"), 0), ("back", "◀ " + _("Back"), max(0, at - 1)),
             ("forward", _("Forward") + " ▶", min(last, at + 1)), ("last", _("Last") + " »", last)]
    return render(request, "games/replay.html", {
        "game": game, "seat": seat, "at": at, "last": last, "view": view, "names": names,
        "players": [{"name": names[i], **marks[i], "to_act": i in view.get("to_act", [])}
                    for i in range(game.players)],
        "svg": board_marks.mark_svg(presentation.board_svg(game.engine, view, names), game.engine, view, marked),
        "marked": _marked_context(marked, names, number, board_marks.marked_places(game.engine, view, marked)),
        "view_text": presentation.view_text(game.engine, view, names),
        "log": list(reversed(log.lines)),
        "steps": [{"name": n, "label": label, "at": to, "here": to == at} for n, label, to in steps],
        "since": seen,
    })


@login_required
@require_POST
def submit_move(request, pk):
    # the write path finds (and locks) the game itself: a missing game is its clear error
    game_url = reverse("game", args=[pk])
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.problem())
        return redirect(game_url)
    try:
        outcome = services.submit_move(pk, request.user, form.cleaned_data["move"], expected_seq=form.cleaned_data["seq"])
    except services.AlreadyMade as exc:  # a re-post of the move this seat just made: it stands
        messages.info(request, _already_made(pk, exc.move))
        return redirect(game_url)  # the message at the top, the board and the log below
    except services.GameError as exc:
        # shown where the eye is (inside "Your move", focused) by the next view of the page, with
        # what was typed put back (games/_refusal.html); counted as a refused post (throttle)
        throttle.refused(request)
        request.session[_refusal_key(pk)] = {
            "error": str(exc), "html": getattr(exc, "html", None), "typed": (request.POST.get("move") or "")[:200] if request.POST.get("typed") else ""}
    else:
        seat = services.seat_of(outcome.game, request.user)
        if outcome.game.status != Game.RUNNING or seat.number not in (outcome.game.to_act or []):
            # done here for now: the way on to the next game where it is this player's turn
            # (the page then has no "Your move": the jump to #play leaves it at the top, at the link)
            request.session[NEXT_TURN] = _next_turn(request.user, exclude=pk)
    return redirect(f"{game_url}#play")


NEXT_TURN = "next_turn"


def _next_turn(user, exclude: int) -> dict:
    """The player's running game where it is their turn with the least time left (none: {})."""
    rows = (Seat.objects.filter(user=user, resigned=False, game__status=Game.RUNNING).exclude(game_id=exclude)
            .values_list("number", "game_id", "game__title", "game__to_act", "game__deadline_at")[:500])
    mine = [(deadline, game_id, title) for number, game_id, title, to_act, deadline in rows if number in (to_act or [])]
    if not mine:
        return {}
    far = timezone.now() + timedelta(days=36500)
    deadline, game_id, title = min(mine, key=lambda r: (r[0] or far, r[1]))
    return {"pk": game_id, "title": title, "count": len(mine)}


def _refusal_key(pk) -> str:
    return f"refused_{pk}"


REFUSAL_SLOT = "<!--refusal-slot-->"


def _with_refusal(body: str, refusal: dict) -> tuple[str, bool]:
    """The body with a refused move's message inside "Your move" and the typed text back in the
    "Type a move" field (opened); False when the body has no "Your move" (no longer this viewer's
    decision: the message then goes at the top of the page)."""
    if REFUSAL_SLOT not in body:
        return body, False
    body = body.replace(REFUSAL_SLOT, render_to_string("games/_refusal.html", {"refusal": refusal}), 1)
    if refusal.get("typed"):
        body = (body.replace("<details class=\"type-move\" data-typed-slot>", "<details class=\"type-move\" data-typed-slot open>", 1)
                .replace("data-typed-value", format_html('value="{}"', refusal["typed"]), 1))
    return body, True


def _already_made(pk: int, move) -> str:
    """"Your move ... was already made": the move in words as the log names it."""
    try:
        game = services.loaded(pk)
        names = presentation.player_names(game)
        view = game.engine_obj.view(services.current_state(game), move.seat)
        label = presentation.move_label(game.engine, view, move.text, names)
    except Exception:  # noqa: BLE001 - the words are a courtesy; the move stands either way
        label = move.text
    return _("Your move “%(move)s” was already made (move %(seq)s); it stands. Nothing else was changed.") % {
        "move": label, "seq": move.seq}


@login_required
@require_POST
def start(request, pk):
    """The creator's seat order: one select per seat, each naming a player."""
    game = get_object_or_404(Game, pk=pk)
    try:
        order = [int(request.POST.get(f"seat_{i}", "")) for i in range(game.players)]
    except ValueError:
        messages.error(request, _("Choose a player for every seat."))
        return redirect(game)
    try:
        services.start_game(game.pk, request.user, order)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The game has started!"))
    return redirect(game)


@login_required
@require_POST
def join(request, pk):
    game = get_object_or_404(Game, pk=pk)
    form = SeatOptionsForm(request.POST, engine=game.engine_obj)
    if not form.is_valid():
        messages.error(request, _("Please choose your settings again."))
        return redirect(game)
    _join_and_say(request, game, seat_options=form.seat_options(), invite_code=request.session.get(_invite_key(game)))
    return redirect(game)


def _join_and_say(request, game: Game, *, seat_options=None, invite_code=None) -> None:
    """Seat the signed-in player at ``game`` and say how it went (a message on the next page)."""
    try:
        services.join_game(game.pk, request.user, seat_options=seat_options, invite_code=invite_code)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        game.refresh_from_db()
        messages.success(request, _("You have joined. The game has started!") if game.status == Game.RUNNING
                         else _("You have joined."))


def _invite_key(game: Game) -> str:
    return f"invite_{game.pk}"


def join_by_code(request, code):
    """The join link: remembers the code in the session, so the game page offers to join."""
    game = Game.objects.filter(invite_code=code).first()
    if game is None:
        raise Http404(_("No game has this join link."))
    request.session[_invite_key(game)] = code
    if services.seat_of(game, request.user) is None:
        if game.status == Game.FINISHED:
            messages.warning(request, _("This game is over, so it cannot be joined; you can look at how it went."))
        elif game.status == Game.RUNNING:
            messages.warning(request, _("This game is full: it has started with all its players. You can watch it."))
        elif game.seats.count() >= game.players:
            messages.warning(request, _("This game is full: every seat is taken."))
    return redirect(game)


def accept_invitation(request, path: str):
    """After confirming a new account (``accounts.views.confirm``): when ``path`` is a game's join
    link, the newcomer takes a seat (with the default seat settings) and lands at the table; None
    for any other path."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(path.split("?")[0])
    except Resolver404:
        return None
    if match.url_name != "join_by_code":
        return None
    game = Game.objects.filter(invite_code=match.kwargs.get("code")).first()
    if game is None:
        return None
    request.session[_invite_key(game)] = game.invite_code
    if game.status == Game.OPEN and services.seat_of(game, request.user) is None:
        _join_and_say(request, game, invite_code=game.invite_code)
    return redirect(game)


def _leave_open_game(action, done_message):
    @login_required
    @require_POST
    def view(request, pk):
        try:
            action(pk, request.user)
        except services.GameError as exc:
            messages.error(request, str(exc))
            return redirect("game", pk=pk)
        messages.success(request, done_message)
        return redirect("lobby")

    return view


leave = _leave_open_game(services.leave_game, "You have left the game.")
cancel = _leave_open_game(services.cancel_game, "The game was cancelled.")


@login_required
@require_POST
def resign(request, pk):
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that you want to resign."))
        return redirect("game", pk=pk)
    try:
        services.resign(pk, request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("You have resigned."))
    return redirect("game", pk=pk)


def rules(request, slug):
    """A title's rules in short (issue 24 item 10), in the reader's language: one template per
    title with its three languages (templates/games/rules/); linked from the game page and mails.
    ``?game=<id>`` adds a way back to that game."""
    from games.engines import available_slugs, get_engine

    if slug not in available_slugs():
        raise Http404(_("No such game."))
    back = None
    game_id = request.GET.get("game", "")
    if game_id.isdigit() and len(game_id) < 12:
        back = reverse("game", args=[int(game_id)])
    return render(request, "games/rules.html", {
        "engine": get_engine(slug), "summary": f"games/rules/{slug}.html", "lang": get_language(), "back": back})
