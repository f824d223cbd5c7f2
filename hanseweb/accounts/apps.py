from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "hanseweb.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        # The secret key signs sessions and the accounts' mailed tokens: refuse to run without one.
        from hanseweb import checks  # noqa: F401  (registers the system checks)
        from django.db.models.signals import post_save

        # Cached list pages show players' names (scope "names"): a save of an account that may
        # have changed its name makes them stale (a login's last_login update does not).
        post_save.connect(_names_changed, sender=self.get_model("User"), dispatch_uid="pagecache-names")


def _names_changed(sender, instance, created, update_fields=None, **kwargs):
    from hanseweb import pagecache

    if update_fields is None or {"display_name", "email"} & set(update_fields):
        pagecache.bump("names")
