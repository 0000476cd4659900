"""Accounts: sign up, and Django's own sign in, sign out and password reset views."""
