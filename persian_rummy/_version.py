"""The package's version: the one place it is written (the build, ``persian_rummy.__version__``,
``persian-rummy --version`` and the documentation read it from here)."""

__version__ = "0.1.0"
