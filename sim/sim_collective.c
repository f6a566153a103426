/*
 * sim_collective.c -- the time of a gradient allreduce, in the alpha-beta
 * model (LogP with o = g = 0).
 *
 * MODEL
 * A message of m bytes between two ranks takes alpha + m * beta, with
 * alpha the link latency and beta the inverse bandwidth (Ben-Nun &
 * Hoefler, shared/seeds/002 Sec. 2.5; Rodriguez, shared/seeds/001 Sec.
 * 5.4; extracts in shared/reference/seed-002 sec. 2.2, seed-001 sec.
 * 2.7).  On P ranks:
 *   ring (bandwidth-optimal pipeline)  2(P-1) alpha + 2 (P-1)/P m beta
 *       (the standard form for one link per rank; Rodriguez's extract
 *       calls the book's 2(alpha + m beta / P) valid only for a fully
 *       connected box, so the physical-ring form is used everywhere)
 *   tree (reduce, then broadcast)      2 ceil(log2 P) (alpha + m beta)
 *   recursive halving-doubling         2 ceil(log2 P) alpha
 *       (Rabenseifner)                   + 2 (P-1)/P m beta
 *   parameter server                   2 ceil(log2 P) (alpha + m beta)
 *       (Ben-Nun & Hoefler model it as equal to the tree; Rodriguez's
 *       2 (alpha + m beta) assumes the server takes P-1 messages at once
 *       at full speed, which no NIC does, so it is not used)
 *
 * HIERARCHY
 * On several nodes of g devices the allreduce can run flat over all
 * ranks, limited by the slowest hop, or in three phases as NCCL and
 * Horovod do (Rodriguez's "ring inside each DGX-2, then across, then
 * broadcast"): a ring reduce-scatter inside each node, an allreduce of
 * m/g bytes across nodes by each of the g devices at once (sharing the
 * node's NICs), and a ring allgather inside the node.  AUTO takes the
 * cheapest of all candidates, as NCCL's tuner does with its own model.
 *
 * LIMITATIONS
 * - No congestion beyond sharing the node's NICs and the network's
 *   oversubscription; no protocol switch (LL/LL128/Simple); the parameter
 *   server's incast is not modelled (the seeds' formula ignores it).
 * - Topology is not read: intra-node bandwidth is links per device x
 *   link bandwidth whatever the intra-node topology (hybrid cube mesh,
 *   NVSwitch, PCIe tree with its shared switches), and the network is a
 *   full-bisection fat tree divided by its oversubscription (tori and
 *   dragonflies are costed the same way).  The communication issue
 *   models topologies.
 */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Names                                                             */
/* ---------------------------------------------------------------- */

static const char *const algo_names[] = {
	"auto", "ring", "tree", "halving-doubling", "parameter-server",
	"double-binary-tree", "recursive-doubling", "butterfly", NULL
};

const char *sim_algo_name(enum sim_algo a)
{
	if ((int)a < 0 || a >= SIM_ALGO_COUNT)
		return NULL;
	return algo_names[a];
}

int sim_algo_parse(const char *name, enum sim_algo *out,
			struct dlsim_err *err)
{
	int i = core_name_parse(algo_names, name, "allreduce algorithm", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum sim_algo)i;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* One level                                                         */
/* ---------------------------------------------------------------- */

double sim_allreduce_flat(const struct sim_level *l, double bytes,
			  enum sim_algo a)
{
	double p = (double)l->ranks;
	double lg = core_ceil_log2(p);
	double mb = bytes * l->beta_s_per_byte;

	if (l->ranks <= 1)
		return 0.0;
	switch (a) {
	case SIM_ALGO_RING:
		return 2.0 * (p - 1.0) * l->alpha_s + 2.0 * (p - 1.0) / p * mb;
	case SIM_ALGO_TREE:
	case SIM_ALGO_PARAM_SERVER:
		return 2.0 * lg * (l->alpha_s + mb);
	case SIM_ALGO_HALVING_DOUBLING:
		return 2.0 * lg * l->alpha_s + 2.0 * (p - 1.0) / p * mb;
	default:
		return HUGE_VAL;
	}
}

/* Ring reduce-scatter (or allgather): half of a ring allreduce. */
static double ring_half(const struct sim_level *l, double bytes)
{
	double p = (double)l->ranks;

	if (l->ranks <= 1)
		return 0.0;
	return (p - 1.0) * l->alpha_s +
	       (p - 1.0) / p * bytes * l->beta_s_per_byte;
}

/* ---------------------------------------------------------------- */
/* The levels of a system                                            */
/* ---------------------------------------------------------------- */

static double intra_bandwidth(const struct hw_system *s)
{
	int64_t links = s->node ? s->node->intra_links_per_device : 1;

	return s->intra->bandwidth_Bps * (double)(links > 0 ? links : 1);
}

/* Per-node injection bandwidth into the network, after oversubscription. */
static double node_network_bandwidth(const struct hw_system *s)
{
	double bw = s->nic->bandwidth_Bps * (double)s->node->nics_per_node;

	if (s->network && s->network->oversubscription > 1.0)
		bw /= s->network->oversubscription;
	return bw;
}

static void levels(const struct hw_system *s, struct sim_level *intra,
		   struct sim_level *inter, struct sim_level *ring,
		   struct sim_level *flat)
{
	double g = (double)s->devices_per_node;
	double b_intra = s->intra ? intra_bandwidth(s) : HUGE_VAL;
	double b_node = s->nic ? node_network_bandwidth(s) : HUGE_VAL;

