/*
 * sim_topology.c -- what a system's links and topology give each rank:
 * the levels (sim.h) that the collectives of sim_collective.c run on.
 *
 * HOW IT WORKS
 * A system is N nodes of g devices.  Three levels describe it: the g
 * devices of one node (intra), one device per node across the network
 * (inter: each of a node's g devices runs its own collective across
 * nodes at the same time, so each gets 1/g of the node's NICs), and all
 * N g devices at once (flat).  Ranks are numbered node by node, so that
 * a partner fewer than g ranks away is in the same node.  Each level
 * gives a rank two kinds of path:
 *
 * - ring: its share of the rings the topology embeds.  A ring moves
 *   data between neighbours only, and every link of a good ring
 *   embedding carries one ring's flow, so a ring is never slowed by a
 *   shared switch uplink or an oversubscribed leaf as long as that
 *   uplink carries at least one rank's worth (the oversubscription s
 *   is at most the nodes under the leaf).
 * - peer, by distance: one partner at a time (trees, recursive halving
 *   and doubling).  When the partner is outside the rank's group
 *   (switch, node, leaf), every rank of the group crosses at the same
 *   time and they share the group's uplink.
 *
 * INSIDE A NODE (B: one link's bandwidth, l: links per device)
 * - nvswitch (and a node without a stated topology): l B to any peer,
 *   the full per-GPU bandwidth through the switches (NVIDIA DGX-2 and
 *   DGX A100 whitepapers).
 * - hybrid-cube-mesh (DGX-1): "a cube with GPUs at its corners and with
 *   all twelve edges connected through NVLink (some edges have two
 *   NVLink connections), and with two of the six faces having their
 *   diagonals connected as well.  The topology can also be thought of
 *   as three interwoven rings of single NVLink connections" (NVIDIA
 *   DGX-1 with Tesla V100 System Architecture whitepaper, 2017).  So on
 *   all 8 GPUs the rings use every link, l/2 rings each run both ways:
 *   ring bandwidth l B (V100: 3 rings, 6 x 25 = 150 GB/s; P100: its
 *   4 links form 2 edge-disjoint Hamiltonian cycles, checked by hand in
 *   tests/test_collective.c, 80 GB/s).  NCCL builds its rings over the
 *   same links.  But a GPU's links reach only 4 of its 7 peers (3 cube
 *   edges and a face diagonal), so one partner at a time gets l/4 links
 *   (the 3 cube neighbours are exactly the partners of recursive
 *   halving and doubling at distances 1, 2, 4).  On fewer than 8 GPUs
 *   the rings depend on which links the first g GPUs share, which the
 *   node's ring_links states (below); without it a ring over fewer
 *   than 8 gets one partner's l/4.
 * - ring_links (optional, any topology but ring and torus): entry g - 1
 *   is the number of links' worth r_g a ring over the node's first g
 *   devices gets: the edge-disjoint directed Hamiltonian rings their
 *   links hold (a link of multiplicity k carries k rings each way), as
 *   NCCL builds one channel per ring.  The ring path is then r_g B; on
 *   2 devices the ring is the pair's exchange, so a partner gets r_2 B
 *   too.  The DGX-1 vectors come from tools/dgx1_rings.py, an
 *   exhaustive count over the nvidia-smi topo -m adjacency: V100 1, 2,
 *   4, 1, 2, 4, 6 for 2..8 GPUs, P100 1, 2, 2, 1, 2, 2, 4.  GPUs 0-4
 *   hold no NVLink ring (GPU 4's only neighbour among them is GPU 0),
 *   so 5 is written as the field's least value, 1.
 * - all-to-all (direct links between every pair, MI300X, Gaudi, the
 *   sockets of a server): l / (g - 1) links to each peer; rings use all
 *   l, as NCCL and RCCL run one ring per disjoint set of links.
 * - pcie-tree: devices_per_pcie_switch (k) devices share one switch's
 *   x16 uplink of the same generation as their own link.  A partner
 *   under the same switch gets l B; across switches the k devices share
 *   the uplink: l B / k.  A ring enters and leaves each switch once, so
 *   it keeps l B.  Without k every device has its own root port.
 * - ring (a physical ring, Frontier's xGMI) and torus: per-dimension
 *   rings over l / (2 d) links each way per dimension.
 *
 * ACROSS NODES (b = NICs x NIC bandwidth per node, shared by g devices)
 * - fat tree (and dragonfly): nodes_per_leaf (L) nodes under one leaf
 *   switch; traffic between leaves is divided by the oversubscription s,
 *   traffic inside a leaf is not.  A peer across leaves gets b / (g s);
 *   a ring gets b / g min(1, L / s).  Without nodes_per_leaf every node
 *   counts as its own leaf: all traffic pays s (the old reading).  All N
 *   nodes under one leaf: nothing crosses.
 * - torus: per-dimension rings over the node's NIC links, 2 per
 *   dimension.  When the nodes are themselves torus blocks (TPU hosts:
 *   intra_topology torus on a torus network) the whole system is one
 *   torus of devices over the intra link, its sizes from the network's
 *   dims when they multiply out to the device count, else the count
 *   factored into that many near-equal sizes (a slice of the pod).
 *
 * LIMITATIONS
 * - Routing is ideal: no ECMP collisions in a fat tree, dimension-order
 *   hops in a torus, rings mapped onto the physical links without
 *   conflicts.  Dragonflies are costed as fat trees; a torus slice
 *   smaller than the pod is assumed to keep its wraparound links.
 * - A torus partner is costed by its hop count on one link each way,
 *   with latency paid once (cut-through), not per hop.
 * - GPUs on different CPU sockets of a PCIe server talk through the
 *   sockets' link (QPI/UPI), which is not modelled; nor is GPUDirect
 *   versus staging through host memory.
 * - The hybrid cube mesh is the DGX-1 graph only; another 8-GPU NVLink
 *   mesh would need its own entry.  NVLink multicast (NVLS) and SHARP
 *   in-network reduction are not modelled.
 * - On 3 to 7 GPUs of a cube mesh only the ring follows the links the
 *   GPUs share (ring_links); a partner still gets l/4.  Where no NVLink
 *   ring exists (DGX-1, 5 GPUs) NCCL leaves NVLink for one hop or runs
 *   its tree as a chain; the ring here gets one link, below what NCCL
 *   reaches (vTrain, V100: 37 GB/s busbw at 1 GiB).  Without
 *   ring_links a subset's ring gets l/4, a placeholder with no source.
 * - Only the NIC bandwidth is shared by a node's devices: the PCIe path
 *   from a GPU to its NIC is assumed not to be the bottleneck.
 */
