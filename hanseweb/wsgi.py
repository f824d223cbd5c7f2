import os

from django.core.wsgi import get_wsgi_application

from hanseweb.secret_key import refuse_without_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")
application = get_wsgi_application()
refuse_without_secret_key()  # no web server on a missing or public secret key
