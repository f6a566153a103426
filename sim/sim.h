/*
 * sim.h -- the simulator's parts as the library sees them: the roofline
 * cost of one layer pass, and the LogGP cost of collectives on the ranks
 * and topology of a system.  sim_step.c puts them together into a step.
 */
#ifndef DLSIM_SIM_SIM_H
#define DLSIM_SIM_SIM_H

#include "dlsim.h"

/* What the roofline needs of a device at one precision, computed once per
 * prediction so that costing a layer is a handful of multiplies. */
struct sim_roof {
	double rate[MODEL_KERNEL_COUNT];  /* attainable FLOP/s per kernel
					     class (direct-count FLOPs) */
	int fitted[MODEL_KERNEL_COUNT];   /* 1: the class has a calibrated
					     roofline, the four below */
	double once_s[MODEL_KERNEL_COUNT];  /* fixed, once a pass */
	double call_s[MODEL_KERNEL_COUNT];  /* fixed, per dependent call */
	double s_per_flop[MODEL_KERNEL_COUNT];
	double s_per_byte[MODEL_KERNEL_COUNT];
	double bandwidth_Bps;   /* attainable memory bandwidth */
	int n_levels;           /* a fitted bandwidth curve's, 0: none */
	double level_upto_bytes[HW_CALIB_LEVELS];
	double level_Bps[HW_CALIB_LEVELS];
	double cycle_s;         /* one clock: the unit of Brent's depth */
	double launch_s;        /* per kernel */
};

/* The roofline of device d at precision p; cal (NULL: none) replaces
 * the matrix classes' costs and the bandwidth with fitted ones where it
 * has them (struct hw_calib). */
void sim_roof_init(struct sim_roof *r, const struct hw_device *d,
		   enum dlsim_precision p, const struct hw_calib *cal);

/* The fitted roofline kernel class k runs with at precision p: its own
 * fit, else for a 1x1 or non-square convolution the convolution fit,
 * else for any other convolution or a recurrent pass the GEMM fit; a
 * fused attention on 4-byte values (MODEL_KERNEL_ATTENTION_F32) the fp32
 * GEMM fit at TF32 as at fp32; the unaligned convolution class
 * (MODEL_KERNEL_CONV_UNALIGNED) its own fit only, its passes falling
 * back to their window's class instead; NULL when none was fitted. */
const struct hw_calib_kernel *sim_calib_kernel(const struct hw_calib *cal,
					       enum model_kernel k,
					       enum dlsim_precision p);

/* The fitted roofline a pass of class k runs with at precision p on
 * device d: sim_calib_kernel's, except that a 16-bit convolution off 8
 * channels (MODEL_KERNEL_CONV_UNALIGNED) takes its fit only where d has
 * matrix units faster than its vector ones at p (tensor cores): the
 * population is the tensor-core kernels' fallback, and a device without
 * them (the P100, fp16 as half2 on its CUDA cores) runs such a layer with
 * its window's kernels.  NULL when none applies. */
const struct hw_calib_kernel *sim_device_kernel(const struct hw_device *d,
						const struct hw_calib *cal,
						enum model_kernel k,
						enum dlsim_precision p);

/* Time of one pass with cost c; sets *bound. */
double sim_pass_time(const struct sim_roof *r,
		     const struct model_pass_cost *c, enum sim_bound *bound);

/*
 * Element-wise fusion (sim_fuse.c).  sim_fuse_check refuses what o's
 * fusion cannot run with (model m on s at precision p: an eager GELU,
 * and for convolution + BatchNorm fusion a device, precision or autocast
 * cuDNN's fused kernels do not take).  sim_fuse_mark fills fused[] (one byte
 * per layer, 0 everywhere when on is 0) with the SIM_FUSE_* bits of the
 * edges that stay on chip, and with conv_bn the BatchNorm + ReLU pairs
 * run inside convolutions; sim_fuse_edges counts the fused edges,
 * sim_fuse_conv_pairs those pairs;
 * sim_fuse_pass takes their traffic and launch off layer i's forward or
 * backward-data pass c at batch and act_bytes.
 */
#define SIM_FUSE_IN 1        /* forward: an input edge stays on chip */
#define SIM_FUSE_OUT 2       /* forward: the output edge stays on chip */
#define SIM_FUSE_IN_BWD 4    /* backward, the same edges where no add */
#define SIM_FUSE_OUT_BWD 8
#define SIM_FUSE_CONV 16     /* BatchNorm or ReLU run inside convolutions,
				forward (sim_options.fuse_conv_bn) */
#define SIM_FUSE_FEEDS_OTHER 32   /* sim_fuse_mark's scratch */

