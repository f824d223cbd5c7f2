import unicodedata

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.engines import available_slugs, get_engine
from hanseweb.names import NameField

from .models import Game, Seat


# Variants whose integer choices name a seat (0 = seat 1): only seats of the chosen player count fit.
SEAT_VARIANTS = {"start_player"}


class SeatChoiceSelect(forms.Select):
    """A select of seats: the seats beyond ``players`` are disabled and hidden (the create page's
    script updates them when the player count changes)."""

    players: int | None = None

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if _seat_index(value) is not None and self.players is not None and _seat_index(value) >= self.players:
            option["attrs"].update(disabled=True, hidden=True)
        return option


def _seat_index(value) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def _option_field(spec: dict, widget=None) -> forms.Field:
    # the engine's option texts are N_-marked English: translated here, in the page's language
    choices = [(str(value), gettext(str(label))) for value, label in spec["choices"]]
    return forms.TypedChoiceField(
        label=gettext(spec["label"]), choices=choices, initial=str(spec["default"]),
        coerce=lambda raw, spec=spec: {str(v): v for v, _label in spec["choices"]}[raw],
        help_text=gettext(spec["help"]) if spec.get("help") else "", widget=widget,
    )


class CreateGameForm(forms.Form):
    engine = forms.ChoiceField(label=_("Game"))
    title = NameField(max_length=100, required=False, label=_("Title"), help_text=_("Optional; e.g. 'Thursday club'"))
    players = forms.TypedChoiceField(coerce=int, label=_("Number of players"))
    listed = forms.TypedChoiceField(
        label=_("Who may join"), coerce=lambda v: v == "open", initial="open",
        choices=[("open", _("Anyone: list it under open games")), ("invite", _("Invited players only (share the join link)"))],
    )
    seat_order = forms.ChoiceField(choices=Game.SEAT_ORDER_CHOICES, initial=Game.SEAT_ORDER_RANDOM, label=_("Seat order"))
    move_deadline_hours = forms.IntegerField(
        required=False, min_value=1, max_value=24 * 30, label=_("Deadline per decision (hours)"),
        help_text=_("Empty: no deadline. When it passes, the rulebook's default decision is taken."),
    )

    def __init__(self, *args, engine_slug: str | None = None, players_hint: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        slugs = available_slugs()
        self.fields["engine"].choices = [(slug, get_engine(slug).name) for slug in slugs]
        slug = engine_slug if engine_slug in slugs else (self.data.get("engine") if self.data.get("engine") in slugs else slugs[0])
        self.fields["engine"].initial = slug
        engine = get_engine(slug)
        self.engine = engine
        self.fields["players"].choices = [(n, ngettext("%(n)d player", "%(n)d players", n) % {"n": n})
                                          for n in range(engine.min_players, engine.max_players + 1)]
        players = _seat_index((self.data.get("players") if self.is_bound else players_hint) or "")
        if players is None or not engine.min_players <= players <= engine.max_players:
            players = engine.min_players
        self.fields["players"].initial = players
        self.variant_keys = []
        for spec in engine.option_specs:
            widget = None
            if spec["key"] in SEAT_VARIANTS:
                widget = SeatChoiceSelect(attrs={"data-seat-choice": "1"})
                widget.players = players
            self.fields[f"opt_{spec['key']}"] = _option_field(spec, widget)
            self.variant_keys.append(spec["key"])
        self.seat_keys = []
        for spec in engine.seat_option_specs:
            self.fields[f"seat_{spec['key']}"] = _option_field(spec)
            self.seat_keys.append(spec["key"])
        # practice games (issue 30): other seats may go to bots, a level per bot
        self.bot_keys = []
        for number in range(1, engine.max_players):
            key = f"bot_{number}"
            self.fields[key] = forms.ChoiceField(
                required=False, initial="", choices=Seat._meta.get_field("bot").choices,
                label=_("Practice bot %(number)d") % {"number": number},
                help_text=_("Bots take their seats at once and move a few seconds after their turn comes; "
                            "a game with bots is an unrated practice game.") if number == 1 else "")
            self.bot_keys.append(key)

    def clean(self):
        cleaned = super().clean()
        players = cleaned.get("players")
        for key in self.variant_keys:
            value = cleaned.get(f"opt_{key}")
            if key in SEAT_VARIANTS and isinstance(players, int) and isinstance(value, int) and value >= players:
                self.add_error(f"opt_{key}", f"Seat {value + 1} is not at the table: a {players}-player game "
                                             f"has seats 1 to {players}.")
        if isinstance(players, int) and len(self.bots()) > players - 1:
            self.add_error(None, ngettext("A game of %(players)d players has room for at most %(count)d bot besides you.",
                                          "A game of %(players)d players has room for at most %(count)d bots besides you.",
                                          players - 1) % {"players": players, "count": players - 1})
        return cleaned

    def bots(self) -> list[str]:
        """The levels of the bots asked for, in seat order (the empty choices left out)."""
        return [self.cleaned_data.get(key) for key in self.bot_keys if self.cleaned_data.get(key)]

    def variant_options(self) -> dict:
        return {k: self.cleaned_data[f"opt_{k}"] for k in self.variant_keys}

    def seat_options(self) -> dict:
        return {k: self.cleaned_data[f"seat_{k}"] for k in self.seat_keys}


class SeatOptionsForm(forms.Form):
    """The private per-game settings a player picks when joining."""

    def __init__(self, *args, engine, **kwargs):
        super().__init__(*args, **kwargs)
        self.keys = []
        for spec in engine.seat_option_specs:
            self.fields[f"seat_{spec['key']}"] = _option_field(spec)
            self.keys.append(spec["key"])

    def seat_options(self) -> dict:
        return {k: self.cleaned_data[f"seat_{k}"] for k in self.keys}


MAX_MOVE_LENGTH = 200  # as Move.text


class MoveForm(forms.Form):
    """A move from the game page. Whatever arrives (any length, any bytes) gets a clear message."""

    move = forms.CharField(error_messages={
        "required": "The move was empty: choose a move.",
        "null_characters_not_allowed": "The move contains a NUL byte, which no move has: type it as plain text.",
    })
    seq = forms.IntegerField(min_value=0, help_text=_("the move number the page was showing"), error_messages={
        "required": "The page's move number was missing: reload the game page and choose again.",
        "invalid": "The page's move number was garbled: reload the game page and choose again.",
        "min_value": "The page's move number was garbled: reload the game page and choose again.",
    })

    def clean_move(self):
        text = self.cleaned_data["move"]
        if "\ufffd" in text:  # what the decoder leaves of bytes that are not UTF-8
            raise forms.ValidationError(_("The move contains bytes that are not valid text (UTF-8): type it again."))
        for char in text:
            if char not in "\t\n\r" and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
                raise forms.ValidationError(_("The move contains an invisible control character (U+%(code)s), "
                                              "which no move has: type it as plain text.") % {"code": f"{ord(char):04X}"})
        if len(text) > MAX_MOVE_LENGTH:
            raise forms.ValidationError(_("That move is too long: %(length)s characters, and a move is at most "
                                          "%(max)d. Choose one of the moves offered.")
                                        % {"length": f"{len(text):,}", "max": MAX_MOVE_LENGTH})
        return text

    def problem(self) -> str:
        """The one message to show for an invalid form (the move's own problem first)."""
        for name in ("move", "seq"):
            if self.errors.get(name):
                return self.errors[name][0]
        return "That form was incomplete: choose a move again."
