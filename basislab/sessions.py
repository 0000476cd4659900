"""The session engine: Django's database sessions, read through a prepared select.

``SESSION_ENGINE = "basislab.sessions"`` (the default). Sessions live in Django's own table,
written and ended exactly as ``django.contrib.sessions.backends.db`` does; only the read every
signed-in request makes is the ORM's statement built once per process (basislab.prepared), by
the session key alone, with the expiry checked on the row it returns: the same answer as the
ORM's ``expire_date > now`` in SQL, about half a millisecond cheaper a request on SQLite.
"""

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from .prepared import PreparedSelect

_SESSION = PreparedSelect(
    lambda session_key: Session.objects.filter(session_key=session_key), session_key=str
)


class SessionStore(db.SessionStore):
    """Database sessions with the read prepared once per process."""

    def _get_session_from_db(self) -> Session | None:
        rows = _SESSION.rows(session_key=self.session_key)
        if rows and rows[0].expire_date > timezone.now():
            return rows[0]
        self._session_key = None
        return None
