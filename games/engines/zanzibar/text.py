"""Plain-text picture of a view, for emails: scores, the island province by province,
your hand with its score tables, whose turn and what you must decide."""
from __future__ import annotations


from .board import LAND, SEA, get_board
from ..i18n import N_, render  # noqa: F401

def _who(view: dict, names, seat: int) -> str:
    return f"{names[seat]} ({view['colours'][seat]})"


def _table(table: list[int]) -> str:
    return " ".join(f"{i}:{v:+d}" for i, v in enumerate(table))


def render_text(view: dict, names, _=render) -> str:
    board = get_board(view.get("map", "zanzibar"))
    n = view["players"]
    names = list(names) if names else [f"Player {i + 1}" for i in range(n)]
    you = view["you"]
    out: list[str] = ["ZANZIBAR"]
    if view["over"]:
        out.append("The game is over.")
    elif view["phase"] == "place":
        out.append(f"Initial placement: {_who(view, names, view['active'])} places a merchant.")
    elif view["phase"] == "window":
        out.append("Set-aside window after the first draw: waiting for "
                   + ", ".join(names[s] for s in view["to_act"]) + ".")
    else:
        out.append(f"Turn of {_who(view, names, view['active'])}."
                   + (f" Final round ({view['final_left']} turn(s) left)." if view["final_round"] else ""))
    out.append("")

    # players
    out.append("Players (turn order):")
    for s in view["order"]:
        aside = view["aside_counts"][s]
        deck = view["deck_counts"][s]
        pile = ", ".join(f"{e['card']} {e['count']}={e['points']:+d}" for e in view["scored"][s]) or "-"
        line = (f"  {_who(view, names, s)}: score {view['scores'][s]}; hand {view['hand_counts'][s]}, "
                f"deck {'?' if deck is None else deck}, set aside {'sealed' if aside is None else aside}"
                f"/{view['quota']}; scored {len(view['scored'][s])}/{view['scoring_limit']}: {pile}")
        if s in view["finished"]:
            line += f"  [finished #{view['finished'].index(s) + 1}]"
        if s == view["start"]:
            line += "  [start player]"
        out.append(line)
    out.append("")

    # the board
    at = {m["place"]: m for m in view["merchants"]}
    out.append("Island (place, spice, merchant):")
    for prov in LAND + (SEA,):
        cells = []
        for p in board.places:
            if board.province[p] != prov:
                continue
            spice = board.spice[p] or ("sea" if board.is_sea[p] else "huts")
            m = at.get(p)
            who = f"{view['colours'][m['seat']]}-{m['num']}" if m else "."
            cells.append(f"{p} {spice} [{who}]")
        out.append(f"  {prov.capitalize():8} " + "; ".join(cells))
    unplaced = [f"{view['colours'][s]}: {' '.join(map(str, u))}" for s, u in enumerate(view["unplaced"]) if u]
    if unplaced:
        out.append("  Not yet placed: " + "; ".join(unplaced))
    out.append("")

    if view["moving"]:
        mv = view["moving"]
        out.append(f"Moving: {view['colours'][view['active']]}-{mv['num']} along " + " > ".join(mv["path"]))
    if view["pending"]:
        pd = view["pending"]
        out.append(f"To {pd['kind']}: {view['colours'][pd['piece'][0]]}-{pd['piece'][1]} from {pd['at']}; "
                   f"possible places: {', '.join(pd['options'])}")
    if view["phase"] == "move" and view["active"] is not None:
        out.append(f"Moved this turn: {len(view['moved'])} of 3 merchants"
                   + (f" (numbers {', '.join(map(str, view['moved']))})" if view["moved"] else ""))

    # private facts
    if you is not None:
        out.append("")
        out.append("Your hand (count now -> points; table by number of your merchants):")
        for c in view["hand"] or []:
            out.append(f"  {c['card']} ({c['kind']}): now {c['count_now']} -> {c['points_now']:+d};  "
                       f"table {_table(c['table'])}")
        if not view["hand"]:
            out.append("  (no cards)" if view["phase"] != "place" else "  (cards are drawn after the placement)")
        out.append(f"Your set-aside cards: {', '.join(view['set_aside']) or 'none'}")
        out.append(f"Still in your deck (order unknown): {', '.join(view['deck_cards']) or 'none'}")

    if view["over"] and view["result"]:
        res = view["result"]
        out.append("")
        out.append("Result:")
        for s in sorted(range(n), key=lambda i: res["ranking"][i]):
            parts = ", ".join(f"{k} {v:+d}" if k != "start" else f"start {v}" for k, v in res["breakdown"][s].items())
            out.append(f"  {res['ranking'][s]}. {_who(view, names, s)}: {res['scores'][s]}  ({parts})")
        if view.get("revealed"):
            for s, r in enumerate(view["revealed"]):
                out.append(f"  {names[s]}: hand {', '.join(r['hand']) or '-'}; deck {', '.join(r['deck']) or '-'}; "
                           f"set aside {', '.join(r['set_aside']) or '-'}")

    if view["prompt"]:
        out.append("")
        out.append(view["prompt"])
    return "\n".join(out) + "\n"
