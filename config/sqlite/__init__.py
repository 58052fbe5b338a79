"""The embedded default's database backend: Django's SQLite, kept connections checked."""
