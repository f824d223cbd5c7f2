from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from hanseweb.mail import relevance, renderers
        from hanseweb.mail.handlers import register

        from .email_replies import handle
        from .notifications import render_your_turn

        register("games.email_replies", handle)  # the mail layer hands received mail to us
        renderers.register("games.your_turn", render_your_turn)  # and renders our turn mails
        from .mail_checks import DECISION, decision_open

        relevance.register(DECISION, decision_open)  # a turn mail whose decision has passed is not retried

        from hanseweb import hooks

        # a newcomer who signed up by a game's join link is seated when they confirm their address
        hooks.register("accept_invitation", "games", "games.views.accept_invitation")
