/*
 * cal_points.c -- the stored samples of one piece of hardware as the
 * points `calibrate fit` puts its models through, each with the key of
 * the group it belongs to.
 *
 * HOW IT WORKS
 * A sample's benchmark picks a model (the table below).  Its parameters
 * are split into the size -- the x of the fit: bytes, or 2mnk FLOPs for
 * a GEMM, as Ben-Nun & Hoefler count a multiply-add, or the direct-
 * convolution FLOPs 2 N K P Q C R S for a conv, with P = floor((h + 2
 * pad_h - r) / stride_h) + 1 and Q likewise from w, s, pad_w, stride_w
 * (or from the generic table's pad and stride, pad 0 and stride 1 when
 * absent) -- and everything else, which names the group: "allreduce|
 * ranks=8 op=sum inplace=0 dtype=fp32", "gemm|dtype=fp32 ...
 * device=Tesla_V100".  So configurations that differ in anything but
 * size (ranks, placement, data type, device, implementation, threads)
 * are never fitted together.  A GEMM or conv point also carries the
 * bytes the kernel moves at least once (operands and result, at the
 * dtype's size), the second variable of the roofline fit.  A conv's
 * pass (fwd, bwd_data, bwd_filter) is left out of its group and its
 * filter class put in ("class=3x3s1" for 3x3 at stride 1, Winograd's
 * domain, "class=1x1s1" for 1x1 at stride 1, GEMMs over the channels,
 * "class=1x1strided" for strided 1x1, "class=nonsquare" for a window
 * whose height and width differ, "class=other" for the rest; each
 * class's name is model_kernel_name's, models/model_kernel.c, the one
 * table of them): the simulator costs every pass
 * of a layer with its class's one roofline, so that is what is fitted.
 * A GEMM of a tensor-core dtype with a dimension off 16-byte rows
 * (model_gemm_unaligned) is two points: one in its dtype's GEMM group,
 * marked off_rows (cal_fitdb.c fits that group with such points' times
 * over their factor), one in a group of its own, "class=unaligned",
 * whose fit is the GEMM fit times that factor (cal_model_scaled, kind
 * gemm_unaligned): libraries run such shapes with fallback kernels, and
 * the simulator costs such layers so.
 * A recurrent pass ("rnn": DeepBench's cell, hidden, n, timesteps and
 * pass fwd or bwd) is sized as the simulator sizes the layer
 * (cal_rnn_pass_cost: FLOPs, bytes, and the dependent calls a point
 * carries as the third variable of its fit); its group is the dtype,
 * math, setting and device, and its cell ("class=lstm", "gru" or
 * "vanilla": cuDNN runs each cell's own step kernels, and one fit for
 * all three put DeepBench's vanilla rows 10% fast; held out over the
 * four fold splits, 15.03/18.59/15.88/18.41% went to 11.39/10.90/11.63/
 * 13.47% when each cell got its own).  Its weight gradient
 * (pass bwd_weights) is one GEMM, which the GEMM fit costs: passed over.
 *
 * A non-square window's point is two points, one in its own class and
 * one in class other, so that the general fit of the windows that are
 * neither 1x1 nor 3x3 at stride 1 stays what it was and the new class
 * refines only its own rows.  Fitted apart from class other instead (a
 * partition), the held-out figure fell a little further (15.52% to
 * 14.70% on fold bit 0, against 15.19%) but class other, refitted
 * without DeepSpeech's rows, costed ResNet's stems and strided 3x3
 * convolutions, which no DeepBench row is like, 5-7% faster on a V100
 * in fp16 (the dle set's median went from 11.0% to 17.3%): a class
 * should not move the rows of another.
 *
 * A 16-bit convolution whose input channels are not a multiple of 8
 * (model_conv_channel_pad) is in class "unaligned" alone, whatever its
 * window, sized at its FLOPs with the channels padded to 8.  DeepBench
 * timed ten such shapes (C = 1 or 3) on each of the V100, T4 and P100,
 * and they took 0.9 to 19 times the time of the same shapes in fp32:
 * cuDNN 7 ran tensor-core convolutions only on channel counts that are
 * multiples of 8 and fell back to other kernels (models/model_kernel.c
 * gives the sources and why the padded size).  Kept in their window's
 * class they dragged it (V100 fp16's other class: 120% rms), so they are
 * counted there no longer; their own fit (kind conv_unaligned) times the
 * layers of that population, the first layers of images in 16 bits.
 *
 * Tried and not kept: a class of its own for the input layer's
 * convolutions (at most 4 channels, not 1x1 or 3x3 at stride 1: the
 * stems, DeepSpeech's spectrogram).  Held out, over the four fold
 * splits of the shape hash's low bits 0-3, its median moved by -0.55,
 * +0.20, -0.13 and -0.25 points and its P90 rose 1.0 to 3.4 points;
 * the stems' own fits, 8-12 points a device, came out 15% fast.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "models/model.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Which model each benchmark gets                                   */
