import factory

from hanseweb.accounts.models import User

PASSWORD = "correct horse battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"player{n}@example.com")
    display_name = factory.Sequence(lambda n: f"Player{n}")
    is_active = True
    email_confirmed = True
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create:
            instance.save()
