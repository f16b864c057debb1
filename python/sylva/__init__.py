"""Sylva from Python: exact HDBSCAN (scikit-learn's estimator) and Erwin's ball trees, computed by the
Sylva engine, a long-lived JVM process started on first use (see :mod:`sylva._locate` for where it is
looked for).

>>> import numpy as np, sylva
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(c, 0.5, size=(200, 3)) for c in (0.0, 4.0, 8.0)])   # three blobs
>>> labels = sylva.HDBSCAN(min_cluster_size=20).fit_predict(X)
>>> np.bincount(labels + 1)   # no noise, three clusters of 200
array([  0, 200, 200, 200])
>>> tree_idx, tree_mask = sylva.build_balltree(np.random.default_rng(0).random((1000, 3), dtype=np.float32), None)
"""
from ._engine import Engine, get_engine as engine
from ._errors import EngineError, EngineNotFoundError
from ._locate import engine_command
from .balltree import build_balltree, build_balltree_with_rotations, generate_rotation_matrix, partition_balltree
from .graph import symmetric_graph
from .hdbscan import HDBSCAN
from .prediction import (all_points_membership_vectors, approximate_predict, approximate_predict_scores,
                         membership_vector)
from .validity import validity_index

__version__ = "0.1.0"
__all__ = ["HDBSCAN", "build_balltree", "partition_balltree", "build_balltree_with_rotations",
           "generate_rotation_matrix", "approximate_predict", "approximate_predict_scores",
           "membership_vector", "all_points_membership_vectors", "validity_index", "EngineError", "EngineNotFoundError", "engine",
           "engine_command", "Engine", "symmetric_graph"]
