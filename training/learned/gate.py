#!/usr/bin/env python3
"""A candidate X-Wing reader's gate (training/README.md), from `dicerig vision eval --json` outputs.

Each argument is NAME=EVAL.json,EVAL.json,...: one reader's evaluations of the gate sets, in the same order for every
reader. For each reader it prints, summed over the sets: flat dice declined, flat dice read wrong, cocked dice read as a
face, the cost (flat declined + 10 x (wrong + cocked read as a face)), confident errors, and the chi-square p of flat
declines across faces, the faces pooled over the sets (SciPy's chi2_contingency on declined/not declined by face; the
figure is SciPy's, not this repository's statistics). Development time only.

    python3 training/learned/gate.py shipped=a33.json,b33.json candidate=a23.json,b23.json
"""
import json
import sys

from scipy.stats import chi2_contingency


def summary(paths):
    declined = wrong = cocked_read = confident = 0
    by_face = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            e = json.load(f)
        for c in e["perFace"]:
            if c["total"] == 0:
                continue
            declined += c["declined"]
            wrong += c["read"] - c["correct"]
            d, t = by_face.get(c["className"], (0, 0))
            by_face[c["className"]] = (d + c["declined"], t + c["total"])
        cocked_read += e["cockedReadAsFace"]
        confident += len(e["confidentErrors"])
    table = [[d, t - d] for d, t in by_face.values()]
    # No flat die declined at all: the faces are declined alike (chi2_contingency refuses a column of zeros).
    p = chi2_contingency(table)[1] if any(d > 0 for d, _ in table) else 1.0
    return {
        "flat declined": declined,
        "read wrong": wrong,
        "cocked read": cocked_read,
        "cost": declined + 10 * (wrong + cocked_read),
        "confident errors": confident,
        "p across faces": round(float(p), 4),
        "declined by face": {k: f"{d}/{t}" for k, (d, t) in sorted(by_face.items())},
    }


def main(argv):
    if len(argv) < 1 or any("=" not in a for a in argv):
        sys.exit(__doc__)
    for arg in argv:
        name, files = arg.split("=", 1)
        print(name, json.dumps(summary(files.split(",")), indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