	intra->ranks = s->devices_per_node;
	intra->alpha_s = s->intra ? s->intra->latency_s : 0.0;
	intra->beta_s_per_byte = s->intra ? 1.0 / b_intra : 0.0;
	/* g devices each reduce m/g across nodes at once: each gets 1/g of
	 * the node's NICs (or one whole NIC if there are more NICs). */
	inter->ranks = s->n_nodes;
	inter->alpha_s = s->nic ? s->nic->latency_s : 0.0;
	inter->beta_s_per_byte = s->nic ? g / b_node : 0.0;
	/* Flat: every step crosses the slowest hop.  Rings run one per NIC
	 * and only two ranks of a node talk across it per ring, so a ring
	 * moves data at the smaller of the device and node bandwidths.  In
	 * tree, halving-doubling and parameter-server steps all g ranks of a
	 * node send across the network at once and share its NICs. */
	ring->ranks = flat->ranks = s->n_devices;
	ring->alpha_s = intra->alpha_s > inter->alpha_s ? intra->alpha_s :
			inter->alpha_s;
	flat->alpha_s = ring->alpha_s;
	ring->beta_s_per_byte = 1.0 / (b_intra < b_node ? b_intra : b_node);
	flat->beta_s_per_byte = s->nic && g / b_node > 1.0 / b_intra ?
				g / b_node : 1.0 / b_intra;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

double sim_allreduce_time(const struct hw_system *s, double bytes,
			  enum sim_algo a,
			  enum sim_algo *used, int *hierarchical)
{
	struct sim_level intra, inter, ring, flat;
	double best = HUGE_VAL;
	int k, lo, hi, h;

	if (used)
		*used = a;
	if (hierarchical)
		*hierarchical = 0;
	if (s->n_devices <= 1 || bytes <= 0.0)
		return 0.0;
	levels(s, &intra, &inter, &ring, &flat);
	lo = a == SIM_ALGO_AUTO ? SIM_ALGO_RING : (int)a;
	hi = a == SIM_ALGO_AUTO ? SIM_ALGO_PARAM_SERVER : (int)a;
	for (k = lo; k <= hi; k++) {
		for (h = 0; h <= (s->n_nodes > 1 && intra.ranks > 1); h++) {
			/* hierarchical: reduce-scatter and allgather
			 * inside the node, allreduce of m/g across */
			double t = h ? 2.0 * ring_half(&intra, bytes) +
				       sim_allreduce_flat(&inter,
					       bytes / (double)intra.ranks,
					       (enum sim_algo)k) :
				   sim_allreduce_flat(k == SIM_ALGO_RING ?
					       &ring : &flat, bytes,
					       (enum sim_algo)k);
			if (t < best) {
				best = t;
				if (used)
					*used = (enum sim_algo)k;
				if (hierarchical)
					*hierarchical = h;
			}
		}
	}
	return best;
}

/* ---------------------------------------------------------------- */
/* Collectives (first cut: allreduce only)                           */
/* ---------------------------------------------------------------- */

static const char *const collective_names[] = {
	"allreduce", "reduce-scatter", "allgather", "broadcast", "reduce",
	"all-to-all", NULL
};

const char *sim_collective_name(enum sim_collective c)
{
	if ((int)c < 0 || c >= SIM_COLLECTIVE_COUNT)
		return NULL;
	return collective_names[c];
}

int sim_collective_parse(const char *name, enum sim_collective *out,
			 struct dlsim_err *err)
{
	int i = core_name_parse(collective_names, name, "collective", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum sim_collective)i;
	return DLSIM_OK;
}

int sim_collective_time(const struct hw_system *s, enum sim_collective c,
			double bytes, enum sim_algo a,
			struct sim_comm_result *out, struct dlsim_err *err)
{
	double n = (double)s->n_devices;

	memset(out, 0, sizeof(*out));
	if (c != SIM_COLL_ALLREDUCE || a > SIM_ALGO_PARAM_SERVER ||
	    !(bytes >= 0.0) || !isfinite(bytes))
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s with %s is not implemented",
				     sim_collective_name(c), sim_algo_name(a));
	out->time_s = sim_allreduce_time(s, bytes, a, &out->algo,
					 &out->hierarchical);
	if (out->time_s > 0.0) {
		out->algbw_Bps = bytes / out->time_s;
		out->busbw_Bps = out->algbw_Bps * 2.0 * (n - 1.0) / n;
	}
	return DLSIM_OK;
}
