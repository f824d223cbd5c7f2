"""Club, league and season pages, and the organiser tools (every change through
``hanseweb.leagues.services``; every organiser action is logged there)."""
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import OuterRef, Q, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

from hanseweb import pagecache, throttle

from games.models import Game

from . import changes, feeds, forms, pairing, services
from .rows import GAME_LINE, game_rows, html_lines, local_minute, numbers, seats_of, url_of, user_name
from .standings import result_of
from .models import (Club, ClubInvite, Entry, League, Membership, OrganiserAction, Rating, RatingChange, Season,
                     Table, _engine_name)
from .services import LeagueError


def _viewer_role(request, club_field: str = "pk") -> Subquery:
    """The role of ``request.user`` in the club whose id is ``club_field`` of the rows, read with
    them (a page's first query also answers who may read it)."""
    return Subquery(Membership.objects.filter(club_id=OuterRef(club_field), user_id=request.user.pk)
                    .order_by().values("role")[:1])


def _league_reader(request, league, role=False):
    """The role of ``request.user`` in the league's club (None: not a member), or the answer for
    someone who may not read the league's pages: a public league's pages are for anyone
    (docs/visibility.md), a club league's for its members (a visitor: the login page). ``role``:
    as read already (``_viewer_role``)."""
    from django.contrib.auth.views import redirect_to_login

    if role is False:
        role = services.role_of(league.club, request.user)
    if role is None and not league.public:
        if not request.user.is_authenticated:
            return None, redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("This page is for the club's members: ask an organiser for an invitation link."))
    return role, None


def _member_or_403(club, user):
    role = services.role_of(club, user)
    if role is None:
        raise PermissionDenied(_("This page is for the club's members: ask an organiser for an invitation link."))
    return role


def shared_league_life(person, viewer) -> dict:
    """The part of a player's page (``hanseweb.players``) about leagues: the clubs ``viewer``
    shares with ``person`` (all of them for the player themself) and the seasons played there."""
    shared = Club.objects.filter(memberships__user=person)
    if person != viewer:
        shared = shared.filter(memberships__user=viewer)
    shared = shared.distinct()
    seasons = (Season.objects.filter(entries__user=person, league__club__in=shared)
               .select_related("league__club").order_by("-starts_at").distinct())
    return {"clubs": shared.order_by("name"), "seasons": seasons[:30]}


@login_required
def clubs(request):
    mine = Club.objects.filter(memberships__user=request.user).order_by("name")
    return render(request, "leagues/clubs.html", {"clubs": mine})


@login_required
@ratelimit(group="create_club", key="user", rate=throttle.rate("create_club_per_user"), method="POST")
def create_club(request):
    form = forms.ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(request.user, form.cleaned_data["name"],
                                        default_deadline_hours=form.cleaned_data["default_deadline_hours"])
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(club)
    return render(request, "leagues/form.html", {"form": form, "title": _("New club"), "submit": _("Create club")})


def join(request, code):
    """The club's invitation link. A visitor sees whose invitation it is and signs up or logs in
    with the link as ``next``: the invitation survives the sign-up and its confirmation mail
    (``accept_invitation``)."""
    invite = ClubInvite.objects.select_related("club", "created_by").filter(code=code).first()
    if not request.user.is_authenticated:
        if request.method == "POST":
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())
        return render(request, "leagues/join.html", {"invite": invite, "code": code, "next": request.path})
    if request.method == "POST":
        try:
            club = services.join_club(code, request.user)
        except LeagueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
            return redirect(club)
    return render(request, "leagues/join.html", {"invite": invite, "code": code})


def accept_invitation(request, path: str):
    """After confirming a new account (``accounts.views.confirm``): when ``path`` is a club's
    invitation link, the newcomer joins the club and lands on its page; None for any other path."""
    from django.urls import Resolver404, resolve

    try:
        match = resolve(path.split("?")[0])
    except Resolver404:
        return None
    if match.view_name != "leagues:join":
        return None
    try:
        club = services.join_club(match.kwargs.get("code", ""), request.user)
    except LeagueError as exc:
        messages.error(request, str(exc))
        return redirect(path)
    messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
    return redirect(club)


