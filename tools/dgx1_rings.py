#!/usr/bin/env python3
"""dgx1_rings.py -- the `ring_links` vectors of the DGX-1 nodes in
configs/hw/nodes.yaml, derived from the NVLink adjacency of the machine.

WHAT IT COMPUTES
For g = 1 .. 8, r_g is the largest number of directed Hamiltonian rings
over GPUs 0 .. g-1 (the GPUs nccl-tests' `-g g` uses) that the NVLinks
carry at once: a pair joined by k NVLinks (nvidia-smi's NVk) carries at
most k rings in each direction.  A ring allreduce over those GPUs moves
r_g links' worth of bandwidth per GPU, which is what dlsim's intra-node
ring path takes (sim/sim_topology.c).  Two GPUs form the ring 0->1->0,
which uses their link once each way.  NCCL builds its rings the same way
over NVLink (one channel per ring; a GPU does not forward for a pair it
is not part of).  The count is exact: every directed Hamiltonian cycle
starting at GPU 0 is listed, then the best multiset of them under the
link capacities is found by exhaustive branch and bound (a few hundred
cycles at most for 8 GPUs).

Where no ring exists over NVLink alone (a GPU of the set has a single
NVLink neighbour in it), r_g = 0: NCCL must then leave NVLink for one hop
(PCIe through the CPUs) or use its tree (a chain).  The `ring_links`
field holds integers of at least 1, so such an entry is written as 1
(marked "floor" below), and entry 1 (one GPU, no traffic, never used) as
1 too.

ADJACENCY (the number of NVLinks between two GPUs, nvidia-smi topo -m)
DGX-1 with V100 (NVLink2, 6 links per GPU): nvidia-smi topo -m as in
  NVIDIA's DGX-1 with Tesla V100 System Architecture whitepaper (2017),
  Figs. 4/5, and Wang et al., "Blink: Fast and Generic Collectives for
  Distributed ML", MLSys 2020, Fig. 1.  The matrix below was checked
  entry by entry against the `nvidia-smi topo -m` of a DGX-1V printed in
  microsoft/msccl-tools tests/test_topologies.py (test_nvlink_only) and
  in Microway's "nvidia-smi: Control Your GPUs" (DGX-1 with
  V100-SXM2-32GB): they agree.
DGX-1 with P100 (NVLink1, 4 links per GPU): each quad 0-3, 4-7 fully
  connected by single links, and GPU i joined to GPU i+4, as printed by
  `nvidia-smi topo -m` on a DGX-1 with Tesla P100-SXM2-16GB in
  RSE-Sheffield/GPUComputing.github.io
  education/intro_dl_sharc_dgx1/lab05.md (the University of Sheffield's
  ShARC DGX-1, 8 P100s per willfurnass/sheffield_hpc
  sharc/groupnodes/dgx-1.rst).  NVIDIA's P100 DGX-1 whitepaper figure
  was not at hand; this matrix is the "hybrid cube mesh" of 4 links per
  GPU that nodes.yaml's dgx1-p100 source names.

Usage:  python3 tools/dgx1_rings.py [--check]
  prints, per machine, the adjacency check, r_g per g and the YAML line;
  --check exits 1 if configs/hw/nodes.yaml does not hold these vectors.
"""
import re
import sys

# GPU: {peer: NVLinks}
DGX1_V100 = {
    0: {1: 1, 2: 1, 3: 2, 4: 2},
    1: {0: 1, 2: 2, 3: 1, 5: 2},
    2: {0: 1, 1: 2, 3: 2, 6: 1},
    3: {0: 2, 1: 1, 2: 2, 7: 1},
    4: {0: 2, 5: 1, 6: 1, 7: 2},
    5: {1: 2, 4: 1, 6: 2, 7: 1},
    6: {2: 1, 4: 1, 5: 2, 7: 2},
    7: {3: 1, 4: 2, 5: 1, 6: 2},
}

DGX1_P100 = {
    0: {1: 1, 2: 1, 3: 1, 4: 1},
    1: {0: 1, 2: 1, 3: 1, 5: 1},
    2: {0: 1, 1: 1, 3: 1, 6: 1},
    3: {0: 1, 1: 1, 2: 1, 7: 1},
    4: {0: 1, 5: 1, 6: 1, 7: 1},
    5: {1: 1, 4: 1, 6: 1, 7: 1},
    6: {2: 1, 4: 1, 5: 1, 7: 1},
    7: {3: 1, 4: 1, 5: 1, 6: 1},
}

