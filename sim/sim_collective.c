/*
 * sim_collective.c -- the time of a collective: allreduce,
 * reduce-scatter, allgather, broadcast, reduce and all-to-all, by each
 * algorithm that implements it, flat or hierarchical, and the choice
 * among them.
 *
 * MODEL
 * Each algorithm is a sequence of steps; a step costs its message in the
 * LogGP model of the path it takes (sim_loggp.c, sim_topology.c), so
 * with o = g = 0 and one path every formula below is the alpha-beta
 * closed form of its source.  Notation: P ranks, m bytes in nccl-tests'
 * sense (the allreduce, broadcast, reduce and all-to-all buffer; the
 * whole reduce-scatter input and allgather output), alpha the latency,
 * beta seconds per byte, lg = ceil(log2 P), fl = floor(log2 P),
 * P' = 2^fl.  The reduction's own arithmetic (gamma) is left out.
 *
 * allreduce
 *   ring       2 (P-1) (alpha + m/P beta)
 *              Patarasuk & Yuan, JPDC 69(2) 2009; Ben-Nun & Hoefler's
 *              T_pipe (extract sec. 2.2).  Rodriguez's 2 (L + T'/P)
 *              holds only in a fully connected box (extract sec. 2.7)
 *              and is not used.
 *   tree       2 lg (alpha + m beta): binomial reduce then broadcast
 *              (Thakur, Rabenseifner & Gropp, IJHPCA 19(1) 2005, Secs.
 *              4.2, 4.5; Ben-Nun & Hoefler's T_tree)
 *   halving-doubling  2 fl alpha + 2 (P'-1)/P' m beta, plus, for P not a
 *              power of two, 2 (alpha + m beta) to fold the P - P' extra
 *              ranks in and out (Rabenseifner, ICCS 2004; Thakur et al.
 *              Sec. 4.4; Ben-Nun & Hoefler's T_rabe for P = 2^k)
 *   recursive-doubling  fl (alpha + m beta), plus the same fold
 *              (Thakur et al. Sec. 4.4, short messages)
 *   butterfly  log2 P (alpha + m beta), P a power of two only (Ben-Nun
 *              & Hoefler's T_bfly; Rodriguez's T_bf): the exchange of
 *              recursive doubling, as the seeds define it
 *   double-binary-tree  two binary trees of depth D = fl, each carrying
 *              m/2 in k pipelined chunks; each rank is inner in one tree
 *              and a leaf in the other, so a stage moves 2 half-chunks:
 *              2 min_k (D + k - 1) (alpha + m/k beta)
 *              = 2 (sqrt((D-1) alpha) + sqrt(m beta))^2 at the best k
 *              (Sanders, Speck & Traff, Parallel Computing 35(12) 2009;
 *              NCCL 2.4's trees).  Rodriguez's 2 log P (L + T'/2) is the
 *              unpipelined k = 1 case and is not used.
 *   parameter-server  every rank pushes m to the server and pulls the
 *              sum back; the server's one link takes the P - 1 pushes
 *              in a row, and sends the P - 1 pulls the same way:
 *              2 (alpha + (P-1) m beta) (in LogGP, sim_msgs_time()).
 *              With S servers sharding the model (each rank one of them
 *              or none) each server takes P - 1 pushes of m/S:
 *              2 (alpha + (P-1) m/S beta), which at S = P is a direct
 *              reduce-scatter and allgather.  The seeds ignore this
 *              incast: Ben-Nun & Hoefler cost the server as the tree,
 *              Rodriguez as 2 (L + T'), the P - 1 messages arriving at
 *              once at full speed.
 * reduce-scatter
 *   ring       (P-1) (alpha + m/P beta) (Thakur et al. Sec. 4.3, the
 *              pairwise-exchange cost; NCCL's ring)
 *   halving-doubling  recursive halving: fl alpha + (P'-1)/P' m beta,
 *              plus (alpha + m beta) + (alpha + m/P beta) to fold the
 *              extra ranks in and hand them their part (Sec. 4.3)
 * allgather
 *   ring       (P-1) (alpha + m/P beta) (Thakur et al. Sec. 4.1)
 *   recursive-doubling, halving-doubling (its doubling half)
 *              lg alpha + (P-1)/P m beta: recursive doubling for P = 2^k,
 *              Bruck et al.'s algorithm otherwise, step i sending
 *              min(2^i, P - 2^i) blocks (Sec. 4.1; Bruck, Ho, Kipnis,
 *              Upfal & Weathersby, IEEE TPDS 8(11) 1997)
 * broadcast and reduce
 *   ring       a pipelined chain: min_k (P - 2 + k) (alpha + m/k beta)
 *              = (sqrt((P-2) alpha) + sqrt(m beta))^2 (the linear
 *              pipeline Sanders et al. 2009 compare against; NCCL's ring
 *              broadcast and reduce)
 *   tree       lg (alpha + m beta) (Thakur et al. Secs. 4.2, 4.5)
 *   halving-doubling  broadcast: binomial scatter then allgather,
 *              2 lg alpha + 2 (P-1)/P m beta (van de Geijn's, Sec. 4.2);
 *              reduce: reduce-scatter then binomial gather,
 *              2 lg alpha + 2 (P-1)/P m beta (Rabenseifner's, Sec. 4.5)
 *   double-binary-tree  min_k (D + k - 1) (alpha + m/k beta)
 *   parameter-server  alpha + (P-1) m beta: the root sends (or takes)
 *              all P - 1 messages over its one link
 * all-to-all
 *   ring       pairwise exchange: (P-1) (alpha + m/P beta) (Sec. 4.6)
 *   recursive-doubling  Bruck's index algorithm: lg steps, step i
 *              sending the blocks whose index has bit i set, about m/2:
 *              lg (alpha + m/2 beta) for P = 2^k (Sec. 4.6)
 * Every other pair, and butterfly on P not a power of two, is
 * DLSIM_EINVAL (parameter server for all-to-all, for instance).
 *
 * TOPOLOGY
 * A ring step takes the level's ring path; the step of a tree or of
 * recursive halving/doubling takes the path to its partner (XOR
 * distance 2^i), which inside a switch, a node or a leaf is faster than
 * across it (sim_topology.c).  On a torus the ring collectives run
 * per dimension: the data is split in d shards and shard j reduces
 * along dimensions j, j+1, ... in turn, so that in every phase each
 * dimension carries one shard over its two links (the bidirectional
 * ring of TPU ICI); an allreduce of P = n^d ranks then takes
 * 2 d (n-1) alpha + 2 (P-1)/P m/(2d) beta.  Double binary trees and the
 * parameter server, whose edges span the whole level, take its slowest
 * path (across leaves, or to the farthest torus partner).  All-to-all's
 * pairwise exchange is costed by the load on the busiest group boundary
 * (or the torus's mean hop count).
 *
 * HIERARCHY
 * On N nodes of g devices an algorithm also runs in two levels, as NCCL
 * and Horovod do (Rodriguez: "ring inside each DGX-2, then across, then
 * broadcast"): a ring reduce-scatter inside each node, the collective
 * on m/g bytes across nodes by each of the g devices at once (sharing
 * the node's NICs), a ring allgather inside.  Reduce-scatter and
 * allgather keep their half; broadcast and reduce scatter or gather
 * inside; all-to-all exchanges inside and then across.  Each algorithm
 * takes the cheaper of flat and hierarchical (but the parameter server,
 * which runs flat only: its single server's incast is what it is costed
 * for); AUTO the cheapest of all
 * (ties to the earlier algorithm, flat first), which is what NCCL's
 * tuner does with its own model and MPI's decision functions do with
 * size and rank thresholds.  AUTO leaves out the parameter server, as
 * those libraries do: it is a framework's design, costed when asked
 * for.  (With o = g = 0 its incast of P - 1 tiny messages would pay one
 * latency and win below a few kilobytes, an artifact of the alpha-beta
 * form's unlimited injection rate.)
 *
 * LIMITATIONS
 * - No protocol model: NCCL's LL, LL128 and Simple protocols, with
 *   their per-call base latency (baseLat, 6.6 to 14 us in
 *   src/graph/tuning.cc) and lower LL bandwidth, are one path here; so
 *   small collectives come out faster than NCCL runs them.  Nor are
 *   channels, chunk sizes or kernel launches modelled.
 * - Link bandwidths are the catalog's: the line rate times the link's
 *   stated efficiency where it has one (NVLink's protocol overhead);
 *   other copy overheads that keep measured bus bandwidth below that
 *   are not subtracted.
 * - Pipelined chunk counts are optimized continuously (a few integer
 *   candidates), not NCCL's fixed chunk size.
 * - For P not a power of two the folded ranks of recursive algorithms
 *   are costed at distance 1 and the rest as if contiguous.
 * - The parameter server runs flat, on AUTO's request too, and
 *   sim_hier_cost() refuses it: no hierarchical push (reduce inside
 *   each node first), no server on a machine of its own.  Its pushes
 *   take the level's slowest path, so on N nodes of g devices one
 *   server costs 2 (P-1) m over one device's share of its node's NICs.
 */