#include <stdint.h>
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Levels                                                            */
/* ---------------------------------------------------------------- */

void sim_level_uniform(struct sim_level *l, int64_t ranks,
		       const struct sim_loggp *p)
{
	memset(l, 0, sizeof(*l));
	l->ranks = ranks;
	l->ring = *p;
	l->n_tiers = 1;
	l->tier[0].span = ranks > 1 ? ranks : 1;
	l->tier[0].p = *p;
}

void sim_level_torus(struct sim_level *l, int n_dims, const int64_t *dims,
		     const struct sim_loggp *link)
{
	int64_t ranks = 1;
	int k;

	memset(l, 0, sizeof(*l));
	if (n_dims > HW_MAX_DIMS)
		n_dims = HW_MAX_DIMS;
	for (k = 0; k < n_dims; k++) {
		l->dims[k] = dims[k] > 0 ? dims[k] : 1;
		ranks *= l->dims[k];
	}
	l->n_dims = n_dims;
	l->ranks = ranks;
	l->link = *link;
	/* a torus of d dimensions holds d edge-disjoint Hamiltonian cycles
	 * (two for a 2-D torus), each run both ways: a single big ring
	 * gets all 2 d links of a rank */
	l->ring = *link;
	l->ring.G_s_per_byte /= 2.0 * (double)(n_dims > 0 ? n_dims : 1);
	l->n_tiers = 1;
	l->tier[0].span = ranks;
	l->tier[0].p = *link;
}

/* Hops to the partner `dist` ranks away in row-major order: the
 * dimension the distance falls in, shorter way round. */
static double torus_hops(const struct sim_level *l, int64_t dist)
{
	int64_t stride = 1, off, h;
	int k;

	for (k = 0; k < l->n_dims; k++) {
		if (dist < stride * l->dims[k]) {
			off = (dist / stride) % l->dims[k];
			h = off < l->dims[k] - off ? off : l->dims[k] - off;
			return h > 1 ? (double)h : 1.0;
		}
		stride *= l->dims[k];
	}
	return 1.0;
}

