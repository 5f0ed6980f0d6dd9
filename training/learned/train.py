#!/usr/bin/env python3
"""Trains the learned reader's network (development time only, never part of npm test).

Reads inputs made by exportInputs.ts (the very preprocessing the TypeScript
reader uses), trains a TinyNet-shaped CNN (3x3 conv + ReLU [+ 2x2 max pool],
global average pooling, one dense layer) with torch on the CPU, seeded, and
writes a TypeScript module with the weights in TinyNet's order, the data hash
of the training set and the exact command that reproduced them.

  /usr/bin/python3 training/learned/train.py --train /tmp/x/train --tune /tmp/x/tune \
      --convs 12p,24p,48p,48 --epochs 30 --name d6 --version learned-d6/1 --out src/vision/learned/weights/d6.ts
"""
import argparse, base64, json, os, shlex, sys, time
import numpy as np
import torch
import torch.nn.functional as F
import thresholds as rules
from tinynet import Net, flat_weights, initialise, parse_convs, probe_probabilities, spec_of, view

p = argparse.ArgumentParser()
p.add_argument('--train', required=True)
p.add_argument('--tune', required=True)
p.add_argument('--convs', default='12p,24p,48p,48')
p.add_argument('--epochs', type=int, default=30)
p.add_argument('--batch', type=int, default=64)
p.add_argument('--lr', type=float, default=3e-3)
p.add_argument('--wd', type=float, default=1e-4)
p.add_argument('--seed', type=int, default=1)
p.add_argument('--colour-invariant', action='store_true', help='also permute colour channels and swap light/dark (D6 pips: any die colour)')
p.add_argument('--name', required=True)
p.add_argument('--version', required=True)
p.add_argument('--scale', type=float, default=1.0)
p.add_argument('--height-ratio', type=float, default=1.0)
p.add_argument('--trained-on', default='')
p.add_argument('--out', required=True)
p.add_argument('--threads', type=int, default=1, help='1 is fastest on a shared machine')
p.add_argument('--aug-scale', type=float, default=0.1, help='raw context inputs: die size error, +- fraction')
p.add_argument('--aug-shift', type=float, default=0.06, help='raw context inputs: centre error, +- die sizes')
p.add_argument('--aug-colour', type=float, default=0.07, help='raw context inputs: per-channel gain spread (log)')
p.add_argument('--aug-blur', type=float, default=1.2, help='raw context inputs: largest blur sigma, input pixels')
p.add_argument('--aug-noise', type=float, default=6.0, help='raw context inputs: largest sensor noise sigma (0..255)')
p.add_argument('--aug-tone', type=float, default=0.0, help='raw context inputs: share of crops passed through a random camera tone curve (gamma and S-curve; 0, the default, as every network before learned-xwing/34 was trained)')
p.add_argument('--class-weight', action='append', default=[], help='NAME=W: loss weight of a class (e.g. cocked=3), default 1')
p.add_argument('--thresholds', action='store_true', help='set per-class thresholds and cockedAt on the tune set and ship them')
p.add_argument('--cocked-budget', default='0.015', help='fractions of flat tune dice cockedAt may decline as cocked, comma-separated: the one declining fewest flat tune dice wins')
p.add_argument('--check', default='', help='with --thresholds: an exported set never used to choose them, scored with them')
p.add_argument('--views', type=int, default=1, help='probabilities for thresholds and --save-probs averaged over this many turns/mirrors, as the reader reads with views (src/vision/d6/augment.ts transformInput turns 0..views-1)')
p.add_argument('--no-guard-cocked', action='store_true', help="with --thresholds: only flat dice's wrong reads lift a class threshold above them; cocked dice read as a face count against --target-accuracy only")
p.add_argument('--margin', type=float, default=0.02, help='a class threshold sits this far above its most confident wrong tune read')
p.add_argument('--floor', type=float, default=0.5)
p.add_argument('--ceiling', type=float, default=0.99)
p.add_argument('--wrong-cost', type=float, default=None, help='with --thresholds: choose the rules of lowest cost, flat tune dice declined plus this many for each wrong read or cocked die read as a face (the calibration uses 10), among those meeting --target-accuracy')
p.add_argument('--target-accuracy', type=float, default=0.998, help='correct among read the thresholds must give on tune')
p.add_argument('--load-torch', default='', help='start from this state_dict (with --epochs 0: only choose thresholds and write the module)')
p.add_argument('--save-torch', default='', help='also save the trained state_dict here (for threshold tuning)')
p.add_argument('--radial', action='store_true', help="raw context inputs only: turn each die so its radial direction (exportInputs' radial: optical centre -> die) points down, +-10 degrees while training, mirrored only across that direction; the reader turns the crop the same way (learned model radial, src/vision/learned/input.ts radialInput)")
p.add_argument('--hide-top', type=float, default=0.0, help="with --binary-cocked: every input was exported with its top face's middle hidden (exportInputs --hide-top R, the same R); the module says so (hideTop), and the reader hides it alike (src/vision/learned/hideTop.ts)")
p.add_argument('--binary-cocked', action='store_true', help='train the cocked check: two classes, flat (every face) and cocked')
p.add_argument('--save-probs', default='', help="write the network's probability of cocked on the tune (and check) set to PREFIX-tune.npy (PREFIX-check.npy)")
p.add_argument('--cocked-check', default='', help='with --thresholds: PREFIX of a cocked check\'s saved probabilities (--save-probs) on the same tune and check dice; PREFIX,PREFIX2: a check read with its partner (--check-partner-version), by the mean of the two')
p.add_argument('--check-partner-version', default='', help='with --binary-cocked: the version of a second check network the reader averages this one with (its module says so: partner)')
p.add_argument('--cocked-check-version', default='', help='with --cocked-check: the version of that cocked check network')
p.add_argument('--save-face-probs', default='', help="write the network's class probabilities (in --views) on the tune (and check) set to PREFIX-tune.npy, PREFIX-tune-labels.npy (PREFIX-check.npy): a --partner for another network's thresholds")
p.add_argument('--partner', default='', help="with --thresholds: PREFIX of a partner face network's saved probabilities (--save-face-probs) on the same tune (and check) dice; the reader averages the two networks' probabilities, so thresholds and cockedAt are set on that mean")
p.add_argument('--partner-version', default='', help='with --partner: the version of that partner network')
p.add_argument('--cocked-check-budget', default='0.01,0.02,0.03,0.04', help='fractions of flat tune dice the cocked check may decline, comma-separated')
p.add_argument('--off-axis-plane', type=float, default=0.0, help="with --binary-cocked: tell the network where each die lies, a fourth input plane of its angle off the lens axis (exportInputs' offAxis, degrees) over this many degrees; the module says so (offAxisPlaneDeg) and the reader adds the plane alike (src/vision/learned/reader.ts)")
a = p.parse_args()
assert not a.off_axis_plane or a.binary_cocked, '--off-axis-plane is for the cocked check: with --binary-cocked only'
assert not a.hide_top or a.binary_cocked, '--hide-top is for the cocked check: with --binary-cocked only'
assert not a.check_partner_version or a.binary_cocked, '--check-partner-version names a cocked check\'s partner: with --binary-cocked only'
torch.manual_seed(a.seed)
np.random.seed(a.seed)
torch.set_num_threads(a.threads)

