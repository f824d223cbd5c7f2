from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.models import AbstractUser
from django.db import models


class UserManager(BaseUserManager):
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

    NOTIFY_EVERY_TURN = "every_turn"
    NOTIFY_OFF = "off"
    NOTIFY_CHOICES = [(NOTIFY_EVERY_TURN, "Email me every time it is my turn"), (NOTIFY_OFF, "No turn emails")]

    username = None
    first_name = None
    last_name = None
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(max_length=40)
    notify = models.CharField(max_length=16, choices=NOTIFY_CHOICES, default=NOTIFY_EVERY_TURN)
    email_confirmed = models.BooleanField(default=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = ["display_name"]

    objects = UserManager()

    def __str__(self) -> str:
        return self.display_name or self.email

    @property
    def wants_turn_mail(self) -> bool:
        return self.notify == self.NOTIFY_EVERY_TURN and self.email_confirmed
