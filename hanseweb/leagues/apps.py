from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "hanseweb.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.utils.translation import gettext_lazy

        from hanseweb import hooks

        from . import changes

        # the cached league pages are stale after any write that changes what they show
        changes.connect(self)

        # a league may cap or forbid vacation; league mails go into the daily digest (paths only:
        # nothing is imported at start-up)
        hooks.register("hold_limits", "leagues", "hanseweb.leagues.vacation.may_hold")
        # who may see a league game (docs/visibility.md)
        hooks.register("game_viewers", "leagues", "hanseweb.leagues.visibility.may_view")
        hooks.register("game_level", "leagues", "hanseweb.leagues.visibility.level")
        hooks.register("visible_games_q", "leagues", "hanseweb.leagues.visibility.visible_q")
        # a newcomer who signed up by a club's invitation link joins when they confirm their address
        hooks.register("accept_invitation", "leagues", "hanseweb.leagues.views.accept_invitation")
        hooks.register("vacation_notes", "leagues", "hanseweb.leagues.vacation.notes")
        hooks.register("digest_sections", "leagues", "hanseweb.leagues.mail.digest_items",
                       gettext_lazy("From your clubs and leagues"))
