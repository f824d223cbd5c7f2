"""Per-seat views (HANSE-5): only what that seat may know."""
from __future__ import annotations

from .board import BOARD, SHIP_NAMES, the_ship
from .cards import card_text, card_title
from .flow import to_act
from .scoring import result
from ..events import visible
from .state import top
from ..i18n import N_, lit, msg, say  # noqa: F401


def _half(state, ship, hi, seat, reveal):
    holder = (ship + hi) % state["n"]
    stones = state["cargo"][ship][hi]
    d = {"seat": holder, "goods": [g for g, _ in stones]}
    if reveal or seat == holder:  # HANSE-5.3.3, D-4, D-6
        d["values"] = [v for _, v in stones]
    return d


def _phase(state, seat):
    f = top(state)
    if f is None:
        return {"kind": "over"}
    k = f["k"]
    out = {"kind": k}
    if k == "turn":
        out["seat"] = f["seat"]
        out["moved"] = [SHIP_NAMES[s] for s in f["done"]]
    elif k == "harbour":
        out.update(harbour=f["h"], ship=SHIP_NAMES[f["ship"]], mover=f["mover"], partner=f["partner"],
                   stage=f["stage"])
        if f["draw"] is not None:
            trader = f["mover"] if f["stage"] == "mover" else f["partner"]
            out["drawing"] = {"seat": trader, "good": f["draw"]["good"], "count": len(f["draw"]["vals"])}
            if seat == trader:  # HANSE-5.3.2
                out["drawing"]["values"] = list(f["draw"]["vals"])
    elif k == "window":
        out.update(last=f["last"], stage=f["stage"], asked=list(f["asked"]),
                   answered=sorted(int(s) for s in f["ans"]))
        if f["stage"] == "resolve":  # HANSE-5.5: sealed until everyone answered
            out["declared"] = {str(s): list(c) for s, c in f["ans"].items() if c}
            out["queue"] = list(f["queue"])
        elif seat is not None and str(seat) in f["ans"]:
            out["your_answer"] = list(f["ans"][str(seat)])
    elif k == "pirate":
        out.update(mover=f["mover"], points=f["pts"], exact=f["exact"], stage=f["stage"],
                   forced=f["movers"] >= state["n"])
        if f["ship"] is not None:
            out["ship"] = SHIP_NAMES[f["ship"]]
    elif k == "place":
        out.update(seat=f["seat"], ships=[SHIP_NAMES[s] for s in f["ships"]], location=f["loc"])
    elif k == "storm":
        out.update(seat=f["seat"], ties={SHIP_NAMES[s]: list(o) for s, o in f["ties"]})
    elif k == "fine":
        out.update(fined=f["queue"][0], chooser=(f["queue"][0] + 1) % state["n"])
    elif k in ("xmove", "cardplay"):
        out["seat"] = f["seat"]
    return out


def prompt(state, seat):
    if seat is None or seat not in to_act(state):
        return ""
    f = top(state)
    k = f["k"]
    if k == "turn":
        return say(N_("Your turn: move one of your ships (sail to a field, or stay)."))
    if k == "harbour":
        name = BOARD.harbour_name[f["h"]]
        if f["draw"] is not None:
            return say(N_("Keep one of the {good} stones you drew in {harbour}."), good=f["draw"]["good"], harbour=name)
        if f["stage"] == "card":
            return say(N_("Play one of your harbour cards (you entered {harbour})."), harbour=name)
        if f["h"] == "luebeck":
            return say(N_("Trade in {harbour} with your half of {ship} (unload, discard, refill here), then say done."),
                       harbour=name, ship=the_ship(SHIP_NAMES[f["ship"]]))
        return say(N_("Trade in {harbour} with your half of {ship}, then say done."), harbour=name,
                   ship=the_ship(SHIP_NAMES[f["ship"]]))
    if k == "window":
        if f["stage"] == "ask":
            if f.get("about"):  # which ship move the question is about
                ship, at = f["about"]
                return say(N_("Last ship move: {ship} to {field}. Do you play a special card now (Privilege or "
                              "Kaperbrief), or pass?"), ship=the_ship(SHIP_NAMES[ship]), field=BOARD.field_words(at))
            return say(N_("Do you play a special card after this ship move (Privilege or Kaperbrief), or pass?"))
        return say(N_("Choose what your declared special card does."))
    if k == "pirate":
        if f["stage"] == "move":
            return say(N_("Move the pirate ship (exactly {n} points).") if f["exact"]
                       else N_("Move the pirate ship (up to {n} points)."), n=f["pts"])
        if f["stage"] == "ship":
            return say(N_("Choose which ship the pirates plunder."))
        return say(N_("Choose the two stones the pirates take (by half and type)."))
    if k == "fine":
        return say(N_("Hansetag fine: choose a stone to remove from {player}'s storage."), player="{p%d}" % f["queue"][0])
    if k == "xmove":
        return say(N_("Make your Privilege extra move."))
    if k == "cardplay":
        return say(N_("Play a harbour card from your hand."))
    if k == "place":
        return say(N_("Place the ships driven out by the blockade."))
    if k == "storm":
        return say(N_("Choose the harbour for each storm-driven ship."))
    return ""


def build(state: dict, seat) -> dict:
    n = state["n"]
    over = state["over"]
    wind = BOARD.cards[state["wind"]]
    ships = []
    for i, sh in enumerate(state["ships"]):
        ships.append({
            "name": SHIP_NAMES[i], "at": BOARD.label[sh["at"]], "hex": sh["at"],
            "canal_dir": sh["dir"], "skip": sh["skip"],
            "stern": _half(state, i, 0, seat, over), "bow": _half(state, i, 1, seat, over),
        })
    storages = []
    for p in range(n):
        st = state["store"][p]
        slots = []
        for g, v in zip(st["goods"], st["vals"]):
            d = {"good": g, "filled": v is not None}
            if v is not None and (seat == p or over):  # HANSE-5.3.3, 5.3.6
                d["value"] = v
            slots.append(d)
        storages.append({"card": st["card"], "slots": slots})
    pools = {h: {g: len(v) for g, v in sorted(state["_pools"][h].items()) if v} for h in BOARD.harbours}
    log = visible(state["log"], seat)
    asked = prompt(state, seat)
    v = {
        "game": "die-hanse", "players": n, "you": seat, "to_act": to_act(state),
        "prompt": str(asked), "prompt_msg": getattr(asked, "message", asked), "log": log, "over": over, "result": result(state),
        "turn": state["turn"], "active": state["turn"] % n,
        "wind": {"north": wind["north"], "baltic": wind["baltic"], "card": card_text(state["wind"])},
        "blockade": state["blockade"],
        "pirate": BOARD.label[state["pirate"]] if state["pirate"] else None,
        "pirate_hex": state["pirate"],
        "ships": ships, "storages": storages, "pools": pools,
        "hand_sizes": [len(h) for h in state["_hands"]], "deck": len(state["_deck"]),
        "discard": [card_text(c) for c in state["discard"]],
        "special": [dict(sp) for sp in state["special"]],
        "hansetage": [{"caller": h["q"], "round2_turns": [h["r2"], h["end"]], "satisfied": list(h["sat"])}
                      for h in state["hansetage"]],
        "final": dict(state["final"]) if state["final"] else None,
        "phase": _phase(state, seat),
    }
    if seat is not None:
        v["hand"] = [{"card": card_text(c), "title": str(card_title(c)), "title_msg": card_title(c).message}
                     for c in state["_hands"][seat]]
        v["options"] = {"offer_special_cards": state["offer"][seat]}
    return v
