from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines import SLUG_MODULES, get_engine

from hanseweb.names import NameField

from .models import League


class ClubForm(forms.Form):
    name = NameField(max_length=80)
    default_deadline_hours = forms.IntegerField(min_value=1, max_value=24 * 60, initial=72,
                                                label=_("Default hours per decision"))


def organiser_zone(user):
    """The organiser's time zone: their own setting once accounts have one (``time_zone``), else
    the site's (``TIME_ZONE``)."""
    import zoneinfo

    from django.conf import settings

    name = getattr(user, "time_zone", None) or settings.TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(str(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


# The date-time picker's format, and what is accepted when typed (a browser without a picker)
PICKER_FORMAT = "%Y-%m-%dT%H:%M"
TYPED_FORMATS = [PICKER_FORMAT, "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%d-%m-%Y %H:%M", "%d.%m.%Y %H:%M",
                 "%d/%m/%Y %H:%M", "%Y-%m-%d"]


def _picker():
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format=PICKER_FORMAT)


class LeagueForm(forms.Form):
    name = NameField(max_length=80, label=_("Name"))
    engine = forms.ChoiceField(label=_("Game"))
    table_size = forms.IntegerField(
        min_value=2, max_value=6, initial=3, label=_("Table size"),
        help_text=_("Players per table. A division of at least two tables' worth also gets tables of one "
                    "more or one fewer, so that everyone plays; a smaller division plays one table of this "
                    "size (or two smaller ones where that seats everyone), and the players left over sit "
                    "out in turn."))
    exact_size = forms.BooleanField(required=False, label=_("Exact table size (byes for players left over)"))
    format = forms.ChoiceField(choices=League.FORMAT_CHOICES, initial=League.ROUND_ROBIN, required=False,
                               label=_("Format"))
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    public = forms.BooleanField(required=False, initial=False, label=_("Public league"),
                                help_text=_("Anyone may look at its games, seasons and standings; otherwise the "
                                            "club's members and the games' players only."))
    vacation_days = forms.IntegerField(
        min_value=0, max_value=366, required=False, label=_("Vacation days per season"),
        help_text=_("How many days a player's vacation may hold this league's games per season: "
                    "empty = no cap (the player's own allowance), 0 = vacation is not allowed"))

    def __init__(self, *args, engine_slug: str | None = None, **kwargs):
        from games.forms import SEAT_VARIANTS, _option_field

        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = [(slug, get_engine(slug).name) for slug in SLUG_MODULES]
        slug = self.data.get("engine") if self.is_bound else engine_slug
        if slug not in SLUG_MODULES:
            slug = next(iter(SLUG_MODULES))
        self.fields["engine"].initial = slug
        self.engine = get_engine(slug)
        # the chosen game's variants as form fields, from its engine's option_specs (the seat
        # variants, e.g. a fixed start player, are left out: a league plans its seat orders)
        self.variant_keys = []
        for spec in self.engine.option_specs:
            if spec["key"] in SEAT_VARIANTS:
                continue
            self.fields[f"opt_{spec['key']}"] = _option_field(spec)
            self.variant_keys.append(spec["key"])

    def clean_format(self):
        return self.cleaned_data.get("format") or League.ROUND_ROBIN

    def league_fields(self) -> dict:
        """What ``services.create_league`` takes."""
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("opt_")}
        data["options"] = {k: self.cleaned_data[f"opt_{k}"] for k in self.variant_keys}
        return data


class SeasonForm(forms.Form):
    name = NameField(max_length=80, required=False, label=_("Name"), help_text=_("e.g. Winter 2026"))
    starts_at = forms.DateTimeField(label=_("Round 1 starts"), widget=_picker(), input_formats=TYPED_FORMATS)
    signup_closes = forms.DateTimeField(required=False, label=_("Sign-up closes (empty: when the season starts)"),
                                        widget=_picker(), input_formats=TYPED_FORMATS)
    rounds = forms.IntegerField(min_value=1, max_value=50, initial=4, label=_("Rounds"))
    round_days = forms.IntegerField(min_value=1, max_value=90, initial=14, label=_("Days between rounds"))
    deadline_hours = forms.IntegerField(min_value=1, max_value=24 * 60, required=False,
                                        label=_("Hours per decision (empty: the club's default)"))
    promote = forms.IntegerField(min_value=0, max_value=10, initial=1, label=_("Promoted per division"))
    relegate = forms.IntegerField(min_value=0, max_value=10, initial=1, label=_("Relegated per division"))

    def __init__(self, *args, zone=None, **kwargs):
        super().__init__(*args, **kwargs)
        if zone is not None:
            self.fields["starts_at"].help_text = _("Your time zone: %(zone)s") % {"zone": zone.key}
            self.fields["signup_closes"].help_text = _("Your time zone: %(zone)s") % {"zone": zone.key}
