from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.models import AbstractUser
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from hanseweb.names import name_keys, validate_name


def name_taken(display_name: str, pk=None) -> bool:
    """Whether another account's display name looks the same (shares a key, ``name_keys``)."""
    folded, shape = name_keys(display_name)
    if not folded:
        return False
    same = (models.Q(display_name_key__in=[folded, shape]) | models.Q(display_name_shape__in=[folded, shape]))
    return User.objects.filter(same).exclude(pk=pk).exists()


def name_taken_message():
    return _("This display name is taken, or looks the same as one that is: choose another.")


# The fields a digest's due time derives from: a write of any of them without ``digest_due_at``
# leaves it empty, so the digest task looks at the account once more (games.tasks.send_digests).
DIGEST_FIELDS = {"notify", "digest_hour", "time_zone", "digest_sent_at", "email_confirmed", "is_active"}


class UserQuerySet(models.QuerySet):
    def update(self, **kwargs):
        if DIGEST_FIELDS & set(kwargs) and "digest_due_at" not in kwargs:
            kwargs["digest_due_at"] = None
        return super().update(**kwargs)

    update.alters_data = True


class UserManager(BaseUserManager.from_queryset(UserQuerySet)):
    use_in_migrations = True

    def _create(self, email, password, **extra):
        if not email:
            raise ValueError("an email address is required")
        email = self.normalize_email(email).lower()
        user = self.model(email=email, **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create(email, password, **extra)


class User(AbstractUser):
    """A player. Signs in with the email address; shows the display name."""

    # The notification policy (docs/architecture.md "Notification policy"): which game mails are
    # sent. Turn mails, reminders and result mails all follow it.
    NOTIFY_EVERY_TURN = "every_turn"
    NOTIFY_DEBOUNCED = "debounced"
    NOTIFY_DIGEST = "digest"
    NOTIFY_OFF = "off"
    NOTIFY_CHOICES = [
        (NOTIFY_EVERY_TURN, _("Every decision: email me every time it is my turn")),
        (NOTIFY_DEBOUNCED, _("One email per game until I have acted or opened the game page")),
        (NOTIFY_DIGEST, _("A daily digest at my chosen hour, listing every game waiting for me")),
        (NOTIFY_OFF, _("No game emails")),
    ]

    username = None
    first_name = None
    last_name = None
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(_("display name"), max_length=40, validators=[validate_name])
    # The display name's keys (hanseweb.names.name_keys: case- and confusable-insensitive):
    # display names are unique per site by both. Kept by save(); NULL for an empty name.
    display_name_key = models.CharField(max_length=200, unique=True, null=True, editable=False)
    display_name_shape = models.CharField(max_length=200, unique=True, null=True, editable=False)
    notify = models.CharField(max_length=16, choices=NOTIFY_CHOICES, default=NOTIFY_EVERY_TURN)
    email_confirmed = models.BooleanField(default=False)
    # The language of the account's pages and mails (docs/i18n.md); set at sign-up from the page's.
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="en")
    digest_hour = models.PositiveSmallIntegerField(
        default=8, choices=[(h, f"{h:02d}:00") for h in range(24)],
        help_text=_("the hour of the daily digest (in your time zone)"))
    # The reader's time zone (hanseweb/timezones.py): an IANA name; empty until the browser told it.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    # When the last digest was made (one per day: the beat claims the day with this field).
    digest_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the digest task next looks at the account (games.tasks.send_digests: the next digest's
    # hour, ``notifications.next_digest_at``); empty: at the next beat (a new account, or one whose
    # policy, hour or time zone changed). The task reads only accounts due, through a partial index.
    digest_due_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Vacation (hanseweb/accounts/vacation.py): away until this time; days taken in vacation_year.
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0, editable=False)
    vacation_days_used = models.PositiveSmallIntegerField(default=0, editable=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = ["display_name"]

    objects = UserManager()

    class Meta(AbstractUser.Meta):
        indexes = [models.Index(fields=["digest_due_at", "id"], condition=models.Q(notify="digest"),
                                name="user_digest_due")]

    def __str__(self) -> str:
        return self.display_name or self.email

    def save(self, *args, **kwargs):
        fields = kwargs.get("update_fields")
        if fields is None or (DIGEST_FIELDS & set(fields) and "digest_due_at" not in fields):
            self.digest_due_at = None  # the digest task looks at the account again
            if fields is not None:
                kwargs["update_fields"] = {*fields, "digest_due_at"}
        password_changed = self._password is not None and self.pk is not None
        folded, shape = name_keys(self.display_name)
        self.display_name_key, self.display_name_shape = folded or None, shape or None
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key", "display_name_shape"}
        super().save(*args, **kwargs)
        if password_changed:  # a new password ends every API token of the account (docs/api.md)
            from hanseweb.api.models import ApiToken

            ApiToken.revoke_all(self)

    def clean(self):
        super().clean()
        if name_taken(self.display_name, self.pk):
            raise ValidationError({"display_name": name_taken_message()})

    @property
    def wants_turn_mail(self) -> bool:
        return self.notify == self.NOTIFY_EVERY_TURN and self.email_confirmed

    @property
    def mail_policy(self) -> str:
        """The notification policy in force: ``off`` for an address not confirmed."""
        return self.notify if self.email_confirmed else self.NOTIFY_OFF
