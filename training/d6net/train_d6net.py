#!/usr/bin/env python3
"""Trains D6 second-opinion networks on box crops (development time only, never part of npm test).

Inputs come from exportCrops.ts (netInput, exactly as the reader computes it, plus shifted/scaled copies). Each use of
a die takes one of its copies, one of the 8 turns/mirrors, a permutation of the colour channels and a sign (light and
dark swapped): the changes trainD6Net makes. The network is TinyNet's shape (3x3 conv + ReLU [+ 2x2 max pool], global
average pooling, dense), seeded.

  --folds K   cross-validation by photo: K networks, each trained without one fold of photos, write the out-of-fold
              probabilities of every training die (PREFIX-oof.npy), on which the combined reader's rule is set.
  otherwise   one network on all training dice per seed: PREFIX-s<seed>.json (weights in TinyNet order, base64) and
              its probabilities on --tune (PREFIX-s<seed>-tune.npy).
Probabilities are averaged over the first --views turns (transformInput's order), as the reader reads; the same at
1, 2, 4 and 8 views are written beside them (PREFIX-oof-v<n>.npy, PREFIX-s<seed>-tune-v<n>.npy) to compare.

  /usr/bin/python3 training/d6net/train_d6net.py --train /tmp/d6x/train --tune /tmp/d6x/tune --convs 12p,24p,48p,48 \
      --epochs 40 --seeds 1,2,3 --folds 4 --out /tmp/d6x/run
"""
import argparse, base64, json, os, shlex, sys, time
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'learned'))
from tinynet import Net, flat_weights, initialise, parse_convs, probe_probabilities, spec_of, view  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument('--train', required=True)
p.add_argument('--tune', required=True)
p.add_argument('--convs', default='12p,24p,48p,48')
p.add_argument('--epochs', type=int, default=40, help='passes over every copy of every die')
p.add_argument('--batch', type=int, default=32)
p.add_argument('--lr', type=float, default=3e-3)
p.add_argument('--wd', type=float, default=1e-4)
p.add_argument('--smoothing', type=float, default=0.0)
p.add_argument('--noise', type=float, default=0.1, help='largest per-pixel noise sigma added to the normalised input')
p.add_argument('--aug-angle', type=float, default=180, help='raw context inputs: largest turn, degrees (180: any angle)')
p.add_argument('--aug-scale', type=float, default=0.08, help='raw context inputs: die size error, +- fraction')
p.add_argument('--aug-shift', type=float, default=0.04, help="raw context inputs: centre error, +- the input's side")
p.add_argument('--aug-gain', type=float, default=0.1, help='raw context inputs: per-channel gain spread (log)')
p.add_argument('--aug-highlight', type=float, default=0.0,
               help='raw context inputs: share of training uses with a glossy highlight drawn on the die (0: none, and no '
                    'random number drawn for it, so earlier runs reproduce)')
p.add_argument('--seeds', default='1')
p.add_argument('--folds', type=int, default=0)
p.add_argument('--views', type=int, default=4)
p.add_argument('--threads', type=int, default=1)
p.add_argument('--out', required=True)
a = p.parse_args()
torch.set_num_threads(a.threads)
convs = parse_convs(a.convs)


def load(prefix):
    meta = json.load(open(prefix + '.json'))
    s, c = meta.get('context') or meta['size'], meta['copies']
    x = np.fromfile(prefix + '.f32', dtype='<f4').reshape(len(meta['labels']), c, 3, s, s)
    return torch.from_numpy(x.copy()), torch.tensor(meta['labels']), meta


xt, yt, mt = load(a.train)
xv, yv, mv = load(a.tune)
size = mt['size']
raw = bool(mt.get('context'))
assert raw == bool(mv.get('context')), 'train and tune inputs must both be raw context squares, or both not'


