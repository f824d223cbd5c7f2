from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines import SLUG_MODULES, get_engine

from .models import League


class ClubForm(forms.Form):
    name = forms.CharField(max_length=80)
    default_deadline_hours = forms.IntegerField(min_value=1, max_value=24 * 60, initial=72,
                                                label=_("Default hours per decision"))


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=80)
    engine = forms.ChoiceField(choices=[(slug, get_engine(slug).name) for slug in SLUG_MODULES], label=_("Game"))
    table_size = forms.IntegerField(
        min_value=2, max_value=6, initial=3, label=_("Table size"),
        help_text=_("Players per table. A division of at least two tables' worth also gets tables of one "
                    "more or one fewer, so that everyone plays; a smaller division plays one table of this "
                    "size (or two smaller ones where that seats everyone), and the players left over sit "
                    "out in turn."))
    exact_size = forms.BooleanField(required=False, label=_("Exact table size (byes for players left over)"))
    format = forms.ChoiceField(choices=League.FORMAT_CHOICES, initial=League.ROUND_ROBIN, required=False)

    def clean_format(self):
        return self.cleaned_data.get("format") or League.ROUND_ROBIN
    options = forms.JSONField(required=False, initial=dict, label=_("Variant options (JSON; empty: the standard game)"),
                              help_text='As on the game\'s page in docs/, e.g. {} for the standard rules')
    rated = forms.BooleanField(required=False, initial=True)
    vacation_days = forms.IntegerField(
        min_value=0, max_value=366, required=False, label=_("Vacation days per season"),
        help_text=_("How many days a player's vacation may hold this league's games per season: "
                    "empty = no cap (the player's own allowance), 0 = vacation is not allowed"))

    def clean_options(self):
        options = self.cleaned_data.get("options") or {}
        if not isinstance(options, dict):
            raise forms.ValidationError(_("Options are a JSON object, e.g. {}."))
        return options


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80, required=False)
    starts_at = forms.DateTimeField(label=_("Round 1 starts (YYYY-MM-DD HH:MM, UTC)"))
    signup_closes = forms.DateTimeField(required=False, label=_("Sign-up closes (empty: when the season starts)"))
    rounds = forms.IntegerField(min_value=1, max_value=50, initial=4)
    round_days = forms.IntegerField(min_value=1, max_value=90, initial=14, label=_("Days between rounds"))
    deadline_hours = forms.IntegerField(min_value=1, max_value=24 * 60, required=False,
                                        label=_("Hours per decision (empty: the club's default)"))
    promote = forms.IntegerField(min_value=0, max_value=10, initial=1)
    relegate = forms.IntegerField(min_value=0, max_value=10, initial=1)
