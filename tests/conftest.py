"""The tests' conftest: being here, it puts this folder on ``sys.path`` (pytest's default
import mode), so the tests import their shared helpers by name (``waiting``, ``playouts``,
``conformance``, ``positions``). The Hypothesis profiles are registered in the root
``conftest.py``, so that the package's and the docs' examples run under them too."""
