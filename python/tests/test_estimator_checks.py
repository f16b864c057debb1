"""scikit-learn's own estimator checks on sylva.HDBSCAN.

Every check runs; none is expected to fail (``EXPECTED_FAILED_CHECKS`` is empty). Checks that
scikit-learn itself skips for this estimator, and why:

* ``check_estimators_nan_inf``: skipped because the estimator's tags say ``allow_nan`` (rows with NaN
  or an infinity are left out and labelled -3 / -2, as scikit-learn's HDBSCAN does);
* sparse input: the engine takes dense arrays only, so the tags say ``sparse=False`` and the sparse
  checks only verify that a sparse matrix is refused with a clear error (scikit-learn's HDBSCAN takes
  sparse input; Sylva does not);
* the predict / transform checks (sample-order and subset invariance, ``n_features_in_`` after
  fitting): HDBSCAN has no ``predict``, only ``fit_predict``, like scikit-learn's.
"""
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

import sylva  # noqa: E402

#: Checks that apply but fail: none.
EXPECTED_FAILED_CHECKS = {}


@parametrize_with_checks([sylva.HDBSCAN()], expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