const struct sim_loggp *sim_level_peer(const struct sim_level *l,
				       int64_t dist, struct sim_loggp *tmp)
{
	int i;

	if (l->n_dims > 0) {
		*tmp = l->link;
		tmp->G_s_per_byte *= torus_hops(l, dist);
		return tmp;
	}
	for (i = 0; i < l->n_tiers - 1; i++)
		if (dist < l->tier[i].span)
			return &l->tier[i].p;
	return &l->tier[l->n_tiers - 1].p;
}

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

/* n into d near-equal factors, largest prime factors first, each onto
 * the smallest size so far: 256 in 2 is 16 x 16, 4 in 2 is 2 x 2. */
static void factor_dims(int64_t n, int d, int64_t *dims)
{
	int64_t primes[64], p, m = n;
	int np = 0, i, k;

	for (k = 0; k < d; k++)
		dims[k] = 1;
	for (p = 2; p * p <= m && np < 63; p++)
		while (m % p == 0 && np < 63) {
			primes[np++] = p;
			m /= p;
		}
	if (m > 1)
		primes[np++] = m;
	for (i = np - 1; i >= 0; i--) {
		int small = 0;

		for (k = 1; k < d; k++)
			if (dims[k] < dims[small])
				small = k;
		dims[small] *= primes[i];
	}
}

/* The torus sizes for n ranks in d dimensions: the network's own when
 * they multiply out to n, else n factored. */
static int torus_dims(const struct hw_network *net, int64_t n, int d,
		      int64_t *dims)
{
	int64_t prod = 1;
	int k;

	if (net && net->n_dims > 0) {
		for (k = 0; k < net->n_dims; k++)
			prod *= net->dims[k];
		if (prod == n) {
			memcpy(dims, net->dims, sizeof(net->dims[0]) *
			       (size_t)net->n_dims);
			return net->n_dims;
		}
		d = net->n_dims;
	}
	if (d < 1)
		d = 1;
	if (d > HW_MAX_DIMS)
		d = HW_MAX_DIMS;
	factor_dims(n, d, dims);
	return d;
}

static int64_t links_per_device(const struct hw_system *s)
{
	int64_t l = s->node ? s->node->intra_links_per_device : 1;

	return l > 0 ? l : 1;
}

/* A tier of link l at bandwidth bw for partners closer than span. */
static void set_tier(struct sim_level *lv, int i, int64_t span,
		     const struct hw_link *l, double bw)
{
	lv->tier[i].span = span;
	sim_loggp_link(&lv->tier[i].p, l, bw);
}

/* ---------------------------------------------------------------- */
/* Inside a node                                                     */
/* ---------------------------------------------------------------- */

/* The node's ring_links for g devices: the links' worth a ring over its
 * first g devices gets; 0 when the node does not state it. */
static double stated_ring_links(const struct hw_system *s, int64_t g)
{
	const struct hw_node *n = s->node;

	if (!n || g < 1 || g > n->n_ring_links)
		return 0.0;
	return (double)n->ring_links[g - 1];
}

