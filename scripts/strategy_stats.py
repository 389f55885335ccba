"""How varied are the op-table property tests' drawn arrays? (issue 14 §6)

For every spec, draws the examples the ci profile draws (derandomized, 40 per spec) and
reports the fraction of drawn arrays (of more than one element) whose elements are all
distinct, that are constant, and that are all zeros; and the shapes' largest side.

    .venv/bin/python scripts/strategy_stats.py
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from janusgrad import SPECS


def stats():
    counts = dict(arrays=0, distinct=0, constant=0, zeros=0, ties=0)
    sides = []
    per_spec_distinct = []
    for spec in SPECS:
        seen = []

        @settings(derandomize=True, max_examples=40, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.data())
        def run(data):
            arrays, _ = spec.make(data.draw, st, hnp)  # noqa: B023 (run is called at once)
            seen.append([np.asarray(a) for a in arrays])  # noqa: B023

        run()
        distinct_cases = 0
        for arrays in seen:
            case_distinct = True
            for a in arrays:
                if a.dtype.kind != "f" or a.size < 2:
                    continue
                counts["arrays"] += 1
                n_unique = len(np.unique(a))
                sides.append(max(a.shape))
                if n_unique == a.size:
                    counts["distinct"] += 1
                else:
                    case_distinct = False
                    if n_unique == 1:
                        counts["constant"] += 1
                        counts["zeros"] += not np.any(a)
                    else:
                        counts["ties"] += 1
            distinct_cases += case_distinct
        per_spec_distinct.append(distinct_cases)
    n = max(counts["arrays"], 1)
    print(f"specs: {len(SPECS)}, arrays of 2+ elements drawn: {counts['arrays']}")
    for k in ("distinct", "ties", "constant", "zeros"):
        print(f"  {k:9s} {counts[k] / n:6.1%}")
    print(f"  examples per spec with all arrays distinct (of 40): min {min(per_spec_distinct)}, "
          f"median {int(np.median(per_spec_distinct))}")
    print(f"  largest side: max {max(sides)}, mean {np.mean(sides):.2f}")


if __name__ == "__main__":
    stats()
