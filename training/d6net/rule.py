#!/usr/bin/env python3
"""Replays the combined D6 reader's rule off line (development time only): the pip counter's reads (exportCrops.ts)
with a second opinion's probabilities (train_d6net.py), and chooses the rule's four settings by cost: dice declined
plus --wrong-cost for each wrong read (the calibration's rule), on the dice it is given.

The rule is CombinedD6Reader.read's (src/vision/d6/combinedReader.ts), step for step:
  1. a pip count at or above the counter's own threshold is read unless the network firmly (>= veto) says another face;
  2. an unsure count is read if the network agrees with at least `agree`;
  3. with no count (or one under `lowPip`), the network's face is read at `alone` or more;
  4. anything else is declined.

  /usr/bin/python3 training/d6net/rule.py --dice /tmp/d6x/train --probs /tmp/d6x/cvA-oof.npy [--apply veto,agree,alone,lowPip]
"""
import argparse, itertools, json
import numpy as np

p = argparse.ArgumentParser()
p.add_argument('--dice', required=True, help='PREFIX of exportCrops.ts output (its .json)')
p.add_argument('--probs', required=True, help='.npy of probabilities, dice x 6, or seeds x dice x 6 (averaged: an ensemble); several files, comma-separated, are averaged together')
p.add_argument('--wrong-cost', type=float, default=10)
p.add_argument('--apply', default='', help='veto,agree,alone,lowPip: score these settings only')
p.add_argument('--first', default='', help="the same networks' probabilities at one view (comma-separated files, as --probs): a die whose one-view mean is at least --early-at sure is read from it alone, as the reader does")
p.add_argument('--early-at', type=float, default=2.0, help='with --first: the one-view mean that ends the read early (recorded in --json; above 1: never)')
p.add_argument('--views', type=int, default=4, help='the turns/mirrors the probabilities were averaged over (recorded in --json)')
p.add_argument('--json', default='', help="write the chosen rules here: the combined reader's, and the networks' own threshold (--reader learned)")
p.add_argument('--check', default='', help='PREFIX,PROBS[;FIRST]: another set (exportCrops.ts output, probabilities, one-view probabilities) the chosen rules are scored on, never chosen by')
a = p.parse_args()
def load(prefix, probs, first=''):
    global meta, y, count, conf, pr, face, net_p, sure
    meta = json.load(open(prefix + '.json'))
    y = np.array(meta['labels'])
    count = np.array(meta['pipCount'])
    conf = np.array(meta['pipConfidence'])
    stack = lambda files: np.concatenate([(lambda q: q if q.ndim == 3 else q[None])(np.load(f)) for f in files.split(',')]).mean(0)
    pr = stack(probs)
    if first:
        # As netProbabilities reads: the one-view mean where it is sure enough, all views elsewhere.
        p1 = stack(first)
        early = p1.max(1) >= a.early_at
        print(f'{probs}: {early.mean():.3f} of the dice read from the first view alone (at {a.early_at})')
        pr = np.where(early[:, None], p1, pr)
    assert pr.shape == (len(y), 6), f'{probs} holds {pr.shape}, not {len(y)} dice x 6'
    face = pr.argmax(1)
    net_p = pr.max(1)
    sure = (count > 0) & (conf >= meta['pipMinConfidence'])


load(a.dice, a.probs, a.first)


def alone(at):
    # The networks alone (D6NetReader): their face at `at` or more, else declined.
    return np.where(net_p >= at, face, -1)


def decide(veto, agree, alone, low):
    # Returns the face read (0..5) or -1 for declined, per die.
    out = np.full(len(y), -1)
    r1 = sure & ~((face != count - 1) & (net_p >= veto))
    out[r1] = count[r1] - 1
    r2 = ~sure & (count > 0) & (face == count - 1) & (net_p >= agree)
    out[r2] = count[r2] - 1
    r3 = ~sure & ~r2 & (net_p >= alone) & ((count == 0) | (conf < low))
    out[r3] = face[r3]
    return out


def describe(out):
    read = out >= 0
    wrong = read & (out != y)
    per_face = [(~read & (y == f)).sum() / max(1, (y == f).sum()) for f in range(6)]
    lo, hi = min(per_face), max(per_face)
    spread = 'unbounded' if lo == 0 and hi > 0 else f'{hi / lo:.2f}x' if lo > 0 else '1.00x'
    return (f'{read.sum()} read of {len(y)}, {wrong.sum()} wrong ({100 * (1 - wrong.sum() / max(1, read.sum())):.2f} % correct among read), '
            f'{100 * (~read).mean():.1f} % declined (per face {"/".join(f"{100 * v:.1f}" for v in per_face)} %, spread {spread})')


def wrong(out):
    return ((out >= 0) & (out != y)).sum()


def cost(out):
    return (out < 0).sum() + a.wrong_cost * wrong(out)


print(f'network alone (argmax): accuracy {(face == y).mean():.4f}; pip counter sure on {sure.mean():.3f} of dice, right on {((count - 1 == y) & sure).sum() / max(1, sure.sum()):.4f} of those')
if a.apply:
    v = [float(s) for s in a.apply.split(',')]
    print(f'rule {v}: {describe(decide(*v))}')
else:
    # Lowest cost first; among equal costs the stricter rule (fewer wrong reads), then the grid's order.
    grid = itertools.product([0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99], [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98], [0.1, 0.2, 0.3, 0.5])
    scored = sorted(((cost(out), wrong(out), i, v) for i, v in enumerate(grid) for out in [decide(*v)]), key=lambda s: s[:3])
    for c, _, _, v in scored[:3]:
        print(f'cost {c:.0f}, rule {list(v)}: {describe(decide(*v))}')
    rule = scored[0][3]
    ats = [round(0.5 + 0.01 * i, 2) for i in range(50)]
    at = min(ats, key=lambda t: (cost(alone(t)), -t))
    print(f'the networks alone at {at} (cost {cost(alone(at)):.0f}): {describe(alone(at))}')
    if a.check:
        prefix, probs = a.check.split(',', 1)
        probs, first = (probs.split(';') + [''])[:2]
        load(prefix, probs, first)
        print(f'check {prefix} ({len(y)} dice, never used to choose): combined rule {list(rule)}: {describe(decide(*rule))}; networks alone at {at}: {describe(alone(at))}')
    if a.json:
        names = ('vetoProbability', 'agreeProbability', 'aloneProbability', 'lowPipConfidence')
        json.dump({'views': a.views, 'minProbability': at, 'earlyAt': a.early_at if a.first else 2.0, 'combined': dict(zip(names, rule))}, open(a.json, 'w'))
        print(f'wrote {a.json}')