int sim_fuse_check(const struct model *m, const struct hw_system *s,
		   const struct sim_options *o, enum dlsim_precision p,
		   struct dlsim_err *err);
void sim_fuse_mark(const struct model *m, int on, int conv_bn,
		   unsigned char *fused);
int sim_fuse_edges(const struct model *m, const unsigned char *fused);
int sim_fuse_conv_pairs(const struct model *m, const unsigned char *fused);
void sim_fuse_pass(const struct model *m, const unsigned char *fused, int i,
		   enum model_pass p, int64_t batch, int act_bytes,
		   struct model_pass_cost *c);

/*
 * PyTorch's autocast (sim_autocast.c).  sim_autocast_mark fills wide[]
 * (one byte per layer) with 1 where autocast leaves the layer's output
 * fp32; sim_autocast_act is the activation width layer i's passes move
 * (4 where wide, else act; wide NULL: act); sim_autocast_weight the
 * width its parameters are read at (master, but a matrix layer's cast
 * weight; wide NULL: weight); sim_autocast_casts the casts
 * layer i's pass p issues at batch (all zero where none);
 * sim_autocast_cost their cost as one pass, the activations' bytes times
 * act_share and the weights' times weight_share (1/tp where a tensor-
 * parallel rank casts its part).
 */
struct sim_casts {
	double act_bytes;       /* activations and their gradients */
	double weight_bytes;    /* weights and weight gradients */
	double launches;        /* one copy kernel a cast */
};

void sim_autocast_mark(const struct model *m, unsigned char *wide);
int sim_autocast_act(const unsigned char *wide, int i, int act);
int sim_autocast_weight(const unsigned char *wide,
			const struct model_layer *l, int weight, int master);
void sim_autocast_casts(const struct model *m, const unsigned char *wide,
			int i, enum model_pass p, int64_t batch,
			struct sim_casts *k);
void sim_autocast_cost(const struct sim_casts *k, double act_share,
		       double weight_share, struct model_pass_cost *c);

/* The time of those casts on roofline roof (sim_autocast_cost's
 * shares), adding their launches to *launches; 0 where none. */
double sim_autocast_time(const struct sim_roof *roof, const struct model *m,
			 const unsigned char *wide, int i, enum model_pass p,
			 int64_t batch, double act_share, double weight_share,
			 double *launches);

/* DLSIM_OK unless autocast is asked for at a precision other than fp16
 * and bf16, or with element-wise fusion (fuse 1): DLSIM_EINVAL. */
