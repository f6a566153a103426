/*
 * dlsim.h -- the public interface of libdlsim.
 *
 * dlsim predicts the time of one deep-learning training step on a given
 * machine.  Data flows one way through four modules, and this header offers
 * each of them:
 *
 *   model_*   a network as a list of layers with exact per-pass counts
 *             (FLOPs, bytes, work and depth), built from the zoo or YAML;
 *   hw_*      the hardware catalog (devices, links, nodes, networks) and
 *             the resolution of a --hw string into a system;
 *   sim_*     the cost of every layer pass and collective, scheduled into
 *             a step; the result names where the time went;
 *   report_*  formatting of a result as a table, CSV or JSON.
 *
 * Only what this header declares is API.  Every function that can fail
 * returns an int status from enum dlsim_status and takes a struct dlsim_err
 * as its last argument (which may be NULL); the library never prints and
 * never exits.  There is no global mutable state: everything lives in the
 * objects the caller creates.
 *
 * Units: times in seconds (double), FLOPs and bytes as double where a
 * product may exceed 2^63 (a step of a 10^13-parameter model), counts
 * (parameters, devices, batch) as int64_t.  A multiply-add counts 2 FLOPs;
 * "work" counts it once, as Ben-Nun & Hoefler do.
 */
#ifndef DLSIM_H
#define DLSIM_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define DLSIM_VERSION "0.1.0"

/* Room for dlsim_version(): "0.1.0+1065a66.dirty" and a release's. */
#define DLSIM_VERSION_LEN 32

/*
 * DLSIM_VERSION with the commit it was built from as semver build
 * metadata ("0.1.0+1065a66", ".dirty" after it when the tree had
 * changes; the version alone when built outside a git checkout).  What
 * the database stores with every run, fit, prediction and validation
 * record, and what --version and JSON output say.
 */
const char *dlsim_version(void);

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* Library-wide status codes.  Append only; never renumber. */
enum dlsim_status {
	DLSIM_OK = 0,
	DLSIM_EINVAL = 1,     /* a bad argument or value */
	DLSIM_ENOTFOUND = 2,  /* a name not in the catalog or zoo */
	DLSIM_ERANGE = 3,     /* a value outside what the model can take */
	DLSIM_ENOMEM = 4,     /* allocation failed, or a size limit was hit */
	DLSIM_EIO = 5,        /* a file could not be read or written */
	DLSIM_EPARSE = 6,     /* a YAML or other file does not follow its schema */
	DLSIM_EDB = 7         /* the database refused an operation */
};

#define DLSIM_ERR_LEN 256

/* The first failure's code and one-line message. */
struct dlsim_err {
	int code;
	char msg[DLSIM_ERR_LEN];
};

/*
 * Record a failure in err (if err is not NULL and holds no earlier failure)
 * and return code, so that a failing path is one line:
 *   return dlsim_err_set(err, DLSIM_EINVAL, "batch must be positive");
 */
