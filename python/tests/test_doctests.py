"""The examples in the modules' docstrings run as written."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["sylva", "sylva.balltree", "sylva.hdbscan", "sylva.prediction", "sylva.validity",
                                  "sylva.graph"])
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
