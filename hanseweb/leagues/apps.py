from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "hanseweb.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.utils.translation import gettext_lazy

        from hanseweb import hooks

        # a league may cap or forbid vacation; league mails go into the daily digest (paths only:
        # nothing is imported at start-up)
        hooks.register("hold_limits", "leagues", "hanseweb.leagues.vacation.may_hold")
        hooks.register("vacation_notes", "leagues", "hanseweb.leagues.vacation.notes")
        hooks.register("digest_sections", "leagues", "hanseweb.leagues.mail.digest_items",
                       gettext_lazy("From your clubs and leagues"))
