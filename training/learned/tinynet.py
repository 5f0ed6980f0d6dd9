"""TinyNet's shape in torch (src/vision/d6/tinyNet.ts), shared by the training scripts (development time only).

3x3 convolutions + ReLU, a 2x2 max pool after those marked 'p', global average pooling, one dense layer: the weights,
in TinyNet's order (each convolution's weight and bias, then the dense layer's), load into the TypeScript network.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def parse_convs(text):
    """'12p,24p,48p,48' -> [(12, True), (24, True), (48, True), (48, False)]: channels, and whether a pool follows."""
    return [(int(c.rstrip('p')), c.endswith('p')) for c in text.split(',')]


class Net(nn.Module):
    def __init__(self, convs, classes, channels=3):
        super().__init__()
        self.layout = convs
        self.convs = nn.ModuleList()
        cin = channels
        for cout, _ in convs:
            self.convs.append(nn.Conv2d(cin, cout, 3, padding=1))
            cin = cout
        self.dense = nn.Linear(cin, classes)

    def forward(self, x):
        for conv, (_, pool) in zip(self.convs, self.layout):
            x = F.relu(conv(x))
            if pool: x = F.max_pool2d(x, 2)
        return self.dense(x.mean(dim=(2, 3)))


def view(x, t):
    """transformInput's turn t (src/vision/d6/augment.ts): bit 4 transposes, then bit 1 mirrors columns and bit 2 rows."""
    if t & 4: x = x.transpose(2, 3)
    dims = ([3] if t & 1 else []) + ([2] if t & 2 else [])
    return torch.flip(x, dims) if dims else x


def initialise(net):
    """He initialisation of the convolutions, zero biases (the dense layer keeps torch's own)."""
    for m in net.modules():
        if isinstance(m, nn.Conv2d): nn.init.kaiming_normal_(m.weight, nonlinearity='relu'); nn.init.zeros_(m.bias)
    return net


def parameters_in_order(net):
    """Every parameter in TinyNet's order: each convolution's weight and bias, then the dense layer's."""
    return [q for conv in net.convs for q in (conv.weight, conv.bias)] + [net.dense.weight, net.dense.bias]


def flat_weights(net):
    """Every parameter in TinyNet's order, as little-endian float32."""
    return torch.cat([q.detach().reshape(-1) for q in parameters_in_order(net)]).numpy().astype('<f4')


def spec_of(net, size, classes):
    """TinyNet's NetSpec of this network for a size x size input."""
    return {'channels': net.convs[0].in_channels, 'size': size, 'convs': [{'out': c, 'pool': pl} for c, pl in net.layout], 'classes': classes}


def probe_probabilities(net, size):
    """The probabilities for the probe input x[i] = 2 sin(0.37 i), rounded to 6 places: the TypeScript network must agree."""
    c = net.convs[0].in_channels
    probe = torch.tensor([2 * np.sin(0.37 * i) for i in range(c * size * size)], dtype=torch.float32).reshape(1, c, size, size)
    net.eval()
    with torch.no_grad():
        return [round(float(v), 6) for v in F.softmax(net(probe), 1)[0]]
