#!/usr/bin/env python3
"""A torch state_dict from a shipped network's weights (exportWeights.ts output), development time only.

  /usr/bin/python3 training/learned/state_from_weights.py --weights /tmp/xw/shipped --out /tmp/xw/shipped.pt

Writes OUT.json with the command, data hash and training set that made the weights (as train.py --save-torch does),
so a network fine-tuned from them records its whole recipe. Refuses weights whose count does not fit the NetSpec, and
a network whose torch probabilities for the probe input differ from the module's probe (the same check learnedReader.test.ts makes of the TypeScript network).
"""
import argparse, json, os, sys
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tinynet import Net, parameters_in_order, probe_probabilities  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument('--weights', required=True, help='PREFIX of exportWeights.ts output')
p.add_argument('--out', required=True)
a = p.parse_args()
meta = json.load(open(a.weights + '.json'))
spec = meta['spec']
flat = torch.from_numpy(np.fromfile(a.weights + '.f32', dtype='<f4').copy())
net = Net([(c['out'], c['pool']) for c in spec['convs']], spec['classes'], spec['channels'])
params = parameters_in_order(net)
need = sum(q.numel() for q in params)
if need != flat.numel(): sys.exit(f"{a.weights}.f32 has {flat.numel()} weights; the NetSpec needs {need}")
at = 0
with torch.no_grad():
    for q in params:
        q.copy_(flat[at:at + q.numel()].reshape(q.shape))
        at += q.numel()
if meta.get('probe'):
    got = probe_probabilities(net, spec['size'])
    worst = max(abs(x - y) for x, y in zip(got, meta['probe']))
    if worst > 2e-5: sys.exit(f"torch's probe probabilities differ from the module's by {worst:.2g}: not the same network")
    print(f"probe agrees within {worst:.1g}")
torch.save(net.state_dict(), a.out)
if meta.get('made'):
    # As train.py --save-torch writes it: a run started from these weights (--load-torch) records the command that made them.
    json.dump(meta['made'], open(a.out + '.json', 'w'))
print(f"{meta['version']}: {need} weights -> {a.out}")
