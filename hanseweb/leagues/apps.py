from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "hanseweb.leagues"
    label = "leagues"
    verbose_name = "Clubs and leagues"
    default_auto_field = "django.db.models.BigAutoField"
