/*
 * sim_loggp.c -- the time of one message, and of a burst of messages,
 * in the LogGP model.
 *
 * MODEL
 * LogP (Culler, Karp, Patterson, Sahay, Schauser, Santos, Subramonian &
 * von Eicken, PPoPP 1993) describes a network by its latency L, the
 * processor time o a message costs at each end, the least gap g between
 * two messages of one processor, and the processor count P.  LogGP
 * (Alexandrov, Ionescu, Schauser & Scheiman, SPAA 1995) adds the gap per
 * byte G of long messages, so that sending m bytes takes
 *
 *     T(m) = o + (m - 1) G + L + o.
 *
 * dlsim counts m G, not (m - 1) G: the one byte's difference is below
 * any figure in the catalog, and with o = g = 0 the time is then exactly
 * the alpha-beta form L + m G (alpha = L, beta = G) that both seeds use
 * (Ben-Nun & Hoefler Sec. 2.5, a LogP "that ignores injection-rate
 * limits (o = g = 0)"; Rodriguez Sec. 5.4, T = L + M/B).  A link whose
 * file gives no overhead_us or gap_us is in that alpha-beta form.
 *
 * Three uses:
 *   one message           L + 2o + m G (+ rendezvous)
 *   one step of a step-synchronous algorithm (send one message, wait
 *   for one):             max(g, L + 2o + m G (+ rendezvous))
 *       (a rank cannot inject its next message sooner than g after the
 *       last; NCCL's tuner takes the same max of the per-step latency
 *       and its network post overhead, src/graph/tuning.cc)
 *   n messages one rank sends back to back (or an incast of n into one
 *   rank):                L + 2o + m G + (n - 1) max(g, o + m G)
 *       (each further message waits for the gap, or for its own
 *       overhead and bytes, whichever is longer; with o = g = 0 this is
 *       L + n m G, the pipelined alpha-beta cost)
 *
 * Eager and rendezvous: MPI libraries send a message up to an eager
 * limit straight into a buffer the receiver keeps; above it the sender
 * first asks for the destination (request to send, clear to send) and
 * then writes it.  So a message above the limit pays the handshake
 * first: the link's rendezvous_us, or one small-message round trip
 * 2 (L + o) when the file names only the limit (hw_convert.c).
 *
 * LIMITATIONS
 * - The handshake is paid once per burst, as if the n - 1 later
 *   handshakes overlapped the earlier transfers.
 * - No pipelining of one message across hops, no packetization, no
 *   contention: sharing a link is the caller's business (a smaller
 *   bandwidth, sim_topology.c).
 * - The time to reduce received data (the gamma term of Thakur et al.)
 *   is not modelled: GPUs reduce at memory speed inside the copy.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

void sim_loggp_alpha_beta(struct sim_loggp *p, double alpha_s,
			  double beta_s_per_byte)
{
	memset(p, 0, sizeof(*p));
	p->L_s = alpha_s;
	p->G_s_per_byte = beta_s_per_byte;
}

void sim_loggp_link(struct sim_loggp *p, const struct hw_link *l,
		    double bandwidth_Bps)
{
	memset(p, 0, sizeof(*p));
	p->L_s = l->latency_s;
	p->o_s = l->overhead_s;
	p->g_s = l->gap_s;
	p->G_s_per_byte = bandwidth_Bps > 0.0 ? 1.0 / bandwidth_Bps : 0.0;
	p->eager_bytes = l->eager_limit_bytes;
	p->rndv_s = l->rendezvous_s;
}

double sim_p2p_time(const struct sim_loggp *p, double bytes)
{
	double t = p->L_s + 2.0 * p->o_s + bytes * p->G_s_per_byte;

	if (p->eager_bytes > 0.0 && bytes > p->eager_bytes)
		t += p->rndv_s;
	return t;
}

double sim_step_time(const struct sim_loggp *p, double bytes)
{
	double t = sim_p2p_time(p, bytes);

	return t > p->g_s ? t : p->g_s;
}

double sim_msgs_time(const struct sim_loggp *p, double n, double bytes)
{
	double next = p->o_s + bytes * p->G_s_per_byte;

	if (n <= 0.0)
		return 0.0;
	if (p->g_s > next)
		next = p->g_s;
	return sim_p2p_time(p, bytes) + (n - 1.0) * next;
}