def load(prefix):
    meta = json.load(open(prefix + '.json'))
    s = meta['size']
    c = meta.get('context') or s
    # Every set read (train, tune, check) must be cut as the reader will cut it: the top face hidden or not, alike.
    assert float(meta.get('hideTop', 0)) == a.hide_top, f"{prefix}: exported with hideTop {meta.get('hideTop', 0)}, but --hide-top is {a.hide_top}"
    x = np.fromfile(prefix + '.f32', dtype='<f4').reshape(-1, 3, c, c)
    if a.off_axis_plane:
        assert 'offAxis' in meta, f'{prefix}: --off-axis-plane needs the dice\'s angles off the lens axis (exportInputs writes offAxis)'
        meta['offAxis'] = torch.tensor(meta['offAxis'], dtype=torch.float32)
    if a.radial:
        assert meta.get('context') and 'radial' in meta, f'{prefix}: --radial needs raw context inputs with their radial directions (exportInputs --context)'
        meta['radial'] = torch.tensor(meta['radial'], dtype=torch.float32)
    return torch.from_numpy(x.copy()), torch.tensor(meta['labels']), meta

xt, yt, mt = load(a.train)
xv, yv, mv = load(a.tune)
assert mt['classes'] == mv['classes'], 'train and tune classes differ'
classes = mt['classes']
labels_of_check = lambda y: y
if a.binary_cocked:
    # The cocked check: every face is "flat"; it sees the whole die (a wider --scale) to judge its outline and side faces.
    ck0 = classes.index('cocked')
    labels_of_check = lambda y: (y == ck0).long()
    yt, yv = labels_of_check(yt), labels_of_check(yv)
    classes = ['flat', 'cocked']
