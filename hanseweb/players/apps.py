from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "hanseweb.players"
    label = "players"
    verbose_name = "Players and archive"