MACHINES = [
    # name, adjacency, links per GPU, nodes.yaml entries that take it
    ("DGX-1 V100", DGX1_V100, 6, ["dgx1", "dgx1-v100-32gb"]),
    ("DGX-1 P100", DGX1_P100, 4, ["dgx1-p100"]),
]


def check_adjacency(adj, links):
    """Symmetric, no self links, every GPU with `links` NVLinks."""
    for a, peers in adj.items():
        if a in peers:
            raise ValueError("GPU%d links to itself" % a)
        for b, k in peers.items():
            if adj.get(b, {}).get(a) != k:
                raise ValueError("GPU%d-GPU%d is not symmetric" % (a, b))
        if sum(peers.values()) != links:
            raise ValueError("GPU%d has %d links, not %d"
                             % (a, sum(peers.values()), links))


def cycles(adj, g):
    """Every directed Hamiltonian cycle over GPUs 0..g-1, from GPU 0, as
    its list of directed edges."""
    out = []
    if g == 2:
        return [[(0, 1), (1, 0)]] if adj[0].get(1) else []

    def walk(path, seen):
        last = path[-1]
        if len(path) == g:
            if adj[last].get(0):
                out.append([(path[i], path[(i + 1) % g]) for i in range(g)])
            return
        for nxt in sorted(adj[last]):
            if nxt < g and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                walk(path, seen)
                path.pop()
                seen.discard(nxt)

    if g >= 3:
        walk([0], {0})
    return out


def max_rings(adj, g):
    """The most rings over GPUs 0..g-1 under the link capacities, and one
    set that reaches it."""
    cyc = cycles(adj, g)
    cap = {(a, b): k for a in range(g) for b, k in adj[a].items() if b < g}
    # no more rings than GPU 0 has links out to the set
    bound = sum(cap.get((0, b), 0) for b in range(1, g))
    best = [0, []]

    def fits(c, left):
        return all(left[e] >= 1 for e in c)

    def search(i, left, chosen):
        if len(chosen) > best[0]:
            best[0], best[1] = len(chosen), list(chosen)
        if best[0] >= bound or i == len(cyc):
            return
        # what GPU 0 could still send bounds what is left to gain
        room = sum(left.get((0, b), 0) for b in range(1, g))
        if len(chosen) + room <= best[0]:
            return
        c = cyc[i]
        if fits(c, left):
            for e in c:
                left[e] -= 1
            chosen.append(i)
            search(i, left, chosen)      # the same ring again
            chosen.pop()
            for e in c:
                left[e] += 1
        search(i + 1, left, chosen)

    if g >= 2:
        search(0, dict(cap), [])
    return best[0], [cyc[i] for i in best[1]], len(cyc)


def ring_text(c):
    return "->".join(str(a) for a, _ in c) + "->0"


def derive(adj, n=8, verbose=True):
    vec = []
    for g in range(1, n + 1):
        r, chosen, ncyc = max_rings(adj, g) if g > 1 else (0, [], 0)
        field = r if r >= 1 else 1
        if verbose:
            note = ""
            if g == 1:
                note = "  (one GPU: no traffic, entry unused)"
            elif r == 0:
                note = "  (no NVLink ring: written as 1, a floor)"
            print("  g=%d: %d directed Hamiltonian cycles, at most %d at "
                  "once%s" % (g, ncyc, r, note))
            for c in chosen:
                print("        " + ring_text(c))
        vec.append(field)
    return vec


def yaml_vectors(path):
    """ring_links of each node named in nodes.yaml."""
    out, name = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*- name:\s*(\S+)", line)
            if m:
                name = m.group(1)
            m = re.match(r"\s*ring_links:\s*\[([^\]]*)\]", line)
            if m and name:
                out[name] = [int(x) for x in m.group(1).split(",")]
    return out


def main(argv):
    check = "--check" in argv[1:]
    ok = True
    have = yaml_vectors("configs/hw/nodes.yaml") if check else {}
    for name, adj, links, nodes in MACHINES:
        check_adjacency(adj, links)
        print("%s: adjacency symmetric, %d NVLinks per GPU" % (name, links))
        vec = derive(adj, verbose=not check)
        print("  ring_links: [%s]" % ", ".join(str(v) for v in vec))
        for node in nodes:
            if check and have.get(node) != vec:
                print("  nodes.yaml %s has %s" % (node, have.get(node)))
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