size = mt['size']
convs = parse_convs(a.convs)

net = initialise(Net(convs, len(classes), channels=4 if a.off_axis_plane else 3))
if a.load_torch: net.load_state_dict(torch.load(a.load_torch))
opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=a.wd)
steps = max(1, a.epochs * ((len(xt) + a.batch - 1) // a.batch))
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps)

def normalise(x):
    # Exactly learnedInput (src/vision/learned/input.ts): one mean and one mean absolute deviation (at least 8) over all planes, clamped to +-4.
    n = x.shape[0]
    flat = x.reshape(n, -1)
    mean = flat.mean(1, keepdim=True)
    dev = (flat - mean).abs().mean(1, keepdim=True).clamp(min=8)
    return ((flat - mean) / dev).clamp(-4, 4).reshape(x.shape)

BLURS = [None] + [torch.exp(-0.5 * (torch.arange(-2, 3, dtype=torch.float32) / s) ** 2) for s in np.linspace(0.4, max(0.4, a.aug_blur), 4)]

def sample_raw(x, th, sc, m, t):
    # The central size x size cells of a raw context square (C x C), turned by th, scaled by sc, mirrored (m = -1) and
    # shifted by t cells: bilinear, the border repeated (radialInput in src/vision/learned/input.ts does the same).
    n, C = x.shape[0], x.shape[-1]
    S = size
    cos, sin = torch.cos(th) * sc, torch.sin(th) * sc
    theta = torch.stack([torch.stack([cos * m, -sin, 2 * t[:, 0] / S], 1), torch.stack([sin * m, cos, 2 * t[:, 1] / S], 1)], 1)
    theta[:, :, :2] *= S / C
    theta[:, :, 2] *= S / C
    grid = F.affine_grid(theta, (n, 3, S, S), align_corners=False)
    return F.grid_sample(x, grid, mode='bilinear', padding_mode='border', align_corners=False)

def tone(y, sel):
    # Another camera's or renderer's tone curve on the crops sel picks (the mean/deviation normalisation takes out only
    # gain and offset, not a curve): the exposed values clipped to 0..255 as a sensor clips, then a gamma exp(U(-0.4, 0.4))
    # and an S-curve v + c (3v^2 - 2v^3 - v), c ~ U(-0.4, 0.6) (increasing for any c in -2..1). Ranges chosen by reasoning on
    # camera curves, not tuned on a result.
    k = int(sel.sum())
    if k == 0: return y
    v = (y[sel] / 255).clamp(0, 1)
    v = v ** torch.exp((torch.rand(k, 1, 1, 1) * 2 - 1) * 0.4)
    c = torch.rand(k, 1, 1, 1) - 0.4
    v = v + c * (3 * v * v - 2 * v * v * v - v)
    y = y.clone()
    y[sel] = v * 255
    return y

def cut_raw(x, radial=None):
    # A raw context square (C x C cells at the input's density) -> the network's size x size input, turned by any angle
    # (--radial: radial direction down, +-10 degrees), mirrored, scaled and shifted (die size and centre errors), blurred,
    # recoloured and noised, then normalised.
    n = x.shape[0]
    S = size
    cells_per_die = S / a.scale
    th = torch.rand(n) * 2 * np.pi if radial is None else radial - np.pi / 2 + (torch.rand(n) * 2 - 1) * np.radians(10)
    sc = 1 + (torch.rand(n) * 2 - 1) * a.aug_scale
    m = torch.where(torch.rand(n) < 0.5, -1.0, 1.0)
    t = (torch.rand(n, 2) * 2 - 1) * a.aug_shift * cells_per_die
    y = sample_raw(x, th, sc, m, t)
    level = torch.randint(0, len(BLURS), (n,))
    level[torch.rand(n) < 0.5] = 0
    for li, k in enumerate(BLURS):
        sel = (level == li).nonzero().flatten()
        if k is None or len(sel) == 0: continue
        k = k / k.sum()
        z = F.pad(y[sel], (2, 2, 2, 2), mode='replicate')
        z = F.conv2d(z, k.view(1, 1, 1, 5).repeat(3, 1, 1, 1), groups=3)
        y[sel] = F.conv2d(z, k.view(1, 1, 5, 1).repeat(3, 1, 1, 1), groups=3)
    gain = torch.exp(a.aug_colour * torch.randn(n, 3, 1, 1)) * (0.6 + 0.8 * torch.rand(n, 1, 1, 1))
    y = y * gain
    if a.aug_tone > 0:
        y = tone(y, torch.rand(n) < a.aug_tone)
    y = y + 12 * torch.randn(n, 1, 1, 1)
    y = y + a.aug_noise * torch.rand(n, 1, 1, 1) * torch.randn_like(y)
    return normalise(y)

def centre_raw(x, meta):
    # The plain input the reader computes (no augmentation), from a raw context square (--radial: turned radial down).
    if a.radial:
        n = x.shape[0]
        return normalise(sample_raw(x, meta['radial'] - np.pi / 2, torch.ones(n), torch.ones(n), torch.zeros(n, 2)))
    C = x.shape[-1]
    o = (C - size) // 2
    return normalise(x[:, :, o:o + size, o:o + size])

def told(x, meta, idx=None):
    # --off-axis-plane: the colour planes, then one plane of each die's angle off the lens axis over a.off_axis_plane
    # degrees (the reader's withOffAxisPlane). Added after every change of the colour planes, so it is never turned or noised.
    if not a.off_axis_plane: return x
    v = (meta['offAxis'] if idx is None else meta['offAxis'][idx]) / a.off_axis_plane
    return torch.cat([x, v.view(-1, 1, 1, 1).expand(-1, 1, x.shape[2], x.shape[3])], 1)

raw = bool(mt.get('context'))
if raw: print(f'raw context inputs {xt.shape[-1]} -> {size}: turned, scaled +-{a.aug_scale}, shifted +-{a.aug_shift}, blur <= {a.aug_blur}, colour {a.aug_colour}, noise <= {a.aug_noise}' + (f', tone curve on {a.aug_tone:g} of them' if a.aug_tone > 0 else ''), flush=True)
def as_read(x, meta):
    # A tune or check set as the reader reads it: raw context cut to its centre, then (--off-axis-plane) told where each die lies.
    if meta.get('context'): x = centre_raw(x, meta)
    return told(x, meta)

_check_set = None
def check_set():
    # The --check dice as read, loaded once for every use below.
    global _check_set
    if _check_set is None:
        xc, yc, mc = load(a.check)
        _check_set = (as_read(xc, mc), yc, mc)
    return _check_set

xv = as_read(xv, mv)

def augment(x, idx):
    return told(augment_colour(x, idx), mt, idx)

def augment_colour(x, idx):
    if raw:
        x = cut_raw(x, mt['radial'][idx] if a.radial else None)
        if a.colour_invariant:
            x = x[:, torch.randperm(3)]
            x = x * torch.where(torch.rand(x.shape[0], 1, 1, 1) < 0.5, -1.0, 1.0)
        return x
    # The 8 turns/mirrors (an icon or pip face read from above has no fixed turn), contrast and noise.
    k = np.random.randint(4)
    x = torch.rot90(x, k, (2, 3))
    if np.random.rand() < 0.5: x = torch.flip(x, (3,))
    n = x.shape[0]
    x = x * (0.8 + 0.4 * torch.rand(n, 1, 1, 1)) + 0.15 * torch.randn(n, 3, 1, 1) * 0 + 0.08 * torch.randn_like(x)
    if a.colour_invariant:
        x = x[:, torch.randperm(3)]
        x = x * torch.where(torch.rand(n, 1, 1, 1) < 0.5, -1.0, 1.0)
    return x.clamp(-4, 4)

def evaluate(x, y):
    # One view, as the reader reads by default.
    net.eval()
    with torch.no_grad():
        pr = F.softmax(net(x), 1)
    net.train()
    conf, pred = pr.max(1)
    return (pred == y).float().mean().item(), conf, pred

class_weight = torch.ones(len(classes))
for cw in a.class_weight:
    name, w = cw.split('=')
    class_weight[classes.index(name)] = float(w)

t0 = time.time()
for epoch in range(a.epochs):
    perm = torch.randperm(len(xt))
    tot = 0.0
    for i in range(0, len(xt), a.batch):
        idx = perm[i:i + a.batch]
        loss = F.cross_entropy(net(augment(xt[idx], idx)), yt[idx], weight=class_weight, label_smoothing=0.05)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        tot += loss.item() * len(idx)
    acc, conf, pred = evaluate(xv, yv)
    ok = pred == yv
    print(f'epoch {epoch + 1}: loss {tot / len(xt):.4f}, tune accuracy {acc:.4f}, at p>=0.9: read {(conf >= 0.9).float().mean().item():.3f}, correct among read {(ok & (conf >= 0.9)).sum().item() / max(1, (conf >= 0.9).sum().item()):.4f} ({time.time() - t0:.0f} s)', flush=True)

def probabilities(x):
    net.eval()
    with torch.no_grad():
        pr = sum(F.softmax(net(view(x, t)), 1) for t in range(a.views)) / a.views
    net.train()
    return pr

thresholds, cocked_at, check_at, extra_check = None, None, None, None
if a.thresholds:
    # On the tune set, one view as the reader reads (training/learned/thresholds.py).
    budgets = [float(b) for b in a.cocked_budget.split(',')]
    extra_tune = extra_check = None
    extra_budgets = (None,)
    if a.cocked_check:
        # The cocked check's probabilities on the very same tune (and check) dice, in the same order.
        # A check with a partner is read by the mean of both networks' probabilities, as the reader reads it.
        prefixes = a.cocked_check.split(',')
        for prefix in prefixes:
            assert np.array_equal(np.load(prefix + '-tune-labels.npy'), (yv == classes.index('cocked')).long().numpy()), f'cocked check {prefix} scored other tune dice'
        extra_tune = torch.from_numpy(sum(np.load(prefix + '-tune.npy') for prefix in prefixes) / len(prefixes))
        if a.check: extra_check = torch.from_numpy(sum(np.load(prefix + '-check.npy') for prefix in prefixes) / len(prefixes))
        extra_budgets = [float(b) for b in a.cocked_check_budget.split(',')]
    own_tune = probabilities(xv)
    partner_check = None
    if a.partner:
        # The partner's probabilities on the very same tune (and check) dice, in the same order: the reader reads their mean.
        assert a.partner_version, '--partner needs --partner-version'
        assert np.array_equal(np.load(a.partner + '-tune-labels.npy'), yv.numpy()), 'the partner scored other tune dice'
        own_tune = (own_tune + torch.from_numpy(np.load(a.partner + '-tune.npy'))) / 2
        if a.check: partner_check = torch.from_numpy(np.load(a.partner + '-check.npy'))
    s, thresholds, cocked_at, budget, q, check_at = rules.choose(own_tune, yv, classes, budgets, a.target_accuracy, a.margin, a.floor, a.ceiling, extra_tune, extra_budgets, not a.no_guard_cocked, a.wrong_cost)
    print(f'tune thresholds (cocked budgets {budget}, q {q:.4f}): cockedAt {cocked_at}, cocked check at {check_at}, {json.dumps(thresholds)}', flush=True)
    print(f'tune with them: {rules.describe(s)}', flush=True)
    if a.check:
        xc, yc, mc = check_set()
        assert mc['classes'] == classes, 'check and train classes differ'
        assert partner_check is None or np.array_equal(np.load(a.partner + '-check-labels.npy'), yc.numpy()), 'the partner scored other check dice'
        print(f"check set {mc['images']} ({len(yc)} dice, data hash {mc['dataHash']}), never used to choose them: "
              f'{rules.describe(rules.score(probabilities(xc) if partner_check is None else (probabilities(xc) + partner_check) / 2, yc, classes, thresholds, cocked_at, extra_check, check_at))}', flush=True)
def cocked_recall(pc, cocked):
    # Share of cocked dice caught when the threshold declines at most b of the flat ones, for a few budgets b.
    return ', '.join(f'{b:.0%} flat: {(pc[cocked] >= float(torch.quantile(pc[~cocked], 1 - b))).float().mean().item():.3f}' for b in (0.01, 0.02, 0.04))

if a.save_probs:
    ck = classes.index('cocked')
    pv = probabilities(xv)[:, ck]
    np.save(a.save_probs + '-tune.npy', pv.numpy())
    np.save(a.save_probs + '-tune-labels.npy', yv.numpy())
    print(f'cocked caught on tune at {cocked_recall(pv, yv == ck)}', flush=True)
    if a.check:
        xc, yc, mc = check_set()
        pc = probabilities(xc)[:, ck]
        np.save(a.save_probs + '-check.npy', pc.numpy())
        print(f'cocked caught on check at {cocked_recall(pc, labels_of_check(yc) == ck)}', flush=True)

if a.save_face_probs:
    np.save(a.save_face_probs + '-tune.npy', probabilities(xv).numpy())
    np.save(a.save_face_probs + '-tune-labels.npy', yv.numpy())
    if a.check:
        xc, yc, mc = check_set()
        np.save(a.save_face_probs + '-check.npy', probabilities(xc).numpy())
        np.save(a.save_face_probs + '-check-labels.npy', yc.numpy())

flat = flat_weights(net)
b64 = base64.b64encode(flat.tobytes()).decode()
spec = spec_of(net, size, len(classes))
command = '/usr/bin/python3 training/learned/train.py ' + shlex.join(sys.argv[1:])
data_hash, trained_on = mt['dataHash'], a.trained_on or (mt['images'] + f" images {mt['first']}..{mt['last']}")
if a.load_torch and os.path.exists(a.load_torch + '.json'):
    # Started from an earlier run's weights (--save-torch): both commands reproduce them. With no epochs here they are
    # that run's weights (thresholds chosen here): record its data; fine-tuned here, they are this data's.
    made = json.load(open(a.load_torch + '.json'))
    if a.epochs == 0: data_hash, trained_on = made['dataHash'], a.trained_on or made['trainedOn']
    command = made['command'] + ' && ' + command
# A fixed input (x[i] = 2 sin(0.37 i)) and torch's probabilities for it: the TypeScript network must agree.
probe_probs = probe_probabilities(net, size)
lines = [b64[i:i + 120] for i in range(0, len(b64), 120)]
src = f"""/**
 * Shipped weights of the learned reader `{a.name}` (generated by training/learned/train.py; do not edit by hand).
 * Data hash (sha256 of the training set's file names and contents): {data_hash}.
 */
import type {{ LearnedModel }} from '../model.js';

export const {a.name}Model: LearnedModel = {{
  version: {json.dumps(a.version)},
  spec: {json.dumps(spec)},
  classes: {json.dumps(classes)},
  inputScale: {a.scale},
  heightRatio: {a.height_ratio},
  trainedOn: {json.dumps(trained_on)},
  dataHash: {json.dumps(data_hash)},
  command: {json.dumps(command)},
  probe: {json.dumps(probe_probs)},{'' if thresholds is None else f'''
  thresholds: {json.dumps(thresholds)},'''}{'' if cocked_at is None else f'''
  cockedAt: {cocked_at},'''}{'' if check_at is None else f'''
  cockedCheck: {{ version: {json.dumps(a.cocked_check_version)}, at: {check_at} }},'''}{'' if thresholds is None or not a.partner else f'''
  partner: {{ version: {json.dumps(a.partner_version)} }},'''}{'' if not a.check_partner_version else f'''
  partner: {{ version: {json.dumps(a.check_partner_version)} }},'''}{'' if (thresholds is None and not a.radial) or a.views == 1 else f'''
  views: {a.views},'''}{'' if not a.radial else '''
  radial: true,'''}{'' if not a.hide_top else f'''
  hideTop: {a.hide_top},'''}{'' if not a.off_axis_plane else f'''
  offAxisPlaneDeg: {a.off_axis_plane},'''}
  weightsBase64: [
{chr(10).join('    ' + json.dumps(l) + ',' for l in lines)}
  ].join(''),
}};
"""
open(a.out, 'w').write(src)
if a.save_torch:
    torch.save(net.state_dict(), a.save_torch)
    json.dump({'command': command, 'dataHash': data_hash, 'trainedOn': trained_on}, open(a.save_torch + '.json', 'w'))
print(f'wrote {a.out}: {flat.size} parameters, final tune accuracy {evaluate(xv, yv)[0]:.4f}')
