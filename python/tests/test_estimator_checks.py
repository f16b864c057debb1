"""scikit-learn's own estimator checks on sylva.HDBSCAN (scikit-learn 1.9: 45 checks for a clusterer).

Every check that scikit-learn yields runs and passes; none is listed as an expected failure
(``EXPECTED_FAILED_CHECKS`` is empty). What does not run, and why:

* ``check_array_api_input`` is skipped by scikit-learn itself unless ``SCIPY_ARRAY_API=1`` is set in the
  environment (it passes with it set);
* ``check_estimators_nan_inf`` is not yielded: the estimator's tags say ``allow_nan``, because rows with
  NaN or an infinity are left out and labelled -3 / -2, as scikit-learn's HDBSCAN does;
* sparse input: taken, as scikit-learn's HDBSCAN takes it (the tags say ``sparse=True``): a sparse feature
  matrix is fitted densified, a sparse precomputed distance matrix as a graph (``test_sparse.py``);
* checks of ``predict``, ``transform`` and the like (sample-order and subset invariance, ``n_features_in_``
  at prediction): there is nothing to check, HDBSCAN has only ``fit`` and ``fit_predict``, as
  scikit-learn's;
* ``check_param_validation`` belongs to scikit-learn's own test suite, not to ``check_estimator``; the
  parameters are checked in ``fit`` with scikit-learn's messages (``test_hdbscan.py``).
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