int dlsim_err_set(struct dlsim_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Forget any recorded failure. */
void dlsim_err_clear(struct dlsim_err *err);

/* Fixed text for a status code ("invalid argument", ...); never NULL. */
const char *dlsim_strerror(int code);

/* The largest count a flag or a file's field takes (a batch, devices):
 * 10^15, far above any real run, far below int64 overflow in products. */
#define DLSIM_MAX_COUNT ((int64_t)1000000000000000LL)

/*
 * Parse all of s as a whole number in 1..max ("what" names it in the
 * message): "", "0", "-3", "12abc", "1e99" and overflow are refused with
 * DLSIM_EINVAL or DLSIM_ERANGE.  *out is set only on success.
 */
int dlsim_parse_count(const char *s, int64_t max, int64_t *out,
		      const char *what, struct dlsim_err *err);

/* Parse all of s as a finite number written in decimal; DLSIM_EINVAL
 * otherwise (hexadecimal, blanks around it, inf and nan included). */
int dlsim_parse_number(const char *s, double *out, const char *what,
		       struct dlsim_err *err);

/* ------------------------------------------------------------------ */
/* Precisions                                                          */
/* ------------------------------------------------------------------ */

enum dlsim_precision {
	DLSIM_FP64 = 0,
	DLSIM_FP32,
	DLSIM_TF32,
	DLSIM_FP16,
	DLSIM_BF16,
	DLSIM_FP8,
	DLSIM_INT8,
	DLSIM_PRECISION_COUNT
};

/* "fp32", ...; a static string, NULL for an out-of-range value. */
const char *dlsim_precision_name(enum dlsim_precision p);

/* Look a precision up by name; DLSIM_ENOTFOUND (listing the names) if
 * there is none, *out unchanged. */
int dlsim_precision_parse(const char *name, enum dlsim_precision *out,
			  struct dlsim_err *err);

/*
 * Bytes one value of an activation takes at precision p.  tf32 is a
 * tensor-core input format stored as fp32, so it takes 4 bytes.
 */
int dlsim_precision_bytes(enum dlsim_precision p);

/* ------------------------------------------------------------------ */
/* Models: layers and their counts                                     */
/* ------------------------------------------------------------------ */

enum model_layer_kind {
	MODEL_INPUT = 0,    /* the network input: no work */
	MODEL_CONV2D,
	MODEL_FC,
	MODEL_MAXPOOL,
	MODEL_AVGPOOL,
	MODEL_GLOBALPOOL,   /* global average pool to 1x1 */
	MODEL_BATCHNORM,
	MODEL_LRN,
	MODEL_RELU,
	MODEL_SIGMOID,
	MODEL_TANH,
	MODEL_ADD,          /* element-wise sum of two or more inputs */
	MODEL_CONCAT,       /* channel concatenation */
	MODEL_DROPOUT,
	MODEL_FLATTEN,
	MODEL_SOFTMAX_XENT, /* softmax with cross-entropy loss (over c, for
			       each of h x w positions: a token's logits) */
	/* transformers: per-sample shapes are (c = features, h = S tokens,
	 * w = 1); model_layer.c says how each is costed */
	MODEL_EMBEDDING,    /* token ids (1 x S) to rows of a vocab x H table
			       (+ learned position / token-type rows) */
	MODEL_LINEAR,       /* one weight applied to each token: Hin -> Hout */
	MODEL_ATTENTION,    /* softmax(Q K^T / sqrt d) V of A heads; no params
			       but an additive one's (flags) */
	MODEL_LAYERNORM,    /* over each token's c values; gamma, beta */
	MODEL_RMSNORM,      /* over each token's c values; gamma */
	MODEL_GELU,
	MODEL_SWIGLU,       /* silu(gate) * up: 2F channels in, F out */
	/* recurrent and recommender layers (model_layer_rnn.c costs them,
	 * model_build_rnn.c builds them) */
	MODEL_LSTM,         /* T steps of I features to H per direction */
	MODEL_GRU,          /* the same with three gates instead of four */
	MODEL_RNN,          /* a vanilla (Elman) recurrence: h = tanh(W_ih x +
			       W_hh h + b), cuDNN's CUDNN_RNN_TANH */
	MODEL_EMBEDDING_BAG,  /* sum of `lookups` rows of a rows x dim
				 table per sample (DLRM's sparse features) */
	MODEL_INTERACTION,  /* DLRM's dot products between its n inputs'
			       vectors, after a copy of the first */
	MODEL_LAYER_KIND_COUNT
};

/* The four passes of a training step for one layer. */
enum model_pass {
	MODEL_PASS_FWD = 0,     /* forward, y */
	MODEL_PASS_BWD_DATA,    /* gradient with respect to the input, dx */
	MODEL_PASS_BWD_WEIGHT,  /* gradient with respect to the weights, dw */
	MODEL_PASS_UPDATE,      /* optimizer update of the weights */
	MODEL_PASS_COUNT
};

#define MODEL_NAME_LEN 64
/* Producers of one layer: DLRM's interaction reads its bottom MLP and 26
 * embedding tables (27); add and concat take at most
 * MODEL_MAX_MERGE_INPUTS, the bound the YAML format documents. */
#define MODEL_MAX_INPUTS 32
#define MODEL_MAX_MERGE_INPUTS 8

/*
 * The largest batch a model may name, and the one the simulator accepts:
 * a sanity bound on user input (a typo of a few extra digits), not a
 * physical figure; no step of a real training run comes near it.
 */
#define MODEL_MAX_BATCH ((int64_t)1000000)

/*
 * The most values one tensor may hold per sample, and the most trainable
 * parameters one model may have: 2^53, below which every integer is exact
 * in a double (costs are computed in doubles).  It stays far above real
 * networks (a 10^13-parameter layer builds); a larger count is refused
 * with DLSIM_ERANGE instead of overflowing int64_t.
 */
#define MODEL_MAX_COUNT ((int64_t)1 << 53)

/*
 * Per-layer flags (model_layer.flags).  A bidirectional recurrent layer
 * runs a second, independent pass from t = T - 1 down to 0 with weights
 * of its own, and concatenates the two outputs (2H channels) unless
 * MODEL_LAYER_SUM_DIRECTIONS adds them (H; DeepSpeech2 does).
 * MODEL_LAYER_HOST_CANDIDATE marks a table that may not fit a device's
 * memory (DLRM's 26 embedding bags hold 24.0 G parameters, 96 GB in
 * fp32): when the model does not fit the device, the simulator moves
 * such tables to host memory, largest first (sim_place_tables): their
 * state leaves the device, their traffic runs over the node's host
 * link, their gradients stay out of the data-parallel reduction.
 * MODEL_LAYER_ADDITIVE makes an attention Bahdanau's additive score,
 * v . tanh(q + k) (GNMT).
 * MODEL_LAYER_UNFUSED makes a dot-product attention write its scores to
 * memory, as Megatron-LM ran it before FlashAttention: a batched GEMM,
 * the fused scale-mask-softmax, dropout (with MODEL_LAYER_ATTN_DROPOUT)
 * and a second batched GEMM, each a kernel of its own; without it the
 * attention is one fused kernel that keeps the scores on chip (Dao et
 * al. 2022), as PyTorch's scaled_dot_product_attention runs it.
 * MODEL_LAYER_EAGER_GELU makes a GELU the tanh form written out as
 * separate element-wise operations, as Hugging Face's NewGELUActivation
 * (GPT-2's "gelu_new") computes it in eager PyTorch: eight kernels
 * forward and eleven backward, in fp32 because autocast runs pow in
 * fp32, with the casts about them (model_layer.c); without it a GELU is
 * one kernel each way (F.gelu, a fused bias-GELU).
 */
enum model_layer_flags {
	MODEL_LAYER_BIDIRECTIONAL = 1 << 0,
	MODEL_LAYER_SUM_DIRECTIONS = 1 << 1,
	MODEL_LAYER_HOST_CANDIDATE = 1 << 2,
	MODEL_LAYER_ADDITIVE = 1 << 3,
	MODEL_LAYER_UNFUSED = 1 << 4,
	MODEL_LAYER_ATTN_DROPOUT = 1 << 5,
	MODEL_LAYER_EAGER_GELU = 1 << 6
};

/* A tensor shape per sample: channels x height x width. */
struct model_shape {
	int64_t c, h, w;
};

/*
 * The class of kernel a pass runs, which decides the unit and the measured
 * efficiency it gets: element-wise work runs on vector units; GEMMs and
 * convolutions on matrix (tensor) units, with 3x3 stride-1 convolutions
 * apart because libraries run them with Winograd's algorithm, and 1x1
 * ones apart because they are GEMMs over the channels (no filter window
 * to gather), at stride 1 (MODEL_KERNEL_CONV1X1) and strided (every s-th
 * pixel read: MODEL_KERNEL_CONV1X1_STRIDED), each with its own catalog
 * efficiency and calibration fit.  Depthwise convolutions and grouped
 * ones of fewer than 8 input channels a group count as vector work:
 * cuDNN's usual kernels for them do not use tensor units; with 8 or
 * more a group they are dense work in their window's class
 * (model_conv_grouped_vector; models/model_kernel.c says why).
 * A recurrent layer's forward and backward-data passes are chains of
 * small dependent GEMMs, one class per cell (MODEL_KERNEL_LSTM,
 * MODEL_KERNEL_GRU, MODEL_KERNEL_RNN_TANH: cuDNN runs each cell's own
 * step kernels): the GEMM efficiency in the catalog, a fit of the
 * cell's own where its chains were measured ("rnn_lstm:<dtype>",
 * "rnn_gru:<dtype>", "rnn_tanh:<dtype>", with a cost per dependent
 * call), else the fit of every cell together that earlier versions
 * stored (MODEL_KERNEL_RECURRENT, "rnn:<dtype>"), else the GEMM fit.
 * A GEMM (fc, linear) of which a dimension is not a whole number of 16
 * bytes is MODEL_KERNEL_GEMM_UNALIGNED (model_gemm_unaligned): the
 * libraries' tensor-core kernels load 16-byte vectors, and for such a
 * shape cuBLAS falls back to alignment-1 or -2 kernels (NVIDIA, "Matrix
 * Multiplication Background User's Guide", Tensor Core requirements;
 * dlsim's H100 sweep, data/calibration/h100_gemm.csv: fp16 and bf16 at
 * most 240 TFLOP/s off 16 bytes, 790 on them).  Its fit is
 * "gemm_unaligned:<dtype>", else the GEMM fit; the catalog has no figure
 * of its own for it.
 * A fused attention on 4-byte values (fp32 or TF32 activations) is
 * MODEL_KERNEL_ATTENTION_F32: FlashAttention and cuDNN's fused attention
 * take only fp16 and bf16, so PyTorch runs fp32 inputs on its memory-
 * efficient kernel (xformers' cutlass kernels), which keeps fp32
 * accuracy (OpMultiplyAddFastF32, three TF32 products per fp32 one, on
 * SM80 and later) whatever TF32 setting the GEMMs run under.  It takes
 * the fp32 GEMM's fit and catalog rate at TF32 as at fp32 (dlsim's H100
 * profile, data/measurements/h100/profile.txt: GPT-2's attention at TF32,
 * batch 16, took 14.0 ms forward and 29.9 ms backward, 44 and 41 TFLOP/s
 * as dlsim counts its FLOPs; the H100's fp32 GEMM fit gives 52, its
 * TF32 fit 398).
 * A convolution whose window is not square (DeepSpeech's 5x20 and 5x10,
 * Inception v3's 1x7 and 7x1) is MODEL_KERNEL_CONV_NONSQUARE: costed
 * with the fit of every other window (MODEL_KERNEL_CONV: 5x5, 7x7,
 * strided 3x3), DeepBench's non-square rows came out about 14% and 35%
 * fast (held out) where the square ones were slow; with a fit of their
 * own the held-out error falls in every fold (models/model_kernel.c
 * gives the figures).  Its fit is "conv_nonsquare:<dtype>" (a roofline
 * of its own
 * from two shapes or more, else the conv fit times one factor), else
 * the convolution fit; the catalog has no figure of its own for it.
 * A convolution on 16-bit values whose input channels are not a
 * multiple of 8 (an image's first layer, C = 3) keeps its window's
 * class in model_pass_cost.kernel and is marked
 * model_pass_cost.channel_pad (model_conv_channel_pad): the tensor-core
 * convolutions of cuDNN 7 took only channel counts that are multiples
 * of 8 (cuDNN Developer Guide 7.1, "Tensor Core Operations"), and
 * DeepBench's 16-bit rows on 1 or 3 channels took 0.9 to 19 times the
 * time of the same shapes in fp32.  Where the device has tensor cores and a
 * fit of that population, "conv_unaligned:<dtype>"
 * (MODEL_KERNEL_CONV_UNALIGNED, fitted and timed at the work of the
 * channels padded to 8), the pass takes it (sim_device_kernel);
 * elsewhere its window's class: no catalog figure tells the fallback
 * kernels apart.  models/model_kernel.c gives the measurements.
 */
enum model_kernel {
	MODEL_KERNEL_VECTOR = 0,
	MODEL_KERNEL_GEMM,
	MODEL_KERNEL_CONV,
	MODEL_KERNEL_CONV3X3,
	MODEL_KERNEL_CONV1X1,
	MODEL_KERNEL_CONV1X1_STRIDED,
	MODEL_KERNEL_RECURRENT,      /* no layer's: the pooled fit */
	MODEL_KERNEL_LSTM,
	MODEL_KERNEL_GRU,
	MODEL_KERNEL_RNN_TANH,
	MODEL_KERNEL_GEMM_UNALIGNED, /* a GEMM off 16-byte rows: see below */
	MODEL_KERNEL_ATTENTION_F32,  /* a fused attention on 4-byte values */
	MODEL_KERNEL_CONV_NONSQUARE, /* a conv whose window is not square */
	MODEL_KERNEL_CONV_UNALIGNED, /* a 16-bit conv off 8 channels: a fit
					only, model_pass_cost.channel_pad */
	MODEL_KERNEL_COUNT
};

/*
 * One layer.  Shapes are per sample; counts for a batch come from
 * model_layer_cost().  Fields that a kind does not use are zero.
 */
struct model_layer {
	enum model_layer_kind kind;
	char name[MODEL_NAME_LEN];
	int n_inputs;                    /* producers, by index in the model */
	int inputs[MODEL_MAX_INPUTS];    /* -1 never appears */
	struct model_shape in;           /* first input's shape */
	struct model_shape out;
	/* conv2d and pooling */
	int64_t kernel_h, kernel_w;
	int64_t stride_h, stride_w;
	int64_t pad_h, pad_w;
	int64_t dilation;
	int64_t groups;
	int has_bias;                    /* conv2d, fc, linear, lstm, gru */
	/* lrn */
	int64_t lrn_size;
	/* embedding: rows of its tables, each row H = out.c values wide;
	 * params (vocab + pos_rows + type_rows) x H unless tied */
	int64_t vocab;                   /* token rows V */
	int64_t pos_rows;                /* learned position rows; 0: none
					    (sinusoidal, rotary, relative) */
	int64_t type_rows;               /* token-type rows (BERT: 2) */
	/* embedding and linear: the earlier layer (an embedding) whose
	 * table this layer uses as its weight (GPT's logits, a decoder's
	 * shared input embedding); 0: its own (layer 0, the input, owns no
	 * weight).  A tied layer has no params of its own (a tied linear
	 * keeps its bias), yet its bwd_weight pass computes a gradient
	 * that is added to that layer's */
	int tied_to;
	/* attention: A query heads and K key/value heads (K = A: multi-head,
	 * K < A: grouped-query) of head_dim d; queries are out.h tokens,
	 * keys kv_len tokens (out.h for self-attention; the encoder's S
	 * for cross-attention, whose second input holds K and V) */
	int64_t heads, kv_heads, head_dim, kv_len;
	int causal;                      /* masked; changes no count */
	/* lstm and gru: the input's h is T timesteps of I = in.c x in.w
	 * features each; hidden H per direction; out (H or 2H, T, 1).
	 * steps = T, the number of dependent steps of the fwd and
	 * bwd_data passes: step t needs step t - 1's h (and c), so each
	 * step is at least one kernel launch (cuDNN: a GEMM and a fused
	 * element-wise kernel), in order, per direction (the two
	 * directions are independent).  bwd_weight is one GEMM over all
	 * steps.  model_layer_cost()'s depth grows with T, and its
	 * launches are 2T and the input GEMM's, 2T + 1
	 * (model_pass_cost.launches).
	 * 0 for every other kind. */
	int64_t hidden;
	int64_t steps;
	/* embedding_bag: ids, and so rows pooled, per sample (vocab holds
	 * the table's rows, out.c its width) */
	int64_t lookups;
	unsigned flags;                  /* enum model_layer_flags */
	/* the transformer block (0 .. model.tf.blocks - 1) the layer is
	 * part of; -1 outside blocks (embeddings, final norm, logits, loss)
	 * and in every CNN.  The one field whose unused value is not 0 */
	int block;
	/* derived */
	int64_t params;                  /* trainable parameters */
	int64_t in_elems;                /* sum over inputs, per sample */
	int n_consumers;                 /* layers that read this output
					    (an input listed twice counts
					    twice); model_builder_finish()
					    fills it */
	/* what a pass's cost takes from the layer alone, whatever the
	 * batch, precision or device: model_builder_finish() fixes them
	 * once (model_layer_derive), since model_layer_cost() would
	 * otherwise work them out on every pass of every prediction */
	double macs;                     /* multiply-adds per sample */
	double window_depth;             /* conv2d, pooling: ceil log2 kh
					    + ceil log2 kw */
	enum model_kernel matrix_kernel; /* conv2d: its class
					    (model_conv_class, or vector
					    when grouped below 8 a group);
					    fc, linear: GEMM; else vector */
	double channel_pad16;            /* conv2d off the vector class:
					    model_conv_channel_pad(C_in /
					    groups, 2); else 0 */
};

/*
 * The class of a dense convolution by its window (kh x kw) and strides:
 * MODEL_KERNEL_CONV1X1 (1x1, stride 1), MODEL_KERNEL_CONV1X1_STRIDED,
 * MODEL_KERNEL_CONV3X3 (3x3, stride 1, dilation 1),
 * MODEL_KERNEL_CONV_NONSQUARE (kh != kw) or MODEL_KERNEL_CONV.  The
 * model, the calibration's grouping of samples (calibrate/cal_points.c)
 * and the kernel validation use this one rule.
 */
enum model_kernel model_conv_class(double kh, double kw, double sh,
				   double sw, double dilation);

/*
 * 1 when an m x n x k GEMM of elements of elem_bytes bytes has a
 * dimension that is not a multiple of 16 bytes (8 values at 16 bits, 4
 * at 32, 16 at 8), the rule of MODEL_KERNEL_GEMM_UNALIGNED; 0 otherwise,
 * and for an element size that is not 1, 2 or 4 bytes (fp64 runs no
 * tensor-core kernels of that kind).  The calibration splits its GEMM
 * samples by the same rule (calibrate/cal_points.c).
 */
int model_gemm_unaligned(double m, double n, double k, int elem_bytes);

/*
 * For a dense convolution of c_in input channels on elem_bytes-byte
 * values: when it is of MODEL_KERNEL_CONV_UNALIGNED's population (16-bit
 * values, elem_bytes 2, and c_in not a multiple of 8), the ratio of its
 * work with c_in padded up to a multiple of 8 to its work, above 1 (8/3
 * for an image's three channels); 0 otherwise, and for any other element
 * size (no measurement shows the 8- or 32-bit kernels falling back so).
 * The calibration groups and sizes its conv samples by the same rule
 * (calibrate/cal_points.c).
 */
double model_conv_channel_pad(double c_in, int elem_bytes);

/*
 * 1 when a conv of groups groups, each of c_in_per_group input channels,
 * is vector work (groups > 1 and fewer than 8 channels a group:
 * depthwise and its kin); 0 when it is matrix work, each group a dense
 * convolution in its window's class.
 */
int model_conv_grouped_vector(double c_in_per_group, int64_t groups);

/*
 * What a kernel class is called wherever it is named as text: every one
 * of these is stored in a database (a fit's kind, a sample's group in its
 * params_json, a recurrent sample's cell), so none is ever renamed.
 */
struct model_kernel_name {
	const char *fit;        /* its fit's kind before the ':' ("conv3x3"
				   of "conv3x3:fp16"); NULL: no fit of its
				   own */
	const char *benchmark;  /* the samples it is fitted on ("gemm",
				   "conv", "rnn"); NULL with fit */
	const char *cls;        /* their group's class ("3x3s1", a
				   recurrent cell as DeepBench names it:
				   "lstm"; "" for a group with none), the
				   group key's "class=" word (cal_points.c);
				   NULL with fit */
	int plain;              /* 1: the class of its benchmark's groups
				   whose class is no class's here */
};

/*
 * Class k's names, from the one table of them (models/model_kernel.c),
 * which a new class joins: all NULL and plain 0 for vector work and
 * MODEL_KERNEL_ATTENTION_F32 (no fit of their own), and for a k that is
 * no class.  Never NULL.
 */
const struct model_kernel_name *model_kernel_name(enum model_kernel k);

/*
 * The calibration's name of class k's fit ("gemm", "conv3x3", "rnn_lstm",
 * "conv_unaligned", ...: the text a fit kind such as "conv3x3:fp16"
 * begins with, model_kernel_name(k)->fit); NULL for a class that has no
 * fit of its own (vector work, MODEL_KERNEL_ATTENTION_F32).
 */
const char *model_kernel_fit_kind(enum model_kernel k);

/*
 * The kernel class whose fit a roofline group of benchmark ("gemm",
 * "conv", "rnn") and class cls (its "class" parameter: "3x3s1",
 * "unaligned", a recurrent cell ...) makes: the benchmark's plain class
 * for a cls it does not list, MODEL_KERNEL_VECTOR (no fit) for a
 * benchmark that is no roofline's.
 */
enum model_kernel model_kernel_of_class(const char *benchmark,
					const char *cls);

/*
 * The class of a fit kind "NAME:REST" whose NAME is a class's fit name
 * into *k, returning NAME's length (REST starts one past it); 0, *k
 * untouched, when kind has no ':' or NAME is no class's.
 */
size_t model_kernel_of_fit_kind(const char *kind, enum model_kernel *k);

/* 1 for the recurrent classes (a pooled or a cell's chain). */
static inline int model_kernel_is_recurrent(enum model_kernel k)
{
	return k >= MODEL_KERNEL_RECURRENT && k <= MODEL_KERNEL_RNN_TANH;
}

/* Costs of one pass of one layer for a whole batch. */
struct model_pass_cost {
	double flops;      /* floating-point operations; a multiply-add is 2 */
	double bytes;      /* bytes read from and written to device memory */
	double work;       /* Ben-Nun & Hoefler W: operations (a MAC is 1) */
	double depth;      /* Ben-Nun & Hoefler D: longest dependency chain */
	enum model_kernel kernel;
	double launches;   /* kernel calls the pass makes one after the
			      other: a recurrent layer's 2T + 1 (a GEMM and an
			      element-wise kernel a step) in forward and
			      backward-data, an unfused attention's 3-6, a
			      biased convolution's 2 (its bias a kernel
			      apart); 0 or 1: one */
	int fused;         /* 1: runs inside the kernel of the pass before
			      it (sim_options.fuse_elementwise): no launch
			      of its own */
	/* Of flops and bytes, the part done by one separate matrix kernel
	 * of class gemm_kernel, the rest being kernel's: a recurrent
	 * layer's input projection, which cuDNN runs for all steps at once
	 * before the recurrence (dx: after it), model_layer_rnn.c; a biased
	 * convolution's convolution, its bias added (and its gradient
	 * taken) by an element-wise kernel apart, model_layer.c.
	 * sim_pass_time times the two apart; 0: none. */
	double gemm_flops, gemm_bytes;
	enum model_kernel gemm_kernel;
	/* Above 0: a 16-bit convolution off 8 input channels, whose work
	 * at its channels padded to 8 is flops x channel_pad
	 * (model_conv_channel_pad); timed at that work by
	 * MODEL_KERNEL_CONV_UNALIGNED's fit where the device has one, else
	 * as it is by kernel's (sim_pass_time).  0: any other pass. */
	double channel_pad;
};

/* The shape of a transformer family (model.tf); MODEL_TF_NONE: not one. */
enum model_tf_arch {
	MODEL_TF_NONE = 0,         /* a CNN or a YAML model: tf is all zero */
	MODEL_TF_DECODER,          /* GPT, Llama: causal self-attention */
	MODEL_TF_ENCODER,          /* BERT: bidirectional self-attention */
	MODEL_TF_ENCODER_DECODER   /* Vaswani et al., T5 */
};

enum model_tf_flags {
	MODEL_TF_GATED_MLP = 1 << 0,        /* SwiGLU: fc1 is H -> 2F */
	MODEL_TF_RMSNORM = 1 << 1,          /* else LayerNorm */
	MODEL_TF_TIED_EMBEDDINGS = 1 << 2,  /* lm_head reuses the token table */
	MODEL_TF_PRE_NORM = 1 << 3,         /* norm before each sublayer;
					       else after its residual add */
	MODEL_TF_BIAS = 1 << 4,             /* linear layers have biases */
	MODEL_TF_LEARNED_POSITIONS = 1 << 5,
	MODEL_TF_DROPOUT = 1 << 6,          /* after embeddings and sublayers */
	MODEL_TF_UNFUSED_ATTENTION = 1 << 7, /* key unfused=1: scores written
					       to memory (MODEL_LAYER_UNFUSED) */
	MODEL_TF_EAGER_GELU = 1 << 8        /* key eager_gelu=1: GELU as
					       separate kernels
					       (MODEL_LAYER_EAGER_GELU) */
};

/*
 * A transformer as its builder made it.  Blocks are numbered in layer
 * order: 0..L-1, or for an encoder-decoder the encoder's 0..L-1 and the
 * decoder's L..2L-1.  Every layer of block i has block == i and its name
 * starts "block<i>."; in each block, linear layers named .qkv, .q, .kv
 * and .fc1 feed attention or the activation (Megatron's column-parallel
 * split, Shoeybi et al. 2019, Sec. 3), .proj and .fc2 follow them
 * (row-parallel, an all-reduce after), and ATTENTION splits by heads.
 * Outside blocks: embed (and dec.embed, tied to it), norms, lm_head
 * (logits, V per token) and loss.
 */
struct model_transformer {
	enum model_tf_arch arch;
	int64_t layers;            /* L: blocks per stack */
	int64_t blocks;            /* L, or 2L for an encoder-decoder */
	int64_t hidden;            /* H */
	int64_t heads;             /* A, query heads */
	int64_t kv_heads;          /* K (A: multi-head; fewer: grouped) */
	int64_t head_dim;          /* d = H / A */
	int64_t ffn;               /* F, the MLP's inner width (gated: of
				      each of gate and up) */
	int64_t seq;               /* S, tokens per sample and stack */
	int64_t vocab;             /* V */
	unsigned flags;            /* enum model_tf_flags */
};

/* A network: layers in topological order (inputs precede their users). */
struct model {
	char name[MODEL_NAME_LEN];
	char source[256];          /* where the architecture comes from */
	int64_t default_batch;
	int n_layers;
	int cap_layers;
	struct model_layer *layers;
	int64_t params;            /* total trainable parameters */
	int64_t activation_elems;  /* kept for backward, per sample */
	struct model_transformer tf;  /* zero unless a transformer family */
	/* what one trains it on, for time to train; 0 / "" if unknown */
	char dataset[32];
	int64_t dataset_size;      /* samples per epoch */
	int64_t epochs;            /* epochs of its reference recipe */
	char recipe_source[128];   /* where the two numbers come from */
};

/*
 * Every model that model_zoo_build(), model_load_yaml() or
 * model_resolve() hands back has params, activation_elems and every
 * layer's per-sample in_elems and output size at most MODEL_MAX_COUNT,
 * and default_batch in 1..MODEL_MAX_BATCH.
 */

/* Free a model and everything it owns; NULL is a no-op. */
void model_free(struct model *m);

/* ---- Sequences of many lengths (models/model_seqhist.c) ---- */

#define MODEL_SEQ_MAX_LENGTH ((int64_t)1 << 24)   /* the zoo's seq key */
#define MODEL_SEQ_MAX_BINS 256

/*
 * A histogram of sequence lengths cut into bins of `width` tokens, as a
 * loader that batches sequences of a bin together and pads each batch to
 * its longest sequence runs it (NVIDIA's LDDL: bins of 64).  Only the
 * bins that hold a sequence are kept, in order of length.
 */
struct model_seq_bins {
	int64_t width;                           /* tokens a bin spans */
	int n;                                   /* bins kept */
	int64_t padded[MODEL_SEQ_MAX_BINS];      /* bin i's longest length:
						    what its batches are
						    padded to */
	double share[MODEL_SEQ_MAX_BINS];        /* of the sequences */
	double sequences;                        /* counted */
	double mean_length;                      /* tokens, unpadded */
	double mean_padded;                      /* the shares' mean of
						    padded */
	int64_t longest;
};

/*
 * Read a histogram (CSV text of size bytes, called name in errors: a
 * header whose first columns are "length" and "count" or "sequences",
 * then LENGTH,COUNT lines, further columns ignored) into bins of width
 * tokens.  Errors are one line naming name, and the line where one is at
 * fault ("NAME:LINE: what (got ...)"): DLSIM_EPARSE for an empty text, a
 * line that is not that, a length that makes more than
 * MODEL_SEQ_MAX_BINS bins, or no sequence counted; DLSIM_EINVAL for a
 * width outside 1 .. MODEL_SEQ_MAX_LENGTH.
 */
int model_seq_bins_read(const char *text, size_t size, const char *name,
			int64_t width, struct model_seq_bins *out,
			struct dlsim_err *err);

/*
 * model_resolve() of a zoo model string with its seq key set to seq
 * (replacing one the string gives): "bert-large" at 64 is
 * "bert-large:seq=64".  A YAML model is refused (DLSIM_EINVAL), as is a
 * zoo model without a seq key (the error says so) and any string
 * model_zoo_build refuses (its error).
 */
int model_resolve_seq(const char *arg, int64_t seq, struct model **out,
		      struct dlsim_err *err);

/*
 * Build a model from the zoo by name (see model_zoo_names()), or from a
 * family with its keys: "NAME:key=value,..." (gpt, bert, t5,
 * transformer, llama: layers, hidden, heads, seq, vocab, ffn, kv_heads;
 * resnet: depth, width; gnmt: layers, hidden, seq, vocab; deepspeech2:
 * layers, hidden, seq; dlrm: dim), where NAME may also be a preset,
 * whose keys the given ones override ("gpt3-175b:seq=1024",
 * "gnmt:seq=30").  The model
 * is named by the whole string (one longer than MODEL_NAME_LEN - 1 cut
 * to end in "...").  On success
 * *out is a new model the caller frees with model_free(); on failure *out
 * is NULL and err says why in one line naming the string: DLSIM_ENOTFOUND
 * for an unknown name, DLSIM_EINVAL for an unknown, repeated, missing or
 * non-integer key or keys that do not fit together, DLSIM_ERANGE for a
 * value out of its range.
 */
int model_zoo_build(const char *name, struct model **out,
		    struct dlsim_err *err);

/* The zoo's model names, NULL-terminated, in a stable order. */
const char *const *model_zoo_names(void);

/* One line describing a zoo model (family, input size); NULL if unknown
 * (and for a family with keys, which model_zoo_names() does not list). */
const char *model_zoo_summary(const char *name);

/*
 * Load a model from a YAML file (see configs/models/README.md for the
 * format).  Errors are one line, "FILE:LINE: what (got X)": DLSIM_EIO if
 * the file cannot be read, DLSIM_ERANGE if a tensor or the parameter count
 * passes MODEL_MAX_COUNT, DLSIM_EPARSE for everything else (schema, a
 * number that is not a whole number, a batch outside 1..MODEL_MAX_BATCH,
 * shapes that do not fit).  Ownership as model_zoo_build.
 */
int model_load_yaml(const char *path, struct model **out,
		    struct dlsim_err *err);

/*
 * Resolve a model argument: a path if it ends in .yaml or .yml or holds a
 * '/' (so "nets/resnet" is a file, never a zoo name), else a zoo name
 * or "NAME:key=value,..." (model_zoo_build).  Ownership as
 * model_zoo_build.
 */
int model_resolve(const char *arg, struct model **out, struct dlsim_err *err);

/* "conv2d", "fc", ...; NULL for an out-of-range kind. */
const char *model_layer_kind_name(enum model_layer_kind k);

/* "fwd", "bwd_data", "bwd_weight", "update". */
const char *model_pass_name(enum model_pass p);

/*
 * The cost of pass p of layer l for a batch of `batch` samples whose
 * activations take act_bytes bytes per value and whose weights take
 * weight_bytes bytes per value.  The update pass is left to the simulator
 * (it depends on the optimizer) and comes back as zeros.  l is a layer of
 * a finished model (model_resolve, model_zoo_build, model_load_yaml):
 * the facts model_builder_finish derives (struct model_layer's macs,
 * window_depth, matrix_kernel, channel_pad16) are read, not worked out.
 */
void model_layer_cost(const struct model_layer *l, enum model_pass p,
		      int64_t batch, int act_bytes, int weight_bytes,
		      struct model_pass_cost *out);

/*
 * The cost, for a batch of `batch` samples with act_bytes bytes per
 * activation value, of summing the gradients that flow back into layer l's
 * output when more than one layer reads it (l->n_consumers > 1: a ResNet
 * block's input, DenseNet's features, an Inception module's input).
 * Autograd adds the incoming gradients pairwise: n_consumers - 1
 * element-wise adds over the output, each reading two tensors and writing
 * one.  So FLOPs = work = (n_consumers - 1) x out elements x batch, bytes =
 * 3 x that x act_bytes, depth = ceil(log2 n_consumers) (a tree of adds),
 * kernel MODEL_KERNEL_VECTOR.  With 0 or 1 consumer *out is all zeros
 * (kernel VECTOR).  This is not part of model_layer_cost(): the simulator
 * adds it to the layer's backward.  Never fails.
 */
void model_grad_accum_cost(const struct model_layer *l, int64_t batch,
			   int act_bytes, struct model_pass_cost *out);

/* Forward multiply-adds per sample of the whole model (conv, fc, linear,
 * attention, lstm, gru and interaction). */
double model_forward_macs(const struct model *m);

/* ------------------------------------------------------------------ */
/* Hardware                                                            */
/* ------------------------------------------------------------------ */

enum hw_device_kind {
	HW_CPU = 0,
	HW_PHI,
	HW_GPU,
	HW_TPU,
	HW_ACCEL,
	HW_DEVICE_KIND_COUNT
};

enum hw_topology {
	HW_TOPO_SINGLE = 0,       /* one device per node */
	HW_TOPO_PCIE_TREE,        /* devices behind PCIe switches */
	HW_TOPO_HYBRID_CUBE_MESH, /* DGX-1 NVLink */
	HW_TOPO_NVSWITCH,         /* all-to-all through switches */
	HW_TOPO_ALL_TO_ALL,       /* direct links between every pair */
	HW_TOPO_RING,             /* a physical ring (e.g. xGMI, ICI) */
	HW_TOPO_TORUS,
	HW_TOPO_FAT_TREE,
	HW_TOPO_DRAGONFLY,
	HW_TOPOLOGY_COUNT
};

#define HW_NAME_LEN 48
#define HW_SOURCE_LEN 512
#define HW_MAX_ALIASES 8
#define HW_MAX_RING_LINKS 128        /* entries of a node's ring_links */

/* Dense peak and the unit that delivers it, for one precision. */
struct hw_peak {
	double matrix_flops;   /* FLOP/s on matrix/tensor units; 0: none */
	double vector_flops;   /* FLOP/s on vector units; 0: none */
	double sparse_flops;   /* structured-sparse matrix peak; never used
				  by default */
	double eff_gemm;       /* attained / peak, GEMM microbenchmarks */
	double eff_conv;       /* attained / peak, convolutions of no class
				  below (5x5, 7x7, strided 3x3, ...) */
	double eff_conv1x1;    /* the same, dense 1x1 stride 1 */
	double eff_conv1x1s;   /* the same, dense 1x1 strided */
	double eff_conv3x3;    /* direct-convolution FLOP/s / peak for 3x3
				  stride-1 convolutions: above 1 where
				  Winograd saves multiplies */
	char source[HW_SOURCE_LEN];
	char eff_source[HW_SOURCE_LEN];
};

#define HW_MAX_MEM_TIERS 4
#define HW_MAX_DIMS 4                /* torus dimensions */

/*
 * One level of device memory.  Tier 0 is the one training streams from:
 * its bandwidth is the device's.  It may be a cache in front of a larger
 * tier (hw_device.mem_capacity_bytes).
 */
struct hw_mem_tier {
	char type[16];               /* "HBM2", "DDR4", "MCDRAM", ... */
	double capacity_bytes;
	double bandwidth_Bps;
	char source[HW_SOURCE_LEN];
};

struct hw_device {
	char name[HW_NAME_LEN];
	char aliases[HW_MAX_ALIASES][HW_NAME_LEN];
	int n_aliases;
	enum hw_device_kind kind;
	char vendor[HW_NAME_LEN];
	char model[96];
	int64_t units;               /* SMs, cores, TPU cores */
	double clock_base_hz;
	double clock_boost_hz;
	double clock_avx512_hz;      /* CPUs: all-core AVX-512; 0 if none */
	struct hw_peak peak[DLSIM_PRECISION_COUNT];
	struct hw_mem_tier mem[HW_MAX_MEM_TIERS];
	int n_mem;
	double mem_capacity_bytes;   /* what fits: the largest tier; tier 0
					may be a cache in front of it, as
					KNL's MCDRAM in cache mode */
	double llc_bytes;
	double tdp_w;
	double price_usd;            /* 0 if none published */
	double launch_overhead_s;    /* per kernel or per op dispatch */
	char launch_source[HW_SOURCE_LEN];
	double eff_memory;           /* attainable / peak bandwidth, tier 0 */
	char eff_memory_source[HW_SOURCE_LEN];
	char node[HW_NAME_LEN];      /* the device's usual node */
	char source[HW_SOURCE_LEN];
	char calib_from[HW_NAME_LEN];  /* "": none.  Another device whose
					  fits stand for this one's when it
					  has none, scaled to it (below):
					  the same chip, clocks and memory
					  aside (calib_from_source says
					  why); hw_catalog_check puts its
					  name for an alias */
	char calib_from_source[HW_SOURCE_LEN];
	/* How calib_from's fits stand for this device's (hw_catalog_check
	 * sets them): its time per FLOP at each precision times the ratio
	 * of the two matrix peaks (1 where either lacks one), its time per
	 * byte times the ratio of the two tier-0 bandwidths, since the same
	 * chip at other clocks or memory runs a kernel at the same
	 * efficiency of each */
	double calib_flop_scale[DLSIM_PRECISION_COUNT];
	double calib_byte_scale;
	char file[160];              /* where it was defined, and line */
	int line;
};

struct hw_link {
	char name[HW_NAME_LEN];
	char kind[24];               /* pcie, nvlink, infiniband, ... */
	double bandwidth_Bps;        /* attainable per direction: the line
					rate x efficiency; 1 / LogGP's G */
	double line_rate_Bps;        /* per direction, as the datasheet */
	double efficiency;           /* attained / line rate (protocol
					overheads); 1 where no source gives
					one */
	double latency_s;            /* LogGP's L */
	/* LogGP (Alexandrov et al. 1995) beyond L and G, optional in the
	 * file.  o = g = 0 is the alpha-beta model the seeds use, and what
	 * a link without them gets: stated, not a silent default
	 * (configs/hw/README.md). */
	double overhead_s;           /* o: processor time per message, at
					each end */
	double gap_s;                /* g: least time between two messages
					one rank sends (or receives) */
	double eager_limit_bytes;    /* above it a message pays
					rendezvous_s first; 0: no switch */
	double rendezvous_s;         /* the handshake: as written, or one
					round trip 2 (L + o) */
	char source[HW_SOURCE_LEN];
	char file[160];
	int line;
};

struct hw_node {
	char name[HW_NAME_LEN];
	char aliases[HW_MAX_ALIASES][HW_NAME_LEN];
	int n_aliases;
	char device[HW_NAME_LEN];
	int64_t devices_per_node;
	char intra_link[HW_NAME_LEN];
	int64_t intra_links_per_device;
	enum hw_topology intra_topology;
	int64_t devices_per_pcie_switch; /* pcie-tree: devices sharing one
					    switch's uplink; 0: each on its
					    own root port */
	int n_ring_links;            /* 0: not stated */
	int64_t ring_links[HW_MAX_RING_LINKS]; /* [g - 1]: the links' worth
					    of bandwidth a ring over the
					    node's first g devices gets
					    (edge-disjoint directed rings) */
	char nic_link[HW_NAME_LEN];  /* empty: a single-node system only */
	char host_link[HW_NAME_LEN]; /* a device's link to its host's memory
					(PCIe); empty: not stated, then the
					intra link of a pcie-tree node */
	char host_link_source[HW_SOURCE_LEN];
	int64_t devices_per_host_link; /* devices whose host traffic shares
					  one host link (a PCIe switch's
					  uplink); 0: not stated, each its
					  own */
	char host_cpu[HW_NAME_LEN];  /* the host's CPU, a catalog device of
					kind cpu; empty: not stated */
	int64_t host_cpus;           /* sockets of host_cpu in the node */
	double host_memory_bytes;    /* the host's memory (the node's
					DIMMs, all sockets) */
	char host_cpu_source[HW_SOURCE_LEN];
	int64_t nics_per_node;
	char network[HW_NAME_LEN];
	double overhead_w;           /* the node's draw beyond its devices
					(CPUs, memory, NICs, fans); 0: not
					stated */
	char overhead_source[HW_SOURCE_LEN];
	char calib_from[HW_NAME_LEN];  /* a node whose collective fits this
					  one takes where it has none of its
					  own (the same node type, measured
					  under another name); "": none */
	char calib_from_source[HW_SOURCE_LEN];
	char source[HW_SOURCE_LEN];
	char file[160];
	int line;
};

struct hw_network {
	char name[HW_NAME_LEN];
	enum hw_topology topology;
	double oversubscription;     /* 1.0: full bisection; divides what
					crosses a leaf switch */
	int64_t nodes_per_leaf;      /* fat tree, dragonfly: nodes under one
					leaf switch; 0: not stated (all
					traffic counts as crossing) */
	int n_dims;                  /* torus: its dimensions, 0: none */
	int64_t dims[HW_MAX_DIMS];   /* sizes, in devices when the nodes
					are themselves torus blocks (TPU
					hosts), else in nodes */
	char source[HW_SOURCE_LEN];
	char file[160];
	int line;
};

/*
 * The catalog: everything loaded, each name or alias defined once across
 * devices, nodes, links and networks together.  An entry never moves: a
 * pointer to it stays valid until hw_catalog_free(), however much is
 * added later.
 */
struct hw_catalog;

/*
 * A resolved system: n_nodes nodes of one kind, each holding
 * devices_per_node devices.  Counts always fill whole nodes (a count of
 * devices is at most one node's worth, or a multiple of it).  Pointers
 * borrow from the catalog, which must outlive the system.
 */
struct hw_system {
	char spec[128];                  /* what the user asked for */
	const struct hw_device *device;
	const struct hw_node *node;      /* the node the devices sit in
					    (for one device: its usual
					    node, whose links go unused) */
	const struct hw_link *intra;     /* NULL if one device per node */
	const struct hw_link *nic;       /* NULL if one node */
	const struct hw_link *host;      /* a device's link to host memory;
					    NULL if the node states none */
	const struct hw_device *host_cpu; /* one socket of the node's host
					    CPUs; NULL if the node states
					    none */
	const struct hw_network *network;
	int64_t n_devices;
	int64_t devices_per_node;        /* used per node */
	int64_t n_nodes;
	const struct hw_calib *calib;    /* borrowed; NULL: uncalibrated,
					    the catalog's datasheet
					    figures (hw_calib_load) */
};

/*
 * Load the built-in catalog (compiled into the library), then every
 * *.yaml and *.yml file in each directory of dir_path (a colon-separated
 * list, as $DLSIM_PATH; NULL or "" for none), and check every
 * cross-reference.  A later definition of a name already loaded is an
 * error naming both places.  On success *out is a new catalog the caller
 * frees with hw_catalog_free(); on failure *out is NULL and err names the
 * file and line (DLSIM_EPARSE), the unreadable file or directory
 * (DLSIM_EIO), or DLSIM_ENOMEM.
 */
int hw_catalog_load(const char *dir_path, struct hw_catalog **out,
		    struct dlsim_err *err);

/*
 * Add the definitions in one YAML file (see configs/hw/README.md) to a
 * catalog.  Units as written are converted to SI; a number that is not
 * well formed, out of range or above 1e9 in its written unit is refused.
 * On failure nothing is added and err says "path:line: what"
 * (DLSIM_EPARSE; DLSIM_EIO if the file cannot be read; DLSIM_ENOMEM).
 * Cross-references (a node's device and links) are not checked here, so
 * files may come in any order: hw_catalog_load() and hw_system_resolve()
 * check them.  A `system:` entry is read and ignored.
 */
int hw_catalog_add_file(struct hw_catalog *cat, const char *path,
			struct dlsim_err *err);

/*
 * As hw_catalog_add_file(), from len bytes of YAML text in memory
 * (borrowed for the call); name stands for the file in messages and in
 * the entries' file field.
 */
int hw_catalog_add_text(struct hw_catalog *cat, const char *name,
			const char *text, size_t len, struct dlsim_err *err);

/*
 * A new, empty catalog in *out, freed with hw_catalog_free(); on failure
 * (DLSIM_ENOMEM) *out is NULL.
 */
int hw_catalog_new(struct hw_catalog **out, struct dlsim_err *err);

/*
 * Free a catalog and every entry in it; every pointer it handed out (and
 * every hw_system built on it) dies with it.  NULL is a no-op.
 */
void hw_catalog_free(struct hw_catalog *cat);

/*
 * Lookups by name or alias (links and networks have no aliases); NULL if
 * absent or name is NULL.  The entry is borrowed and stays valid until
 * hw_catalog_free(), whatever is added to the catalog meanwhile.
 */
const struct hw_device *hw_device_find(const struct hw_catalog *cat,
				       const char *name);
const struct hw_node *hw_node_find(const struct hw_catalog *cat,
				   const char *name);
const struct hw_link *hw_link_find(const struct hw_catalog *cat,
				   const char *name);
const struct hw_network *hw_network_find(const struct hw_catalog *cat,
					 const char *name);

/*
 * Counts and indexed access, in load order: entry i for 0 <= i < count,
 * else NULL.  Entries are borrowed as with the lookups above.
 */
int hw_catalog_n_devices(const struct hw_catalog *cat);
const struct hw_device *hw_catalog_device(const struct hw_catalog *cat,
					  int i);
int hw_catalog_n_nodes(const struct hw_catalog *cat);
const struct hw_node *hw_catalog_node(const struct hw_catalog *cat, int i);
int hw_catalog_n_links(const struct hw_catalog *cat);
const struct hw_link *hw_catalog_link(const struct hw_catalog *cat, int i);
int hw_catalog_n_networks(const struct hw_catalog *cat);
const struct hw_network *hw_catalog_network(const struct hw_catalog *cat,
					    int i);

/*
 * Resolve a --hw string: DEVICE, DEVICExN, NODExN (N nodes), or a YAML
 * file (a name ending in .yaml or .yml, or holding a '/') whose `system:`
 * entry names a device or node and a count.  A file's entries are added
 * to cat and the whole catalog's cross-references checked.  On success
 * *out is filled and its pointers borrow from cat (valid until
 * hw_catalog_free()).  On failure *out is zeroed, cat is exactly as it
 * was (a file's entries are taken out again), and err names the culprit:
 * for the string, DLSIM_EINVAL, DLSIM_ENOTFOUND or DLSIM_ERANGE; for a
 * file's content, DLSIM_EPARSE at "path:line"; DLSIM_EIO if it cannot
 * be read.
 */
int hw_system_resolve(struct hw_catalog *cat, const char *spec,
		      struct hw_system *out, struct dlsim_err *err);

/* "cpu", "gpu", ...; "hybrid-cube-mesh", ... */
const char *hw_device_kind_name(enum hw_device_kind k);
const char *hw_topology_name(enum hw_topology t);

/*
 * The precision training normally uses on this device: bf16 where its
 * matrix units run bf16 faster than fp32, else fp16 where fp16 runs faster
 * than fp32, else fp32.
 */
enum dlsim_precision hw_device_auto_precision(const struct hw_device *d);

/* 1 if the device has a peak figure at precision p. */
int hw_device_supports(const struct hw_device *d, enum dlsim_precision p);

/* How many of s's devices share one link to the host: the node's
 * devices_per_host_link; else, where the host link is a pcie-tree
 * node's intra link, its devices_per_pcie_switch; else 1. */
int64_t hw_system_host_sharing(const struct hw_system *s);

/* ---- Calibration attached to a system (hw_calib.c) ---- */

struct db;

/* Where one override came from: a row of the fits table. */
struct hw_calib_fit {
	int64_t id;                  /* fit id; 0: no such override */
	char kind[32];               /* "gemm:fp32", "stream:triad", ... */
	int64_t n_samples;
	double created_s;            /* Unix time the fit was made */
};

/*
 * Fitted figures that override the catalog's datasheet ones for one
 * hardware name.  Each override is present when its fit's id is not 0.
 *
 * - Kernels, per class (GEMM, convolution, 3x3 stride-1 convolution,
 *   1x1 convolution at stride 1 and strided, non-square convolution,
 *   each recurrent cell) and precision: the calibrated roofline of
 *   `calibrate fit` (kinds "gemm:<dtype>", "conv:<dtype>",
 *   "conv3x3:<dtype>", "conv1x1:<dtype>", "conv1x1s:<dtype>",
 *   "conv_nonsquare:<dtype>", "rnn_lstm:<dtype>", "rnn_gru:<dtype>",
 *   "rnn_tanh:<dtype>", and "rnn:<dtype>", every cell's, as earlier
 *   versions stored it; "gemm_unaligned:<dtype>" for GEMMs off 16-byte
 *   rows, "conv_unaligned:<dtype>" for 16-bit convolutions off 8
 *   channels), a pass of F FLOPs moving Q bytes
 *   in L dependent calls taking fixed_s L + F s_per_flop + Q s_per_byte
 *   (fixed_s + s_per_call L for a recurrent fit, per_call).  A class
 *   with no fit of its own takes the one sim_calib_kernel names: a 1x1
 *   or non-square class the convolution fit (what it was fitted in
 *   before it had its own class), a recurrent cell every cell's
 *   ("rnn:<dtype>"), then any
 *   convolution class, any recurrent one and the unaligned GEMM class
 *   (always, at fp32 and fp64) the GEMM roofline at its precision
 *   (convolutions run as GEMMs, im2col; a recurrent layer's steps are
 *   GEMMs), a fused attention on 4-byte values the fp32 GEMM
 *   roofline, at TF32 too (MODEL_KERNEL_ATTENTION_F32), and the
 *   unaligned convolution class none: its passes take their window's
 *   class (model_pass_cost.channel_pad); the result says
 *   which
 *   (sim_result.calib_used).
 * - Memory: the attainable bandwidth, the DRAM plateau of the STREAM
 *   triad ("stream:triad"; another stream kernel if no triad was fitted),
 *   and where a bandwidth curve was fitted ("bwcurve:<kernel>", triad
 *   first) its cache levels: an element-wise pass moving B bytes gets the
 *   rate of the level whose working sets B falls among (the boundary
 *   between two levels is the geometric mean of the largest set measured
 *   in one and the smallest in the next; past the last, the last).
 * - Collectives: alpha and beta of one ring step, derived from an
 *   allreduce fit at R ranks ("alphabeta:allreduce:<R>") by inverting the
 *   ring form t = 2(R-1) alpha + 2(R-1)/R n beta on its largest-size
 *   segment t = a + b n: alpha = a / (2(R-1)) and beta = b R / (2(R-1)).
 *   A fit at R ranks within a node of g devices (R <= g; g unknown, as for
 *   one name's fits alone: any R) is the intra-node one, the largest such
 *   R; a fit at R > g ranks spans nodes and gives the inter-node ring,
 *   the largest such R.  The simulator costs every collective inside a
 *   node over uniform paths of the intra alpha and beta, in place of the
 *   catalog's links and topology (the fit measured the node as a whole),
 *   and the rings across nodes with the inter ones in place of the NICs.
 * The sigmas are one standard deviation from the fits' covariance; they
 * give the interval of a prediction (sim_result.step_time_s_low/high).
 */
#define HW_CALIB_LEVELS 4
#define HW_CALIB_RINGS 16

/* One ring step's alpha and beta from an allreduce fit at R ranks. */
struct hw_calib_ring {
	int64_t ranks;
	double alpha_s;
	double beta_s_per_byte;
	double sigma_beta;           /* s/byte */
	struct hw_calib_fit fit;
};

/* The terms of a calibrated kernel roofline (struct cal_roof_fit): fixed,
 * per FLOP, per byte, per dependent call. */
#define CAL_ROOF_TERMS 4

struct hw_calib_kernel {
	double fixed_s, s_per_flop, s_per_byte;
	double s_per_call;           /* a recurrent fit's cost per dependent
					call; 0 for the others */
	int per_call;                /* 1: a recurrent fit ("rnn:",
					"rnn_lstm:" ...), whose
					fixed_s is paid once a pass and
					s_per_call per call; 0: fixed_s per
					dependent call */
	double sigma[CAL_ROOF_TERMS]; /* of the four, in that order */
	struct hw_calib_fit fit;
};

struct hw_calib {
	char hw[HW_NAME_LEN];        /* the hardware name the fits are for */
	struct hw_calib_kernel kernel[MODEL_KERNEL_COUNT]
				     [DLSIM_PRECISION_COUNT];
				     /* [MODEL_KERNEL_VECTOR] unused */
	double mem_bw_Bps;
	double mem_sigma_Bps;
	struct hw_calib_fit stream;
	int n_levels;                /* of the bandwidth curve; 0: none */
	double level_upto_bytes[HW_CALIB_LEVELS];  /* the last: infinity */
	double level_Bps[HW_CALIB_LEVELS];
	double level_sigma_Bps[HW_CALIB_LEVELS];
	struct hw_calib_fit bwcurve;
	int n_rings;                 /* every allreduce fit read, one per R */
	struct hw_calib_ring rings[HW_CALIB_RINGS];
	struct hw_calib_ring intra;  /* the one inside a node (fit.id 0:
					none) */
	struct hw_calib_ring inter;  /* one across nodes */
	int n_unreadable;            /* fits of kinds dlsim reads whose stored
					parameters it could not (damaged
					rows): not used, counted for a word */
	int64_t unreadable_id;       /* the first of them, and its kind */
	char unreadable_kind[32];
};

/*
 * Read the newest fits stored for hardware name hw (catalog device or
 * node, or "local") from db into *out: per kind the newest, except that
 * STREAM triad wins over the other kernels; every allreduce fit's ring
 * step is kept in rings (the newest per R), the one at the most ranks
 * made the intra-node ring (inter none: one name does not say how many
 * devices a node has; hw_calib_load_system does).  Fits of kinds this
 * dlsim does not use are skipped; fits that cal_fit_from_row finds
 * damaged or out of range too, counted in n_unreadable with the first
 * one's id and kind.  DLSIM_ENOTFOUND ("no usable fits for hardware
 * 'x'") if none is usable, *out zeroed but for those three counts;
 * DLSIM_EDB on a query failure, *out zeroed.  Leaves the database
 * unchanged.
 */
int hw_calib_load(struct db *db, const char *hw, struct hw_calib *out,
		  struct dlsim_err *err);

/*
 * `--hw local`: this machine as one CPU device, made from the newest
 * `calibrate run` host record for hardware "local" (cores, memory) and
 * its fits: the GEMM curves give the matrix and vector peaks at the
 * precisions fitted (fp32, fp64), the STREAM plateau the bandwidth; no
 * links, no launch overhead (a CPU dispatches a kernel as a call).  sys
 * points into the struct, so it must not be copied or moved while sys is
 * in use.
 */
struct hw_local {
	struct hw_device dev;
	struct hw_node node;
	struct hw_calib calib;
	struct hw_system sys;
};

/*
 * Fill *out from db as above.  DLSIM_ENOTFOUND ("no calibration for
 * 'local': run 'dlsim calibrate run' and 'dlsim calibrate fit --hw
 * local' first") without a GEMM and a STREAM fit for "local";
 * DLSIM_EDB on a query failure; *out is zeroed on failure.
 */
int hw_local_system(struct db *db, struct hw_local *out,
		    struct dlsim_err *err);

/*
 * Resolve spec as `--hw` takes it -- "local" (hw_local_system, which needs
 * db) or what hw_system_resolve takes -- into *sys, with the newest fits
 * db holds for it attached (none when db is NULL or holds none for it).
 * *sys may point into *calib and *local, which must stay put while it is
 * in use.  hw_system_resolve's and hw_local_system's errors, or
 * hw_calib_load_system's other than DLSIM_ENOTFOUND.
 */
int hw_system_open(struct hw_catalog *cat, struct db *db, const char *spec,
		   struct hw_system *sys, struct hw_calib *calib,
		   struct hw_local *local, struct dlsim_err *err);

/*
 * The calibration a resolved system uses, merged from three names: the
 * kernel and memory fits of its device's name, else of the device its
 * catalog entry names as the same chip (hw_device.calib_from, its fits
 * scaled by calib_flop_scale and calib_byte_scale: time per FLOP and
 * per byte, the bandwidths, cache levels at the FP32 peaks' ratio), else
 * of its node's name; the collective fits of its node's name, else of its
 * device's (never the same-chip device's: they measured another node).
 * Of the allreduce fits, the most ranks within one node (R at most its
 * devices) is the intra-node ring and the most ranks above it the
 * inter-node one.  out->hw names where the kernels came from (the node
 * when only it has fits).  DLSIM_ENOTFOUND when nothing usable is
 * stored under any of them; DLSIM_EDB on a query failure.
 */
int hw_calib_load_system(struct db *db, const struct hw_system *sys,
			 struct hw_calib *out, struct dlsim_err *err);

/* The number of overrides present (0: nothing calibrated). */
int hw_calib_count(const struct hw_calib *c);

/*
 * c with every figure moved z standard deviations toward faster (z > 0)
 * or slower: each roofline term and beta down by z sigma, the
 * bandwidths up, each kept above a tenth of its value (the terms of a
 * roofline at 0 stay 0).  in and out may not alias.
 */
void hw_calib_shift(const struct hw_calib *in, double z,
		    struct hw_calib *out);

/* ------------------------------------------------------------------ */
/* Simulation                                                          */
/* ------------------------------------------------------------------ */

enum sim_optimizer {
	SIM_OPT_SGD = 0,
	SIM_OPT_MOMENTUM,
	SIM_OPT_ADAM,
	SIM_OPT_LAMB,       /* Adam's moments, a trust ratio a tensor (You et
			       al. 2020): NVIDIA's BERT, apex FusedLAMB */
	SIM_OPTIMIZER_COUNT
};

/* Collective operations, with nccl-tests' meaning of "bytes": the
 * allreduce, reduce, broadcast and all-to-all buffer; the reduce-scatter
 * input and the allgather output (both the whole, all ranks' parts). */
enum sim_collective {
	SIM_COLL_ALLREDUCE = 0,
	SIM_COLL_REDUCE_SCATTER,
	SIM_COLL_ALLGATHER,
	SIM_COLL_BROADCAST,
	SIM_COLL_REDUCE,
	SIM_COLL_ALLTOALL,
	SIM_COLLECTIVE_COUNT
};

/*
 * Algorithms; not every one implements every collective, nor every rank
 * count (sim/sim_collective.c has the table and a formula with its
 * source for each pair).  Append only.
 *
 *                     allreduce  red.-scatter allgather bcast reduce a2a
 *   ring                  x          x           x        x     x     x
 *   tree (binomial)       x                               x     x
 *   halving-doubling      x          x           x        x     x
 *   parameter-server      x                               x     x
 *   double-binary-tree    x                               x     x
 *   recursive-doubling    x                      x                    x
 *   butterfly (P = 2^k)   x
 */
enum sim_algo {
	SIM_ALGO_AUTO = 0,       /* cheapest of those that apply */
	SIM_ALGO_RING,           /* ring; pipelined chain for broadcast
				    and reduce; pairwise exchange for
				    all-to-all */
	SIM_ALGO_TREE,           /* binomial tree(s) */
	SIM_ALGO_HALVING_DOUBLING, /* Rabenseifner: recursive halving for
				      the reduce-scatter, doubling back */
	SIM_ALGO_PARAM_SERVER,   /* every rank to one server and back,
				    with the incast at the server */
	SIM_ALGO_DOUBLE_BINARY_TREE, /* NCCL's two complementary trees,
					each carrying half, pipelined */
	SIM_ALGO_RECURSIVE_DOUBLING, /* whole-buffer exchanges; Bruck's
					index algorithm for all-to-all */
	SIM_ALGO_BUTTERFLY,      /* Ben-Nun & Hoefler's allreduce; powers
				    of two only */
	SIM_ALGO_COUNT
};

/* One collective's cost, in nccl-tests' terms. */
struct sim_comm_result {
	double time_s;
	double algbw_Bps;       /* bytes / time */
	double busbw_Bps;       /* algbw x the collective's bus factor:
				   allreduce 2(n-1)/n; reduce-scatter,
				   allgather, all-to-all (n-1)/n; broadcast,
				   reduce 1 (nccl-tests doc/PERFORMANCE.md) */
	enum sim_algo algo;     /* the algorithm used */
	int hierarchical;       /* 1: inside nodes, then across */
};

enum sim_bound {
	SIM_BOUND_COMPUTE = 0,
	SIM_BOUND_MEMORY,
	SIM_BOUND_LATENCY,     /* launch overhead or depth dominates */
	SIM_BOUND_NONE         /* the pass does no work (a view, a no-op) */
};

/*
 * Gradient compression for the data-parallel exchange (sim_step.c says
 * what each costs): 16-bit gradients, 8-bit quantization with a scale per
 * bucket, or top-k sparsification (values and indices, exchanged by an
 * allgather because sparse vectors do not sum in place).
 */
enum sim_compression {
	SIM_COMPRESS_NONE = 0,
	SIM_COMPRESS_FP16,
	SIM_COMPRESS_BF16,
	SIM_COMPRESS_INT8,
	SIM_COMPRESS_TOPK,
	SIM_COMPRESSION_COUNT
};

const char *sim_compression_name(enum sim_compression c);
int sim_compression_parse(const char *name, enum sim_compression *out,
			  struct dlsim_err *err);

/* One span of the simulated step on one stream, for timelines. */
/* The host stream carries the update on the host (sim_host.c). */
enum sim_stream {
	SIM_STREAM_COMPUTE = 0, SIM_STREAM_COMM = 1, SIM_STREAM_HOST = 2
};

struct sim_event {
	enum sim_stream stream;
	int layer;                   /* model layer, or -1 (bucket, update) */
	int pass;                    /* enum model_pass, or -1 */
	int bucket;                  /* allreduce bucket, or -1; with the
					update on the host, 0 the gradients'
					trip to it, 1 the weights' back */
	double start_s, dur_s;
	double flops, bytes;
	enum sim_bound bound;
};

/* What the user asks for.  sim_options_init() sets the defaults. */
struct sim_options {
	int64_t batch_per_device;    /* 0: from global_batch or the model */
	int64_t global_batch;        /* 0: batch_per_device x devices */
	int precision_auto;          /* 1: hw_device_auto_precision() */
	enum dlsim_precision precision;
	enum sim_optimizer optimizer;
	enum sim_algo allreduce;
	double bucket_bytes;         /* gradient bucket, PyTorch DDP: 25 MiB */
	int overlap;                 /* 1: allreduce overlaps backward */
	int want_layers;             /* 1: fill per-layer results */
	int want_trace;              /* 1: fill the event list (timeline) */
	enum sim_compression compression;  /* of gradients, data parallel */
	double topk_ratio;           /* kept fraction with SIM_COMPRESS_TOPK */
	int fuse_elementwise;        /* 1: chains of element-wise layers run
					as one kernel (sim_step.c) */
	int fuse_conv_bn;            /* 1: a BatchNorm + ReLU between two
					convolutions runs inside them,
					forward, as cuDNN's fused operations
					(NVIDIA's MXNet NormConvolution);
					needs fuse_elementwise (sim_fuse.c) */
	double dispatch_s;           /* the host's time to issue one kernel,
					launches queued (sim_step.c); 0: the
					host keeps ahead; below 1 s */
	int optimizer_foreach;       /* 1: the optimizer as torch.optim's
					foreach kernels, one an operation;
					0: one fused kernel (sim_step.c) */
	int autocast;                /* 1: fp16 or bf16 as torch.autocast
					runs it: fp32 parameters cast per
					use, LayerNorm, loss and the
					residual stream in fp32
					(sim_autocast.c); 0: every
					activation 16-bit (Megatron, apex
					O2) */
	int update_on_host;          /* 1: the weights and the optimizer
					live in host memory, a parameter
					server on the host CPUs (sim_host.c):
					gradients to the host, its update,
					weights back, after backward; one
					node, no allreduce */
};

/* DLSIM_OK when s's node states the host link and host CPU that the
 * update on the host (sim_options.update_on_host) needs; else
 * DLSIM_EINVAL, err naming what it lacks. */
int sim_host_present(const struct hw_system *s, struct dlsim_err *err);

/*
 * Defaults: batch from the model, auto precision, momentum SGD, AUTO
 * allreduce, 25 MiB buckets (PyTorch DDP's bucket_cap_mb), overlap on, no
 * per-layer results, no element-wise fusion (eager execution), no host
 * dispatch time.
 */
void sim_options_init(struct sim_options *o);

/* Time of one layer pass. */
struct sim_layer_time {
	double time_s[MODEL_PASS_COUNT];
	double flops[MODEL_PASS_COUNT];
	double bytes[MODEL_PASS_COUNT];
	enum sim_bound bound[MODEL_PASS_COUNT];
};

struct sim_breakdown {
	double forward_s;
	double backward_s;
	double optimizer_s;
	double comm_s;          /* sum of collective times */
	double comm_exposed_s;  /* what the step waits for */
	double compress_s;      /* gradient (de)compression kernels, on the
				   compute stream (in backward_s and, for
				   decompression, before the optimizer) */
};

struct sim_memory {
	double weights_bytes;
	double gradients_bytes;
	double optimizer_bytes;
	double activations_bytes;
	double workspace_bytes;
	double total_bytes;          /* on the device */
	double capacity_bytes;
	double host_bytes;           /* embedding tables placed in host
					memory, with their gradients and
					optimizer state, and with the
					update on the host what it holds
					(not in total) */
	int host_tables;             /* embedding tables placed there */
	double host_capacity_bytes;  /* with the update on the host, the
					node's host memory (its share of
					fits); 0 otherwise */
};

/* The most fits one prediction can use: a kernel roofline per matrix
 * class, the STREAM plateau, the bandwidth curve, the intra- and
 * inter-node rings. */
#define SIM_CALIB_USED (MODEL_KERNEL_COUNT - 1 + 4)

struct sim_result {
	enum dlsim_precision precision;
	int64_t devices;
	int64_t batch_per_device;
	int64_t global_batch;
	double step_time_s;
	double throughput;               /* samples per second */
	double throughput_per_device;
	double single_device_step_s;     /* same batch per device, 1 device */
	double scaling_efficiency;       /* single / step time */
	struct sim_breakdown breakdown;
	struct sim_memory memory;
	int fused_edges;                 /* element-wise edges kept on chip
					    (sim_options.fuse_elementwise) */
	int conv_bn_pairs;               /* BatchNorm + ReLU pairs run inside
					    convolutions
					    (sim_options.fuse_conv_bn) */
	int autocast;                    /* sim_options.autocast's */
	int update_on_host;              /* sim_options.update_on_host's */
	int fits;
	enum sim_algo allreduce_used;  /* for the largest bucket */
	int allreduce_hierarchical;      /* 1: inside nodes, then across */
	double gradient_bytes;           /* allreduced per step */
	int n_buckets;                   /* 0 with one device */
	int n_layers;
	struct sim_layer_time *layers;   /* n_layers entries if asked for */
	int n_events;
	struct sim_event *events;        /* the timeline, if asked for */
	double comm_bytes;               /* the collectives' sizes summed
					    (nccl-tests' size), after
					    compression */
	enum sim_compression compression;
	enum sim_collective grad_collective;  /* allreduce; allgather for
						 top-k */
	int calibrated;                  /* 1: the system's calibration
					    was used */
	int n_calib_used;                /* the fits it used (copies): the
					    kernel rooflines at the
					    precision (one per matrix
					    class it runs, each fit once),
					    the STREAM plateau, the
					    bandwidth curve, the intra-
					    and inter-node collectives it
					    costs */
	struct hw_calib_fit calib_used[SIM_CALIB_USED];
	double step_time_s_low;          /* the step at the fits' 95%
					    bounds (+-1.96 sigma of every
					    roofline term, bandwidth and
					    beta); both step_time_s when
					    uncalibrated */
	double step_time_s_high;
};

/* Release what a result owns (its layer and event arrays); the struct
 * stays and may be reused.  NULL is a no-op. */
void sim_result_release(struct sim_result *r);

/*
 * Predict one training step of model m on system s.  On success fills *r
 * (free with sim_result_release()); on failure *r is zeroed and err says
 * why (an unsupported precision, a batch that does not divide, ...).
 */
int sim_predict(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, struct sim_result *r,
		struct dlsim_err *err);

/*
 * Time in seconds of one allreduce of `bytes` bytes over all devices of
 * system s with algorithm a: sim_collective_time() for the allreduce,
 * kept for its callers.  An algorithm that does not apply (butterfly on
 * a count of devices that is not a power of two) gives way to
 * SIM_ALGO_AUTO.  The algorithm used and whether it ran hierarchically
 * (inside nodes, then across) are stored in *used and *hierarchical when
 * not NULL.  Returns 0 for one device or no bytes (a negative or
 * non-finite count of bytes counts as none).  Never fails.
 */
double sim_allreduce_time(const struct hw_system *s, double bytes,
			  enum sim_algo a,
			  enum sim_algo *used, int *hierarchical);

/*
 * Names of the vocabularies ("momentum", "halving-doubling", "memory"):
 * static strings, NULL for an out-of-range value.  The parsers set *out
 * and return DLSIM_OK, or DLSIM_ENOTFOUND with a message listing the
 * valid names; *out is then unchanged.
 */
/*
 * Cost of collective c of `bytes` bytes over all devices of system s with
 * algorithm a, in the LogGP model of the system's links and topology
 * (sim/sim_collective.c).  An algorithm runs flat over all devices or,
 * on several nodes of several devices, hierarchically (inside each node
 * over its links, across nodes over the NICs the node's devices share);
 * the cheaper of the two is taken.  SIM_ALGO_AUTO takes the cheapest of
 * every algorithm that applies but the parameter server (which no
 * collective library picks), as NCCL's tuner and MPI's decision
 * functions choose by size and rank count.  Fills *out.  DLSIM_EINVAL if
 * c or a is out of range, a does not implement c on this many devices,
 * or bytes is negative or not finite; *out is then zeroed.  One device
 * or no bytes costs 0 (algo: a as asked).
 */
int sim_collective_time(const struct hw_system *s, enum sim_collective c,
			double bytes, enum sim_algo a,
			struct sim_comm_result *out, struct dlsim_err *err);

/*
 * An allreduce of `bytes` through `servers` parameter servers (1 to the
 * number of devices) that shard the model, each on one of the devices:
 * every device pushes bytes / servers to each server and pulls the sum
 * back, so a server's link takes (devices - 1) pushes in and as many
 * pulls out.  Flat over the whole system, never hierarchical.  Fills
 * *out (algo SIM_ALGO_PARAM_SERVER).  DLSIM_EINVAL for bytes as
 * sim_collective_time() or servers out of range; *out is then zeroed.
 */
int sim_param_server_time(const struct hw_system *s, double bytes,
			  int64_t servers, struct sim_comm_result *out,
			  struct dlsim_err *err);

/* "allreduce", "reduce-scatter", "allgather", "broadcast", "reduce",
 * "all-to-all"; parsing as the other vocabularies. */
const char *sim_collective_name(enum sim_collective c);
int sim_collective_parse(const char *name, enum sim_collective *out,
			 struct dlsim_err *err);

const char *sim_optimizer_name(enum sim_optimizer o);
int sim_optimizer_parse(const char *name, enum sim_optimizer *out,
			struct dlsim_err *err);
const char *sim_algo_name(enum sim_algo a);
int sim_algo_parse(const char *name, enum sim_algo *out,
			struct dlsim_err *err);
const char *sim_bound_name(enum sim_bound b);

/* What a whole training run costs (sim_train.c). */
struct sim_train_options {
	int64_t epochs;              /* 0: the model's own */
	int64_t dataset_size;        /* samples per epoch; 0: the model's */
	double price_per_device_hour;   /* USD, at most SIM_MAX_PRICE; 0: none */
	double years;                /* amortize the list price over, in
					[SIM_MIN_YEARS, SIM_MAX_YEARS]; 0: don't */
};

/* Bounds sim_train_estimate holds a price and an amortization to: past
 * them the figures are typos, and the cost no longer fits a double. */
#define SIM_MAX_PRICE 1e9
#define SIM_MIN_YEARS (1.0 / 8760.0)   /* an hour */
#define SIM_MAX_YEARS 1000.0

void sim_train_options_init(struct sim_train_options *t);

struct sim_train {
	int64_t epochs, dataset_size;
	double steps;
	double time_s;
	double power_w;              /* devices x TDP + nodes x overhead */
	double energy_j;
	double cost_usd;
	int energy_known, cost_known;
	char energy_note[160];       /* the assumptions, or why unknown */
	char cost_note[160];
};

/*
 * Time, energy and cost to train model m with step result r on system s.
 * Epochs and dataset size come from t, else the model's recipe (the zoo's
 * ImageNet models: 90 epochs of 1,281,167 images); DLSIM_EINVAL if
 * neither gives them.  Energy and cost may stay unknown (the notes say
 * why); that is not an error.
 */
int sim_train_estimate(const struct model *m, const struct hw_system *s,
		       const struct sim_result *r,
		       const struct sim_train_options *t,
		       struct sim_train *out, struct dlsim_err *err);

/*
 * A scaling sweep (dlsim scale): one prediction per system, the systems
 * grouped by `series` (one --hw entry each) in increasing device count.
 * sim_scaling() fills the derived figures of every point from the first
 * point of its series: speedup = throughput / first throughput,
 * efficiency = speedup / (devices / first devices), comm_fraction =
 * exposed communication / step time.
 */
struct sim_scale_point {
	char series[HW_NAME_LEN];    /* the --hw entry (device or node) */
	char spec[128];              /* the system predicted, e.g. v100x64 */
	int64_t nodes;
	struct sim_result r;
	double speedup;
	double efficiency;
	double comm_fraction;
};

void sim_scaling(struct sim_scale_point *p, int n);

/*
 * The time of one kernel of cost c on system s's device at precision p,
 * as the simulator costs a layer pass (sim_roofline.c: the roofline, or
 * the fitted roofline of s's calibration for c's class); what dlsim
 * validate compares with kernel benchmarks.
 */
double sim_kernel_time(const struct hw_system *s, enum dlsim_precision p,
		       const struct model_pass_cost *c);

/* ---- Hybrid parallelism of transformers (sim_parallel.c) ---- */

/* Pipeline schedules (Narayanan et al. 2021, Sec. 2.2). */
enum sim_schedule {
	SIM_SCHED_1F1B = 0,     /* PipeDream-Flush: one forward, one
				   backward */
	SIM_SCHED_GPIPE,        /* all forwards, then all backwards */
	SIM_SCHED_INTERLEAVED,  /* 1F1B over `chunks` model chunks each */
	SIM_SCHED_COUNT
};

/* Activation recomputation (Korthikanti et al. 2022). */
enum sim_recompute {
	SIM_RECOMPUTE_NONE = 0,
	SIM_RECOMPUTE_SELECTIVE,  /* the attention core only */
	SIM_RECOMPUTE_FULL,       /* every block's forward */
	SIM_RECOMPUTE_COUNT
};

/* "1f1b", "gpipe", "interleaved"; "none", "selective", "full"; NULL
 * out of range.  The parsers as the other vocabularies. */
const char *sim_schedule_name(enum sim_schedule s);
const char *sim_recompute_name(enum sim_recompute r);
int sim_schedule_parse(const char *name, enum sim_schedule *out,
		       struct dlsim_err *err);
int sim_recompute_parse(const char *name, enum sim_recompute *out,
			struct dlsim_err *err);

/* How one step is spread: tp x pp x dp devices (tp innermost). */
struct sim_strategy {
	int64_t tp, pp, dp;
	int64_t micro_batch;         /* sequences per micro-batch */
	int64_t global_batch;        /* sequences per step */
	int zero;                    /* ZeRO stage 0..3 (3: FSDP) */
	enum sim_recompute recompute;
	enum sim_schedule schedule;
	int64_t chunks;              /* interleaved: model chunks per
					device (v), else 1 */
	int sequence_parallel;       /* 1: Megatron's sequence parallelism
					with tp */
	double dispatch_s;           /* the software stack's host time per
					kernel launch (framework dispatch);
					0: the device's launch overhead */
	int optimizer_foreach;       /* sim_options' */
	int autocast;                /* sim_options' */
	int update_on_host;          /* sim_options': ZeRO-Offload, each
					device's shard updated by its
					node's host CPUs (needs zero 1 or
					more; sim_host.c) */
};

/* tp = pp = dp = micro_batch = chunks = 1, 1F1B, no recomputation, no
 * ZeRO, global_batch 0 (the caller sets it). */
void sim_strategy_init(struct sim_strategy *st);

/*
 * Complete the strategy a caller set tp and pp of (and dp or the global
 * batch where it was given, else left at 0) for n_devices: dp = devices /
 * (tp x pp), the global batch = batch per replica (0: model m's default
 * batch) x dp.  DLSIM_EINVAL when tp x pp does not divide the devices
 * (sim_strategy.c; `dlsim predict` and a measurement file's rows both
 * complete theirs with it).
 */
int sim_strategy_complete(struct sim_strategy *st, int64_t n_devices,
			  int64_t batch, const struct model *m,
			  struct dlsim_err *err);

/* One strategy's step (sim_parallel.c's head comment gives the model). */
struct sim_par_result {
	struct sim_strategy strategy;
	enum dlsim_precision precision;
	int64_t devices;
	int64_t micro_batches;       /* per step per pipeline */
	double step_time_s;
	double samples_per_s;
	double tokens_per_s;
	double stage_fwd_s;          /* one micro-batch, slowest stage */
	double stage_bwd_s;          /* (with recomputation) */
	double compute_s;            /* micro-batches x the two */
	double bubble_s;             /* the pipeline's fill and drain */
	double tp_comm_s;            /* tensor-parallel allreduces (inside
					compute_s) */
	double pp_comm_s;            /* stage-boundary sends */
	double dp_comm_s;            /* gradient reduction, exposed */
	double optimizer_s;          /* with the update on the host, its
					trip there and back too */
	double host_trip_s;          /* that trip (0 on the device) */
	double model_flops;          /* per step, forward and backward */
	double hw_flops;             /* executed: with recomputation */
	double tflops_per_device;    /* hw_flops / step / devices */
	struct sim_memory memory;    /* the worst stage's */
	int64_t worst_stage;
	int fits;
	int tp_in_node, dp_in_node, pp_in_node;  /* placement: does each
					group fit one node */
};

/*
 * A context that costs strategies for model m on system s at precision p
 * with optimizer opt, caching layer costs per (tp, micro-batch): create
 * once, evaluate many.  DLSIM_EINVAL if m is not a transformer (its tf
 * has no layers); DLSIM_ENOMEM.  m and s are borrowed for the context's
 * life.
 */
struct sim_par_ctx;
int sim_par_ctx_new(const struct model *m, const struct hw_system *s,
		    enum dlsim_precision p, enum sim_optimizer opt,
		    struct sim_par_ctx **out, struct dlsim_err *err);
void sim_par_ctx_free(struct sim_par_ctx *c);

/*
 * Cost strategy st into *r.  DLSIM_EINVAL, naming the constraint, when
 * tp x pp x dp is not the system's device count, pp exceeds the blocks,
 * the global batch is not a multiple of dp x micro-batch, the
 * interleaved schedule's chunks do not divide the blocks, or ZeRO 3 is
 * asked with pp > 1; *r zeroed then.  A strategy that does not fit in
 * memory is costed all the same, with r->fits 0.
 */
int sim_par_eval(struct sim_par_ctx *c, const struct sim_strategy *st,
		 struct sim_par_result *r, struct dlsim_err *err);

/* sim_par_ctx_new, sim_par_eval and sim_par_ctx_free in one call. */
int sim_parallel_predict(const struct model *m, const struct hw_system *s,
			 enum dlsim_precision p, enum sim_optimizer opt,
			 const struct sim_strategy *st,
			 struct sim_par_result *r, struct dlsim_err *err);

/* ---- Sequences of many lengths (sim_binned.c) ---- */

/* A step over a histogram's bins (model_seq_bins). */
struct sim_binned {
	int n;                                     /* bins */
	int64_t width;                             /* tokens a bin spans */
	int64_t padded[MODEL_SEQ_MAX_BINS];        /* bin i's length */
	double share[MODEL_SEQ_MAX_BINS];          /* of the sequences */
	double bin_step_time_s[MODEL_SEQ_MAX_BINS];  /* a step of bin i */
	double sequences;                          /* in the histogram */
	int64_t global_batch;                      /* samples a step */
	double step_time_s;                        /* the shares' mean */
	double samples_per_s;                      /* global batch / it */
	double tokens_per_s;                       /* unpadded: samples/s x
						      mean length */
	double mean_length, mean_padded;           /* tokens a sample */
	double padding;                            /* of the tokens
						      computed */
	double memory_bytes, capacity_bytes;       /* per device, the
						      longest bin's */
	int fits;                                  /* the longest bin's */
	int has_strategy;                          /* 1: the steps are of
						      strategy's */
	struct sim_strategy strategy;              /* as costed (a picked
						      one: --strategy
						      auto) */
	int update_on_host;                        /* 1: the update ran on
						      the host CPUs (the
						      options' or the
						      strategy's) */
	int fused_edges, conv_bn_pairs;            /* the data-parallel
						      step's fusion
						      (sim_result's) */
};

/*
 * Predict a training step over sequences of many lengths: model_arg (a
 * zoo model string with a seq key) rebuilt at each bin's padded length
 * (model_resolve_seq) and predicted on s, with st the strategy's step
 * (sim_parallel_predict at o's precision and optimizer), without it the
 * data-parallel step of o (sim_predict); the step is the bins' mean in
 * their shares.  On failure *out is zeroed and err says why (the first
 * bin that failed: its model or its prediction).
 */
int sim_binned_predict(const char *model_arg, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct sim_strategy *st,
		       const struct model_seq_bins *b, struct sim_binned *out,
		       struct dlsim_err *err);

/*
 * The data-parallel step of o over bins b (sim_binned_predict's without a
 * strategy) as one whole result, for sweeps (dlsim scale): its step, its
 * bounds, the one-device step and the breakdown the bins' means in their
 * shares, throughput and scaling efficiency those of the mean step, the
 * memory and fit the longest bin's, the rest the first bin's (no layer
 * table or timeline).  Errors and *out on failure as sim_binned_predict;
 * the caller releases *out (sim_result_release) as sim_predict's.
 */
int sim_binned_result(const char *model_arg, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct model_seq_bins *b, struct sim_result *out,
		       struct dlsim_err *err);

/* ---- Choosing a strategy (sim_plan.c) ---- */

enum sim_objective {
	SIM_OBJ_TIME = 0,       /* step time */
	SIM_OBJ_COST,           /* step time x devices x price */
	SIM_OBJ_ENERGY,         /* step time x devices x TDP */
	SIM_OBJ_COUNT
};

const char *sim_objective_name(enum sim_objective o);
int sim_objective_parse(const char *name, enum sim_objective *out,
			struct dlsim_err *err);

struct sim_plan_options {
	int64_t global_batch;        /* sequences per step (required) */
	int top_k;                   /* how many to keep (default 10) */
	enum sim_objective objective;
	int64_t max_micro_batch;     /* 0: every divisor */
	int tp_across_nodes;         /* 1: tp may exceed a node */
	double dispatch_s;           /* the software stack's (sim_strategy) */
	int optimizer_foreach;       /* sim_strategy's */
	int autocast;                /* sim_strategy's */
	int update_on_host;          /* sim_strategy's: every strategy
					offloads (ZeRO 0 ones are refused) */
};

/* top_k 10, objective time, the rest 0. */
void sim_plan_options_init(struct sim_plan_options *o);

struct sim_plan_result {
	int64_t global_batch;        /* as planned */
	struct sim_par_result *top;  /* owned: the best n_top, best first */
	int n_top;
	int64_t n_evaluated;         /* strategies costed */
	int64_t n_feasible;          /* that fit in memory */
	int64_t n_oom;               /* that do not */
	int64_t n_invalid;           /* refused by sim_par_eval */
	int update_on_host;          /* the options': ZeRO-Offload */
	struct sim_par_result least_oom;  /* the smallest that does not fit
					     (have_least_oom) */
	int have_least_oom;
	/* sim_plan_binned's histogram (bins 0: one length, sim_plan) */
	int bins;
	int64_t bin_width, longest;  /* tokens a bin spans; the longest
					bin's padded length */
	double mean_length;          /* tokens a sample, unpadded */
	double mean_padded;          /* and padded, the shares' mean */
};

/*
 * Search every strategy for m on the whole of s (sim_plan.c says which)
 * and keep the best o->top_k that fit, ranked by o->objective.  Errors as
 * sim_par_ctx_new; DLSIM_EINVAL without a global batch.  A search that
 * finds nothing that fits succeeds with n_top 0 (least_oom says by how
 * much the closest misses).  The caller releases *out.
 */
int sim_plan(const struct model *m, const struct hw_system *s,
	     enum dlsim_precision p, enum sim_optimizer opt,
	     const struct sim_plan_options *o, struct sim_plan_result *out,
	     struct dlsim_err *err);

/*
 * sim_plan over sequences of many lengths (bins b, model_seq_bins_read):
 * model_arg, a zoo transformer with a seq key, rebuilt at each bin's
 * padded length (model_resolve_seq), and every strategy costed at each
 * bin and ranked by the mix of them: the shares' mean step, as a loader
 * that batches one bin at a time runs it (sim_binned_predict); a
 * strategy fits when the longest bin's does, and its tokens are the
 * histogram's real ones.  Errors as sim_plan, model_resolve_seq, or
 * DLSIM_EINVAL for bins that are not usable.
 */
int sim_plan_binned(const char *model_arg, const struct model_seq_bins *b,
		    const struct hw_system *s, enum dlsim_precision p,
		    enum sim_optimizer opt, const struct sim_plan_options *o,
		    struct sim_plan_result *out, struct dlsim_err *err);

/* What r scores under objective o on s (lower is better). */
double sim_plan_score(const struct sim_par_result *r,
		      const struct hw_system *s, enum sim_objective o);

/* Free what *r owns and zero it; NULL is a no-op. */
void sim_plan_release(struct sim_plan_result *r);

/* ------------------------------------------------------------------ */
/* The measurement store (db/, SQLite)                                 */
/* ------------------------------------------------------------------ */

/*
 * One SQLite database holds hosts, runs with their raw samples, fits,
 * predictions and measurements (issue 4).  A handle is opened on a path,
 * created and migrated to the current schema on first use; every write
 * is one transaction, so a failed import or an interrupted run leaves
 * the database as it was.  Tests open temporary databases only.
 *
 * Errors: DLSIM_EDB for anything SQLite refuses, as "PATH: what: SQLite's
 * message"; DLSIM_EINVAL for an argument the database would store but
 * nothing could use (a non-finite value, an unknown status);
 * DLSIM_ENOTFOUND for a run id that is not there.  A handle belongs to
 * one thread and one process: after fork() each process opens its own.
 * Any number of processes may write one file at once; a writer waits up
 * to DB_BUSY_TIMEOUT_MS for another's transaction before it fails.
 *
 * Times are Unix seconds (double), UTC.  Text fields longer than their
 * array are cut when read back.
 */
struct db;

#define DB_SCHEMA_VERSION 1
/* 30 s: a writer that holds the file long (a calibration import of
 * thousands of samples on a slow disk, or a run under valgrind, where
 * 5 s let test_db.c's two processes time out) must not fail another. */
#define DB_BUSY_TIMEOUT_MS 30000
#define DB_PATH_LEN 512

/* The database path: the given one (if not NULL or empty), else $DLSIM_DB
 * (if set and not empty), else $XDG_DATA_HOME/dlsim/dlsim.db (if
 * XDG_DATA_HOME is an absolute path), else ~/.local/share/dlsim/dlsim.db.
 * Creates the missing directories of the last two, mode 0700, as mkdir -p
 * does; never those of a given path or $DLSIM_DB.  Writes at most n bytes
 * into buf.  DLSIM_EIO if a directory cannot be made, the path does not
 * fit, or there is no HOME; buf is then "". */
int db_resolve_path(const char *given, char *buf, size_t n,
		    struct dlsim_err *err);

/* Open (creating and migrating) the database at path: foreign keys on,
 * WAL journal, a busy timeout for concurrent writers.  A file whose
 * schema is newer than DB_SCHEMA_VERSION is refused ("created by a newer
 * dlsim") and left untouched; an older one is migrated, one version per
 * transaction.  The caller owns *out (db_close).  *out is NULL on
 * failure, with DLSIM_EDB and SQLite's own message in err (DLSIM_ENOMEM
 * if memory runs out). */
int db_open(const char *path, struct db **out, struct dlsim_err *err);

/* Open the database at path for reading only (SQLITE_OPEN_READONLY), for
 * the commands that only read: never created (a missing file is
 * DLSIM_EDB "PATH: opening: unable to open database file"), changed or
 * migrated.  A file without dlsim's tables (an empty one, which SQLite
 * reads as an empty database, or another program's) opens with schema
 * version 0, and every reader finds no rows in it; one written by an
 * older dlsim is refused, naming the command that upgrades it; one by a
 * newer dlsim as db_open refuses it.  A write through the handle fails
 * (DLSIM_EDB).  Errors and ownership as db_open. */
int db_open_readonly(const char *path, struct db **out,
		     struct dlsim_err *err);

/* Close; NULL is a no-op. */
void db_close(struct db *db);

/* The schema version the file holds (PRAGMA user_version): 0 for a file
 * without dlsim's tables opened by db_open_readonly. */
int db_schema_version(struct db *db);

/* The path the handle was opened on (borrowed, lives as long as db). */
const char *db_path(const struct db *db);

/* ---- Hosts, runs and samples ---- */

/* A machine that ran benchmarks, and the catalog hardware it stands for. */
struct db_host {
	char name[64];          /* host name */
	char hw[HW_NAME_LEN];   /* catalog device or node, or "local" */
	char cpu[128], gpu[128];
	int64_t cores;
	double mem_bytes;
	char kernel[128];
	char libs[256];         /* library versions, "openblas 0.3.21 ..." */
};

/* Insert a host (or find the same one: same name, hw, cpu and gpu, whose
 * cores, memory, kernel and libraries are then updated to h's); sets
 * *id (0 on failure).  One transaction. */
int db_host_upsert(struct db *db, const struct db_host *h, int64_t *id,
		   struct dlsim_err *err);

/* The host of the newest run (by start time) for hardware hw into *out.
 * DLSIM_ENOTFOUND if no run for hw names a host, DLSIM_EDB on a query
 * failure; *out is zeroed on failure. */
int db_host_newest(struct db *db, const char *hw, struct db_host *out,
		   struct dlsim_err *err);

/* A run: one invocation of a tool (dlsim calibrate run, an import). */
struct db_run {
	int64_t id;             /* set by db_run_insert */
	int64_t host_id;        /* 0: none */
	char tool[32];          /* "calibrate", "import:nccl-tests", ... */
	char cmdline[512];
	/* the dlsim that made it; "" stores dlsim_version() */
	char version[DLSIM_VERSION_LEN];
	double start_s, end_s;  /* Unix time; end_s 0: not finished */
	char status[16];        /* "running", "done", "interrupted",
				   "failed"; "" stores "running" */
	char hw[HW_NAME_LEN];   /* the hardware the samples describe */
	char source[256];       /* for imports: where the file came from */
	int64_t n_samples;      /* samples stored with the run: set by
				   db_run_insert, db_run_get, db_each_run */
};

/*
 * One raw measurement.  params is "key=value" pairs separated by
 * spaces, in a fixed order per benchmark, e.g. "m=1024 n=1024 k=1024
 * dtype=fp32 threads=2" (gemm), "bytes=1048576 ranks=8 op=allreduce
 * algo=ring inplace=0" (collectives), "bytes=32768 kernel=triad" (stream).
 * unit is "s", "B/s" or "FLOP/s" (the schema refuses any other).
 */
struct db_sample {
	char benchmark[32];     /* gemm, conv, stream, p2p_latency, p2p_bw,
				   allreduce, allgather, ... */
	char params[256];
	int64_t rep;            /* repetition, 0-based; -1: a summary */
	double value;           /* finite */
	char unit[8];
};

/*
 * Insert a run and its n samples s[0..n-1] in ONE transaction: all or
 * nothing.  Sets run->id and run->n_samples (both 0 on failure, when
 * nothing at all was stored).  n may be 0 (a run that measured nothing
 * is still recorded).  DLSIM_EINVAL for an empty tool or hw, n < 0 or a
 * non-finite value; DLSIM_EDB for what the schema refuses (status, unit,
 * host_id).
 */
int db_run_insert(struct db *db, struct db_run *run,
		  const struct db_sample *s, int64_t n,
		  struct dlsim_err *err);

/*
 * Append n samples to run run_id, which must still be "running" (a run
 * that measures as it goes: stored by db_run_insert with no samples,
 * grown batch by batch, closed by db_run_finish).  One transaction per
 * call: the batch is stored whole or not at all.  DLSIM_EINVAL for n < 0,
 * a non-finite value or a finished run; DLSIM_ENOTFOUND for no such run;
 * DLSIM_EDB for what the schema refuses.
 */
int db_run_append(struct db *db, int64_t run_id, const struct db_sample *s,
		  int64_t n, struct dlsim_err *err);

/* Mark a run finished ("done", "interrupted", "failed") at end_s.
 * DLSIM_EINVAL for another status, DLSIM_ENOTFOUND for no such run. */
int db_run_finish(struct db *db, int64_t run_id, const char *status,
		  double end_s, struct dlsim_err *err);

/* Read run run_id into *out; DLSIM_ENOTFOUND ("run 7 not found") if
 * there is none, *out then zeroed. */
int db_run_get(struct db *db, int64_t run_id, struct db_run *out,
	       struct dlsim_err *err);

/* Counts for `dlsim db info`. */
struct db_info {
	char path[512];
	int schema_version;
	int64_t hosts, runs, samples, fits, predictions, measurements;
	double file_bytes;      /* pages x page size: the file's size once
				   the WAL is checkpointed */
};

int db_info(struct db *db, struct db_info *out, struct dlsim_err *err);

/*
 * Visitors.  Each calls fn once per row, in a fixed order, and stops when
 * fn returns non-zero (still DLSIM_OK); the struct passed to fn is
 * borrowed for that call only.  fn must not write to the database.
 * DLSIM_EDB on a query failure.
 *
 * db_each_run: runs newest first (start_s, then id, descending).
 * db_each_sample: the samples of run run_id (0: of all runs), by run id
 * and insertion order.
 * db_each_sample_of: the samples of every run for hardware hw, of
 * benchmark (NULL: all benchmarks), by run id and insertion order: what a
 * fit reads.
 */
int db_each_run(struct db *db, int (*fn)(void *ctx, const struct db_run *r),
		void *ctx, struct dlsim_err *err);
int db_each_sample(struct db *db, int64_t run_id,
		   int (*fn)(void *ctx, int64_t run_id,
			     const struct db_sample *s),
		   void *ctx, struct dlsim_err *err);
int db_each_sample_of(struct db *db, const char *hw, const char *benchmark,
		      int (*fn)(void *ctx, int64_t run_id,
				const struct db_sample *s),
		      void *ctx, struct dlsim_err *err);

/* ---- Fits, predictions and measurements ---- */

/*
 * A fitted model.  The JSON texts are borrowed: the caller's for
 * db_fit_insert, the visitor's (valid during the callback) for
 * db_each_fit.  The schema refuses text that is not valid JSON.
 */
struct db_fit {
	int64_t id;             /* set by db_fit_insert */
	char hw[HW_NAME_LEN];
	char kind[32];          /* "gemm:fp32", "stream", "loggp:shm", ... */
	/* the JSON columns; db_each_fit gives NULL for one that is not
	 * valid JSON (a row damaged outside dlsim) */
	const char *params_json;     /* {"name": value, ...} */
	const char *covariance_json; /* [[...], ...] in params' order */
	double residual_rms;    /* in the unit of the samples fitted */
	int64_t n_samples;
	const char *sample_run_ids;  /* the runs fitted, "[3, 4]" */
	double created_s;       /* 0 stores now */
	/* the dlsim that made it; "" stores dlsim_version() */
	char dlsim_version[DLSIM_VERSION_LEN];
};

/* Store a fit (one transaction); sets f->id (0 on failure). */
int db_fit_insert(struct db *db, struct db_fit *f, struct dlsim_err *err);

/* Visit the fits for hw (NULL: any) of kind (NULL: any), newest first. */
int db_each_fit(struct db *db, const char *hw, const char *kind,
		int (*fn)(void *ctx, const struct db_fit *f), void *ctx,
		struct dlsim_err *err);

/* A prediction as made: its inputs, outputs and the fits it used (JSON
 * texts, borrowed as in struct db_fit). */
struct db_prediction {
	int64_t id;             /* set by db_prediction_insert */
	const char *inputs_json;     /* {"model": ..., "hw": ..., ...} */
	const char *outputs_json;    /* {"step_time_s": ..., ...} */
	const char *fit_ids;         /* "[12, 13]"; "[]" uncalibrated */
	double created_s;       /* 0 stores now */
	/* the dlsim that made it; "" stores dlsim_version() */
	char dlsim_version[DLSIM_VERSION_LEN];
};

/* Store a prediction (one transaction); sets p->id (0 on failure). */
int db_prediction_insert(struct db *db, struct db_prediction *p,
			 struct dlsim_err *err);

/* Store p[0..n-1] in one transaction, all or nothing; sets each id (0
 * when nothing was stored).  DLSIM_EINVAL for n < 0. */
int db_prediction_insert_many(struct db *db, struct db_prediction *p,
			      int64_t n, struct dlsim_err *err);

/*
 * Visit the stored predictions in the order they were made, those whose
 * inputs_json matches the SQL LIKE pattern inputs_like (NULL: all); the
 * texts are valid only during the call.  fn returning non-zero stops
 * early (not an error).  DLSIM_EDB on a query failure.
 */
int db_each_prediction(struct db *db, const char *inputs_like,
		       int (*fn)(void *ctx, const struct db_prediction *p),
		       void *ctx, struct dlsim_err *err);

/* Ground truth: one measured figure of a validation set or a user. */
struct db_measurement {
	int64_t id;             /* set by db_each_measurement */
	char set_name[64];      /* "tf_cnn_benchmarks-2017", ... */
	char row_key[256];      /* what was measured: "resnet50 v100x8
				   batch=64 fp16" */
	double value;           /* finite */
	char unit[16];          /* "samples/s", "s", ... */
	char source[256];       /* where the figure was published */
	double created_s;       /* 0 stores now */
};

/* Store m[0..n-1] in one transaction: all or nothing.  DLSIM_EINVAL for
 * n < 0 or a non-finite value. */
int db_measurement_insert(struct db *db, const struct db_measurement *m,
			  int64_t n, struct dlsim_err *err);

/* Store predictions p[0..np-1] and measurements m[0..nm-1] in one
 * transaction, all or nothing (ids as db_prediction_insert_many; errors
 * as it and db_measurement_insert). */
int db_results_insert(struct db *db, struct db_prediction *p, int64_t np,
		      const struct db_measurement *m, int64_t nm,
		      struct dlsim_err *err);

/* Visit the measurements of set_name (NULL: all), by id. */
int db_each_measurement(struct db *db, const char *set_name,
			int (*fn)(void *ctx, const struct db_measurement *m),
			void *ctx, struct dlsim_err *err);

/* ---- Maintenance ---- */

/* VACUUM the file and truncate its WAL.  DLSIM_EDB if another process
 * is writing (after the busy timeout). */
int db_vacuum(struct db *db, struct dlsim_err *err);

/* ------------------------------------------------------------------ */
/* Calibration: imports (calibrate/)                                   */
/* ------------------------------------------------------------------ */

/*
 * The formats an import reads, and the samples each gives (the params
 * order is fixed per format; calibrate/cal_nccl.c, cal_osu.c,
 * cal_stream.c and cal_csv.c say it in full).
 * Values are SI: s or B/s.  rep is -1: the tools report their own
 * summary (mean or best) of their iterations.
 */
enum cal_format {
	CAL_NCCL_TESTS = 0,     /* all_reduce_perf & co, text or -J JSON:
				   allreduce, allgather, reduce-scatter,
				   broadcast, reduce, all-to-all (the names
				   of sim_collective_name), one per size and
				   placement, "bytes= ranks= op= inplace=
				   dtype=", time in s */
	CAL_OSU,                /* osu_latency, osu_bw, osu_allreduce:
				   p2p_latency (s), p2p_bw (B/s), allreduce
				   (s), "bytes= ranks= [op= inplace=]
				   dtype=" (ranks=0: not in the output) */
	CAL_STREAM,             /* McCalpin's STREAM: stream, "bytes=
				   kernel= threads=", best rate in B/s,
				   bytes = the arrays the kernel moves */
	CAL_DEEPBENCH,          /* the CSV layout of shared/data/deepbench_*:
				   gemm, conv, allreduce, rnn; every row of
				   every device, tagged "device=<hardware
				   column>" (blanks as '_'); time in s */
	CAL_GEMM_CSV,           /* generic: m,n,k,dtype,time_s -> gemm,
				   "m= n= k= dtype=" */
	CAL_CONV_CSV,           /* generic: n,c,h,w,k,r,s,stride,pad,dtype,
				   time_s -> conv, the same keys in order;
				   or per pass, n,c,h,w,k,r,s,stride_h,
				   stride_w,pad_h,pad_w,pass,dtype,time_s ->
				   conv, DeepBench's keys (n= c= h= w= k=
				   r= s= pad_h= pad_w= stride_h= stride_w=
				   pass= dtype=) */
	CAL_FORMAT_COUNT
};

/* "nccl-tests", "osu", "stream", "deepbench", "gemm-csv", "conv-csv";
 * a static string, NULL for an out-of-range value.  Parsing as the
 * other vocabularies (DLSIM_ENOTFOUND listing the names). */
const char *cal_format_name(enum cal_format f);
int cal_format_parse(const char *name, enum cal_format *out,
		     struct dlsim_err *err);

/*
 * Read a benchmark output file into samples (caller frees *out with
 * free()).  A file in an unknown or damaged format is refused with
 * DLSIM_EPARSE and "path:line: what" (a row cut short, a non-numeric or
 * negative value, an unknown dtype, no header, an empty file, a run
 * that failed its own check); a file past 10^7 samples with
 * DLSIM_ENOMEM; one that cannot be read with DLSIM_EIO.  On failure
 * *out is NULL and *n 0: never part of a file.  Nothing is written
 * anywhere.
 */
int cal_parse_file(enum cal_format f, const char *path,
		   struct db_sample **out, int64_t *n, struct dlsim_err *err);

/*
 * Parse path and store it as one run of tool "import:FORMAT" for
 * hardware hw (1 to HW_NAME_LEN - 1 characters, no blanks: DLSIM_EINVAL
 * otherwise), status "done", source the file's absolute path, in one
 * transaction.  The whole file is parsed before the database is
 * touched; on any failure nothing is stored, and *run_id and
 * *n_samples are 0.  Errors as cal_parse_file, or db_run_insert's.
 */
int cal_import(struct db *db, enum cal_format f, const char *path,
	       const char *hw, int64_t *run_id, int64_t *n_samples,
	       struct dlsim_err *err);

/* ------------------------------------------------------------------ */
/* Calibration: runs on this machine (calibrate/cal_run*.c)            */
/* ------------------------------------------------------------------ */

/*
 * `dlsim calibrate run` measures the local machine and stores one run of
 * tool "calibrate" for hardware hw, its samples in the params conventions
 * of the importers, with rep 0..R-1 for each repetition and rep -1 for
 * the summary (the median; for stream, the best):
 *
 *   gemm         "m= n= k= dtype=fp32|fp64 threads="      s per call
 *   stream       "bytes= kernel=copy|scale|add|triad threads=1"   B/s
 *   p2p_latency  "bytes= ranks=2 dtype=int8"              s (one way)
 *   p2p_bw       "bytes= ranks=2 dtype=int8"              B/s
 *   allreduce    "bytes= ranks=2 op=sum inplace=0 dtype=fp32"     s
 *
 * calibrate/cal_run.c says how each is measured.
 */
enum cal_bench {
	CAL_BENCH_GEMM = 0,     /* CBLAS sgemm and dgemm (OpenBLAS) */
	CAL_BENCH_STREAM,       /* copy, scale, add, triad */
	CAL_BENCH_P2P,          /* MPI ping-pong: latency and bandwidth */
	CAL_BENCH_ALLREDUCE,    /* MPI_Allreduce */
	CAL_BENCH_COUNT
};

#define CAL_BENCH_ALL ((1u << CAL_BENCH_COUNT) - 1)

/* "gemm,stream,p2p,allreduce" (any of them, in any order, comma
 * separated) into a bit mask of 1 << enum cal_bench.  DLSIM_EINVAL for an
 * empty list or item, DLSIM_ENOTFOUND naming an unknown word; *mask is
 * set only on success. */
int cal_bench_parse(const char *list, unsigned *mask, struct dlsim_err *err);

/* What a run measures and how it reports; every pointer is borrowed. */
struct cal_run_opts {
	int quick;              /* sizes up to 512 (gemm), 1 MiB (MPI) */
	int tiny;               /* for tests only: a few tiny sizes, two
				   repetitions (DLSIM_CALIBRATE_TINY) */
	unsigned only;          /* mask of 1 << enum cal_bench; 0: all */
	const char *hw;         /* the hardware name; NULL: "local" */
	const char *cmdline;    /* recorded with the run; may be NULL */
	const char *mpibench;   /* the dlsim-mpibench program; NULL or
				   missing: p2p and allreduce are skipped */
	const char *mpirun;     /* the launcher; NULL: "mpirun" on PATH */
	const volatile sig_atomic_t *stop;  /* non-zero: stop before
					       the next measurement (a
					       SIGINT handler sets it);
					       may be NULL */
	void (*progress)(void *ctx, int64_t done, int64_t total,
			 const char *what);  /* may be NULL */
	void *progress_ctx;
	void (*note)(void *ctx, const char *msg);  /* a benchmark skipped,
						      and why; may be NULL */
	void *note_ctx;
};

/* How a run ended. */
struct cal_run_result {
	int64_t run_id;
	int64_t n_samples;      /* stored */
	char status[16];        /* "done", "interrupted", "failed" */
	double elapsed_s;
};

/*
 * Measure what o asks for and store it in db: the host (db_host_upsert),
 * one run stored "running" at the start, the samples in batches of one
 * transaction each (db_run_append), then the run finished "done", or
 * "interrupted" when *o->stop was seen (the samples of every whole
 * measurement are kept; DLSIM_OK all the same), or "failed" when a
 * measurement or a write failed (the error is returned; what was stored
 * stays).  out is filled in every case where a run row was made.
 * DLSIM_EINVAL for a bad hw name; DLSIM_ENOMEM if the buffers cannot be
 * had; DLSIM_EDB as the db_* calls.  MPI missing is a note, not an
 * error.
 */
int cal_run(struct db *db, const struct cal_run_opts *o,
	    struct cal_run_result *out, struct dlsim_err *err);

/* ------------------------------------------------------------------ */
/* Calibration: fits (calibrate/cal_fit.c, GSL)                        */
/* ------------------------------------------------------------------ */

#define CAL_MAX_SEGMENTS 4

/* One run of a piecewise alpha-beta fit: t = a + b m for sizes in
 * [x_lo, x_hi], with the coefficients' covariance. */
struct cal_line_fit {
	double a, b;                 /* s, s/byte */
	double cov_aa, cov_ab, cov_bb;
	double rel_rms;              /* residuals relative to the times */
	int n;                       /* points in the run */
	double x_lo, x_hi;
};

/*
 * Fit times y (s) against sizes x (bytes, sorted) with 1 to max_segments
 * lines, the cut points and their number chosen as cal_fit.c explains.
 * out must hold max_segments entries; *n_out receives how many are used.
 * DLSIM_EINVAL for unsorted, non-positive or too few points.
 */
int cal_fit_lines(const double *x, const double *y, int n,
		  int max_segments, struct cal_line_fit *out, int *n_out,
		  struct dlsim_err *err);

/*
 * The calibrated roofline of a kernel: t = fixed_s + F s_per_flop +
 * Q s_per_byte + L s_per_call for F FLOPs moving Q bytes in L dependent
 * calls (cal_fit.c explains the form; L and its term only where the
 * points give calls, a recurrent layer's steps).  terms has bit 0, 1,
 * 2, 3 set for each of the four kept (a dropped term is 0, as are its
 * covariances); cov is over (fixed_s, s_per_flop, s_per_byte,
 * s_per_call); rms is the rms of the log of predicted over measured
 * (the fit's own measure; about the relative rms).
 */
struct cal_roof_fit {
	double fixed_s, s_per_flop, s_per_byte, s_per_call;
	double cov[CAL_ROOF_TERMS][CAL_ROOF_TERMS];
	unsigned terms;
	double rms;
	int n;
	int huber;                   /* 1: Huber's loss made it (below) */
};

/* How a roofline is fitted, or-ed: the loss over the log residuals,
 * their squares or Huber's (squares near 0, absolute values beyond 1.345
 * robust standard deviations, so that a library's few odd kernels do not
 * pull the rest: cal_fit.c), Huber's where there are at least
 * CAL_ROOF_HUBER_MIN points and they scatter (else least squares, and
 * huber is 0); and CAL_ROOF_NO_FIXED: no fixed term (a recurrent fit's
 * once-a-pass cost, which the points may not tell from its per-call one:
 * cal_fitmodels.c). */
#define CAL_ROOF_HUBER_MIN 10
enum cal_roof_opt {
	CAL_ROOF_SQUARES = 0,
	CAL_ROOF_HUBER = 1,
	CAL_ROOF_NO_FIXED = 2
};

/*
 * Fit times t (s) of n kernels of F FLOPs and Q bytes, each L dependent
 * calls (L NULL: one call each, and no per-call term), by non-negative
 * least squares of the log of predicted over measured (cal_fit.c: the
 * scatter is multiplicative), with a positive FLOP term; opts (enum
 * cal_roof_opt) may add Huber's loss after and leave the fixed term
 * out.  DLSIM_EINVAL for fewer than 3
 * points, a value not positive and finite (a count of calls below 1), or
 * no feasible fit; DLSIM_ENOMEM.
 */
int cal_fit_roofline(const double *F, const double *Q, const double *L,
		     const double *t, int n, unsigned opts,
		     struct cal_roof_fit *out, struct dlsim_err *err);

/* The time f gives a kernel of flops and bytes in calls dependent calls. */
double cal_roof_time(const struct cal_roof_fit *f, double flops,
		     double bytes, double calls);

/* ---- Fits of the stored runs (calibrate/cal_fitdb.c) ---- */

/*
 * What cal_fit_hw fits, per group of samples (a group: one benchmark and
 * every parameter but the size, e.g. "ranks=8 op=sum inplace=0
 * dtype=fp32"):
 *   CAL_MODEL_LINES       collectives and p2p_latency: time (s) against
 *                         bytes, cal_fit_lines with up to 3 segments;
 *                         kind "alphabeta:<benchmark>:<ranks>";
 *   CAL_MODEL_ROOFLINE    gemm: time against F = 2mnk FLOPs and Q =
 *                         e (mk + kn + mn) bytes (e the dtype's size),
 *                         cal_fit_roofline; kind "gemm:<dtype>" (the
 *                         device, for DeepBench, is part of the group);
 *                         a tensor-core dtype's shapes off 16-byte rows
 *                         (model_gemm_unaligned) also make a group of
 *                         their own, kind "gemm_unaligned:<dtype>": the
 *                         gemm fit times one factor (cal_model_scaled);
 *                         conv likewise against the direct-convolution
 *                         FLOPs 2 N K P Q C R S (P, Q from h, w, r, s,
 *                         pad and stride) and e (NCHW + KCRS + NKPQ)
 *                         bytes, in six classes as the simulator's
 *                         kernels: kind "conv3x3:<dtype>" for 3x3
 *                         filters at stride 1 (Winograd's domain),
 *                         "conv1x1:<dtype>" for 1x1 filters at stride
 *                         1 (GEMMs over the channels), "conv1x1s:<dtype>"
 *                         for strided 1x1 filters,
 *                         "conv_nonsquare:<dtype>" for filters whose
 *                         height and width differ (their own roofline
 *                         where they are of two shapes or more, else
 *                         the conv fit times one factor; their samples
 *                         count in conv too), "conv:<dtype>" for the
 *                         others, and "conv_unaligned:<dtype>" for
 *                         16-bit convolutions of any window whose input
 *                         channels are not a multiple of 8, sized at
 *                         their channels padded to 8
 *                         (model_conv_channel_pad: fallback kernels; in
 *                         no other class; their own roofline where they
 *                         are of two shapes or more, else the conv fit
 *                         times one factor); the three
 *                         passes (fwd, bwd_data, bwd_filter) of a class
 *                         are fitted together, grouped by dtype, math,
 *                         setting and device; rnn (DeepBench's recurrent
 *                         passes, forward and backward data: the weight
 *                         gradient, one GEMM, is passed over) with the
 *                         FLOPs, bytes and dependent calls the
 *                         simulator counts for the layer
 *                         (cal_rnn_pass_cost), the roofline with its
 *                         per-call term, a fit per cell; kinds
 *                         "rnn_lstm:<dtype>", "rnn_gru:<dtype>",
 *                         "rnn_tanh:<dtype>" (vanilla);
 *   CAL_MODEL_PLATEAU     stream: the median rate (B/s) of the working
 *                         sets at least half the largest (the DRAM
 *                         plateau); kind "stream:<kernel>", n_segments
 *                         0.  And, per stream group, the bandwidth
 *                         curve: 1 to 4 levels of constant rate (cache
 *                         levels) over working-set bytes, kind
 *                         "bwcurve:<kernel>", n_segments levels in seg
 *                         with x_lo, x_hi the first and last working
 *                         set of the level (bytes), a its rate (B/s),
 *                         cov_aa a's variance, n, rel_rms (b, cov_ab,
 *                         cov_bb 0).
 * residual_rms is relative (residual / measured) for every model.
 * Intervals are 95%: value +- 1.96 sigma.
 */
enum cal_model { CAL_MODEL_LINES = 0, CAL_MODEL_ROOFLINE,
		 CAL_MODEL_PLATEAU };

struct cal_fitted {
	int64_t fit_id;              /* the row in the fits table */
	char kind[32];
	char benchmark[32];
	char group[256];             /* the parameters the group shares */
	enum cal_model model;
	int64_t n_samples;
	double residual_rms;         /* relative */
	double created_s;
	int n_segments;              /* LINES; PLATEAU: the levels of a
				        "bwcurve:" fit, 0 for "stream:" */
	struct cal_line_fit seg[CAL_MAX_SEGMENTS];
	struct cal_roof_fit roof;    /* ROOFLINE: time over FLOPs, bytes */
	double plateau_Bps, plateau_sigma_Bps, plateau_from_bytes;
	double *x, *y;               /* owned: the measured points (size,
				        time or rate), sorted by size */
	double *q;                   /* owned, ROOFLINE only: each point's
					bytes (x its FLOPs, y its FLOP/s) */
	double *l;                   /* owned, ROOFLINE of a recurrent
					kernel ("rnn..." kinds) only: each
					point's
					dependent calls; NULL otherwise */
	int n_points;
};

/* 1 when f is a recurrent kernel's roofline (benchmark "rnn": kinds
 * "rnn_lstm:", "rnn_gru:", "rnn_tanh:" and the pooled "rnn:"), whose time has
 * the per-call term (struct cal_roof_fit); else 0. */
int cal_fitted_has_calls(const struct cal_fitted *f);

/* What was not fitted, and why ("3 points: a line needs 3"). */
struct cal_skipped {
	char what[288];              /* "conv (12 samples)", a group */
	char why[160];
};

struct cal_fit_report {
	char hw[HW_NAME_LEN];
	int64_t n_read;              /* samples read */
	struct cal_fitted *fit;      /* owned, n_fit of them */
	int n_fit, cap_fit;
	struct cal_skipped *skip;    /* owned, n_skip of them */
	int n_skip, cap_skip;
};

/* Free what a report owns and zero it; NULL is a no-op. */
void cal_fit_report_release(struct cal_fit_report *r);

/*
 * Fit every sample stored for hardware hw (db_each_sample_of) as above
 * and store one db_fit per group (params_json and covariance_json as
 * cal_fitdb.c describes, sample_run_ids the runs the group came from).
 * *out (zeroed first; the caller releases it with
 * cal_fit_report_release, also on failure) lists the fits stored, with
 * their points, and what was skipped and why.  DLSIM_ENOTFOUND "no samples for hardware 'X'" if
 * there are none; DLSIM_EDB for the database; DLSIM_ENOMEM.  Each fit is
 * its own transaction: on a failure part-way the fits before it stay.
 */
int cal_fit_hw(struct db *db, const char *hw, struct cal_fit_report *out,
	       struct dlsim_err *err);

/*
 * The newest stored fit of each kind and group for hw, read back from
 * the fits table, with the points of its group from the samples stored
 * now (none if they are gone), and in skip the stored samples a fit
 * would pass over now, with the reason.  DLSIM_ENOTFOUND "no fits for hardware
 * 'X'" if there are none.  Caller releases *out.
 */
int cal_fit_load(struct db *db, const char *hw, struct cal_fit_report *out,
		 struct dlsim_err *err);

/* ---- Validation against published measurements (cal_validate.c) ---- */

#define CAL_VAL_SETS 32
#define CAL_VAL_WORST 5
#define CAL_VAL_REASONS 8
#define CAL_VAL_DAMAGED 4

/* One row compared: error = predicted / measured - 1. */
struct cal_val_row {
	char what[160];              /* the row's inputs, in words */
	double measured, predicted, error;
	char source[160];            /* where the measured figure was
					published (the file's source column) */
	int64_t line;                /* the data row in its file, from 0 */
};

/* One set's record. */
struct cal_val_set {
	char name[32];               /* "vtrain", "dle", ... */
	char title[128];
	char unit[24];               /* of measured and predicted */
	int64_t rows;                /* predicted and compared */
	int64_t skipped;
	struct {
		char why[128];
		int64_t n;
	} reason[CAL_VAL_REASONS];   /* why rows were skipped */
	int n_reasons;
	double median_abs_error;     /* fractions */
	double p90_abs_error;        /* nearest rank */
	double median_signed_error;  /* bias: < 0, predicted low */
	struct cal_val_row worst[CAL_VAL_WORST];  /* by |error| */
	int n_worst;
	struct cal_val_row *row;     /* owned: every row compared, in
					the file's order (rows of them) */
	struct {
		int64_t id;          /* a damaged fit (hw_calib's first
					unreadable_id) rows were predicted
					without, */
		char kind[32];       /* its kind, */
		char hw[64];         /* the first row's hardware, */
		int64_t rows;        /* and how many rows */
	} damaged[CAL_VAL_DAMAGED];
	int n_damaged;
	int64_t damaged_rows_other;  /* rows without a damaged fit past the
					first CAL_VAL_DAMAGED */
};

struct cal_val_report {
	struct cal_val_set set[CAL_VAL_SETS];
	int n_sets;
	int calibrated;              /* 1: predicted with a database's fits */
};

/* Free what a report owns (the rows) and zero it; NULL is a no-op. */
void cal_val_report_release(struct cal_val_report *r);

/* The i-th validation set's name, NULL past the last. */
const char *cal_validation_set(int i);

/*
 * Predict every row of the named sets (NULL: all) from the measurement
 * files compiled into dlsim (data/validation/) on catalog cat, with db's
 * fits where it has them (NULL: the catalog's figures), and fill *out
 * with each set's statistics and rows (cal_validate.c; the caller
 * releases it, also on failure).  DLSIM_ENOTFOUND for an unknown set
 * name, DLSIM_EPARSE for a damaged file, DLSIM_ENOMEM.
 */
int cal_validate(struct hw_catalog *cat, struct db *db,
		 const char *const *names, struct cal_val_report *out,
		 struct dlsim_err *err);

/*
 * Predict every row of the user's measurement file at path (a CSV whose
 * columns are `dlsim predict`'s options, cal_validate_user.c) as
 * cal_validate does a shipped set, with db's fits as `dlsim predict`
 * would use them (NULL: the catalog's figures), into *out (the caller releases its
 * rows with the report, also on failure), the set named after the file
 * less ".csv".  DLSIM_EIO for an unreadable file; DLSIM_EPARSE naming
 * the file and line (and the column at fault, where one is) for an
 * unknown or missing column, a row of another field count, a field
 * `dlsim predict` would refuse, or a row it cannot predict; DLSIM_EINVAL
 * for a file named as a shipped set; DLSIM_ENOMEM.
 */
int cal_validate_file(struct hw_catalog *cat, struct db *db,
		      const char *path, struct cal_val_set *out,
		      struct dlsim_err *err);

/* The set a measurement file at path makes: its base name less ".csv",
 * into name[0, cap).  DLSIM_EINVAL when that is empty, does not fit, or
 * is a shipped set's (whose history it would join). */
int cal_validate_file_name(const char *path, char *name, size_t cap,
			   struct dlsim_err *err);

/* Store each set's figures of r in db with this dlsim's version (one
 * prediction row per set, cal_history.c). */
int cal_validation_record(struct db *db, const struct cal_val_report *r,
			  struct dlsim_err *err);

/* One recorded run of one set. */
struct cal_val_entry {
	char set[32];
	char version[DLSIM_VERSION_LEN];
	double created_s;
	int64_t rows;
	int calibrated;
	double median_abs_error, p90_abs_error, median_signed_error;
};

struct cal_val_history {
	struct cal_val_entry *e;     /* owned, in the order stored */
	int n, cap;
	/* records left out: a validate row whose JSON does not parse or
	 * whose figures are missing or out of range (damaged outside
	 * dlsim); the first one's prediction id */
	int n_damaged;
	int64_t first_damaged;
};

/* Every recorded run in db (cal_validation_record), oldest first; the
 * caller releases *out.  DLSIM_EDB, DLSIM_ENOMEM. */
int cal_validation_history(struct db *db, struct cal_val_history *out,
			   struct dlsim_err *err);
void cal_validation_history_release(struct cal_val_history *h);

/* ---- The shipped calibration data (calibrate/cal_seed.c) ---- */

/*
 * Seed db with the calibration data compiled into dlsim (data/
 * calibration/: DeepBench GEMM and convolution results for V100, P100,
 * T4, M40, GTX Titan X, Titan X (Pascal), Titan Xp, GTX 1080 Ti and Xeon
 * Phi 7250, DeepBench all-reduce results for P100 and Xeon Phi machines,
 * vTrain's nccl-tests all-reduce curves for A100 and V100 nodes): runs of
 * tool "seed:<file>", hw the catalog name (v100, p100, t4, ..., dgx-a100,
 * dgx1, stampede2-knl), then cal_fit_hw for each hardware seeded.
 * Idempotent: a run whose tool and hardware are already stored is not
 * stored again, so a second call adds nothing and a database seeded by an
 * older dlsim gains only the hardware added since.  Every file is parsed
 * before the database is touched.  *runs and *samples get what was
 * stored (0 and 0 for a no-op).  Errors as cal_import and cal_fit_hw.
 */
int cal_seed(struct db *db, int64_t *runs, int64_t *samples,
	     struct dlsim_err *err);

/* The catalog names the seed describes, i = 0, 1, ...; NULL past the
 * last. */
const char *cal_seed_hw(int i);

/* ------------------------------------------------------------------ */
/* Reports                                                             */
/* ------------------------------------------------------------------ */

enum report_format {
	REPORT_TABLE = 0,
	REPORT_CSV,
	REPORT_JSON,
	REPORT_FORMAT_COUNT
};

/* "table", "csv", "json"; parsing as the sim_*_parse functions. */
const char *report_format_name(enum report_format f);
int report_format_parse(const char *name, enum report_format *out,
			struct dlsim_err *err);

/*
 * Write a prediction to f.  With train (may be NULL) the time, energy
 * and cost to train follow, with their assumptions.  With layers set (and
 * r->layers filled) the per-layer table, CSV rows or JSON array follow.  Returns DLSIM_EIO if a
 * write failed.
 */
int report_prediction(FILE *f, enum report_format fmt, const struct model *m,
		      const struct hw_system *s, const struct sim_result *r,
		      const struct sim_train *train, int layers,
		      struct dlsim_err *err);

/*
 * A hybrid-parallel prediction (sim_par_eval) as a table (strategy,
 * placement, step, throughput and TFLOP/s per device, breakdown, memory
 * of the fullest stage), one CSV row (report_plan's columns) or JSON
 * {"dlsim_version", "model", "hardware", "result": {"strategy",
 * "step_time_s", "samples_per_s", "tokens_per_s", "tflops_per_device",
 * "breakdown", "memory", "placement"}}.  DLSIM_EIO if a write failed.
 */
int report_parallel(FILE *f, enum report_format fmt, const struct model *m,
		    const struct hw_system *s, const struct sim_par_result *r,
		    struct dlsim_err *err);

/*
 * A step over sequences of many lengths (sim_binned_predict) of model
 * (its string) on s, from the histogram file named histogram: a table
 * (the histogram, the mixed step, the memory of the longest bin, then
 * each bin's padded length, share and step), CSV (one row a bin:
 * bin,padded_tokens,share,step_time_s) or JSON {"model", "hardware",
 * "histogram", "sequences", "bin_tokens", "mean_length", "mean_padded",
 * "padding", "global_batch", "step_time_s", "samples_per_s",
 * "tokens_per_s", "memory_bytes", "fits", "bins": [{"padded_tokens",
 * "share", "step_time_s"}]} (report_binned.c).  DLSIM_EIO when f fails.
 */
int report_binned(FILE *f, enum report_format fmt, const char *model,
		  const struct hw_system *s, const char *histogram,
		  const struct sim_binned *r, struct dlsim_err *err);

/*
 * dlsim validate's record (cal_validate) as a table (per set, then its
 * worst rows and skip reasons), CSV (one row per set) or JSON {"sets":
 * {NAME: {"rows", "skipped", "median_abs_error", "p90_abs_error",
 * "median_signed_error", "worst": [...]}}} (report_validate.c).
 */
int report_validation(FILE *f, enum report_format fmt,
		      const struct cal_val_report *r, struct dlsim_err *err);

/*
 * Every row r compared, set by set in file order: set, what, measured,
 * predicted and error, as a table, CSV or JSON {"rows": [{"set", "what",
 * "measured", "predicted", "error"}, ...]} (report_validate.c), so a
 * user can slice the errors by device, model or strategy.
 */
int report_validation_rows(FILE *f, enum report_format fmt,
			   const struct cal_val_report *r,
			   struct dlsim_err *err);

/*
 * Draw predicted against measured for every row of r, log-log, one
 * colour per set (each over its median measured value), with the
 * +-10% and +-25% bands, into image (.png or .svg) with gnuplot, the
 * .dat and .gp beside it (report_validate.c).  Errors as
 * report_comm_plot.
 */
struct report_plot;

/* DLSIM_OK when image names a file the plots can draw (it ends in .png
 * or .svg); else DLSIM_EINVAL, err naming it.  Commands check --plot
 * with it before doing any work (report_gnuplot.c). */
int report_plot_check(const char *image, struct dlsim_err *err);

int report_validation_plot(const char *image, const struct cal_val_report *r,
			   struct report_plot *out, struct dlsim_err *err);

/* The recorded runs (cal_validation_history), oldest first: version,
 * time, set, rows, median, P90 and bias; CSV and JSON {"history": [...]}
 * likewise. */
int report_validation_history(FILE *f, enum report_format fmt,
			      const struct cal_val_history *h,
			      struct dlsim_err *err);

/*
 * A plan's best strategies (sim_plan), ranked by objective o: a table
 * with how many were searched and, per row, what makes it lose to the
 * first; CSV rows (rank, hardware, devices, tp, pp, dp, micro_batch,
 * ..., why) after a header line when header is 1 (several systems'
 * plans share one); or JSON {"evaluated", "feasible", "out_of_memory",
 * "invalid", "top": [result, ...]}.
 */
int report_plan(FILE *f, enum report_format fmt, const struct model *m,
		const struct hw_system *s, const struct sim_plan_result *p,
		enum sim_objective o, int header, struct dlsim_err *err);

/*
 * The per-layer table of a model (dlsim models show): output shape,
 * parameters, forward FLOPs, work and depth per sample.  All three
 * formats.  DLSIM_EIO if a write failed.
 */
int report_model(FILE *f, enum report_format fmt, const struct model *m,
		 struct dlsim_err *err);

/*
 * A resolved system with units (dlsim hw show): table or JSON; CSV is
 * refused with DLSIM_EINVAL (a system is not one table).  DLSIM_EIO if a
 * write failed.
 */
int report_system(FILE *f, enum report_format fmt, const struct hw_system *s,
		  struct dlsim_err *err);

/*
 * A scaling sweep as a table, CSV or JSON (model name and the sweep's
 * mode, "strong" or "weak", head the output; with bins, each point the
 * step over them, sim_binned_result, the table says so in a line and
 * JSON in "seq_lengths").  DLSIM_EIO on write errors.
 */
int report_scaling(FILE *f, enum report_format fmt, const struct model *m,
		   const char *mode, const struct model_seq_bins *bins,
		   const struct sim_scale_point *p, int n,
		   struct dlsim_err *err);

/*
 * Draw the sweep with gnuplot into IMAGE (.png or .svg): throughput with
 * ideal linear scaling, parallel efficiency, and the step broken into
 * compute, optimizer and exposed communication; IMAGE.dat and IMAGE.gp
 * are written beside it; with bins (sim_binned_result's points) the
 * title says the lengths were binned.  *ran is 0 if gnuplot is not
 * installed (the two files are written all the same).  DLSIM_EINVAL for
 * another extension, DLSIM_EIO if a file cannot be written or gnuplot
 * fails.
 */
int report_scaling_plot(const char *image, const struct model *m,
			const char *mode, const struct model_seq_bins *bins,
			const struct sim_scale_point *p, int n, int *ran,
			struct dlsim_err *err);

/*
 * Write result r's timeline (run sim_predict with want_trace) to PATH as
 * a Chrome trace-event JSON file: one track per stream, one event per
 * layer pass and per gradient bucket, with FLOPs, bytes and bound.
 * DLSIM_EIO if the file cannot be written.
 */
int report_trace(const char *path, const struct model *m,
		 const struct hw_system *s, const struct sim_result *r,
		 struct dlsim_err *err);

/* Write s as a JSON string literal (quotes, backslashes and control
 * characters escaped), or as one CSV field (quoted only if it holds a
 * comma, quote or line break), for programs formatting their own output
 * as dlsim does. */
void report_json_string(FILE *f, const char *s);
void report_csv_field(FILE *f, const char *s);

/* Write v as a JSON number that reads back exactly (%.17g), or null
 * when it is not finite. */
void report_json_number(FILE *f, double v);

/* A Unix time as "YYYY-MM-DD HH:MM:SS" UTC into buf ("-" for none or one
 * gmtime cannot take); returns buf. */
const char *report_utc(double t_s, char *buf, size_t n);

/* The zoo's names and summaries (dlsim models), in any format. */
int report_zoo(FILE *f, enum report_format fmt, struct dlsim_err *err);

/* The catalog's devices, nodes, links and networks (dlsim hw), in any
 * format. */
int report_catalog(FILE *f, enum report_format fmt,
		   const struct hw_catalog *cat, struct dlsim_err *err);

/*
 * A collective's predicted cost at n message sizes (dlsim comm).  Every
 * pointer is borrowed: the report functions read it and keep nothing.
 */
struct report_comm_sweep {
	const struct hw_system *system;
	enum sim_collective collective;
	enum sim_algo requested;               /* as asked; AUTO: cheapest */
	int n;                                 /* sizes, at least 1 */
	const double *bytes;                   /* n sizes in bytes, ascending */
	const struct sim_comm_result *result;  /* n results of
						  sim_collective_time() */
};

/*
 * The sweep in nccl-tests' units: size in bytes, count of float elements
 * (size / 4), time in microseconds (table, CSV; seconds in JSON), algbw
 * and busbw in GB/s (10^9 bytes/s), the algorithm used and whether it
 * ran hierarchically.  Table: a header naming collective, system and
 * ranks, then aligned columns.  CSV: a header, one row per size.  JSON:
 * {"collective", "hardware", "ranks", "rows": [{"size_bytes", "time_s",
 * "algbw_GBps", "busbw_GBps", "algorithm", "hierarchical"}, ...]} (these
 * keys are a contract; more may be added).  DLSIM_EIO if a write failed.
 */
int report_comm(FILE *f, enum report_format fmt,
		const struct report_comm_sweep *sw, struct dlsim_err *err);

/* Where a plot went: its data and script beside the image. */
struct report_plot {
	char dat[1024];
	char gp[1024];
	int drawn;      /* 1: gnuplot drew the image; 0: gnuplot is not
			   installed, and only dat and gp were written */
};

/*
 * Plot the sweep's bus bandwidth (GB/s) against size (bytes), log-log,
 * into image (.png or .svg), with IMAGE.dat and IMAGE.gp (extension
 * replaced) written beside it so the plot can be restyled and redrawn
 * with `gnuplot IMAGE.gp`.  Fills *out.  DLSIM_EINVAL for another
 * extension, a path too long, or a sweep with nothing to plot (one rank
 * moves no data); DLSIM_EIO if a file cannot be written or gnuplot
 * fails.  Files already written stay.
 */
int report_comm_plot(const char *image, const struct report_comm_sweep *sw,
		     struct report_plot *out, struct dlsim_err *err);

/*
 * A calibration's fits (dlsim calibrate fit and show): table or JSON
 * (CSV: DLSIM_EINVAL).  Table: one block per fit with its kind, group,
 * samples, relative residual and parameters with 95% intervals (1.96
 * sigma), then what was skipped.  JSON: {"hardware", "samples_read",
 * "fits": [{"id", "kind", "benchmark", "group", "n_samples",
 * "residual_rms", "params": {...}, "ci95": {"name": [lo, hi]}, and for
 * line fits "segments": [{"x_lo", "x_hi", "alpha_s", "beta_s_per_byte",
 * "n", "rel_rms", "ci95"}]}], "skipped": [{"what", "why"}]}.  DLSIM_EIO
 * if a write failed.
 */
int report_cal_fits(FILE *f, enum report_format fmt,
		    const struct cal_fit_report *r, struct dlsim_err *err);

/*
 * The collectives' measured times over their fitted lines, log-log, one
 * colour per group, into image (.png or .svg) with its .dat and .gp
 * beside it, as report_comm_plot.  DLSIM_EINVAL if r holds no line fit
 * with points.
 */
int report_cal_plot(const char *image, const struct cal_fit_report *r,
		    struct report_plot *out, struct dlsim_err *err);

#endif /* DLSIM_H */
