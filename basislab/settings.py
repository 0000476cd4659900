"""Settings for Basis Lab Practice, read from the environment.

Development defaults need no setup: SQLite and Celery's filesystem broker under ``var/``.
Production and CI name PostgreSQL and Redis by URL (``DATABASE_URL``, ``CELERY_BROKER_URL``).
"""

from pathlib import Path

import dj_database_url

from .env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("BASISLAB_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=True)
# A development key only ever works with DEBUG on; production must set SECRET_KEY.
_DEV_SECRET_KEY = "django-insecure-dev-only-basislab-key-not-for-production-use-0123456789"  # noqa: S105
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG=0")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "axes",
    "csp",
    "django_htmx",
    "courses",
    "practice",
    "practice.review",
    "practice.analytics",
    "lti",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the body: no view takes files, so a request with one is refused.
    "basislab.middleware.RefuseUploadsMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before SessionMiddleware: sees its cookie, for a launched LTI session in an iframe.
    "lti.framing.EmbeddedCookiesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every response to a signed-in request is `private, no-store` unless the view opts out.
    "basislab.caching.PrivateByDefaultMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # AxesMiddleware last, as django-axes asks.
    "axes.middleware.AxesMiddleware",
    # After CSP and X-Frame-Options: lets registered LTI platforms frame launched sessions.
    "lti.framing.EmbeddingMiddleware",
]

ROOT_URLCONF = "basislab.urls"
WSGI_APPLICATION = "basislab.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_PREPARED_STATEMENTS", default=True
):
    # Values sent apart from the statement (psycopg's server-side binding), and a statement a
    # connection has run five times (psycopg's own default) prepared on the server: PostgreSQL
    # then plans it once per connection, not on every run (Continue's statement took 0.47 ms
    # to plan and 0.05 ms to run; docs/benchmarks.md). Off (0) behind a pooler in transaction
    # mode, whose server connections do not keep a client's prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # AxesStandaloneBackend first: a locked-out sign-in is refused before the password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The course a learner's dashboard opens (its files live in courses/content/<slug>/).
BASISLAB_COURSE_SLUG = env_str("BASISLAB_COURSE_SLUG", "how-text-becomes-numbers")

# The learner's course copies the account pages offer for export (before deleting, too): a
# function of the app that keeps them, so basislab.accounts imports none of the apps above it.
ACCOUNTS_COPIES = "courses.selectors.export_copies"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "courses:dashboard"
LOGOUT_REDIRECT_URL = "home"

# Sign-in throttling (django-axes): lock out a username+address after repeated failures.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

