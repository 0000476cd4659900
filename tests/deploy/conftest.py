"""Fixtures of the deploy tests: ``postgres_url``, the PostgreSQL of tests/postgres_server.py."""

from tests import postgres_server

postgres_url = postgres_server.postgres_url
