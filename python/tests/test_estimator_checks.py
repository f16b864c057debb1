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

That is the default configuration. With another metric (manhattan below) the checks that fit with
``sample_weight`` fail, because sample weights are taken with the euclidean metric only: they are listed as
expected failures with that reason, so a check that starts passing (or another that fails) shows. With
``metric="precomputed"`` scikit-learn's checks hand over feature matrices, not square distance matrices, and
do not apply.
"""
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

import sylva  # noqa: E402

#: Checks that apply but fail: none.
EXPECTED_FAILED_CHECKS = {}


#: With a metric other than euclidean: the checks that fit with sample weights, which that metric refuses.
WEIGHTS_EUCLIDEAN_ONLY = "sample weights are taken with the euclidean metric only"
EXPECTED_FAILED_OTHER_METRIC = {name: WEIGHTS_EUCLIDEAN_ONLY for name in (
    "check_sample_weights_not_an_array", "check_sample_weights_list", "check_all_zero_sample_weights_error",
    "check_sample_weights_shape", "check_sample_weights_not_overwritten",
    "check_sample_weight_equivalence_on_dense_data", "check_sample_weight_equivalence_on_sparse_data")}


def _expected_failures(est):
    return EXPECTED_FAILED_CHECKS if est.metric == "euclidean" else EXPECTED_FAILED_OTHER_METRIC


@parametrize_with_checks([sylva.HDBSCAN(), sylva.HDBSCAN(metric="manhattan")], expected_failed_checks=_expected_failures)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
