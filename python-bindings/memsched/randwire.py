"""RandWire networks (Xie et al. 2019, "Exploring Randomly Wired Neural
Networks"): the irregular graphs memory-aware schedulers are measured on
(Serenity, HMCOS).

Every stage is a random graph from one of the paper's generators,
Watts-Strogatz (``ws``, K=4, P=0.75), Erdős-Rényi (``er``, P=0.2) or
Barabási-Albert (``ba``, M=5), written here with ``random.Random`` (so the
graphs depend only on the seed). Edges point from the lower to the higher
node index; nodes without inputs read the stage input (with stride 2,
changing the channel count), nodes without outputs are averaged into the
stage output. A node is the sigmoid-weighted sum of its inputs followed by
ReLU, a separable 3x3 convolution and batch norm.
"""

import random

import torch
from torch import nn


def watts_strogatz(nodes, rng, k=4, p=0.75):
    """A ring where each node links to its k/2 nearest neighbours on each
    side, then every edge (u, u + j) is rewired with probability p to a
    uniformly chosen node that is neither u nor already linked to it (the
    paper's procedure, as networkx's watts_strogatz_graph, with other
    random draws)."""
    adjacent = [set() for _ in range(nodes)]
    for j in range(1, k // 2 + 1):
        for u in range(nodes):
            v = (u + j) % nodes
            adjacent[u].add(v)
            adjacent[v].add(u)
    for j in range(1, k // 2 + 1):
        for u in range(nodes):
            v = (u + j) % nodes
            if rng.random() >= p or len(adjacent[u]) >= nodes - 1:
                continue
            w = rng.randrange(nodes)
            while w == u or w in adjacent[u]:
                w = rng.randrange(nodes)
            adjacent[u].discard(v)
            adjacent[v].discard(u)
            adjacent[u].add(w)
            adjacent[w].add(u)
    return adjacent


def erdos_renyi(nodes, rng, p=0.2):
    """Every pair of nodes is linked with probability p."""
    adjacent = [set() for _ in range(nodes)]
    for u in range(nodes):
        for v in range(u + 1, nodes):
            if rng.random() < p:
                adjacent[u].add(v)
                adjacent[v].add(u)
    return adjacent


def barabasi_albert(nodes, rng, m=5):
    """Starts from m nodes without edges; each further node links to m
    distinct earlier nodes chosen with probability proportional to their
    degree (the first one to all m initial nodes), as in the paper."""
    adjacent = [set() for _ in range(nodes)]
    targets = list(range(m))
    repeated = []
    for source in range(m, nodes):
        for target in targets:
            adjacent[source].add(target)
            adjacent[target].add(source)
        repeated.extend(targets)
        repeated.extend([source] * m)
        chosen = set()
        while len(chosen) < m:
            chosen.add(rng.choice(repeated))
        targets = sorted(chosen)
    return adjacent


GENERATORS = {"ws": watts_strogatz, "er": erdos_renyi, "ba": barabasi_albert}


def random_dag(kind, nodes, seed):
    """The predecessors of each node of a `kind` graph: the undirected
    graph's edges directed from the lower to the higher index."""
    adjacent = GENERATORS[kind](nodes, random.Random(seed))
    return [sorted(u for u in adjacent[v] if u < v) for v in range(nodes)]


class Node(nn.Module):
    """Sigmoid-weighted sum of the inputs (a single input is used as is),
    then ReLU, separable 3x3 convolution (depthwise + pointwise) and batch
    norm."""

    def __init__(self, inputs, in_channels, out_channels, stride):
        super().__init__()
        self.weights = nn.Parameter(torch.zeros(inputs)) if inputs > 1 \
            else None
        self.depthwise = nn.Conv2d(in_channels, in_channels, 3, stride, 1,
                                   groups=in_channels, bias=False)
        self.pointwise = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.norm = nn.BatchNorm2d(out_channels)

    def forward(self, inputs):
        x = inputs[0]
        if self.weights is not None:
            weights = torch.sigmoid(self.weights)
            x = weights[0] * x
            for index in range(1, len(inputs)):
                x = x + weights[index] * inputs[index]
        return self.norm(self.pointwise(self.depthwise(torch.relu(x))))


class Stage(nn.Module):
    """One randomly wired stage: nodes reading the stage input use stride 2
    and change the channel count; the output is the mean of the nodes
    without successors."""

    def __init__(self, kind, nodes, seed, in_channels, out_channels):
        super().__init__()
        self.predecessors = random_dag(kind, nodes, seed)
        has_successor = {u for inputs in self.predecessors for u in inputs}
        self.outputs = [v for v in range(nodes) if v not in has_successor]
        self.nodes = nn.ModuleList(
            Node(len(inputs), out_channels, out_channels, 1) if inputs else
            Node(1, in_channels, out_channels, 2)
            for inputs in self.predecessors)

    def edges(self):
        return sum(len(inputs) for inputs in self.predecessors)

    def forward(self, x):
        results = []
        for node, inputs in zip(self.nodes, self.predecessors):
            results.append(node([results[u] for u in inputs] if inputs
                                else [x]))
        output = results[self.outputs[0]]
        for v in self.outputs[1:]:
            output = output + results[v]
        return output / len(self.outputs) if len(self.outputs) > 1 \
            else output


class RandWire(nn.Module):
    """A small-regime RandWire classifier for 32x32 images: a 3x3 stem
    convolution to channels/2, `stages` random stages of channels * 2**i
    channels (stage i's graph seeded from `seed`), ReLU, global average
    pooling and a linear classifier."""

    def __init__(self, kind, seed, nodes=32, stages=3, channels=32,
                 classes=10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, channels // 2, 3, 1, 1, bias=False),
            nn.BatchNorm2d(channels // 2))
        rng = random.Random(seed)
        widths = [channels // 2] + [channels << i for i in range(stages)]
        self.stages = nn.Sequential(*(
            Stage(kind, nodes, rng.getrandbits(32), widths[i], widths[i + 1])
            for i in range(stages)))
        self.classifier = nn.Linear(widths[-1], classes)

    def forward(self, x):
        x = torch.relu(self.stages(self.stem(x)))
        return self.classifier(torch.flatten(
            nn.functional.adaptive_avg_pool2d(x, 1), 1))