#include <math.h>
#include <stdint.h>
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
	int i = core_name_parse(algo_names, name, "collective algorithm",
				err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum sim_algo)i;
	return DLSIM_OK;
}

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

/* ---------------------------------------------------------------- */
/* Which algorithm implements which collective                       */
/* ---------------------------------------------------------------- */

#define C(x) (1u << SIM_COLL_##x)

static const unsigned implemented[SIM_ALGO_COUNT] = {
	[SIM_ALGO_RING] = C(ALLREDUCE) | C(REDUCE_SCATTER) | C(ALLGATHER) |
			  C(BROADCAST) | C(REDUCE) | C(ALLTOALL),
	[SIM_ALGO_TREE] = C(ALLREDUCE) | C(BROADCAST) | C(REDUCE),
	[SIM_ALGO_HALVING_DOUBLING] = C(ALLREDUCE) | C(REDUCE_SCATTER) |
				      C(ALLGATHER) | C(BROADCAST) | C(REDUCE),
	[SIM_ALGO_PARAM_SERVER] = C(ALLREDUCE) | C(BROADCAST) | C(REDUCE),
	[SIM_ALGO_DOUBLE_BINARY_TREE] = C(ALLREDUCE) | C(BROADCAST) |
					C(REDUCE),
	[SIM_ALGO_RECURSIVE_DOUBLING] = C(ALLREDUCE) | C(ALLGATHER) |
					C(ALLTOALL),
	[SIM_ALGO_BUTTERFLY] = C(ALLREDUCE),
};

