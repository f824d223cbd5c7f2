from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "hanseweb.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.utils.translation import gettext_lazy

        from games.notifications import register_digest_section
        from games.tasks import register_hold_limit
        from hanseweb.accounts.vacation import register_notes

        from . import mail, vacation

        register_hold_limit("leagues", vacation.may_hold)  # a league may cap or forbid vacation
        register_notes("leagues", vacation.notes)
        register_digest_section("leagues", gettext_lazy("From your clubs and leagues"), mail.digest_items)