# The visitor's address, for the lockout above and the limits below (basislab/client_ip.py):
# the number of proxies in front that append to X-Forwarded-For (deploy/nginx: 1). With 0 the
# header is ignored, so a visitor talking to gunicorn directly cannot choose their address.
BASISLAB_TRUSTED_PROXIES = env_int("BASISLAB_TRUSTED_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "basislab.client_ip.client_ip"
RATELIMIT_IP_META_KEY = "basislab.client_ip.client_ip"
# Limits on free actions (django-ratelimit on the default cache), "<count>/<s|m|h|d>".
ACCOUNTS_SIGNUP_RATE = env_str("ACCOUNTS_SIGNUP_RATE", "10/h")  # sign-ups per address
ACCOUNTS_PASSWORD_RESET_RATE = env_str("ACCOUNTS_PASSWORD_RESET_RATE", "10/h")  # per address
ACCOUNTS_PASSWORD_RESET_EMAIL_RATE = env_str("ACCOUNTS_PASSWORD_RESET_EMAIL_RATE", "3/h")
ACCOUNTS_EMAIL_CHANGE_RATE = env_str("ACCOUNTS_EMAIL_CHANGE_RATE", "5/h")  # links per learner
PRACTICE_PREVIEW_RATE = env_str("PRACTICE_PREVIEW_RATE", "60/m")  # previews per learner
PRACTICE_VARIANT_RATE = env_str("PRACTICE_VARIANT_RATE", "30/h")  # new variants per learner
# LTI logins and launches per address (a launch is two requests; a class may share one address).
LTI_LAUNCH_RATE = env_str("LTI_LAUNCH_RATE", "120/m")
LTI_MAX_LAUNCH_BYTES = env_int("LTI_MAX_LAUNCH_BYTES", 65536)  # a launch post's largest body

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # WhiteNoise's hashed, compressed files in production; Django's plain storage in
        # development.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

CACHES = {
    "default": (
        {
            "BACKEND": "basislab.redis_cache.RedisCache",
            "LOCATION": env_str("CACHE_URL"),
        }
        if env_str("CACHE_URL")
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    )
}

# Django's cached database sessions by default: read from the cache above (no statement on a
# hit), written to the database and the cache, ended in both at sign-out. Or Django's database
# sessions alone ("django.contrib.sessions.backends.db"). Signed cookies and cache-only sessions
# are not offered: a server cannot end the one, and the other is lost with the cache.
SESSION_ENGINES = (
    "django.contrib.sessions.backends.cached_db",
    "django.contrib.sessions.backends.db",
)
SESSION_ENGINE = env_str("SESSION_ENGINE", SESSION_ENGINES[0])
if SESSION_ENGINE not in SESSION_ENGINES:
    raise RuntimeError(f"SESSION_ENGINE must be one of {', '.join(SESSION_ENGINES)}")

# Email: the console by default; SMTP when EMAIL_HOST is set.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if env_str("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Basis Lab <practice@basislab.invalid>")
# The site's public address, for links in email (review reminders, unsubscribe).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

# Security: strict in production, `manage.py check --deploy` clean with DEBUG=0.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Django's own CSRF failure page styles itself inline, which the CSP below refuses.
CSRF_FAILURE_VIEW = "basislab.errors.csrf_failure"
# Content-Security-Policy (django-csp): everything from this site, no inline script or style
# (pictures use SVG presentation attributes, never `style`), no plugins, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}
# No view takes files: the only upload handler refuses the first file part before reading it,
# and RefuseUploadsMiddleware answers 415 (basislab/middleware.py).
FILE_UPLOAD_HANDLERS = ["basislab.middleware.RefuseFilesHandler"]

# Celery: the filesystem transport under var/ by default, Redis or RabbitMQ by URL.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        # Broadcast (pidbox) exchanges; kombu would otherwise write them to ./control.
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Spaced review: one static entry per job; due dates live in the database, so a missed beat is
# caught up by the next scan. `expires` is shorter than the interval: a stale run is dropped.
from celery.schedules import crontab  # noqa: E402

CELERY_BEAT_SCHEDULE: dict = {
    "publish-due-reviews": {
        "task": "practice.review.tasks.publish_due_reviews",
        "schedule": 300.0,
        "options": {"expires": 240},
    },
    "send-review-digests": {
        "task": "practice.review.tasks.send_review_digests",
        "schedule": crontab(hour=7, minute=0),
        "options": {"expires": 3 * 3600},
    },
    # LTI scores the platform did not take yet (it was down): sent again until it answers.
    "lti-send-pending-scores": {
        "task": "lti.tasks.send_pending_scores",
        "schedule": 300.0,
        "options": {"expires": 240},
    },
    # Mistake counts an attempt's commit did not write (a failure after it): counted here.
    "catch-up-mistake-counts": {
        "task": "practice.analytics.tasks.catch_up_mistake_counts",
        "schedule": 600.0,
        "options": {"expires": 540},
    },
    "fit-review-parameters": {
        "task": "practice.review.tasks.fit_review_parameters",
        "schedule": crontab(day_of_week=1, hour=3, minute=30),
        "options": {"expires": 24 * 3600},
    },
    # After the parameters: a calibration map of predicted recall, judged on held-out reviews.
    "fit-recall-map": {
        "task": "practice.review.tasks.fit_recall_map",
        "schedule": crontab(day_of_week=1, hour=4, minute=0),
        "options": {"expires": 24 * 3600},
    },
    # Before the fit: a set whose predictions lost to a constant guess is withdrawn first.
    "report-review-calibration": {
        "task": "practice.review.tasks.report_review_calibration",
        "schedule": crontab(day_of_week=1, hour=3, minute=0),
        "options": {"expires": 24 * 3600},
    },
}
# Review policies (docs/review.md), each on by default and read at call time, so one process
# (the learner simulator) can compare them: a right answer credits the kind's other items; the
# course's idea graph passes fractional credit down; an unexplained wrong answer is reviewed
# too; a queue longer than the daily limit puts the reviews that clear others first.
REVIEW_IMPLICIT_CREDIT = env_bool("REVIEW_IMPLICIT_CREDIT", default=True)
REVIEW_GRAPH_CREDIT = env_bool("REVIEW_GRAPH_CREDIT", default=True)
REVIEW_UNEXPLAINED_ITEMS = env_bool("REVIEW_UNEXPLAINED_ITEMS", default=True)
REVIEW_QUEUE_CLEARING = env_bool("REVIEW_QUEUE_CLEARING", default=True)
# FSRS parameters fitted to this site's review logs schedule reviews once one beats the
# defaults on held-out reviews; off (the default) keeps py-fsrs's defaults while the weekly fit
# still runs, stores and scores every set. Off because the learner simulator measured lower
# final retention with fitted sets on both seeds (docs/simulation.md, docs/review.md).
REVIEW_FITTED_PARAMETERS = env_bool("REVIEW_FITTED_PARAMETERS", default=False)
# FSRS's predicted recall passed through the weekly calibration map (practice/review/recall_map.py)
# once one beats the map in use on held-out reviews; the due date is then when the calibrated
# recall falls to the learner's target. Off keeps FSRS's own recall while the weekly fit still
# stores and scores every map (docs/simulation.md has the measurement that decided it).
REVIEW_CALIBRATED_RECALL = env_bool("REVIEW_CALIBRATED_RECALL", default=False)
# The chance of recall a new learner's reviews aim for (they may change theirs, 0.70-0.97). With
# every right answer counting as a review, aiming high costs few explicit reviews: the learner
# simulator measured it (docs/simulation.md). py-fsrs's own default, and this site's before, is 0.9.
REVIEW_DESIRED_RETENTION = env_float("REVIEW_DESIRED_RETENTION", 0.97)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