static int is_pow2(int64_t p)
{
	return p > 0 && (p & (p - 1)) == 0;
}

/* Whether a implements c on p ranks (p <= 1: any pair that exists). */
static int implements(enum sim_collective c, enum sim_algo a, int64_t p)
{
	if ((int)a <= SIM_ALGO_AUTO || a >= SIM_ALGO_COUNT ||
	    (int)c < 0 || c >= SIM_COLLECTIVE_COUNT ||
	    !(implemented[a] & (1u << c)))
		return 0;
	return a != SIM_ALGO_BUTTERFLY || p <= 1 || is_pow2(p);
}

/* ---------------------------------------------------------------- */
/* Building blocks on one level                                      */
/* ---------------------------------------------------------------- */

static int floor_log2(int64_t p)
{
	int e = 0;

	while (p > 1) {
		p >>= 1;
		e++;
	}
	return e;
}

static int ceil_log2(int64_t p)
{
	int e = floor_log2(p);

	return is_pow2(p) ? e : e + 1;
}

/* One step to the partner `dist` ranks away. */
static double peer_step(const struct sim_level *l, int64_t dist, double x)
{
	struct sim_loggp tmp;

	return sim_step_time(sim_level_peer(l, dist, &tmp), x);
}

/* The level's slowest path: across leaves, or to the farthest torus
 * partner. */
static const struct sim_loggp *slowest(const struct sim_level *l,
				       struct sim_loggp *tmp)
{
	if (l->n_dims > 0)
		return sim_level_peer(l, l->ranks / 2, tmp);
	return &l->tier[l->n_tiers - 1].p;
}

/*
 * Ring reduce-scatter, or allgather (the same steps the other way).  On
 * a torus: d shards, each along the dimensions in its own order, over
 * both links of each dimension (half a chunk each way).
 */
static double ring_half(const struct sim_level *l, double m)
{
	double p = (double)l->ranks, total = 0.0;
	int d = l->n_dims, j, s, t;

	if (d == 0)
		return (p - 1.0) * sim_step_time(&l->ring, m / p);
	for (j = 0; j < d; j++) {
		double phase = 0.0;

		for (s = 0; s < d; s++) {
			double size = m / (double)d, n, c;

			for (t = 0; t < j; t++)
				size /= (double)l->dims[(s + t) % d];
			n = (double)l->dims[(s + j) % d];
			if (n <= 1.0)
				continue;
			c = (n - 1.0) * sim_step_time(&l->link,
						      size / (2.0 * n));
			if (c > phase)
				phase = c;
		}
		total += phase;
	}
	return total;
}