/* ---------------------------------------------------------------- */

static const struct {
	const char *benchmark;
	enum cal_model model;
	const char *unit;
} models[] = {
	{ "allreduce", CAL_MODEL_LINES, "s" },
	{ "allgather", CAL_MODEL_LINES, "s" },
	{ "reduce-scatter", CAL_MODEL_LINES, "s" },
	{ "broadcast", CAL_MODEL_LINES, "s" },
	{ "reduce", CAL_MODEL_LINES, "s" },
	{ "all-to-all", CAL_MODEL_LINES, "s" },
	{ "p2p_latency", CAL_MODEL_LINES, "s" },
	{ "gemm", CAL_MODEL_ROOFLINE, "s" },
	{ "conv", CAL_MODEL_ROOFLINE, "s" },
	{ "rnn", CAL_MODEL_ROOFLINE, "s" },
	{ "stream", CAL_MODEL_PLATEAU, "B/s" },
};

#define N_MODELS ((int)(sizeof(models) / sizeof(models[0])))

static int model_find(const char *benchmark)
{
	int i;

	for (i = 0; i < N_MODELS; i++)
		if (strcmp(models[i].benchmark, benchmark) == 0)
			return i;
	return -1;
}

int cal_benchmark_model(const char *benchmark)
{
	int i = model_find(benchmark);

	return i < 0 ? -1 : (int)models[i].model;
}

/* The keys that make the size (or shape), or that a conv group drops
 * (its pass), left out of the group. */
