"""The examples in the modules' docstrings run as written."""
import doctest
import importlib

import pytest

# modules whose examples need scikit-learn (to make their input); skipped, saying so, without it
NEEDS_SKLEARN = {"sylva.graph"}


@pytest.mark.parametrize("name", ["sylva", "sylva.balltree", "sylva.hdbscan", "sylva.prediction", "sylva.validity",
                                  "sylva.graph"])
def test_docstring_examples_run(name):
    if name in NEEDS_SKLEARN:
        pytest.importorskip("sklearn")
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