@login_required
@require_POST
def revoke_invite(request, slug):
    club = get_object_or_404(Club, slug=slug)
    _member_or_403(club, request.user)
    try:
        services.revoke_invite(club, request.user, _int(request, "invite", _("the invitation")))
        messages.success(request, _("The invitation link is revoked: it no longer works."))
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect(club)


@login_required
def club(request, slug):
    """The club page, for its members; a repeated view comes whole from the cache
    (``hanseweb.pagecache``) until a write changes what it shows (``changes.SCOPES``) or its
    version does: the viewer's role, the club's open invitation links (one expires: fewer) and the
    last move of its running league games (their list is in that order). Read in one query with
    the club."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    club = next(iter(Club.objects.raw(CLUB_WITH_VERSION, [request.user.pk, now, Game.RUNNING, slug])), None)
    if club is None:
        raise Http404()
    role = club.viewer_role
    if role is None:
        raise PermissionDenied(_("This page is for the club's members: ask an organiser for an invitation link."))
    return pagecache.respond(request, "club", lambda: _club_page(request, club, role),
                             version=(role, club.open_invites, club.last_move), scopes=changes.SCOPES)


# The club of a slug with the club page's version (``club``): the viewer's role, the open
# invitation links (not revoked, not expired at the given time) and the last move of the club's
# running league games. Written out: Django built and compiled the annotated queryset in more time
# than PostgreSQL spends planning and running this (about 1 ms), and with GROUP BYs it planned longer.
CLUB_WITH_VERSION = """
SELECT c.*,
  (SELECT m.role FROM leagues_membership m WHERE m.club_id = c.id AND m.user_id = %s) AS viewer_role,
  (SELECT count(*) FROM leagues_clubinvite i
     WHERE i.club_id = c.id AND i.revoked_at IS NULL AND i.expires > %s) AS open_invites,
  (SELECT max(g.last_move_at) FROM leagues_league l
     JOIN leagues_season s ON s.league_id = l.id JOIN leagues_round r ON r.season_id = s.id
     JOIN leagues_table t ON t.round_id = r.id JOIN games_game g ON g.id = t.game_id
     WHERE l.club_id = c.id AND g.status = %s) AS last_move