static int size_key(const char *benchmark, enum cal_model m,
		    const char *key, size_t len)
{
	static const char *const gemm[] = { "m", "n", "k", "transa",
					    "transb", NULL };
	static const char *const conv[] = { "n", "c", "h", "w", "k", "r",
					    "s", "pad", "stride", "pad_h",
					    "pad_w", "stride_h", "stride_w",
					    "pass", NULL };
	static const char *const rnn[] = { "cell", "hidden", "n",
					   "timesteps", "pass", NULL };
	const char *const *keys = strcmp(benchmark, "conv") == 0 ? conv :
				  strcmp(benchmark, "rnn") == 0 ? rnn : gemm;
	int i;

	if (m != CAL_MODEL_ROOFLINE)
		return len == 5 && strncmp(key, "bytes", 5) == 0;
	for (i = 0; keys[i]; i++)
		if (strlen(keys[i]) == len && strncmp(key, keys[i], len) == 0)
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Parameters                                                        */
/* ---------------------------------------------------------------- */

/* The value of key in a params string into buf ("" if absent). */
const char *cal_param_get(const char *params, const char *key,
			  char *buf, size_t n)
{
	size_t klen = strlen(key);
	const char *p = params;

	buf[0] = '\0';
	while (*p) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			snprintf(buf, n, "%.*s", (int)(len - klen - 1),
				 p + klen + 1);
			break;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	return buf;
}

static double param_num(const char *params, const char *key)
{
	char buf[64], *end;
	double v;

	cal_param_get(params, key, buf, sizeof(buf));
	if (!buf[0])
		return NAN;
	v = strtod(buf, &end);
	return *end ? NAN : v;
}

/* key_h (DeepBench) or key (the generic table), else dflt. */
static double param_hw(const char *params, const char *key,
		       const char *key_hw, double dflt)
{
	double v = param_num(params, key_hw);

	if (isnan(v))
		v = param_num(params, key);
	return isnan(v) ? dflt : v;
}

/* One output extent, floor((in + 2 pad - filter) / stride) + 1; NAN
 * when the filter does not fit. */
static double conv_out(double in, double filter, double pad, double stride)
{
	double o = floor((in + 2.0 * pad - filter) / stride) + 1.0;

	return stride >= 1.0 && pad >= 0.0 && o >= 1.0 ? o : NAN;
}

/* The bytes of one element of the params' dtype; NAN when unknown. */
static double elem_bytes(const char *params)
{
	enum dlsim_precision p;
	char buf[32];

	if (dlsim_precision_parse(cal_param_get(params, "dtype", buf,
						sizeof(buf)), &p, NULL))
		return NAN;
	return (double)dlsim_precision_bytes(p);
}

/* 1 unless the dtype is fp32 or fp64, whose GEMMs run on the ordinary
 * cores (no 16-byte tensor-core loads: dlsim's H100 sweep has its fp32
 * GEMMs off 16-byte rows as fast as the others). */
static int tensor_gemm(const char *params)
{
	char buf[16];

	cal_param_get(params, "dtype", buf, sizeof(buf));
	return strcmp(buf, "fp32") != 0 && strcmp(buf, "fp64") != 0;
}

/* The "class=" word of kernel class k's group ("" for none): the one
 * spelling of each class is model_kernel_name's table. */
static const char *class_of(enum model_kernel k)
{
	return model_kernel_name(k)->cls;
}

/*
 * A GEMM's or conv's FLOPs (*F, direct count for a conv, P and Q from h,
 * w, r, s, pad and stride, pad 0 and stride 1 when the params leave them
 * out; a 16-bit conv off 8 input channels at its channels padded to 8,
 * model_conv_channel_pad) and bytes (*Q); the conv's class into cls (its
 * window's, or "unaligned" for such a conv; "" for a GEMM on 16-byte
 * rows, "unaligned" for another: model_gemm_unaligned).  NAN when a
 * dimension or the dtype is missing.
 */
static void kernel_size(const char *benchmark, const char *params,
			double *F, double *Q, const char **cls)
{
	double e = elem_bytes(params), pad;

	*cls = class_of(MODEL_KERNEL_GEMM);
	if (strcmp(benchmark, "conv") == 0) {
		double n = param_num(params, "n"), c = param_num(params, "c");
		double h = param_num(params, "h"), w = param_num(params, "w");
		double k = param_num(params, "k"), r = param_num(params, "r");
		double s = param_num(params, "s");
		double sh = param_hw(params, "stride", "stride_h", 1.0);
		double sw = param_hw(params, "stride", "stride_w", 1.0);
		double p = conv_out(h, r, param_hw(params, "pad", "pad_h",
						   0.0), sh);
		double q = conv_out(w, s, param_hw(params, "pad", "pad_w",
						   0.0), sw);

		*F = 2.0 * n * k * p * q * c * r * s;
		*Q = e * (n * c * h * w + k * c * r * s + n * k * p * q);
		*cls = class_of(model_conv_class(r, s, sh, sw, 1.0));
		if (isfinite(e) && (pad = model_conv_channel_pad(c, (int)e))) {
			*F *= pad;
			*cls = class_of(MODEL_KERNEL_CONV_UNALIGNED);
		}
	} else {
		double m = param_num(params, "m"), n = param_num(params, "n");
		double k = param_num(params, "k");

		*F = 2.0 * m * n * k;
		*Q = e * (m * k + k * n + m * n);
		if (isfinite(e) && tensor_gemm(params) &&
		    model_gemm_unaligned(m, n, k, (int)e))
			*cls = class_of(MODEL_KERNEL_GEMM_UNALIGNED);
	}
}

int cal_rnn_pass_cost(enum model_layer_kind kind, int64_t hidden, int64_t n,
		      int64_t steps, enum model_pass pass, int bytes,
		      struct model_pass_cost *c)
{
	struct model_builder b;
	struct model_shape in;
	struct model *m = NULL;
	int at;

	memset(c, 0, sizeof(*c));
	in.c = 1;
	in.h = steps;
	in.w = 1;
	model_builder_init(&b, "rnn", in, n, "DeepBench");
	at = model_add_rnn(&b, kind, MODEL_IN, "rnn", hidden, 0, 1);
	if (model_builder_finish(&b, &m, NULL) || at < 0) {
		model_free(m);
		return -1;
	}
	model_layer_cost(&m->layers[at], pass, n, bytes, bytes, c);
	model_free(m);
	/* DeepBench runs cuDNN with CUDNN_SKIP_INPUT: no input GEMM, the
	 * recurrence alone, which is what its cell's fit describes */
	if (c->gemm_flops > 0.0) {
		c->flops -= c->gemm_flops;
		c->bytes -= c->gemm_bytes;
		c->work -= c->gemm_flops / 2.0;
		c->launches -= 1.0;
		c->gemm_flops = c->gemm_bytes = 0.0;
	}
	return 0;
}

/*
 * A recurrent pass's FLOPs (*F), bytes (*Q) and dependent calls (*L),
 * as the simulator costs it (cal_rnn_pass_cost), so that the fit and
 * the simulator count alike.  Passes "fwd" and "bwd" (backward data:
 * the steps in reverse) run the recurrence; -1 for "bwd_weights", one
 * GEMM over all the steps, which the GEMM roofline costs, and for a
 * sample whose cell, sizes or dtype this dlsim does not know.
 */
static int rnn_size(const char *params, double *F, double *Q, double *L)
{
	double e = elem_bytes(params), h = param_num(params, "hidden");
	double n = param_num(params, "n"), t = param_num(params, "timesteps");
	enum model_layer_kind kind;
	struct model_pass_cost c;
	char cell[16], ps[16];

	cal_param_get(params, "cell", cell, sizeof(cell));
	cal_param_get(params, "pass", ps, sizeof(ps));
	/* a cell's name is its class's (cal_csv.c stores it so) */
	switch (model_kernel_of_class("rnn", cell)) {
	case MODEL_KERNEL_LSTM:
		kind = MODEL_LSTM;
		break;
	case MODEL_KERNEL_GRU:
		kind = MODEL_GRU;
		break;
	case MODEL_KERNEL_RNN_TANH:
		kind = MODEL_RNN;
		break;
	default:
		return -1;
	}
	if ((strcmp(ps, "fwd") && strcmp(ps, "bwd")) || !(e > 0.0) ||
	    !(h >= 1.0 && h <= CAL_RNN_MAX && n >= 1.0 && n <= CAL_RNN_MAX &&
	      t >= 1.0 && t <= CAL_RNN_MAX_STEPS) ||
	    cal_rnn_pass_cost(kind, (int64_t)h, (int64_t)n, (int64_t)t,
			      strcmp(ps, "fwd") == 0 ? MODEL_PASS_FWD :
			      MODEL_PASS_BWD_DATA, (int)e, &c))
		return -1;
	*F = c.flops;
	*Q = c.bytes;
	*L = c.launches > 1.0 ? c.launches : 1.0;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Reading the samples into points                                   */
/* ---------------------------------------------------------------- */

static void pass_over(struct cal_points *rd, const char *benchmark,
		      const char *why)
{
	int i;

	for (i = 0; i < rd->n_pass; i++)
		if (strcmp(rd->pass[i].what, benchmark) == 0 &&
		    rd->pass[i].why == why) {
			rd->pass[i].n++;
			return;
		}
	if (rd->n_pass == (int)(sizeof(rd->pass) / sizeof(rd->pass[0])))
		return;
	snprintf(rd->pass[rd->n_pass].what, sizeof(rd->pass[0].what), "%s",
		 benchmark);
	rd->pass[rd->n_pass].why = why;
	rd->pass[rd->n_pass++].n = 1;
}

/* The group key "benchmark|params but the size[ class=C]" into p->key. */
static void make_key(struct cal_point *p, const struct db_sample *s,
		     enum cal_model m, const char *cls)
{
	size_t w = (size_t)snprintf(p->key, sizeof(p->key), "%s|",
				    s->benchmark);
	const char *q;

	for (q = s->params; *q && w < sizeof(p->key) - 1;) {
		const char *end = strchr(q, ' '), *eq = strchr(q, '=');
		size_t len = end ? (size_t)(end - q) : strlen(q);

		if (!eq || eq > q + len ||
		    !size_key(s->benchmark, m, q, (size_t)(eq - q)))
			w += (size_t)snprintf(p->key + w, sizeof(p->key) - w,
					      "%s%.*s",
					      p->key[w - 1] == '|' ? "" : " ",
					      (int)len, q);
		q += len;
		while (*q == ' ')
			q++;
	}
	if (cls[0] && w < sizeof(p->key) - 1)
		snprintf(p->key + w, sizeof(p->key) - w, "%sclass=%s",
			 p->key[w - 1] == '|' ? "" : " ", cls);
}

/* A conv's shape but its batch and pass (cal_point.shape): FNV-1a of its
 * sizes, 0 when it is not a conv. */
static uint64_t conv_shape(const char *benchmark, const char *params)
{
	static const char *const keys[] = { "c", "h", "w", "k", "r", "s",
					    "stride", "stride_h", "stride_w",
					    "pad", "pad_h", "pad_w" };
	char buf[256];
	size_t i, n = 0;

	if (strcmp(benchmark, "conv") != 0)
		return 0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && n < sizeof(buf);
	     i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%.17g,",
				      param_num(params, keys[i]));
	return cal_val_fnv1a(buf, n < sizeof(buf) ? n : sizeof(buf) - 1);
}

/* Room for one more point; 1 (and nomem set) when there is none. */
static int points_room(struct cal_points *rd)
{
	int64_t cap;
	struct cal_point *v;

	if (rd->n < rd->cap)
		return 0;
	cap = rd->cap ? 2 * rd->cap : 256;
	v = realloc(rd->v, (size_t)cap * sizeof(*v));
	if (!v) {
		rd->nomem = 1;
		return 1;
	}
	rd->v = v;
	rd->cap = cap;
	return 0;
}

static int read_sample(void *ctx, int64_t run_id, const struct db_sample *s)
{
	struct cal_points *rd = ctx;
	struct cal_point *p;
	const char *cls = "";
	char cls_buf[16];
	int m;

	rd->n_read++;
	if ((m = model_find(s->benchmark)) < 0) {
		pass_over(rd, s->benchmark, "no model for this benchmark");
		return 0;
	}
	if (strcmp(s->unit, models[m].unit) != 0) {
		pass_over(rd, s->benchmark, "a unit the model does not take");
		return 0;
	}
	/* import refuses such a figure; one in the database came by
	 * another way (an edit), and one 1e308 s sample bends a fit */
	if (cal_implausible(s->value, s->unit)) {
		pass_over(rd, s->benchmark, "a value import refuses (a time "
			  "above a day or below a nanosecond, a rate above "
			  "1e15 B/s)");
		return 0;
	}
	if (points_room(rd))
		return 1;
	p = &rd->v[rd->n];
	p->run_id = run_id;
	p->summary = s->rep < 0;
	p->off_rows = 0;
	p->q = 0.0;
	p->shape = conv_shape(s->benchmark, s->params);
	p->l = 1.0;
	if (strcmp(s->benchmark, "rnn") == 0) {
		if (strcmp(cal_param_get(s->params, "pass", cls_buf,
					 sizeof(cls_buf)), "bwd_weights") == 0) {
			pass_over(rd, s->benchmark, "a weight gradient: one "
				  "GEMM over the steps, which the GEMM fit "
				  "costs");
			return 0;
		}
		if (rnn_size(s->params, &p->x, &p->q, &p->l)) {
			pass_over(rd, s->benchmark, "not a cell, size, pass "
				  "or dtype of a recurrent layer dlsim knows");
			return 0;
		}
		p->y = p->x / s->value;
		/* each cell its own fit: rnn_size knows the name */
		cls = cal_param_get(s->params, "cell", cls_buf,
				    sizeof(cls_buf));
	} else if (models[m].model == CAL_MODEL_ROOFLINE) {
		kernel_size(s->benchmark, s->params, &p->x, &p->q, &cls);
		p->y = p->x / s->value;
		if (!isfinite(p->x) || !(p->x > 0.0)) {
			pass_over(rd, s->benchmark, "a shape of no work (a "
				  "filter larger than its padded input, a "
				  "size missing)");
			return 0;
		}
		if (!isfinite(p->q) || !(p->q > 0.0)) {
			pass_over(rd, s->benchmark, "no dtype this dlsim "
				  "knows, so no bytes");
			return 0;
		}
	} else {
		p->x = param_num(s->params, "bytes");
		p->y = s->value;
	}
	if (!isfinite(p->x) || !isfinite(p->y) || !(p->x > 0.0) ||
	    !(p->y > 0.0)) {
		pass_over(rd, s->benchmark, "no size, or a value not above 0");
		return 0;
	}
	make_key(p, s, models[m].model, cls);
	rd->n++;
	/* a GEMM off 16-byte rows counts in its dtype's GEMM fit too: the
	 * base its own factor is fitted against (cal_model_scaled); a conv
	 * off 8 channels counts in its own class alone */
	if (model_kernel_of_class(s->benchmark, cls) ==
	    MODEL_KERNEL_GEMM_UNALIGNED) {
		if (points_room(rd))
			return 1;
		rd->v[rd->n] = rd->v[rd->n - 1];
		make_key(&rd->v[rd->n], s, models[m].model,
			 class_of(MODEL_KERNEL_GEMM));
		rd->v[rd->n].off_rows = 1;
		rd->n++;
	}
	/* a non-square window counts in the class of every other window
	 * too, so that its own class refines its rows and moves no other
	 * (the file's head) */
	if (model_kernel_of_class(s->benchmark, cls) ==
	    MODEL_KERNEL_CONV_NONSQUARE) {
		if (points_room(rd))
			return 1;
		rd->v[rd->n] = rd->v[rd->n - 1];
		make_key(&rd->v[rd->n], s, models[m].model,
			 class_of(MODEL_KERNEL_CONV));
		rd->n++;
	}
	return 0;
}

static int point_cmp(const void *a, const void *b)
{
	const struct cal_point *p = a, *q = b;
	int c = strcmp(p->key, q->key);

	if (c)
		return c;
	return (p->x > q->x) - (p->x < q->x);
}

int cal_points_read(struct db *db, const char *hw, struct cal_points *rd,
		    struct dlsim_err *err)
{
	int rc;

	memset(rd, 0, sizeof(*rd));
	rc = db_each_sample_of(db, hw, NULL, read_sample, rd, err);
	if (!rc && rd->nomem)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (rc) {
		free(rd->v);
		rd->v = NULL;
		return rc;
	}
	if (rd->n > 1)
		qsort(rd->v, (size_t)rd->n, sizeof(*rd->v), point_cmp);
	return DLSIM_OK;
}
