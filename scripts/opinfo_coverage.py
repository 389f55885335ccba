"""OpInfo coverage of torchlike (vs torch) and paddlelike (vs real paddle), issue 15 §1.

    python scripts/opinfo_coverage.py            # summary of both dialects
    python scripts/opinfo_coverage.py --write    # ... and rewrite tests/opinfo/passing_*.txt
    python scripts/opinfo_coverage.py --details  # ... and every failing op with its cause
    python scripts/opinfo_coverage.py --dialect torch --details

The same runs as tests/test_opinfo_torch.py and tests/test_opinfo_paddle.py (the samples, caps
and comparisons of tests/opinfo/core.py; the table of tests/opinfo/paddle_map.py).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(dialect):
    from tests.opinfo import core
    if dialect == "torch":
        names, fn = list(core.select()), core.run_torch
    else:
        from tests.opinfo import paddle_map
        names, fn = list(paddle_map.rows()), paddle_map.run_paddle
    return {n: fn(n) for n in names}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dialect", choices=("torch", "paddle", "both"), default="both")
    ap.add_argument("--write", action="store_true", help="rewrite the checked-in pass lists")
    ap.add_argument("--details", action="store_true", help="print each failing op's cause")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    from tests.opinfo import core, report
    for dialect in ("torch", "paddle") if args.dialect == "both" else (args.dialect,):
        t0 = time.perf_counter()
        results = run(dialect)
        took = time.perf_counter() - t0
        expected = core.read_list(report.LISTS[dialect])
        unmapped = sum(1 for o in results.values() if o.category == "mapping")
        total = len(core.select()) if dialect == "torch" else len(results)
        for line in report.summary(dialect, results, expected, total,
                                   unmapped if dialect == "paddle" else 0):
            print(line)
        print(f"  ({sum(o.samples for o in results.values())} samples compared, "
              f"{sum(o.skipped for o in results.values())} skipped, {took:.1f} s)")
        if args.details:
            for n, o in results.items():
                if not o.passed:
                    print(f"    {n}: {o.line()}")
        if args.write:
            names = report.write_list(dialect, results)
            print(f"  wrote {len(names)} names to {os.path.relpath(report.LISTS[dialect])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
