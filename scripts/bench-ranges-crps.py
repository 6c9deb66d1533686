#!/usr/bin/env python3
"""The CRPS of the 80 % ranges again, independently of Brolly's Swift: properscoring (PyPI) on the
days brolly-correction-replay wrote with --csv. The calibrated range is read as the normal
distribution whose 10th-90th percentiles it spans (mu, sigma columns); the raw ensemble as its
members. Prints, per setting, the days, the coverage of each and the mean CRPS of each.

    swift run -c release brolly-correction-replay --sweep --csv /tmp/ranges.csv
    python3 -m pip install properscoring   # once
    python3 scripts/bench-ranges-crps.py /tmp/ranges.csv
"""
import csv
import sys
from collections import defaultdict

import numpy as np
import properscoring as ps


def main(path):
    rows = defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[r["setting"]].append(r)
    print("| setting | days | coverage calibrated | coverage raw ensemble | CRPS calibrated (°C) | CRPS raw ensemble (°C) |")
    print("|---|---|---|---|---|---|")
    for setting, rs in rows.items():
        y = np.array([float(r["truth"]) for r in rs])
        mu = np.array([float(r["mu"]) for r in rs])
        sigma = np.array([float(r["sigma"]) for r in rs])
        lo = np.array([float(r["p10"]) for r in rs])
        hi = np.array([float(r["p90"]) for r in rs])
        members = np.array([[float(v) for k, v in r.items() if k.startswith("m") and k[1:].isdigit()] for r in rs])
        p10, p90 = np.quantile(members, 0.1, axis=1), np.quantile(members, 0.9, axis=1)
        calibrated = ps.crps_gaussian(y, mu=mu, sig=sigma).mean()
        raw = ps.crps_ensemble(y, members).mean()
        print(f"| {setting} | {len(rs)} | {100 * np.mean((lo <= y) & (y <= hi)):.2f} % | {100 * np.mean((p10 <= y) & (y <= p90)):.2f} % "
              f"| {calibrated:.3f} | {raw:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/ranges.csv")
