"""Load test: 50 learners answering problems against gunicorn on PostgreSQL (`make load`)."""
