"""scikit-learn's estimator base classes when scikit-learn is importable, else minimal stand-ins.

numpy is the package's only hard dependency: without scikit-learn, :class:`BaseEstimator` still
gives ``get_params``/``set_params`` (from the constructor's signature, as scikit-learn does) and
``repr``, and :class:`ClusterMixin` gives ``fit_predict``. A scikit-learn older than 1.6 (no
``validate_data``, which the estimator's input checks are written against) counts as absent, but for
its ``NotFittedError``, which callers may catch.
"""
from __future__ import annotations

import inspect

try:
    from sklearn.base import BaseEstimator, ClusterMixin   # noqa: F401
    from sklearn.exceptions import NotFittedError   # noqa: F401
    from sklearn.utils.validation import validate_data   # noqa: F401  (scikit-learn 1.6 and later)
    HAVE_SKLEARN = True
except ImportError:   # pragma: no cover - exercised by a test that hides scikit-learn
    HAVE_SKLEARN = False
    try:   # an older scikit-learn's exception, so that its users' except clauses still catch it
        from sklearn.exceptions import NotFittedError   # noqa: F401
    except ImportError:
        class NotFittedError(ValueError, AttributeError):
            """An estimator used before ``fit``: scikit-learn's exception of that name, with its two bases."""

    class BaseEstimator:
        """get_params/set_params over the constructor's keyword arguments, as scikit-learn's."""

        @classmethod
        def _get_param_names(cls):
            sig = inspect.signature(cls.__init__)
            return sorted(p.name for p in sig.parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for key, value in params.items():
                if key not in valid:
                    raise ValueError(f"Invalid parameter {key!r} for estimator {type(self).__name__}. "
                                     f"Valid parameters are: {valid!r}.")
                setattr(self, key, value)
            return self

        def __repr__(self):
            defaults = {p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values()}
            changed = [f"{k}={v!r}" for k, v in self.get_params().items() if defaults.get(k) is not v
                       and defaults.get(k) != v]
            return f"{type(self).__name__}({', '.join(changed)})"

    class ClusterMixin:
        """fit_predict = fit, then labels_."""

        _estimator_type = "clusterer"

        def fit_predict(self, X, y=None, **kwargs):
            self.fit(X, **kwargs)
            return self.labels_
