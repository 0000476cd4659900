"""Fixtures of the load test's tests: ``postgres_url``, the PostgreSQL of
tests/postgres_server.py (the smoke runs need one, as `make load` does)."""

from tests import postgres_server

postgres_url = postgres_server.postgres_url
