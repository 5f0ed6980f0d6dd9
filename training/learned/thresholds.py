"""The learned reader's rejection rules, chosen on the tune split and scored on any split (development time only).

The reader (src/vision/learned/reader.ts, one view) declines a die as cocked when the network's probability of
`cocked` reaches cockedAt or `cocked` is the most probable class, or when the cocked check (a second network
looking at the whole die and its outline, `extra`: its probability of `cocked` per die) reaches extra_at, and
declines a read of class c under thresholds[c]. `pr` are softmax probabilities [n, classes], `y` the true class
indices.
"""
import numpy as np
import torch

CONFIDENT = 0.9  # a wrong read at this confidence or more is a confident error (src/vision/readerMetrics.ts)


def reads(pr, classes, thr, cocked_at, extra=None, extra_at=None):
    """Which dice the reader reads (a face, not declined)."""
    conf, pred = pr.max(1)
    ck = classes.index('cocked') if 'cocked' in classes else -1
    flagged = torch.zeros(len(pr), dtype=torch.bool)
    if ck >= 0:
        flagged = pred == ck
        if cocked_at is not None: flagged |= pr[:, ck] >= cocked_at
    if extra is not None and extra_at is not None: flagged |= extra >= extra_at
    read = torch.zeros(len(pr), dtype=torch.bool)
    for c, name in enumerate(classes):
        if name in thr: read |= (pred == c) & ~flagged & (conf >= thr[name])
    return read


def score(pr, y, classes, thr, cocked_at, extra=None, extra_at=None):
    """The reader's figures with these rules: the ones `vision eval` prints (flat dice unless said)."""
    conf, pred = pr.max(1)
    ck = classes.index('cocked') if 'cocked' in classes else -1
    flat = y != ck
    read = reads(pr, classes, thr, cocked_at, extra, extra_at)
    wrong = read & flat & (pred != y)
    per_face = {name: ((y == c) & ~read).sum().item() / max(1, (y == c).sum().item()) for c, name in enumerate(classes) if c != ck and (y == c).any()}
    rates = list(per_face.values())
    return {
        'flat_declined': (~read[flat]).float().mean().item(),
        'correct_among_read': (read & flat & (pred == y)).sum().item() / max(1, (read & flat).sum().item()),
        'wrong': wrong.sum().item(),
        'confident_errors': (wrong & (conf >= CONFIDENT)).sum().item(),
        'per_face_declined': {k: round(v, 3) for k, v in per_face.items()},
        'spread': max(rates) / min(rates) if rates and min(rates) > 0 else (1.0 if not rates or max(rates) == 0 else float('inf')),
        'cocked_read': (read & ~flat).sum().item(),
        'cocked_total': (~flat).sum().item(),
        'flat_total': flat.sum().item(),
        # Over every die read, cocked dice read as a face counted wrong (what the thresholds are chosen for).
        'accuracy_all_read': (read & (pred == y)).sum().item() / max(1, read.sum().item()),
    }


def cost(s, wrong_cost):
    """Flat dice declined plus wrong_cost for each wrong read, a cocked die read as a face included (the calibration's
    rule, src/vision/calibration/learnedProfile.ts candidateCost)."""
    flat_total = s['flat_total']
    return s['flat_declined'] * flat_total + wrong_cost * (s['wrong'] + s['cocked_read'])


def choose(pr, y, classes, budgets, target_accuracy, margin, floor, ceiling, extra=None, extra_budgets=(None,), guard_cocked=True, wrong_cost=None):
    """Rules that decline the fewest flat tune dice while meeting target_accuracy among all tune dice read.

    With a cocked check (`extra`), its threshold extra_at declines at most eb of the flat dice, for each eb of
    extra_budgets, every pair (budget, eb) tried.

    For each cocked budget b, cockedAt declines at most b of the flat dice as cocked (at most 0.5); every face then
    declines the same share q of its own correct reads (its threshold is that quantile of their confidence, at least
    floor), q the smallest giving target_accuracy, so declines stay balanced between faces (reader bias); no wrong
    read near a confident error is let through (its class's threshold goes above it by margin; with guard_cocked False
    only flat dice's wrong reads lift it, cocked dice read as a face counting against target_accuracy only, so one
    leaning die read at 0.95 cannot decline most of a face). The budget giving
    the fewest flat declines wins: declining a few more flat dice of every face as cocked can spare many of one face.
    """
    conf, pred = pr.max(1)
    ck = classes.index('cocked') if 'cocked' in classes else -1
    flat = y != ck
    faces = [c for c in range(len(classes)) if c != ck]
    best = None
    for budget, eb in [(b, e) for b in budgets for e in extra_budgets]:
        cocked_at = min(0.5, float(torch.quantile(pr[flat, ck], 1 - budget)) + 1e-4) if ck >= 0 else None
        extra_at = None if extra is None or eb is None else min(0.99, float(torch.quantile(extra[flat], 1 - eb)) + 1e-4)
        flagged = ~reads(pr, classes, {classes[c]: 0.0 for c in faces}, cocked_at, extra, extra_at)
        for q in np.arange(0, 0.6, 0.0025):
            thr = {}
            for c in faces:
                right = conf[(y == c) & (pred == c) & ~flagged]
                t = float(torch.quantile(right, q)) if len(right) else floor
                wrong = conf[(pred == c) & (y != c) & ~flagged & (flat if not guard_cocked else True)]
                sure = wrong[wrong >= CONFIDENT - margin]
                if len(sure): t = max(t, float(sure.max()) + margin)
                thr[classes[c]] = round(min(ceiling, max(floor, t)), 6)
            s = score(pr, y, classes, thr, cocked_at, extra, extra_at)
            if s['accuracy_all_read'] < target_accuracy: continue
            better = best is None or (s['flat_declined'] < best[0]['flat_declined'] if wrong_cost is None else cost(s, wrong_cost) < cost(best[0], wrong_cost))
            if better:
                best = (s, thr, None if cocked_at is None else round(cocked_at, 6), (budget, eb), q, None if extra_at is None else round(extra_at, 6))
            # Without a cost, more declines than the least meeting the target never help.
            if wrong_cost is None: break
    if best is None: raise SystemExit(f'no rules reach {target_accuracy} correct among read on the tune set')
    return best


def describe(s):
    return (f"flat declined {s['flat_declined']:.4f}, correct among read {s['correct_among_read']:.4f} ({s['wrong']} wrong, "
            f"{s['confident_errors']} confident), per-face declined {s['per_face_declined']} (spread {s['spread']:.2f}x), "
            f"cocked read as a face {s['cocked_read']} of {s['cocked_total']}")