FROM leagues_club c WHERE c.slug = %s"""


def _club_page(request, club, role):
    player_url = url_of("players:player")
    members = [{"id": uid, "url": player_url(uid), "name": user_name(display_name, email), "organiser": r == Membership.ORGANISER}
               for uid, display_name, email, r in club.memberships.order_by("-role", "user__display_name")
               .values_list("user_id", "user__display_name", "user__email", "role")]
    leagues = list(club.leagues.prefetch_related("seasons"))
    tables = Table.objects.filter(round__season__league__club=club).values_list("game_id", "game__title", "game__status")
    running = list(tables.filter(game__status=Game.RUNNING).order_by("-game__last_move_at", "-pk")[:50])
    results = list(tables.filter(game__status=Game.FINISHED).order_by("-game__finished_at", "-pk")[:20])
    shown = game_rows(running + results)
    organiser_mark = " " + _("(organiser)")
    return render(request, "leagues/club.html", {
        "club": club, "role": role, "organiser": role == Membership.ORGANISER, "leagues": leagues,
        "member_lines": html_lines('<li><a href="{url}">{name}</a>{mark}</li>',
                                   ({**m, "mark": organiser_mark if m["organiser"] else ""} for m in members)),
        "member_options": html_lines('<option value="{id}">{name}</option>', members),
        "running": html_lines(GAME_LINE, shown[:len(running)]), "results": html_lines(GAME_LINE, shown[len(running):]),
        "actions": html_lines('<tr><td>{at}</td><td>{actor}</td><td>{label}{season}</td><td>{details}</td></tr>\n',
                              _log_rows(club.actions.all()[:100])),
        "calendar_url": request.build_absolute_uri(feeds.player_calendar_url(request.user)),
        "invites": [(invite, request.build_absolute_uri(invite.get_absolute_url()))
                    for invite in services.open_invites(club, request.user, role=role)],
        **_club_ratings(club, leagues, player_url),
    })


def _log_rows(actions) -> list[dict]:
    """The organiser log's lines as text: when, who, what (with the season's name, in the
    reader's language, ``Season.__str__``) and the details; the seasons' and actors' names read
    with the actions."""
    rows = actions.values_list("at", "actor__display_name", "actor__email", "action", "details", "season__name",
                               "season__number", "season__league__name")
    season_word = _("%(league)s season %(number)s")
    out = []
    for at, display_name, email, action, details, season_name, number, league in rows:
        shown = OrganiserAction(action=action, details=details)
        season = season_name or (season_word % {"league": league, "number": number} if number is not None else "")
        out.append({"at": local_minute(at), "actor": user_name(display_name, email) or "",
                    "label": shown.label, "season": f" ({season})" if season else "",
                    "details": "; ".join(f"{k}: {v}" for k, v in shown.details_shown)})
    return out


def _club_ratings(club, leagues, player_url) -> dict:
    """The members' ratings for the games of the club's leagues, best first, and their latest
    changes (the history): the ratings in one query (at most members x titles rows), their latest
    changes in three (``_visible_changes``: the club's own history is read, not the site's)."""
    engines = sorted({league.engine for league in leagues})
    members = club.memberships.values("user_id")
    rows = list(Rating.objects.filter(engine__in=engines, user_id__in=members)
                .values_list("pk", "engine", "user_id", "user__display_name", "user__email", "mu", "sigma", "games"))
    one, two = numbers(1), numbers(2)
    provisional = format_html(' <abbr title="{}">{}</abbr>', _("provisional: fewer than 5 games"), _("(provisional)"))
    by_engine = {engine: [] for engine in engines}
    for _pk, engine, uid, display_name, email, mu, sigma, played in rows:
        by_engine[engine].append((mu - 3 * sigma, {
            "url": player_url(uid), "name": user_name(display_name, email), "ordinal": one(mu - 3 * sigma),
            "mu": one(mu), "sigma": two(sigma), "games": played,
            "provisional": provisional if played < Rating.PROVISIONAL_GAMES else ""}))
    line = ('<tr><td><a href="{url}">{name}</a></td><td>{ordinal}{provisional}</td>\n'
            '<td>{mu}</td><td>{sigma}</td><td>{games}</td></tr>\n')
    blocks = [{"engine": engine, "lines": html_lines(line, (r for _o, r in sorted(by_engine[engine], key=lambda x: -x[0])))}
              for engine in engines]
    changes = _visible_changes(club, [r[0] for r in rows], 30) if rows else []
    return {"ratings": blocks, "rating_changes": html_lines(
        '<li>{at} {name} ({engine}): {before} → {after}, {place} <a href="{url}">{title}</a></li>', changes)}


def _visible_change_ids(club, rating_ids: list[int], count: int, batch: int = 200) -> list[int]:
    """The latest ``count`` changes of ``rating_ids`` in games the club's members may know of:
    the club's league games and listed games (another club's league games are unlisted and not
    theirs to see). The members' changes are read newest first in batches (through the index on
    ``RatingChange.rating``), their games checked by primary key: never a join with every game
    of the site, which PostgreSQL would hash whole to filter a few hundred changes. Two queries
    unless a batch holds fewer than ``count`` visible changes (then one more pair per batch)."""
    mine = RatingChange.objects.filter(rating_id__in=rating_ids)
    chosen, before = [], None
    while len(chosen) < count:
        page = mine if before is None else mine.filter(Q(at__lt=before[0]) | Q(at=before[0], pk__lt=before[1]))
        rows = list(page.order_by("-at", "-pk").values_list("pk", "game_id", "at")[:batch])
        if not rows:
            break
        games = {g for _, g, _ in rows}
        ours = Table.objects.filter(game_id__in=games, round__season__league__club=club).values("game_id")
        visible = set(Game.objects.filter(pk__in=games).filter(Q(listed=True) | Q(pk__in=ours))
                      .order_by().values_list("pk", flat=True))
        chosen += [pk for pk, game, _ in rows if game in visible][:count - len(chosen)]
        if len(rows) < batch:
            break
        before = (rows[-1][2], rows[-1][0])
    return chosen


def _visible_changes(club, rating_ids: list[int], count: int) -> list[dict]:
    """The lines of the club page's latest rating changes (``_visible_change_ids``), newest first."""
    chosen = _visible_change_ids(club, rating_ids, count)
    if not chosen:
        return []
    game_url, one, place_in = url_of("game"), numbers(1), _("place %(place)s in")
    return [{"at": local_minute(at), "name": user_name(display_name, email), "engine": _engine_name(engine),
             "place": place_in % {"place": place},
             "before": one(mu_before - 3 * sigma_before), "after": one(mu_after - 3 * sigma_after),
             "url": game_url(game_id), "title": title}
            for at, display_name, email, engine, place, mu_before, sigma_before, mu_after, sigma_after, game_id, title
            in RatingChange.objects.filter(pk__in=chosen).order_by("-at", "-pk").values_list(
                "at", "rating__user__display_name", "rating__user__email", "rating__engine", "place", "mu_before",
                "sigma_before", "mu_after", "sigma_after", "game_id", "game__title")]