/* A stage of a pipeline: one chunk to the next rank (chain), or half a
 * chunk to each of two children (double binary tree). */
static double stage(const struct sim_loggp *p, double chunk, int two)
{
	return two ? sim_msgs_time(p, 2.0, chunk / 2.0) :
		     sim_step_time(p, chunk);
}

/*
 * min over k chunks of (depth + k - 1) stage(m / k).  With a stage of
 * a + b x the best k is sqrt((depth - 1) m b / a); the rendezvous step
 * and the gap floor bend the curve, so the candidates are that k with
 * and without the handshake, the k that brings a chunk under the eager
 * limit, the k that brings a stage down to g, and 1.
 */
static double pipelined(const struct sim_loggp *p, double depth, double m,
			int two)
{
	double a = stage(p, 0.0, two), b, frac = two ? 0.5 : 1.0;
	double cand[10], best = HUGE_VAL, kmax = m >= 1.0 ? floor(m) : 1.0;
	int n = 0, i;

	b = (stage(p, m, two) - a -
	     (p->eager_bytes > 0.0 && m * frac > p->eager_bytes ?
	      p->rndv_s : 0.0)) / m;
	cand[n++] = 1.0;
	if (depth > 1.0 && a > 0.0 && b > 0.0) {
		double k0 = sqrt((depth - 1.0) * m * b / a);
		double k1 = sqrt((depth - 1.0) * m * b / (a + p->rndv_s));

		cand[n++] = floor(k0);
		cand[n++] = ceil(k0);
		cand[n++] = floor(k1);
		cand[n++] = ceil(k1);
	}
	if (p->eager_bytes > 0.0)
		cand[n++] = ceil(m * frac / p->eager_bytes);
	if (b > 0.0 && p->g_s > p->L_s + 2.0 * p->o_s) {
		double kg = m * b / (p->g_s - p->L_s - 2.0 * p->o_s);

		cand[n++] = floor(kg);
		cand[n++] = ceil(kg);
	}
	for (i = 0; i < n; i++) {
		double k = cand[i] < 1.0 ? 1.0 : cand[i] > kmax ? kmax :
			   cand[i], t = (depth + k - 1.0) * stage(p, m / k,
								  two);

		if (t < best)
			best = t;
	}
	return best;
}

/* Binomial tree: lg steps of the whole buffer at distances 2^i. */
static double binomial(const struct sim_level *l, double m)
{
	int i, lg = ceil_log2(l->ranks);
	double t = 0.0;

	for (i = 0; i < lg; i++)
		t += peer_step(l, (int64_t)1 << i, m);
	return t;
}

/* Binomial scatter (or gather): step i moves m / 2^(i+1) over
 * distance 2^(lg-1-i). */
static double binomial_scatter(const struct sim_level *l, double m)
{
	int i, lg = ceil_log2(l->ranks);
	double t = 0.0;

	for (i = 0; i < lg; i++)
		t += peer_step(l, (int64_t)1 << (lg - 1 - i),
			       m / ldexp(1.0, i + 1));
	return t;
}

/* Folding the P - P' extra ranks of a recursive algorithm in (or out):
 * one step of `x` bytes between neighbours; none for a power of two. */
static double fold(const struct sim_level *l, double x)
{
	return is_pow2(l->ranks) ? 0.0 : peer_step(l, 1, x);
}

/* Recursive halving over P' ranks: step i (1..fl) sends m / 2^i over
 * distance P' / 2^i. */
static double halving(const struct sim_level *l, double m)
{
	int i, fl = floor_log2(l->ranks);
	int64_t pp = (int64_t)1 << fl;
	double t = 0.0;

	for (i = 1; i <= fl; i++)
		t += peer_step(l, pp >> i, m / ldexp(1.0, i));
	return t;
}

/* Recursive-doubling (Bruck) allgather: step i sends min(2^i, P - 2^i)
 * blocks of m/P over distance 2^i. */
static double doubling_gather(const struct sim_level *l, double m)
{
	int i, lg = ceil_log2(l->ranks);
	int64_t p = l->ranks;
	double t = 0.0;

	for (i = 0; i < lg; i++) {
		int64_t s = (int64_t)1 << i, blocks = s < p - s ? s : p - s;

		t += peer_step(l, s, (double)blocks * m / (double)p);
	}
	return t;
}

