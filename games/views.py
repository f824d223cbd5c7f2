from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.views.decorators.http import require_POST

from . import presentation, services
from .forms import CreateGameForm, MoveForm, SeatOptionsForm
from .models import Game, Move


def lobby(request):
    open_games = Game.objects.filter(status=Game.OPEN, listed=True).prefetch_related("seats__user")
    context = {}
    if request.user.is_authenticated:
        open_games = open_games.exclude(seats__user=request.user)
        mine = (
            Game.objects.filter(seats__user=request.user)
            .prefetch_related("seats__user")
            .order_by("-last_move_at", "-created_at")
        )
        running, waiting, finished = [], [], []
        for game in mine[:200]:
            seat = services.seat_of(game, request.user)
            row = {"game": game, "seat": seat, "names": presentation.player_names(game),
                   "my_turn": game.status == Game.RUNNING and seat.number in (game.to_act or []) and not seat.resigned}
            {Game.RUNNING: running, Game.OPEN: waiting, Game.FINISHED: finished}[game.status].append(row)
        running.sort(key=lambda r: not r["my_turn"])
        context.update(running=running, waiting=waiting, finished=finished[:20])
    context["open_games"] = open_games[:50]
    context["watch_games"] = (
        Game.objects.filter(status=Game.RUNNING, listed=True)
        .exclude(seats__user=request.user if request.user.is_authenticated else None)
        .order_by("-last_move_at")[:20]
    )
    return render(request, "games/lobby.html", context)


@login_required
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
                seat_options=form.seat_options(),
            )
        except services.GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Game created. Share the join link below with the players you want.")
            return redirect(game)
    return render(request, "games/create.html", {"form": form})


def _game_context(request, game: Game) -> dict:
    engine = game.engine_obj
    seat = services.seat_of(game, request.user)
    names = presentation.player_names(game) if game.status != Game.OPEN else []
    context = {"game": game, "engine": engine, "seat": seat}
    if game.status == Game.OPEN:
        context["can_join"] = game.listed or request.session.get(_invite_key(game)) == game.invite_code
        context["join_form"] = SeatOptionsForm(engine=engine)
        context["joined"] = [s.user for s in sorted(game.seats.all(), key=lambda s: (s.joined_at, s.pk))]
        context["seat_positions"] = range(game.players)
        return context
    state = services.current_state(game)
    number = seat.number if seat else None
    view = engine.view(state, number)
    legal = engine.legal_moves(state, number) if (seat and not seat.resigned and game.status == Game.RUNNING) else []
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    colours = presentation.seat_colours(game.engine, game.players)
    by_n = services.moves_by_n(game)
    log = presentation.log_lines(view, names, since=None)
    for line in log:
        move = by_n.get(line["n"])
        line["at"] = move.created_at if move else None
        line["channel"] = move.get_channel_display() if move and move.channel != Move.WEB else ""
    context.update(
        view=view,
        names=names,
        players=[{"seat": s, "name": names[s.number], "colour": colours[s.number],
                  "to_act": s.number in view["to_act"]} for s in seats],
        waiting_for=[names[n] for n in view["to_act"]],
        svg=presentation.board_svg(game.engine, view, names, legal=legal),
        view_text=presentation.view_text(game.engine, view, names),
        legal=legal,
        legal_groups=_group(legal),
        can_undo=bool(legal) and services.can_undo(game, number),
        prompt=view.get("prompt", ""),
        log=list(reversed(log)),
        result_rows=_result_rows(game, names, colours),
        holdings_template=_existing_template(f"games/engines/{game.engine}.html"),
    )
    return context


def _existing_template(name: str) -> str | None:
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def _group(legal: list[str]) -> list[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = {}
    for move in legal:
        groups.setdefault(move.split(" ", 1)[0], []).append(move)
    return list(groups.items())


def _result_rows(game: Game, names, colours):
    result = game.result
    if not result:
        return []
    rows = []
    for i in range(game.players):
        rows.append({
            "name": names[i], "colour": colours[i], "place": result["ranking"][i],
            "score": result["scores"][i] if result.get("scores") else None,
            "breakdown": (result.get("breakdown") or [None] * game.players)[i],
            "resigned": i in result.get("resigned", []),
        })
    return sorted(rows, key=lambda r: r["place"])


def game_page(request, pk):
    game = get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=pk)
    context = _game_context(request, game)
    return render(request, "games/game.html", context)


def game_status(request, pk):
    """Tiny JSON for the page's 'something happened' check (public facts only)."""
    game = get_object_or_404(Game, pk=pk)
    return JsonResponse({"move_count": game.move_count, "status": game.status, "seats": game.seats.count()})


@login_required
@require_POST
def submit_move(request, pk):
    game = get_object_or_404(Game, pk=pk)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.problem())
        return redirect(game)
    try:
        services.submit_move(game.pk, request.user, form.cleaned_data["move"], expected_seq=form.cleaned_data["seq"])
    except services.GameError as exc:
        messages.error(request, str(exc))
    return redirect(f"{game.get_absolute_url()}#play")


@login_required
@require_POST
def start(request, pk):
    """The creator's seat order: one select per seat, each naming a player."""
    game = get_object_or_404(Game, pk=pk)
    try:
        order = [int(request.POST.get(f"seat_{i}", "")) for i in range(game.players)]
    except ValueError:
        messages.error(request, "Choose a player for every seat.")
        return redirect(game)
    try:
        services.start_game(game.pk, request.user, order)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "The game has started!")
    return redirect(game)


@login_required
@require_POST
def join(request, pk):
    game = get_object_or_404(Game, pk=pk)
    form = SeatOptionsForm(request.POST, engine=game.engine_obj)
    if not form.is_valid():
        messages.error(request, "Please choose your settings again.")
        return redirect(game)
    try:
        services.join_game(game.pk, request.user, seat_options=form.seat_options(),
                           invite_code=request.session.get(_invite_key(game)))
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        game.refresh_from_db()
        messages.success(request, "You have joined." + (" The game has started!" if game.status == Game.RUNNING else ""))
    return redirect(game)


def _invite_key(game: Game) -> str:
    return f"invite_{game.pk}"


def join_by_code(request, code):
    """The join link: remembers the code in the session, so the game page offers to join."""
    game = Game.objects.filter(invite_code=code).first()
    if game is None:
        raise Http404("No game has this join link.")
    request.session[_invite_key(game)] = code
    if services.seat_of(game, request.user) is None:
        if game.status == Game.FINISHED:
            messages.warning(request, "This game is over, so it cannot be joined; you can look at how it went.")
        elif game.status == Game.RUNNING:
            messages.warning(request, "This game is full: it has started with all its players. You can watch it.")
        elif game.seats.count() >= game.players:
            messages.warning(request, "This game is full: every seat is taken.")
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
        messages.error(request, "Tick the box to confirm that you want to resign.")
        return redirect("game", pk=pk)
    try:
        services.resign(pk, request.user)
    except services.GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "You have resigned.")
    return redirect("game", pk=pk)
