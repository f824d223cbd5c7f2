from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from hanseweb.mail.handlers import register

        from .email_replies import handle

        register("games.email_replies", handle)  # the mail layer hands received mail to us
