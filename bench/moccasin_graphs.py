#!/usr/bin/env python3
"""memsched-remat's planner on MOCCASIN's published benchmark graphs.

MOCCASIN (Bartan et al., ICML 2023) publishes its graphs as networkx
node-link JSON (the `data/` folder of its repository): random layered graphs
of 100-1000 nodes with a fixed order, and Checkmate's profiled training
graphs. This script reads them (the data is not part of memsched: pass its
folder with --data), writes each as the plain node list that
`memsched-remat-dag-bench --graph` reads, runs the bench at MOCCASIN's
budgets (ceil(fraction x the peak of the graph's order), 0.9 and 0.8 by
default) and prints one Markdown table with the published figures beside.

The memory model is MOCCASIN's and Checkmate's: a node's output is live from
the start of its run to the end of the last run reading it; a node without
readers frees its output right after it runs. The order is the graph's
`order` where it has one, else networkx's topological_sort (Kahn's
algorithm by generations, nodes and edges in file order), as MOCCASIN's
main.py uses. TDI is the recomputation time over one run of every node.

Usage: python3 bench/moccasin_graphs.py --data DIR [--build build]
           [--fractions 0.9,0.8] [--graphs SUBSTRING ...] [--ilp-seconds S]
           [--local-search-work N]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# Published total-duration increases (%), read from the MOCCASIN poster's
# table: graph file prefix -> {fraction: (MILP, MOCCASIN)}; None where the
# MILP found no solution within its time limit.
PUBLISHED = {
    "random_layered_n250": {0.9: (0.9, 0.9), 0.8: (None, 4.9)},
    "random_layered_n1000": {0.9: (None, 0.7), 0.8: (None, 3.4)},
    "ResNet50 (MLSys)_256_(224, 224, 3)_train": {0.9: (0.1, 0.2),
                                                   0.8: (0.3, 0.3)},
}


def show(value):
    """A published figure, or nothing where none is given."""
    return "" if value is None else f"{value:.1f}"


def load_graph(path):
    """Returns (node list in run order, edges) from a node-link JSON file:
    nodes as (bytes, duration), edges as (source index, target index)."""
    with open(path) as f:
        data = json.load(f)
    nodes = data["nodes"]
    key = "id" if all("id" in n for n in nodes) else "name"
    ids = [n[key] for n in nodes]
    index = {v: i for i, v in enumerate(ids)}

    def cost(n, *names):
        for name in names:
            if name in n:
                return n[name]
        raise KeyError(f"{path}: a node has none of {names}")

    sizes = [int(cost(n, "cost_ram", "out_cost")) for n in nodes]
    durations = [float(cost(n, "cost_cpu", "duration")) for n in nodes]
    edges = []
    for link in data["links"]:
        source = link["source"] if "source" in link else link["0"]
        target = link["target"] if "target" in link else link["1"]
        edges.append((index[source], index[target]))
    graph = data.get("graph", {})
    if isinstance(graph, dict) and "order" in graph:
        order = [index[v] for v in graph["order"]]
    else:
        order = topological_generations_order(len(nodes), edges)
    return sizes, durations, edges, order


def topological_generations_order(num_nodes, edges):
    """networkx's topological_sort: generations of Kahn's algorithm, each in
    the order its nodes reached in-degree zero."""
    successors = [[] for _ in range(num_nodes)]
    indegree = [0] * num_nodes
    for source, target in edges:
        if target not in successors[source]:
            successors[source].append(target)
            indegree[target] += 1
    generation = [v for v in range(num_nodes) if indegree[v] == 0]
    order = []
    while generation:
        order.extend(generation)
        following = []
        for v in generation:
            for w in successors[v]:
                indegree[w] -= 1
                if indegree[w] == 0:
                    following.append(w)
        generation = following
    if len(order) != num_nodes:
        raise ValueError("the graph has a cycle")
    return order


def write_node_list(sizes, durations, edges, order, path):
    position = {v: i for i, v in enumerate(order)}
    inputs = [[] for _ in order]
    for source, target in edges:
        if position[source] not in inputs[position[target]]:
            inputs[position[target]].append(position[source])
    with open(path, "w") as f:
        for i, v in enumerate(order):
            reads = sorted(inputs[i])
            if any(r >= i for r in reads):
                raise ValueError("the order is not topological")
            f.write(f"{sizes[v]} {durations[v]:g} {len(reads)} "
                    + " ".join(map(str, reads)) + "\n")


def run_bench(bench, node_list, fractions, ilp_seconds, local_search_work):
    command = [bench, "--graph", node_list, "--fractions",
               ",".join(str(f) for f in fractions)]
    if local_search_work is not None:
        command += ["--local-search-work", str(local_search_work)]
    if ilp_seconds > 0:
        command += ["--graph-ilp", "--ilp-seconds", str(ilp_seconds)]
    output = subprocess.run(command, check=True, capture_output=True,
                            text=True).stdout
    header, rows = None, []
    for line in output.splitlines():
        if line.startswith("## (d)"):
            header = line
        elif line.startswith("| 0") or line.startswith("| 1"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
    return header, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True,
                        help="MOCCASIN's data folder (node-link JSON files)")
    parser.add_argument("--build", default="build")
    parser.add_argument("--fractions", default="0.9,0.8")
    parser.add_argument("--graphs", nargs="*", default=["random_layered",
                                                         "_train_nx"],
                        help="substrings of the file names to run")
    parser.add_argument("--ilp-seconds", type=float, default=0,
                        help="also solve Checkmate's ILP with CBC under "
                        "this time limit (0: not)")
    parser.add_argument("--local-search-work", type=int,
                        help="RematOptions::localSearchWork (memsched-remat's "
                        "local-search-work; default: the pass's)")
    args = parser.parse_args()
    bench = os.path.join(args.build, "bin", "memsched-remat-dag-bench")
    fractions = [float(f) for f in args.fractions.split(",")]
    files = sorted(f for f in os.listdir(args.data) if f.endswith(".json")
                   and any(g in f for g in args.graphs))
    if not files:
        sys.exit(f"no graph in {args.data} matches {args.graphs}")

    def node_count(f):
        with open(os.path.join(args.data, f)) as handle:
            return len(json.load(handle)["nodes"])

    files.sort(key=lambda f: (node_count(f), f))
    print("| graph | nodes | edges | floor / peak | budget | auto TDI % | "
          "met | solve (s) | plan | MOCCASIN TDI % (published) | MILP TDI % "
          "(published) | ILP here: TDI % / bound % / s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for f in files:
            sizes, durations, edges, order = load_graph(
                os.path.join(args.data, f))
            node_list = os.path.join(folder, "graph.txt")
            write_node_list(sizes, durations, edges, order, node_list)
            header, rows = run_bench(bench, node_list, fractions,
                                     args.ilp_seconds, args.local_search_work)
            # "... peak in its order P, floor F (R x), ..."
            peak = int(header.split("peak in its order ")[1].split(",")[0])
            floor_ratio = header.split("(")[-1].split("x)")[0]
            name = f[:-len(".json")].replace("_nx", "")
            published = next((v for k, v in PUBLISHED.items()
                              if name.startswith(k)), {})
            for row in rows:
                fraction = float(row[0])
                pub = published.get(round(fraction, 2), (None, None))
                ilp = ""
                if args.ilp_seconds > 0:
                    ilp = f"{row[10] or '-'} / {row[11] or '-'} / {row[12]}"
                met = row[2]
                smallest = "" if met == "yes" else f" (smallest {row[6]}x)"
                print(f"| {name} | {len(sizes)} | {len(edges)} | "
                      f"{floor_ratio} | {fraction:.2f}x ({row[1]}; peak "
                      f"{peak}) | {row[5]} | {met}{smallest} | {row[8]} | "
                      f"{row[7]} | {show(pub[1])} | {show(pub[0])} | {ilp} |",
                      flush=True)


if __name__ == "__main__":
    main()