static void intra_level(const struct hw_system *s, struct sim_level *lv)
{
	const struct hw_link *il = s->intra;
	int64_t g = s->devices_per_node, l = links_per_device(s);
	int64_t k = s->node ? s->node->devices_per_pcie_switch : 0;
	double b = il ? il->bandwidth_Bps : 0.0, all = (double)l * b;
	enum hw_topology topo = s->node ? s->node->intra_topology :
				HW_TOPO_NVSWITCH;
	double r = stated_ring_links(s, g);
	struct sim_loggp p;
	int64_t dims[HW_MAX_DIMS];
	int d;

	memset(&p, 0, sizeof(p));
	if (g <= 1 || !il) {
		sim_level_uniform(lv, 1, &p);
		return;
	}
	if (s->calib && s->calib->intra.fit.id) {
		/* fitted on this node as a whole: uniform paths of the ring
		 * step's alpha and beta (struct hw_calib) */
		sim_loggp_alpha_beta(&p, s->calib->intra.alpha_s,
				     s->calib->intra.beta_s_per_byte);
		sim_level_uniform(lv, g, &p);
		return;
	}
	sim_loggp_link(&p, il, all);
	sim_level_uniform(lv, g, &p);
	switch (topo) {
	case HW_TOPO_HYBRID_CUBE_MESH:
		set_tier(lv, 0, g, il, all / 4.0);
		if (g != 8)
			sim_loggp_link(&lv->ring, il, all / 4.0);
		break;
	case HW_TOPO_ALL_TO_ALL:
		set_tier(lv, 0, g, il, all / (double)(g - 1));
		break;
	case HW_TOPO_PCIE_TREE:
		if (k > 1 && k < g) {
			set_tier(lv, 0, k, il, all);
			set_tier(lv, 1, g, il, all / (double)k);
			lv->n_tiers = 2;
		}
		break;
	case HW_TOPO_RING:
	case HW_TOPO_TORUS:
		d = topo == HW_TOPO_RING ? 1 : (int)(l / 2 > 0 ? l / 2 : 1);
		d = torus_dims(NULL, g, d, dims);
		sim_loggp_link(&p, il, all / (2.0 * (double)d));
		sim_level_torus(lv, d, dims, &p);
		return;
	default:
		break;
	}
	if (r > 0.0) {
		/* stated: r links' worth; on 2 devices the ring is the
		 * pair's exchange, so the partner gets it too */
		sim_loggp_link(&lv->ring, il, r * b);
		if (g == 2)
			set_tier(lv, 0, g, il, r * b);
	}
}

/* ---------------------------------------------------------------- */
/* Across nodes                                                      */
/* ---------------------------------------------------------------- */

/* The network's leaf size and oversubscription as they bite on n
 * nodes: all under one leaf, nothing crosses (s = 1). */
static void leaf(const struct hw_system *s, int64_t *k, double *over)
{
	const struct hw_network *net = s->network;

	*over = net && net->oversubscription > 1.0 ? net->oversubscription :
		1.0;
	*k = net && net->nodes_per_leaf > 0 ? net->nodes_per_leaf : 1;
	if (*k >= s->n_nodes) {
		*k = s->n_nodes;
		*over = 1.0;
	}
}

static int network_torus(const struct hw_system *s)
{
	return s->network && s->network->topology == HW_TOPO_TORUS;
}

static void inter_level(const struct hw_system *s, struct sim_level *lv)
{
	const struct hw_link *nic = s->nic;
	int64_t n = s->n_nodes, g = s->devices_per_node, k;
	double b_node, b_dev, over;
	struct sim_loggp p;

	memset(&p, 0, sizeof(p));
	if (n <= 1 || !nic) {
		sim_level_uniform(lv, 1, &p);
		return;
	}
	if (s->calib && s->calib->inter.fit.id) {
		/* a flat ring across nodes was measured; here each of the g
		 * devices runs its own ring at once, sharing what that ring
		 * got of the node's NICs (as b_dev = b_node / g below) */
		sim_loggp_alpha_beta(&p, s->calib->inter.alpha_s,
				     s->calib->inter.beta_s_per_byte *
				     (double)(g > 0 ? g : 1));
		sim_level_uniform(lv, n, &p);
		return;
	}
	b_node = nic->bandwidth_Bps * (double)(s->node &&
					       s->node->nics_per_node > 0 ?
					       s->node->nics_per_node : 1);
	b_dev = b_node / (double)(g > 0 ? g : 1);
	if (network_torus(s)) {
		int64_t dims[HW_MAX_DIMS];
		int d = torus_dims(s->network, n, 2, dims);

		sim_loggp_link(&p, nic, b_dev / (2.0 * (double)d));
		sim_level_torus(lv, d, dims, &p);
		return;
	}
	leaf(s, &k, &over);
	sim_loggp_link(&p, nic, b_dev);
	sim_level_uniform(lv, n, &p);
	if (over > 1.0) {
		sim_loggp_link(&lv->ring, nic, b_dev * (k < over ?
						       (double)k / over :
						       1.0));
		lv->n_tiers = 0;
		if (k > 1)
			set_tier(lv, lv->n_tiers++, k, nic, b_dev);
		set_tier(lv, lv->n_tiers++, n, nic, b_dev / over);
	}
}

/* ---------------------------------------------------------------- */
/* All devices at once                                               */
/* ---------------------------------------------------------------- */

