"""The package's version, in one place: pyproject.toml reads it, the front ends print it."""

__version__ = "0.1.0"
