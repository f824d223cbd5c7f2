import gc
import os

from django.core.wsgi import get_wsgi_application

from hanseweb.secret_key import refuse_without_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")
application = get_wsgi_application()
refuse_without_secret_key()  # no web server on a missing or public secret key


def _settle() -> None:
    """Import the URLconf (and with it the views, engines and their board data) now rather than
    in the first request, then move everything loaded so far out of the garbage collector's
    sight (``gc.freeze``): those objects live as long as the process, and a full collection would
    otherwise walk all of them again and again, a pause of several ms in some requests. From
    then on, collections run between requests (``hanseweb.gc_between_requests``)."""
    from django.urls import get_resolver

    from hanseweb import gc_between_requests

    get_resolver().url_patterns  # noqa: B018 - importing is the point
    gc.collect()
    gc.freeze()
    gc_between_requests.install()


_settle()