/*
 * Flat over N nodes of g devices: a ring runs at the smaller of its
 * inside rate and its node's NICs (one ring per NIC, each crossing the
 * node boundary once), through the slowest latency; a partner inside
 * the node is the intra level's, one outside shares the node's NICs
 * with the node's other devices (and the leaf's uplinks beyond it).
 */
static void flat_level(const struct hw_system *s, const struct sim_topo *t,
		       struct sim_level *lv)
{
	const struct hw_link *nic = s->nic;
	int64_t g = s->devices_per_node, n = s->n_nodes, k;
	double b_node, over, ring_bw, lat, g_intra;
	int i;

	if (n <= 1 || !nic) {
		*lv = t->intra;
		return;
	}
	if (g <= 1) {
		*lv = t->inter;
		return;
	}
	leaf(s, &k, &over);
	b_node = nic->bandwidth_Bps * (double)(s->node &&
					       s->node->nics_per_node > 0 ?
					       s->node->nics_per_node : 1);
	ring_bw = b_node * (k < over ? (double)k / over : 1.0);
	if (t->intra.ring.G_s_per_byte * ring_bw > 1.0)
		ring_bw = 1.0 / t->intra.ring.G_s_per_byte;
	lat = t->intra.ring.L_s > nic->latency_s ? t->intra.ring.L_s :
	      nic->latency_s;
	memset(lv, 0, sizeof(*lv));
	lv->ranks = s->n_devices;
	sim_loggp_link(&lv->ring, nic, ring_bw);
	lv->ring.L_s = lat;
	/* inside the node: the intra tiers as they are */
	for (i = 0; i < t->intra.n_tiers && i < SIM_MAX_TIERS - 2; i++) {
		lv->tier[i] = t->intra.tier[i];
		if (lv->tier[i].span > g)
			lv->tier[i].span = g;
	}
	lv->n_tiers = i;
	g_intra = t->intra.tier[t->intra.n_tiers - 1].p.G_s_per_byte;
	if (k > 1 && k < n) {
		set_tier(lv, lv->n_tiers, g * k, nic, b_node / (double)g);
		lv->tier[lv->n_tiers].p.L_s = lat;
		lv->n_tiers++;
	}
	set_tier(lv, lv->n_tiers, s->n_devices, nic,
		 b_node / ((double)g * over));
	lv->tier[lv->n_tiers].p.L_s = lat;
	lv->n_tiers++;
	for (i = 0; i < lv->n_tiers; i++)
		if (lv->tier[i].span >= g &&
		    lv->tier[i].p.G_s_per_byte < g_intra)
			lv->tier[i].p.G_s_per_byte = g_intra;
	if (s->calib && s->calib->inter.fit.id) {
		/* a ring over all of them is what was measured: its step,
		 * and the same for every partner outside the node */
		sim_loggp_alpha_beta(&lv->ring, s->calib->inter.alpha_s,
				     s->calib->inter.beta_s_per_byte);
		for (i = 0; i < lv->n_tiers; i++)
			if (lv->tier[i].span > g)
				sim_loggp_alpha_beta(
					&lv->tier[i].p,
					s->calib->inter.alpha_s,
					s->calib->inter.beta_s_per_byte);
	}
}

/* TPU hosts on a torus network: one torus of all devices. */
static int one_torus(const struct hw_system *s)
{
	return s->node && s->node->intra_topology == HW_TOPO_TORUS &&
	       s->intra && (s->n_nodes <= 1 || network_torus(s));
}

void sim_topology(const struct hw_system *s, struct sim_topo *t)
{
	memset(t, 0, sizeof(*t));
	if (one_torus(s) && s->n_nodes > 1) {
		int64_t dims[HW_MAX_DIMS], l = links_per_device(s);
		int d = (int)(l / 2 > 0 ? l / 2 : 1);
		struct sim_loggp p;

		d = torus_dims(s->network, s->n_devices, d, dims);
		sim_loggp_link(&p, s->intra, (double)l *
			       s->intra->bandwidth_Bps / (2.0 * (double)d));
		sim_level_torus(&t->flat, d, dims, &p);
		t->intra = t->flat;
		t->inter = t->flat;
		return;
	}
	intra_level(s, &t->intra);
	inter_level(s, &t->inter);
	flat_level(s, t, &t->flat);
	t->can_hier = s->n_nodes > 1 && s->devices_per_node > 1 &&
		      s->nic != NULL;
}