def normalise(x):
    # Exactly normaliseNetInput (src/vision/d6/netInput.ts): each channel relative to the median of its central 40 %
    # (the upper middle value), divided by the mean absolute deviation over all planes (at least 8), clamped to +-4.
    n, S = x.shape[0], x.shape[-1]
    lo, hi = int(np.floor(S * 0.3)), int(np.ceil(S * 0.7))
    mid = x[:, :, lo:hi, lo:hi].reshape(n, 3, -1).sort(2).values
    centre = mid[:, :, mid.shape[2] // 2].reshape(n, 3, 1, 1)
    dev = (x - centre).abs().mean(dim=(1, 2, 3), keepdim=True).clamp(min=8)
    return ((x - centre) / dev).clamp(-4, 4)


def cut_raw(x, train):
    # A raw C x C square at the input's density -> the 32 x 32 input; in training turned by any angle, mirrored,
    # scaled, shifted and recoloured first. The plain centre cut is exactly what netInput samples.
    n, C = x.shape[0], x.shape[-1]
    if not train:
        o = (C - size) // 2
        return normalise(x[:, :, o:o + size, o:o + size].clone())
    th = (torch.rand(n) * 2 - 1) * np.pi * a.aug_angle / 180
    sc = 1 + (torch.rand(n) * 2 - 1) * a.aug_scale
    m = torch.where(torch.rand(n) < 0.5, -1.0, 1.0)
    t = (torch.rand(n, 2) * 2 - 1) * a.aug_shift * 2
    cos, sin = torch.cos(th) * sc, torch.sin(th) * sc
    theta = torch.stack([torch.stack([cos * m, -sin, t[:, 0]], 1), torch.stack([sin * m, cos, t[:, 1]], 1)], 1)
    theta[:, :, :2] *= size / C
    theta[:, :, 2] *= size / C
    grid = F.affine_grid(theta, (n, 3, size, size), align_corners=False)
    y = F.grid_sample(x, grid, mode='bilinear', padding_mode='border', align_corners=False)
    if a.aug_highlight > 0: y = highlight(y)
    y = y * torch.exp(a.aug_gain * torch.randn(n, 3, 1, 1))
    return normalise(y)


def highlight(y):
    # A glossy die's specular spot: a soft white ellipse 0.1-0.35 labelled boxes across, its centre within 0.35 box
    # of the input's (the box spans ~29 of the input's 32 pixels: the crop is 1.3 box sides and the input its central
    # 0.85; the die itself often less, the labels being loose), blended towards white by 0.4-1.0. It can cross a pip
    # and pale it, as on the photos' glossy dice.
    n, S = y.shape[0], y.shape[-1]
    box = S / (1.3 * 0.85)
    on = (torch.rand(n) < a.aug_highlight).float()
    c = (torch.rand(n, 2) * 2 - 1) * 0.35 * box + (S - 1) / 2
    r = (0.05 + torch.rand(n, 2) * 0.125) * box
    ang = torch.rand(n) * np.pi
    strength = (0.4 + torch.rand(n) * 0.6) * on
    g = torch.arange(S, dtype=y.dtype)
    dy, dx = g.view(1, S, 1) - c[:, 1].view(n, 1, 1), g.view(1, 1, S) - c[:, 0].view(n, 1, 1)
    cs, sn = torch.cos(ang).view(n, 1, 1), torch.sin(ang).view(n, 1, 1)
    u, v = (dx * cs + dy * sn) / r[:, 0].view(n, 1, 1), (-dx * sn + dy * cs) / r[:, 1].view(n, 1, 1)
    m = (strength.view(n, 1, 1) * torch.exp(-0.5 * (u * u + v * v))).unsqueeze(1)
    return y + m * (255 - y)


if raw: xv = cut_raw(xv[:, 0], False).unsqueeze(1)


def dihedral(x, t):
    # One of the 8 turns/mirrors for training (mirrors, then a transpose for bit 4: numbered unlike transformInput's
    # views, which only the reading side must match; the shipped weights were trained with this numbering).
    dims = ([3] if t & 1 else []) + ([2] if t & 2 else [])
    if dims: x = torch.flip(x, dims)
    return x.transpose(2, 3) if t & 4 else x


def augment(x):
    if raw: x = cut_raw(x, True)
    n = x.shape[0]
    out = torch.empty_like(x)
    turns = torch.randint(0, 8, (n,))
    for t in range(8):
        sel = (turns == t).nonzero().flatten()
        if len(sel): out[sel] = dihedral(x[sel], t)
    out = out[:, torch.randperm(3)]
    out = out * torch.where(torch.rand(n, 1, 1, 1) < 0.5, -1.0, 1.0)
    out = out + a.noise * torch.rand(n, 1, 1, 1) * torch.randn_like(out)
    return out.clamp(-4, 4)


def train(x, y, seed):
    torch.manual_seed(seed)
    net = initialise(Net(convs, 6))
    n, c = x.shape[0], x.shape[1]
    flat_x = x.reshape(n * c, 3, x.shape[-1], x.shape[-1])
    flat_y = y.repeat_interleave(c)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=a.wd)
    steps = a.epochs * ((len(flat_y) + a.batch - 1) // a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=max(1, steps))
    t0 = time.time()
    for epoch in range(a.epochs):
        perm = torch.randperm(len(flat_y))
        tot = 0.0
        for i in range(0, len(perm), a.batch):
            idx = perm[i:i + a.batch]
            loss = F.cross_entropy(net(augment(flat_x[idx])), flat_y[idx], label_smoothing=a.smoothing)
            opt.zero_grad(); loss.backward(); opt.step(); sched.step()
            tot += loss.item() * len(idx)
        if (epoch + 1) % 10 == 0 or epoch + 1 == a.epochs:
            acc = (probabilities(net, xv[:, 0]).argmax(1) == yv).float().mean().item()
            print(f'  seed {seed} epoch {epoch + 1}: loss {tot / len(flat_y):.4f}, tune accuracy {acc:.4f} ({time.time() - t0:.0f} s)', flush=True)
    return net


def probabilities(net, x, views=None):
    net.eval()
    with torch.no_grad():
        n = views or a.views
        pr = sum(F.softmax(net(view(x, t)), 1) for t in range(n)) / n
    net.train()
    return pr


seeds = [int(s) for s in a.seeds.split(',')]
command = '/usr/bin/python3 training/d6net/train_d6net.py ' + shlex.join(sys.argv[1:])
if a.folds:
    photos = sorted(set(mt['groups']))
    fold_of_photo = {ph: i % a.folds for i, ph in enumerate(photos)}
    fold = torch.tensor([fold_of_photo[g] for g in mt['groups']])
    oof = torch.zeros(len(seeds), len(yt), 6)
    other_views = {v: torch.zeros(len(seeds), len(yt), 6) for v in (1, 2, 4, 8) if v != a.views}
    for si, seed in enumerate(seeds):
        for k in range(a.folds):
            tr, te = (fold != k).nonzero().flatten(), (fold == k).nonzero().flatten()
            net = train(xt[tr], yt[tr], seed * 100 + k)
            xk = cut_raw(xt[te, 0], False) if raw else xt[te, 0]
            oof[si, te] = probabilities(net, xk)
            for v, o in other_views.items(): o[si, te] = probabilities(net, xk, v)
        acc = (oof[si].argmax(1) == yt).float().mean().item()
        print(f'seed {seed}: out-of-fold accuracy {acc:.4f} ({a.views} views; ' + ', '.join(f'{v} views {(o[si].argmax(1) == yt).float().mean().item():.4f}' for v, o in other_views.items()) + ')', flush=True)
    np.save(a.out + '-oof.npy', oof.numpy())
    for v, o in other_views.items(): np.save(f'{a.out}-oof-v{v}.npy', o.numpy())
    print(f'ensemble of {len(seeds)}: out-of-fold accuracy {(oof.mean(0).argmax(1) == yt).float().mean().item():.4f}')
else:
    for seed in seeds:
        net = train(xt, yt, seed)
        pv = probabilities(net, xv[:, 0])
        np.save(f'{a.out}-s{seed}-tune.npy', pv.numpy())
        for v in (1, 2, 4, 8):
            if v != a.views: np.save(f'{a.out}-s{seed}-tune-v{v}.npy', probabilities(net, xv[:, 0], v).numpy())
        json.dump({
            'spec': spec_of(net, size, 6),
            'weightsBase64': base64.b64encode(flat_weights(net).tobytes()).decode(),
            'dataHash': mt['dataHash'], 'command': command, 'seed': seed, 'probe': probe_probabilities(net, size),
        }, open(f'{a.out}-s{seed}.json', 'w'))
        print(f'seed {seed}: tune accuracy {(pv.argmax(1) == yv).float().mean().item():.4f}', flush=True)
