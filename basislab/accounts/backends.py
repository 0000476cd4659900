"""The sign-in backend: Django's ModelBackend, with the signed-in user read through a prepared
select (basislab.prepared) on every request, and a refused password ending the backend chain.

Every signed-in request reads its user by id: Django builds that query anew each time, about
half a millisecond of Python on SQLite; here it is built once per process. Everything else is
Django's (the password check, ``is_active``, permissions).

``settings.AUTHENTICATION_BACKENDS`` lists this backend, and after it Django's own
``django.contrib.auth.backends.ModelBackend`` for one reason only: a session stores the path of
the backend that signed it in, and sessions made before this backend existed name Django's, so
they keep working until they expire (``SESSION_COOKIE_AGE``) instead of signing every learner
out at the deploy. So that Django's backend never checks a password a second time, this one ends
the chain when it refuses a username and password (``PermissionDenied``): Django then reports
the failed sign-in once, as before (django-axes counts it), and returns no user.
"""

from django.contrib.auth import backends, get_user_model
from django.core.exceptions import PermissionDenied

from basislab.prepared import PreparedSelect

SIGN_IN_BACKEND = "basislab.accounts.backends.ModelBackend"

_USER = PreparedSelect(
    lambda user_id: get_user_model()._default_manager.filter(pk=user_id), user_id=int
)


class ModelBackend(backends.ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied("wrong username or password")
        return user

    def get_user(self, user_id):
        rows = _USER.rows(user_id=user_id)
        return rows[0] if rows and self.user_can_authenticate(rows[0]) else None