/* Whole-buffer exchanges at distances 1, 2, ..., P'/2. */
static double exchanges(const struct sim_level *l, double m)
{
	int i, fl = floor_log2(l->ranks);
	double t = 0.0;

	for (i = 0; i < fl; i++)
		t += peer_step(l, (int64_t)1 << i, m);
	return t;
}

/*
 * Pairwise-exchange all-to-all: P - 1 steps of m/P.  Each rank sends
 * (P - s)/P of its buffer beyond its group of span s, where the group's
 * ranks share the tier's bandwidth, so the busiest boundary sets the
 * rate: G = max over tiers of (P - s_prev)/(P - 1) G_tier.  On a torus
 * every message travels the mean hop count H/(P - 1) over the 2 d
 * links, H = sum over dimensions of (P/n) floor(n^2/4).
 */
static double pairwise(const struct sim_level *l, double m)
{
	double p = (double)l->ranks, G = 0.0;
	struct sim_loggp path;
	int i;

	if (l->n_dims > 0) {
		double h = 0.0;

		for (i = 0; i < l->n_dims; i++) {
			double n = (double)l->dims[i];

			h += p / n * floor(n * n / 4.0);
		}
		path = l->link;
		path.G_s_per_byte *= h / ((p - 1.0) * 2.0 *
					  (double)l->n_dims);
	} else {
		double prev = 1.0;

		path = l->tier[l->n_tiers - 1].p;
		for (i = 0; i < l->n_tiers && prev < p; i++) {
			double g = (p - prev) / (p - 1.0) *
				   l->tier[i].p.G_s_per_byte;

			if (g > G)
				G = g;
			prev = (double)l->tier[i].span;
		}
		path.G_s_per_byte = G;
	}
	return (p - 1.0) * sim_step_time(&path, m / p);
}

/* Bruck's all-to-all: step i sends the blocks whose index has bit i. */
static double bruck(const struct sim_level *l, double m)
{
	int i, lg = ceil_log2(l->ranks);
	int64_t p = l->ranks;
	double t = 0.0;

	for (i = 0; i < lg; i++) {
		int64_t s = (int64_t)1 << i, full = (p >> (i + 1)) << i;
		int64_t rem = p % (2 * s), blocks = full +
			     (rem > s ? rem - s : 0);

		t += peer_step(l, s, (double)blocks * m / (double)p);
	}
	return t;
}

double sim_level_param_server(const struct sim_level *l, double bytes,
			      int64_t servers)
{
	struct sim_loggp tmp;
	const struct sim_loggp *p = slowest(l, &tmp);

	if (l->ranks <= 1 || bytes <= 0.0)
		return 0.0;
	if (servers < 1)
		servers = 1;
	return 2.0 * sim_msgs_time(p, (double)(l->ranks - 1),
				   bytes / (double)servers);
}

/* ---------------------------------------------------------------- */
/* One collective on one level                                       */
/* ---------------------------------------------------------------- */

static double allreduce(const struct sim_level *l, enum sim_algo a,
			double m)
{
	struct sim_loggp tmp;
	double depth = (double)floor_log2(l->ranks);

	switch (a) {
	case SIM_ALGO_RING:
		return 2.0 * ring_half(l, m);
	case SIM_ALGO_TREE:
		return 2.0 * binomial(l, m);
	case SIM_ALGO_HALVING_DOUBLING:
		return 2.0 * fold(l, m) + 2.0 * halving(l, m);
	case SIM_ALGO_PARAM_SERVER:
		return sim_level_param_server(l, m, 1);
	case SIM_ALGO_DOUBLE_BINARY_TREE:
		return 2.0 * pipelined(slowest(l, &tmp), depth, m, 1);
	case SIM_ALGO_RECURSIVE_DOUBLING:
		return 2.0 * fold(l, m) + exchanges(l, m);
	case SIM_ALGO_BUTTERFLY:
	default:
		return exchanges(l, m);
	}
}

/* Broadcast and reduce cost the same: the one is the other reversed. */
static double rooted(const struct sim_level *l, enum sim_collective c,
		     enum sim_algo a, double m)
{
	struct sim_loggp tmp;
	double p = (double)l->ranks;

