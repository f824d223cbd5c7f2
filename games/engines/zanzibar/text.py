"""Plain-text picture of a view, for emails: scores, the island province by province,
your hand with its score tables, whose turn and what you must decide.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render  # noqa: F401
from .board import LAND, SEA, get_board, place_msg


def _who(view: dict, names, seat: int, _=render) -> str:
    return f"{names[seat]} ({_(view['colours'][seat])})"


def _table(table: list[int]) -> str:
    return " ".join(f"{i}:{v:+d}" for i, v in enumerate(table))


def render_text(view: dict, names, _=render) -> str:
    board = get_board(view.get("map", "zanzibar"))
    n = view["players"]
    names = list(names) if names else [_("Player {n}").format(n=i + 1) for i in range(n)]
    you = view["you"]
    who = lambda s: _who(view, names, s, _)  # noqa: E731
    out: list[str] = ["ZANZIBAR"]
    if view["over"]:
        out.append(_("The game is over."))
    elif view["phase"] == "place":
        out.append(_("Initial placement: {who} places a merchant.").format(who=who(view["active"])))
    elif view["phase"] == "window":
        out.append(_("Set-aside window after the first draw: waiting for {names}.").format(
            names=", ".join(names[s] for s in view["to_act"])))
    else:
        line = _("Turn of {who}.").format(who=who(view["active"]))
        if view["final_round"]:
            line += " " + (_("Final round (1 turn left).") if view["final_left"] == 1
                           else _("Final round ({n} turns left).").format(n=view["final_left"]))
        out.append(line)
    out.append("")

    # players
    out.append(_("Players (turn order):"))
    for s in view["order"]:
        aside = view["aside_counts"][s]
        deck = view["deck_counts"][s]
        pile = ", ".join(f"{_(e['card'])} {e['count']}={e['points']:+d}" for e in view["scored"][s]) or "-"
        line = "  " + _("{who}: score {score}; hand {hand}, deck {deck}, set aside {aside}/{quota}; scored "
                        "{scored}/{limit}: {pile}").format(
            who=who(s), score=view["scores"][s], hand=view["hand_counts"][s], deck="?" if deck is None else deck,
            aside=_("sealed") if aside is None else aside, quota=view["quota"], scored=len(view["scored"][s]),
            limit=view["scoring_limit"], pile=pile)
        if s in view["finished"]:
            line += "  [" + _("finished #{n}").format(n=view["finished"].index(s) + 1) + "]"
        if s == view["start"]:
            line += "  [" + _("start player") + "]"
        out.append(line)
    out.append("")

    # the board
    at = {m["place"]: m for m in view["merchants"]}
    out.append(_("Island (place and spice: merchant):"))
    for prov in LAND + (SEA,):
        cells = []
        for p in board.places:
            if board.province[p] != prov:
                continue
            m = at.get(p)
            mark = _("merchant {num} of {name}").format(num=m["num"], name=names[m["seat"]]) if m else _("free")
            cells.append(f"{_(place_msg(board, p))}: {mark}")
        out.append("  " + "; ".join(cells))
    unplaced = [f"{names[s]}: {' '.join(map(str, u))}" for s, u in enumerate(view["unplaced"]) if u]
    if unplaced:
        out.append("  " + _("Not yet placed: {list}").format(list="; ".join(unplaced)))
    out.append("")

    if view["moving"]:
        mv = view["moving"]
        out.append(_("Moving: merchant {num} of {name}, so far {path}").format(
            num=mv["num"], name=names[view["active"]], path=" → ".join(_(place_msg(board, p)) for p in mv["path"])))
    if view["pending"]:
        pd = view["pending"]
        text = _("To push: {merchant} from {at}; possible places: {places}") if pd["kind"] == "push" \
            else _("To expel: {merchant} from {at}; possible places: {places}")
        out.append(text.format(merchant=_("merchant {num} of {name}").format(num=pd["piece"][1], name=names[pd["piece"][0]]),
                               at=_(place_msg(board, pd["at"])), places=", ".join(_(place_msg(board, p)) for p in pd["options"])))
    if view["phase"] == "move" and view["active"] is not None:
        line = _("Moved this turn: {n} of 3 merchants").format(n=len(view["moved"]))
        if view["moved"]:
            line += " " + _("(numbers {numbers})").format(numbers=", ".join(map(str, view["moved"])))
        out.append(line)

    # private facts
    if you is not None:
        out.append("")
        out.append(_("Your hand (count now -> points; table by number of your merchants):"))
        for c in view["hand"] or []:
            out.append("  " + _("{card} ({kind}): now {count} -> {points};  table {table}").format(
                card=_(c["card"]), kind=_(c["kind"]), count=c["count_now"], points=f"{c['points_now']:+d}",
                table=_table(c["table"])))
        if not view["hand"]:
            out.append("  " + (_("(no cards)") if view["phase"] != "place" else _("(cards are drawn after the placement)")))
        none = _("none")
        out.append(_("Your set-aside cards: {cards}").format(cards=", ".join(_(c) for c in view["set_aside"]) or none))
        out.append(_("Still in your deck (order unknown): {cards}").format(
            cards=", ".join(_(c) for c in view["deck_cards"]) or none))

    if view["over"] and view["result"]:
        res = view["result"]
        out.append("")
        out.append(_("Result:"))
        for s in sorted(range(n), key=lambda i: res["ranking"][i]):
            parts = ", ".join(f"{_(k)} {v:+d}" if k != "start" else f"{_('start')} {v}"
                              for k, v in res["breakdown"][s].items())
            out.append(f"  {res['ranking'][s]}. {who(s)}: {res['scores'][s]}  ({parts})")
        if view.get("revealed"):
            for s, r in enumerate(view["revealed"]):
                out.append("  " + _("{name}: hand {hand}; deck {deck}; set aside {aside}").format(
                    name=names[s], hand=", ".join(_(c) for c in r["hand"]) or "-",
                    deck=", ".join(_(c) for c in r["deck"]) or "-", aside=", ".join(_(c) for c in r["set_aside"]) or "-"))

    if view["prompt"]:
        out.append("")
        out.append(_(view.get("prompt_msg") or view["prompt"]))
    return "\n".join(out) + "\n"