int sim_autocast_check(enum dlsim_precision p, int autocast, int fuse,
		       struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* Point to point: LogGP (sim_loggp.c)                               */
/* ---------------------------------------------------------------- */

/*
 * One path between two ranks in the LogGP model (Alexandrov, Ionescu,
 * Schauser & Scheiman, SPAA 1995): latency L, overhead o at each end,
 * gap g between messages, gap per byte G; plus the eager/rendezvous
 * switch of MPI libraries.  o = g = 0 and no switch is the alpha-beta
 * model (alpha = L, beta = G).
 */
struct sim_loggp {
	double L_s;
	double o_s;
	double g_s;
	double G_s_per_byte;
	double eager_bytes;      /* larger messages pay rndv_s; 0: never */
	double rndv_s;
};

/* The alpha-beta special case: L = alpha, G = beta, o = g = 0. */
void sim_loggp_alpha_beta(struct sim_loggp *p, double alpha_s,
			  double beta_s_per_byte);

/* Link l's L, o, g and protocol switch, with G = 1 / bandwidth_Bps (a
 * share of the link, or several links together). */
void sim_loggp_link(struct sim_loggp *p, const struct hw_link *l,
		    double bandwidth_Bps);

/* One message of `bytes`: L + 2o + bytes G, plus rndv_s above the eager
 * limit. */
double sim_p2p_time(const struct sim_loggp *p, double bytes);

/* One step of a step-synchronous algorithm (each rank sends one message
 * and waits for one): the message, but never less than g. */
double sim_step_time(const struct sim_loggp *p, double bytes);

/* n messages of `bytes` that one rank sends back to back (or receives,
 * an incast): the first as sim_p2p_time(), each other max(g, o + bytes
 * G) later.  0 for n <= 0. */
double sim_msgs_time(const struct sim_loggp *p, double n, double bytes);

/* ---------------------------------------------------------------- */
/* Ranks and topology (sim_topology.c)                               */
/* ---------------------------------------------------------------- */

#define SIM_MAX_TIERS 4

/* Partners fewer than `span` ranks apart (XOR distance) talk over p. */
struct sim_tier {
	int64_t span;
	struct sim_loggp p;
};

/*
 * One level of ranks, numbered so that ranks sharing a switch, a node or
 * a leaf are contiguous.  `ring` is one rank's path in a ring pattern
 * (its share of all the rings the topology embeds); tiers give the path
 * to one partner at a time by distance, each tier's G the rank's share
 * when every rank of its group talks across at once.  A torus (n_dims >
 * 0; a physical ring is a torus of one dimension) has per-dimension
 * rings over `link`, one link each way per dimension, and costs a
 * partner d ranks away by the hops between them.
 */
struct sim_level {
	int64_t ranks;
	struct sim_loggp ring;
	int n_tiers;
	struct sim_tier tier[SIM_MAX_TIERS];  /* spans increasing; the last
						 one >= ranks */
	int n_dims;
	int64_t dims[HW_MAX_DIMS];
	struct sim_loggp link;   /* torus: one link, one direction */
};

/* A level of `ranks` ranks where every path is p (tests, and a
 * fully-switched box). */
void sim_level_uniform(struct sim_level *l, int64_t ranks,
		       const struct sim_loggp *p);

/* A torus of n_dims dimensions of the given sizes over `link`. */
void sim_level_torus(struct sim_level *l, int n_dims, const int64_t *dims,
		     const struct sim_loggp *link);

/* The path to a partner `dist` ranks away (XOR distance), in *tmp when
 * it must be computed (torus hops). */
const struct sim_loggp *sim_level_peer(const struct sim_level *l,
				       int64_t dist, struct sim_loggp *tmp);

/* A system's levels: all devices flat, the devices of one node, and one
 * device per node with its share of the node's NICs (each of the node's
 * devices runs its own collective across nodes at the same time). */
struct sim_topo {
	struct sim_level flat;
	struct sim_level intra;
	struct sim_level inter;
	int can_hier;            /* several nodes of several devices, not
				    one torus */
};

void sim_topology(const struct hw_system *s, struct sim_topo *t);

/* ---------------------------------------------------------------- */
/* Collectives on one level (sim_collective.c)                       */
/* ---------------------------------------------------------------- */

/*
 * Time of collective c of `bytes` (nccl-tests' meaning) over level l with
 * algorithm a (not AUTO) in *t.  DLSIM_EINVAL, *t untouched, if a does
 * not implement c on l->ranks ranks.  One rank or no bytes: 0.
 */
int sim_level_cost(const struct sim_level *l, enum sim_collective c,
		   enum sim_algo a, double bytes, double *t);

/* A parameter-server allreduce through `servers` servers on level l. */
double sim_level_param_server(const struct sim_level *l, double bytes,
			      int64_t servers);

/* The same collective run hierarchically: inside each node (t->intra),
 * across nodes with algorithm a (t->inter), inside again.  DLSIM_EINVAL
 * as sim_level_cost(), and for the parameter server, which runs flat
 * only. */
int sim_hier_cost(const struct sim_topo *t, enum sim_collective c,
		  enum sim_algo a, double bytes, double *time);

/* Bytes per value of the weights used in compute and of the gradients. */
struct sim_sizes {
	int act, weight, grad, master;
};

/* DLSIM_OK when device d can train at precision p; else DLSIM_EINVAL,
 * err saying why (int8 is for inference; no peak at p in the catalog).
 * Every predictor checks it, one device or a parallel strategy
 * (sim_options.c). */
int sim_training_precision(const struct hw_device *d,
			   enum dlsim_precision p, struct dlsim_err *err);

/* The widths dlsim trains precision p with: activations and the compute
 * copy of the weights at p; master weights and gradients fp32 (fp64 for
 * fp64), as PyTorch's AMP keeps them (sim_options.c). */
void sim_sizes_for(enum dlsim_precision p, struct sim_sizes *s);

/* Fill r->calib_used with the fits a prediction of m on s at r's
 * precision and batch used (sim_calibused.c). */
void sim_list_calib_used(const struct model *m, const struct hw_system *s,
			 struct sim_result *r);

/* Mixed precision: the compute copy of the weights is narrower than the
 * master copy. */
static inline int sim_mixed(const struct sim_sizes *s)
{
	return s->weight < s->master;
}

/*
 * The optimizer update of `params` weights (sim_optimizer.c's head
 * comment): its FLOPs, bytes and launches into *c (kernel VECTOR), and
 * the kernels it runs, 1 fused, or one per operation as PyTorch's
 * foreach implementation (foreach 1).
 */
int sim_optimizer_cost(const struct sim_sizes *sz, enum sim_optimizer opt,
		       int foreach, double params, struct model_pass_cost *c);

/* DLSIM_OK unless the pair has no implementation (LAMB's foreach
 * kernels: torch.optim has no LAMB): DLSIM_EINVAL. */
int sim_optimizer_check(enum sim_optimizer opt, int foreach,
			struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* sim_host.c: the weights and the optimizer in host memory          */
/* ---------------------------------------------------------------- */

/* One step's trip to the host and back, and the host's update. */
struct sim_host_update {
	double push_s;        /* a device's gradients to the host */
	double update_s;      /* the host's sum and optimizer */
	double pull_s;        /* the new weights back to a device */
	double push_bytes;    /* a device's, each way: */
	double pull_bytes;
	double host_bytes;    /* the update's host memory traffic */
};

/* ZeRO-Offload's phases under a strategy: `shard` parameters a device
 * to the host and back, the host updating on_node parameters (the
 * shards of all the node's devices). */
void sim_host_offload_time(const struct hw_system *s,
			   const struct sim_sizes *sz, enum sim_optimizer opt,
			   int foreach, double shard, double on_node,
			   struct sim_host_update *out);

/* DLSIM_OK unless o asks for the update on the host and s cannot run it
 * (no host link or host CPU stated, more than one node) or o asks for
 * what it replaces (an allreduce algorithm, compression): DLSIM_EINVAL,
 * err saying which. */
int sim_host_update_check(const struct hw_system *s,
			  const struct sim_options *o, struct dlsim_err *err);

/* The three phases for `params` parameters at widths sz and `devices`
 * devices of s (which sim_host_update_check passed), the optimizer's
 * traffic as one kernel or (foreach) torch.optim's kernels move it. */
void sim_host_update_time(const struct hw_system *s,
			  const struct sim_sizes *sz, enum sim_optimizer opt,
			  int foreach, double params, int64_t devices,
			  struct sim_host_update *out);

/* Its time on device d with roofline roof: the larger of its FLOPs over
 * the fp32 vector peak and its bytes over the bandwidth, plus a launch
 * a kernel; 0 for no parameters. */
double sim_optimizer_time(const struct sim_roof *roof,
			  const struct hw_device *d,
			  const struct sim_sizes *sz, enum sim_optimizer opt,
			  int foreach, double params);

/* Memory per device for result r (sim_memory.c); fills r->memory and
 * r->fits.  on_host (NULL: none) marks the layers whose tables live in
 * host memory (sim_place_tables). */
void sim_memory(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, const struct sim_sizes *sz,
		const unsigned char *on_host, struct sim_result *r);

/*
 * When m does not fit the device at r's batch, move the embedding tables
 * marked MODEL_LAYER_HOST_CANDIDATE to host memory, largest first, until
 * it fits or none is left, and mark them in on_host (n_layers entries,
 * zeroed first).  Only on a system with a host link (hw_system.host).
 * Returns the number moved.
 */
int sim_place_tables(const struct model *m, const struct hw_system *s,
		     const struct sim_options *o, const struct sim_sizes *sz,
		     const struct sim_result *r, unsigned char *on_host);

/*
 * Compression of a bucket of n gradient values of `width` bytes each (4:
 * fp32 under AMP, 8 under fp64) across `ranks` devices (sim_compress.c).
 */
struct sim_compress_plan {
	double wire_bytes;            /* what the collective moves (nccl-tests'
					 size) */
	enum sim_collective coll;     /* allreduce, or allgather for top-k */
	double compress_s;            /* kernel before the collective */
	double decompress_s;          /* kernel after it */
};

void sim_compress_plan(const struct sim_roof *roof, enum sim_compression c,
		       double n, int width, int64_t ranks, double topk_ratio,
		       struct sim_compress_plan *out);

/* ---- Sequences of many lengths (sim_binned.c) ---- */

/* DLSIM_OK if b's bins are usable (1 .. MODEL_SEQ_MAX_BINS of them, each
 * 1 .. MODEL_SEQ_MAX_LENGTH tokens with a share in 0..1, positive
 * means); else DLSIM_EINVAL naming the bin. */
int sim_seq_bins_check(const struct model_seq_bins *b,
		       struct dlsim_err *err);

/* Mix one strategy's result over the bins into *acc: add bin's at share
 * (first: the first bin, which *acc starts from; longest: the bin whose
 * memory and fit the mix keeps), then finish with the histogram's mean
 * length.  Times and FLOPs are the shares' means, rates those of the
 * mean step, tokens the real ones. */
void sim_par_mix_add(struct sim_par_result *acc,
		     const struct sim_par_result *bin, double share, int first,
		     int longest);
void sim_par_mix_finish(struct sim_par_result *acc, double mean_length);

#endif /* DLSIM_SIM_SIM_H */