	switch (a) {
	case SIM_ALGO_RING:
		return pipelined(&l->ring, p - 1.0, m, 0);
	case SIM_ALGO_TREE:
		return binomial(l, m);
	case SIM_ALGO_HALVING_DOUBLING:
		return binomial_scatter(l, m) +
		       (c == SIM_COLL_BROADCAST ? doubling_gather(l, m) :
			fold(l, m) + halving(l, m) + fold(l, m / p));
	case SIM_ALGO_PARAM_SERVER:
		return sim_msgs_time(slowest(l, &tmp), p - 1.0, m);
	case SIM_ALGO_DOUBLE_BINARY_TREE:
	default:
		return pipelined(slowest(l, &tmp),
				 (double)floor_log2(l->ranks), m, 1);
	}
}

int sim_level_cost(const struct sim_level *l, enum sim_collective c,
		   enum sim_algo a, double bytes, double *t)
{
	double m = bytes;

	if (!implements(c, a, l->ranks))
		return DLSIM_EINVAL;
	if (l->ranks <= 1 || !(m > 0.0)) {
		*t = 0.0;
		return DLSIM_OK;
	}
	switch (c) {
	case SIM_COLL_ALLREDUCE:
		*t = allreduce(l, a, m);
		break;
	case SIM_COLL_REDUCE_SCATTER:
		*t = a == SIM_ALGO_RING ? ring_half(l, m) :
		     fold(l, m) + halving(l, m) +
		     fold(l, m / (double)l->ranks);
		break;
	case SIM_COLL_ALLGATHER:
		*t = a == SIM_ALGO_RING ? ring_half(l, m) :
		     doubling_gather(l, m);
		break;
	case SIM_COLL_BROADCAST:
	case SIM_COLL_REDUCE:
		*t = rooted(l, c, a, m);
		break;
	case SIM_COLL_ALLTOALL:
	default:
		*t = a == SIM_ALGO_RING ? pairwise(l, m) : bruck(l, m);
		break;
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Two levels                                                        */
/* ---------------------------------------------------------------- */

int sim_hier_cost(const struct sim_topo *t, enum sim_collective c,
		  enum sim_algo a, double bytes, double *time)
{
	const struct sim_level *in = &t->intra;
	double g = (double)in->ranks, inside = ring_half(in, bytes), across;
	double a2a_in;

	/* the parameter server runs flat: its incast on one server's
	 * link is the point, and a push through each node first is a
	 * different design (LIMITATIONS) */
	if (a == SIM_ALGO_PARAM_SERVER || !implements(c, a, t->inter.ranks) ||
	    sim_level_cost(&t->inter, c, a, c == SIM_COLL_ALLTOALL ? bytes :
			   bytes / g, &across))
		return DLSIM_EINVAL;
	switch (c) {
	case SIM_COLL_REDUCE_SCATTER:
	case SIM_COLL_ALLGATHER:
		*time = inside + across;
		break;
	case SIM_COLL_ALLTOALL:
		if (sim_level_cost(in, c, a, bytes, &a2a_in))
			return DLSIM_EINVAL;
		*time = a2a_in + across;
		break;
	default:
		/* allreduce: reduce-scatter, across, allgather; broadcast:
		 * scatter, across, allgather; reduce: reduce-scatter,
		 * across, gather -- each half a ring's cost */
		*time = 2.0 * inside + across;
		break;
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

/* nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md). */
static double bus_factor(enum sim_collective c, double n)
{
	switch (c) {
	case SIM_COLL_ALLREDUCE:
		return 2.0 * (n - 1.0) / n;
	case SIM_COLL_REDUCE_SCATTER:
	case SIM_COLL_ALLGATHER:
	case SIM_COLL_ALLTOALL:
		return (n - 1.0) / n;
	default:
		return 1.0;
	}
}

static void bandwidths(struct sim_comm_result *out, enum sim_collective c,
		       double bytes, int64_t n)
{
	if (out->time_s > 0.0) {
		out->algbw_Bps = bytes / out->time_s;
		out->busbw_Bps = out->algbw_Bps * bus_factor(c, (double)n);
	}
}

/* The cheapest of algorithm a (for AUTO, all but the parameter server),
 * flat or hierarchical (the parameter server flat only:
 * sim_hier_cost() refuses it); DLSIM_EINVAL if none applies. */
static int cheapest(const struct sim_topo *t, enum sim_collective c,
		    enum sim_algo a, double bytes, struct sim_comm_result *out)
{
	int k, h, lo = a == SIM_ALGO_AUTO ? SIM_ALGO_RING : (int)a;
	int hi = a == SIM_ALGO_AUTO ? SIM_ALGO_COUNT - 1 : (int)a, found = 0;

	for (k = lo; k <= hi; k++) {
		if (a == SIM_ALGO_AUTO && k == SIM_ALGO_PARAM_SERVER)
			continue;
		for (h = 0; h <= t->can_hier; h++) {
			double time;
			int rc = h ? sim_hier_cost(t, c, (enum sim_algo)k,
						   bytes, &time) :
				     sim_level_cost(&t->flat, c,
						    (enum sim_algo)k, bytes,
						    &time);

			if (rc || (found && !(time < out->time_s)))
				continue;
			found = 1;
			out->time_s = time;
			out->algo = (enum sim_algo)k;
			out->hierarchical = h;
		}
	}
	return found ? DLSIM_OK : DLSIM_EINVAL;
}

static int check_bytes(double bytes, struct dlsim_err *err)
{
	if (!(bytes >= 0.0) || !isfinite(bytes))
		return dlsim_err_set(err, DLSIM_EINVAL, "collective size "
				     "must be a finite number of bytes, at "
				     "least 0 (got %g)", bytes);
	return DLSIM_OK;
}

int sim_collective_time(const struct hw_system *s, enum sim_collective c,
			double bytes, enum sim_algo a,
			struct sim_comm_result *out, struct dlsim_err *err)
{
	struct sim_topo t;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((int)c < 0 || c >= SIM_COLLECTIVE_COUNT || (int)a < 0 ||
	    a >= SIM_ALGO_COUNT)
		return dlsim_err_set(err, DLSIM_EINVAL, "no collective %d or "
				     "algorithm %d", (int)c, (int)a);
	if ((rc = check_bytes(bytes, err)))
		return rc;
	if (a != SIM_ALGO_AUTO && !implements(c, a, 1))
		return dlsim_err_set(err, DLSIM_EINVAL, "%s does not "
				     "implement %s", sim_algo_name(a),
				     sim_collective_name(c));
	out->algo = a;
	if (s->n_devices <= 1 || bytes == 0.0)
		return DLSIM_OK;
	sim_topology(s, &t);
	if (cheapest(&t, c, a, bytes, out)) {
		memset(out, 0, sizeof(*out));
		return dlsim_err_set(err, DLSIM_EINVAL, "%s does not "
				     "implement %s on %lld devices (it needs "
				     "a power of two)", sim_algo_name(a),
				     sim_collective_name(c),
				     (long long)s->n_devices);
	}
	bandwidths(out, c, bytes, s->n_devices);
	return DLSIM_OK;
}

int sim_param_server_time(const struct hw_system *s, double bytes,
			  int64_t servers, struct sim_comm_result *out,
			  struct dlsim_err *err)
{
	struct sim_topo t;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = check_bytes(bytes, err)))
		return rc;
	if (servers < 1 || servers > (s->n_devices > 1 ? s->n_devices : 1))
		return dlsim_err_set(err, DLSIM_EINVAL, "parameter servers "
				     "must be 1 to %lld, one per device at "
				     "most (got %lld)",
				     (long long)s->n_devices,
				     (long long)servers);
	out->algo = SIM_ALGO_PARAM_SERVER;
	if (s->n_devices <= 1 || bytes == 0.0)
		return DLSIM_OK;
	sim_topology(s, &t);
	out->time_s = sim_level_param_server(&t.flat, bytes, servers);
	bandwidths(out, SIM_COLL_ALLREDUCE, bytes, s->n_devices);
	return DLSIM_OK;
}

double sim_allreduce_time(const struct hw_system *s, double bytes,
			  enum sim_algo a,
			  enum sim_algo *used, int *hierarchical)
{
	struct sim_comm_result r;

	if (!(bytes > 0.0) || !isfinite(bytes))
		bytes = 0.0;
	if (sim_collective_time(s, SIM_COLL_ALLREDUCE, bytes, a, &r, NULL))
		sim_collective_time(s, SIM_COLL_ALLREDUCE, bytes,
				    SIM_ALGO_AUTO, &r, NULL);
	if (used)
		*used = r.algo;
	if (hierarchical)
		*hierarchical = r.hierarchical;
	return r.time_s;
}