@login_required
def club_settings(request, slug):
    club = get_object_or_404(Club, slug=slug)
    if not services.is_organiser(club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can change its settings."))
    form = forms.ClubForm(request.POST or None, initial={"name": club.name,
                                                          "default_deadline_hours": club.default_deadline_hours})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_club(club, request.user, **form.cleaned_data)
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Club settings saved."))
            return redirect(club)
    return render(request, "leagues/form.html", {"form": form, "title": _("Settings of %(club)s") % {"club": club.name}})


@login_required
@require_POST
def set_role(request, slug):
    club = get_object_or_404(Club, slug=slug)
    if not services.is_organiser(club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can change roles."))
    try:
        member = get_user_model().objects.filter(pk=int(request.POST.get("member", "0") or 0)).first()
        if member is None:
            raise LeagueError(_("Choose a member."))
        services.set_role(club, request.user, member, request.POST.get("role", ""))
        messages.success(request, _("%(name)s is now %(role)s.") % {
            "name": member, "role": dict(Membership.ROLE_CHOICES).get(request.POST.get("role"), "")})
    except (LeagueError, ValueError) as exc:
        messages.error(request, str(exc) if isinstance(exc, LeagueError) else _("Choose a member."))
    return redirect(club)


def _mailing(group, request):
    """Only posts that mail an invitation count against the rate limit."""
    return throttle.rate("club_invite_mail_per_user")(group, request) if request.POST.get("email") else None


@login_required
@require_POST
@ratelimit(group="club_invite_mail", key="user", rate=_mailing, method="POST")
def invite(request, slug):
    club = get_object_or_404(Club, slug=slug)
    if not services.is_member(club, request.user):
        raise PermissionDenied(_("Only members of this club can invite others."))
    email = request.POST.get("email", "").strip()
    try:
        if email:
            inv = services.invite_by_mail(club, request.user, email)
            # the same words whatever the address's owner chose (nor whether it has an account)
            messages.success(request, _("Invitation for %(email)s (valid 14 days): %(url)s. It is mailed "
                                        "unless the address's owner reads a daily digest (then it is in the "
                                        "next one) or has turned Hanseweb's mails off.")
                             % {"email": email, "url": request.build_absolute_uri(inv.get_absolute_url())})
        else:
            inv = services.create_invite(club, request.user)
            messages.success(request, _("Invitation link (valid 14 days): %(url)s")
                             % {"url": request.build_absolute_uri(inv.get_absolute_url())})
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect(club)


@login_required
def create_league(request, slug):
    club = get_object_or_404(Club, slug=slug)
    if not services.is_organiser(club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can create leagues."))
    creating = request.method == "POST" and "switch" not in request.POST
    if request.method == "POST" and not creating:  # "show this game's options": the form again
        form = forms.LeagueForm(initial={k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"},
                                engine_slug=request.POST.get("engine"))
    else:
        form = forms.LeagueForm(request.POST if creating else None, engine_slug=request.GET.get("engine"))
    if creating and form.is_valid():
        try:
            league = services.create_league(club, request.user, **form.league_fields())
        except LeagueError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(league)
    return render(request, "leagues/form.html", {
        "form": form, "title": _("New league of %(club)s") % {"club": club.name}, "league_form": True,
        "submit": _("Create league")})


def league(request, pk):
    """The league page; a repeated view from the cache (``club``), its version the viewer's role."""
    league = get_object_or_404(League.objects.select_related("club").annotate(viewer_role=_viewer_role(request, "club_id")),
                               pk=pk)
    role, refused = _league_reader(request, league, league.viewer_role)
    if refused:
        return refused
    return pagecache.respond(request, "league", lambda: _league_page(request, league, role), version=role,
                             scopes=changes.SCOPES)


def _league_page(request, league, role):
    member = role is not None
    return render(request, "leagues/league.html", {
        "league": league, "club": league.club, "organiser": role == Membership.ORGANISER, "member": member,
        "seasons": league.seasons.all(),
        # the secret feed addresses: for the members only (also of a public league)
        "calendar_url": request.build_absolute_uri(feeds.league_calendar_url(league)) if member else "",
        "results_url": request.build_absolute_uri(feeds.league_results_url(league)) if member else "",
    })


@login_required
@require_POST
def league_settings(request, pk):
    """The organiser's league switches: public or club-only; new feed addresses."""
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    if not services.is_organiser(league.club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can do that."))
    try:
        if request.POST.get("action") == "visibility":
            services.set_league_public(league, request.user, request.POST.get("public") == "yes")
            messages.success(request, _("The league is public now: anyone may look at its games, seasons and "
                                        "standings.") if league.public else
                             _("The league is for the club now: its games, seasons and standings are seen by the "
                               "club's members and the games' players only."))
        elif request.POST.get("action") == "rotate":
            if request.POST.get("confirm") != "yes":
                raise LeagueError(_("Tick the box to confirm: the old feed addresses stop working for everyone."))
            services.rotate_feeds(league, request.user)
            messages.success(request, _("New feed addresses: the old ones no longer work. Members find the new "
                                        "ones on this page."))
        else:
            raise LeagueError(_("Unknown action."))
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect(league)


@login_required
def create_season(request, pk):
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    if not services.is_organiser(league.club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can create seasons."))
    from django.utils import timezone as tz

    zone = forms.organiser_zone(request.user)
    with tz.override(zone):  # the picker's date and time are the organiser's local time
        form = forms.SeasonForm(request.POST or None, zone=zone)
        if request.method == "POST" and form.is_valid():
            try:
                season = services.create_season(league, request.user, **form.cleaned_data)
            except LeagueError as exc:
                form.add_error(None, str(exc))
            else:
                return redirect(season)
        return render(request, "leagues/form.html", {
            "form": form, "title": _("New season of %(league)s") % {"league": league.name},
            "submit": _("Create season")})


def season(request, pk):
    """The season page: a fixed number of queries whatever the number of divisions, players and
    games (the season's divisions, entries and tables are each read once and grouped here); a
    repeated view from the cache (``club``), its version the viewer's role."""
    season = get_object_or_404(Season.objects.select_related("league__club", "previous__league")
                               .annotate(viewer_role=_viewer_role(request, "league__club_id")), pk=pk)
    role, refused = _league_reader(request, season.league, season.viewer_role)
    if refused:
        return refused
    return pagecache.respond(request, "season", lambda: _season_page(request, season, role), version=role,
                             scopes=changes.SCOPES)


def _season_page(request, season, role):
    club = season.league.club
    organiser = role == Membership.ORGANISER
    division_list = list(season.divisions.all())
    entries = list(season.entries.select_related("user", "division"))
    # the season's tables as rows (round order), their seats with names in one query
    tables = list(Table.objects.filter(round__season=season).order_by("round__number", "division__level", "index")
                  .values_list("division_id", "round__number", "game_id", "game__title", "game__status", "game__result"))
    seats = seats_of(t[2] for t in tables)
    results = {d.pk: [] for d in division_list}
    for division_id, _number, game_id, _title, status, result in tables:
        found = result_of(game_id, status, result, seats.get(game_id, ()))
        if found is not None and division_id in results:
            results[division_id].append(found)
    standings = services.season_standings(season, division_list, entries=entries, results=results)
    lines = dict(zip((t[2] for t in tables), game_rows([t[2:5] for t in tables], seats)))
    names = {e.user_id: str(e.user) for e in entries}
    places = _places(season)
    divisions = []
    for division in division_list:
        rounds = {}
        for division_id, number, game_id, *_rest in tables:
            if division_id == division.pk:
                rounds.setdefault(number, {"tables": [], "byes": []})["tables"].append(lines[game_id])
        planned = season.plan.get(str(division.pk), [])
        for number, item in rounds.items():
            if number <= len(planned):
                item["byes"] = [names.get(uid, uid) for uid in planned[number - 1].get("byes", [])]
        upcoming = []
        for number, item in enumerate(planned, start=1):
            if number not in rounds and season.league.format == League.ROUND_ROBIN:
                upcoming.append({"number": number, "tables": [[names.get(u, u) for u in t] for t in item["tables"]],
                                 "byes": [names.get(u, u) for u in item.get("byes", [])]})
        active = [e.user_id for e in entries if e.division_id == division.pk and e.status == "active"]
        fairness = pairing.fairness(services._as_rounds(_by_place(planned, places)), active) \
            if planned and active else None
        divisions.append({"division": division, "standings": _standing_rows(standings[division.pk]),
                          "rounds": [(number, {"tables": html_lines(GAME_LINE, item["tables"]), "byes": item["byes"]})
                                     for number, item in sorted(rounds.items())],
                          "upcoming": upcoming, "fairness": fairness})
    entry = next((e for e in entries if e.user_id == request.user.pk), None) if request.user.is_authenticated else None
    context = {
        "season": season, "league": season.league, "club": club, "organiser": organiser,
        "divisions": divisions, "entry": entry,
        "unplaced": [e for e in entries if e.division_id is None],
        "entries": entries,
        "rounds": season.round_set.all(),
        "actions": season.actions.select_related("actor")[:50] if role is not None else [],
        "member": role is not None,
    }
    if organiser:
        context["replacements"] = (get_user_model().objects.filter(club_memberships__club=club)
                                   .exclude(league_entries__season=season).order_by("display_name"))
        context["running_tables"] = [{"game_id": game_id, "title": title, "seats": seats.get(game_id, [])}
                                     for _d, _n, game_id, title, status, _r in tables if status == Game.RUNNING]
    return render(request, "leagues/season.html", context)


STANDING_LINE = ('<tr><td>{rank}</td><td><a href="{url}">{name}</a>{dropped}</td>\n'
                 '<td>{played}</td><td>{points}</td><td>{score}</td>\n'
                 '<td>{head_to_head}</td><td>{sonneborn_berger}</td>\n<td>{games}</td></tr>\n')


def _standing_rows(rows):
    """A division's standings (``standings.Row``) as the table's lines (``rows.html_lines``):
    numbers as text, a dropped player marked, each game's link and place."""
    player_url, game_url, decimals = url_of("players:player"), url_of("game"), numbers(-1)
    forfeit = format_html(' <span class="forfeit">{}</span>', _("(forfeit)"))
    bot = " " + _("(a bot plays their seats)")

    def dropped(entry) -> str:
        if entry is None or entry.status != Entry.DROPPED:
            return ""
        return (" " + _("(dropped out after round %(round)s)") % {"round": entry.dropped_at_round}
                + (bot if entry.bot_plays else ""))

    return html_lines(STANDING_LINE, ({
        "rank": row.rank, "url": player_url(row.player), "name": row.name, "dropped": dropped(row.entry),
        "played": row.played, "points": decimals(row.points), "score": decimals(row.score),
        "head_to_head": row.head_to_head, "sonneborn_berger": decimals(row.sonneborn_berger),
        "games": mark_safe("".join(format_html('<a href="{}">{}.</a>{} ', game_url(game_id), place,
                                               forfeit if forfeited else "")
                                   for game_id, place, _points, forfeited in row.games))} for row in rows))


def _places(season) -> dict[int, int]:
    """{user id: user id of whoever holds that place now}: a replacement holds the place of the
    player it replaced (``Entry.replaces``, followed through a chain of replacements)."""
    took = dict(season.entries.filter(replaces__isnull=False).values_list("replaces__user_id", "user_id"))
    holder = {}
    for old in took:
        new, seen = took[old], {old}
        while new in took and new not in seen:
            seen.add(new)
            new = took[new]
        holder[old] = new
    return holder


def _by_place(planned: list, places: dict[int, int]) -> list:
    """The plan with every player replaced by whoever holds their place now: the fairness figures
    count the place (as the plan does), not the person."""
    if not places:
        return planned
    return [{"tables": [[places.get(u, u) for u in t] for t in item["tables"]],
             "byes": [places.get(u, u) for u in item.get("byes", [])]} for item in planned]


@login_required
@require_POST
def sign_up(request, pk):
    season = get_object_or_404(Season, pk=pk)
    try:
        services.sign_up(season, request.user)
        messages.success(request, _("You are signed up."))
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect(season)


@login_required
@require_POST
def withdraw(request, pk):
    season = get_object_or_404(Season, pk=pk)
    try:
        if season.status in (Season.RUNNING, Season.PAUSED):
            if request.POST.get("confirm") != "yes":
                raise LeagueError(_("Tick the box to confirm that you leave the season: your running games are "
                                    "then played by the autopilot and you get no more tables this season."))
            services.drop_player(season, request.user, request.user)
        else:
            services.withdraw(season, request.user)
        messages.success(request, _("You have left the season."))
    except LeagueError as exc:
        messages.error(request, str(exc))
    return redirect(season)


def _user(request, name):
    try:
        return get_user_model().objects.get(pk=int(request.POST.get(name, "")))
    except (ValueError, get_user_model().DoesNotExist):
        raise LeagueError(_("Choose a player.")) from None


def _losers(request):
    """The players ticked as forfeiting (``player``, one or several)."""
    try:
        ids = [int(v) for v in request.POST.getlist("player")]
    except ValueError:
        raise LeagueError(_("Choose a player.")) from None
    users = list(get_user_model().objects.filter(pk__in=ids))
    if not ids:
        raise LeagueError(_("Tick the player or players who forfeit the game."))
    if len(users) != len(set(ids)):
        raise LeagueError(_("Choose a player."))
    return users


# Actions that cannot be undone: the form names the consequence and asks for a ticked box
# (``confirm=yes``), as resigning a game does; without it nothing changes.
CONFIRMED = {
    "drop": gettext_lazy("Tick the box to confirm the drop: the player's running games are then played by the "
                         "autopilot and they get no more tables this season."),
    "dropbot": gettext_lazy("Tick the box to confirm the drop: a bot (the autopilot) then plays the player's seats "
                            "this season."),
    "replace": gettext_lazy("Tick the box to confirm the replacement: the player leaves the season for good."),
    "forfeit": gettext_lazy("Tick the box to confirm the forfeit: the player is ruled out of the game and ranked "
                            "below everyone who plays on."),
    "finish": gettext_lazy("Tick the box to confirm: a finished season starts no more rounds and cannot be "
                           "resumed."),
}


def _int(request, name, what):
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise LeagueError(_("Give %(what)s as a number.") % {"what": what}) from None


ACTIONS = {
    "seed": lambda r, s: services.seed_divisions(s, r.user, _int(r, "divisions", _("the number of divisions"))),
    "remove": lambda r, s: services.remove_entry(s, r.user, _user(r, "player")),
    "move": lambda r, s: services.move_entry(s, r.user, _user(r, "player"), _int(r, "level", _("the division"))),
    "start": lambda r, s: services.start_season(s, r.user),
    "pause": lambda r, s: services.set_paused(s, r.user, True),
    "resume": lambda r, s: services.set_paused(s, r.user, False),
    "drop": lambda r, s: services.drop_player(s, r.user, _user(r, "player")),
    "dropbot": lambda r, s: services.drop_player(s, r.user, _user(r, "player"), bot_plays=True),
    "replace": lambda r, s: services.replace_player(s, r.user, _user(r, "player"), _user(r, "replacement"),
                                                    running=r.POST.get("running") or services.TAKE_OVER),
    "forfeit": lambda r, s: services.award_forfeit(s, r.user, _int(r, "game", _("the game")), _losers(r)),
    "finish": lambda r, s: services.finish_season(s, r.user),
    "next": lambda r, s: services.next_season(s, r.user),
}


ACTION_NAMES = {
    "seed": gettext_lazy("seed the divisions"), "remove": gettext_lazy("remove a sign-up"), "move": gettext_lazy("move a player"),
    "start": gettext_lazy("start the season"), "pause": gettext_lazy("pause"), "resume": gettext_lazy("resume"),
    "drop": gettext_lazy("drop a player"), "dropbot": gettext_lazy("drop a player; a bot plays their seats"), "replace": gettext_lazy("replace a player"), "forfeit": gettext_lazy("award a forfeit"),
    "finish": gettext_lazy("finish the season"), "next": gettext_lazy("create the next season"),
}


@login_required
@require_POST
def organise(request, pk, action):
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=pk)
    if not services.is_organiser(season.league.club, request.user):
        raise PermissionDenied(_("Only an organiser of this club can do that."))
    if action not in ACTIONS:
        raise PermissionDenied(_("Unknown action."))
    if action in CONFIRMED and request.POST.get("confirm") != "yes":
        messages.error(request, str(CONFIRMED[action]))
        return redirect(season)
    try:
        made = ACTIONS[action](request, season)
        messages.success(request, _("Done: %(action)s.") % {"action": ACTION_NAMES.get(action, action)})
    except LeagueError as exc:
        messages.error(request, str(exc))
    else:
        if action == "next":
            return redirect(made)
    return redirect(season)


def standings_csv(request, pk):
    """The season's standings as CSV (members only; anyone for a public league)."""
    import csv

    from django.http import HttpResponse

    season = get_object_or_404(Season.objects.select_related("league__club"), pk=pk)
    _role, refused = _league_reader(request, season.league)
    if refused:
        return refused
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="season-{season.pk}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(["division", "rank", "player", "games", "points", "score", "head_to_head",
                     "sonneborn_berger", "status", "forfeits"])
    divisions = list(season.divisions.all())
    standings = services.season_standings(season, divisions)
    for division in divisions:
        for row in standings[division.pk]:
            writer.writerow([spreadsheet_safe(cell) for cell in (
                division.name, row.rank, row.name, row.played, row.points, row.score, row.head_to_head,
                row.sonneborn_berger, row.entry.status if row.entry else "", row.forfeits)])
    return response


def spreadsheet_safe(value):
    """A CSV cell a spreadsheet shows as text (OWASP, "CSV injection"): a text starting with
    ``= + - @``, a tab or a carriage return would be read as a formula (``=HYPERLINK(...)`` in a
    display name), so it gets a leading apostrophe. Numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
