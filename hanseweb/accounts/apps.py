from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "hanseweb.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        # The secret key signs sessions and the accounts' mailed tokens: refuse to run without one.
        from hanseweb import checks  # noqa: F401  (registers the system checks)
