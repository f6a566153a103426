/*
 * cal_csv.c -- kernel timings as CSV: DeepBench's result tables (the
 * layout of shared/data/deepbench_{gemm,conv,allreduce,rnn}.csv, which
 * scripts/extract_deepbench.py wrote from baidu-research/DeepBench's
 * xlsx workbooks) and two generic tables anyone can write.
 *
 * The header line picks the layout; every row must have as many fields.
 * Fields are RFC 4180: separated by ',', optionally quoted with '"' (a
 * quoted field may hold commas and "" for a quote; not line breaks).
 * Unquoted fields are trimmed of blanks.  Times are in ms (DeepBench)
 * or s (generic) and kept in s; every sample has rep -1.
 *
 * DEEPBENCH: rows of every device are imported; each sample is tagged
 * device=<hardware column> so a fit can keep one device's rows (the
 * --hw of the import names the run, not each row).  The precision
 * column becomes dtype and math:
 *
 *   Float                                                fp32  fp32
 *   16 bit inputs, 32 bit multiplication, 32 bit addition fp16  fp32
 *   16 bit inputs, 16 bit multiplication, 32 bit addition fp16  mixed
 *   GEMM, Conv: Int8 multiplication, 32 bit accumulation int8  int32
 *   Int8 inputs 32 bit math                              int8  int32
 *
 * and any other text is refused.  Params, in this order:
 *
 *   gemm       m= n= k= transa=N|T transb=N|T dtype= math= setting=
 *              device=                                   (time_ms)
 *   conv       n= c= h= w= k= r= s= pad_h= pad_w= stride_h= stride_w=
 *              pass=fwd|bwd_data|bwd_filter dtype= math= setting=
 *              device=       (fwd_ms, bwd_inputs_ms, bwd_params_ms)
 *   allreduce  bytes= ranks= dtype= impl= device=  (mean_time_ms;
 *              bytes = size_floats x the dtype's size)
 *   rnn        cell=lstm|gru|vanilla hidden= n= timesteps=
 *              pass=fwd|bwd|bwd_weights dtype= math= setting= device=
 *                                    (fwd_ms, bwd_ms, bwd_weights_ms)
 *
 * with r the filter height (R_filter_h) and s its width (S_filter_w),
 * as cuDNN names them; impl is the algorithm column ("NCCL 2.0 Single"
 * -> NCCL_2.0_Single).  Text values lose their blanks (cal_params_str).
 * A pass whose time cell is empty, "N/A" or "N/A*" (DeepBench's own
 * marks for a kernel that did not run) gives no sample; derived columns
 * (tflops, total_ms, reported_GBps, std_ms) are not kept.
 *
 * GENERIC: "m,n,k,dtype,time_s" (benchmark gemm, params m= n= k=
 * dtype=) and "n,c,h,w,k,r,s,stride,pad,dtype,time_s" (benchmark conv,
 * params n= c= h= w= k= r= s= stride= pad= dtype=), dtype one of dlsim's
 * precisions (fp64, fp32, tf32, fp16, bf16, fp8, int8); a convolution
 * timed pass by pass, with strides and pads per axis, is
 * "n,c,h,w,k,r,s,stride_h,stride_w,pad_h,pad_w,pass,dtype,time_s" (pass
 * fwd, bwd_data or bwd_filter; params as DeepBench's conv, without
 * math, setting and device).
 *
 * LIMITATIONS: DeepBench's sparse GEMM table is not read; quoted fields
 * cannot span lines.
 */
#include "calibrate/cal.h"

#include <string.h>

#include "core/banned.h"

#define MAX_DIM ((int64_t)1 << 40)

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

/* A table layout: its header and what one row becomes. */
struct layout {
	const char *what;
	const char *const *header;      /* NULL-terminated */
	int (*row)(struct cal_in *in, char **f, struct cal_samples *out,
		   struct dlsim_err *err);
};

/* DeepBench's precision texts. */
static const struct {
	const char *text;
	const char *dtype, *math;
	int bytes;
} precisions[] = {
	{ "Float", "fp32", "fp32", 4 },
	{ "16 bit inputs, 32 bit multiplication, 32 bit addition",
	  "fp16", "fp32", 2 },
	{ "16 bit inputs, 16 bit multiplication, 32 bit addition",
	  "fp16", "mixed", 2 },
	{ "GEMM, Conv: Int8 multiplication, 32 bit accumulation",
	  "int8", "int32", 1 },
	{ "Int8 inputs 32 bit math", "int8", "int32", 1 },
};

#define N_PRECISIONS ((int)(sizeof(precisions) / sizeof(precisions[0])))

/* The columns every DeepBench table starts with. */
enum { DB_HW, DB_SETTING, DB_SHEET, DB_PRECISION, DB_APPLICATION };

static const char *const settings[] = { "training", "inference", NULL };

/* ---------------------------------------------------------------- */
/* Private helpers: fields                                           */
/* ---------------------------------------------------------------- */

/*
 * Split one record in place into fields; returns their count (max + 1:
 * more), or -1 for a quote left open or text after a closing quote.
 */
int cal_split_csv(char *s, char **f, int max)
{
	return cal_split_csv_padded(s, f, NULL, max);
}

int cal_split_csv_padded(char *s, char **f, unsigned char *padded,
			 int max)
{
	int n = 0;

	for (;;) {
		char *w, *start = s;

		while (*s == ' ' || *s == '\t')
			s++;
		if (n == max)
			return max + 1;
		if (padded)
			padded[n] = 0;
		f[n++] = w = s;
		if (*s == '"') {
			f[n - 1] = w = ++s;
			for (;;) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] != '"')
					break;
				if (*s == '"')
					s++;
				*w++ = *s++;
			}
			s++;
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s && *s != ',')
				return -1;
		} else {
			while (*s && *s != ',')
				s++;
			w = s;
			while (w > f[n - 1] && (w[-1] == ' ' || w[-1] == '\t'))
				w--;
			if (padded && w > f[n - 1])
				padded[n - 1] = f[n - 1] > start || w < s;
		}
		if (!*s) {
			*w = '\0';
			return n;
		}
		*w = '\0';
		s++;
	}
}

/* A time cell that may be empty: "", "N/A", "N/A*" set *have to 0. */
static int opt_time(struct cal_in *in, const char *s, const char *what,
		    double scale, double *v, int *have,
		    struct dlsim_err *err)
{
	*have = 0;
	if (!*s || strcmp(s, "N/A") == 0 || strcmp(s, "N/A*") == 0)
		return DLSIM_OK;
	if (cal_positive(in, s, what, v, err))
		return DLSIM_EPARSE;
	*v *= scale;
	*have = 1;
	return DLSIM_OK;
}

/*
 * A kernel of `flops` FLOPs timed at s seconds must run below 10^18
 * FLOP/s: an exaflop from one device, 500 times today's fastest dense
 * fp8 (about 2 x 10^15).  A faster row is a broken file (a time in the
 * wrong unit, a digit lost), which a fit would take as the device's
 * rate.
 */
#define MAX_DEVICE_FLOPS 1e18

static int rate_ok(struct cal_in *in, double flops, double s,
		   struct dlsim_err *err)
{
	if (flops / s <= MAX_DEVICE_FLOPS)
		return DLSIM_OK;
	return cal_fail(in, err, "%.4g FLOPs in %.4g s is %.3g FLOP/s, above "
			"the 1e18 FLOP/s no device reaches", flops, s,
			flops / s);
}

/* A convolution's output must have a row and a column: the filter no
 * larger than the padded input.  Its FLOPs, 2 x N K C R S P Q (each pass
 * the same), go to *flops. */
static int conv_shape_ok(struct cal_in *in, int64_t n, int64_t c, int64_t h,
			 int64_t w, int64_t k, int64_t r, int64_t s,
			 int64_t pad_h, int64_t pad_w, int64_t stride_h,
			 int64_t stride_w, double *flops,
			 struct dlsim_err *err)
{
	if (h + 2 * pad_h < r || w + 2 * pad_w < s)
		return cal_fail(in, err, "a %lldx%lld filter is larger than "
				"the input, %lldx%lld padded by %lld, %lld",
				(long long)r, (long long)s, (long long)h,
				(long long)w, (long long)pad_h,
				(long long)pad_w);
	*flops = 2.0 * (double)n * (double)k * (double)c * (double)r *
		 (double)s * (double)((h + 2 * pad_h - r) / stride_h + 1) *
		 (double)((w + 2 * pad_w - s) / stride_w + 1);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Private helpers: DeepBench                                        */
/* ---------------------------------------------------------------- */

/* The device, setting and precision columns; precision's index. */
static int deepbench_common(struct cal_in *in, char **f, int *prec,
		     struct dlsim_err *err)
{
	int i;

	if (!*f[DB_HW])
		return cal_fail(in, err, "empty 'hardware' column");
	for (i = 0; settings[i]; i++)
		if (strcmp(f[DB_SETTING], settings[i]) == 0)
			break;
	if (!settings[i])
		return cal_fail(in, err, "unknown setting '%s' (expected "
				"training, inference)", f[DB_SETTING]);
	for (i = 0; i < N_PRECISIONS; i++)
		if (strcmp(f[DB_PRECISION], precisions[i].text) == 0)
			break;
	if (i == N_PRECISIONS)
		return cal_fail(in, err, "unknown dtype: precision '%.80s' is "
				"not one of DeepBench's five", f[DB_PRECISION]);
	*prec = i;
	return DLSIM_OK;
}

/* dtype= math= setting= device= */
static void deepbench_tail(struct cal_params *p, char **f, int prec)
{
	cal_params_str(p, "dtype", precisions[prec].dtype);
	cal_params_str(p, "math", precisions[prec].math);
	cal_params_str(p, "setting", f[DB_SETTING]);
	cal_params_str(p, "device", f[DB_HW]);
}

static int trans(struct cal_in *in, const char *s, const char *what,
		 struct dlsim_err *err)
{
	if (strcmp(s, "N") == 0 || strcmp(s, "T") == 0)
		return DLSIM_OK;
	return cal_fail(in, err, "'%s' must be N or T (got '%s')", what, s);
}

static int deepbench_gemm(struct cal_in *in, char **f, struct cal_samples *out,
		   struct dlsim_err *err)
{
	struct cal_params p;
	int64_t m, n, k;
	double ms;
	int prec;

	if (deepbench_common(in, f, &prec, err) ||
	    cal_count(in, f[5], "M", MAX_DIM, &m, err) ||
	    cal_count(in, f[6], "N", MAX_DIM, &n, err) ||
	    cal_count(in, f[7], "K", MAX_DIM, &k, err) ||
	    trans(in, f[8], "transA", err) || trans(in, f[9], "transB", err) ||
	    cal_positive(in, f[10], "time_ms", &ms, err) ||
	    rate_ok(in, 2.0 * (double)m * (double)n * (double)k, ms * 1e-3,
		    err))
		return DLSIM_EPARSE;
	cal_params_init(&p);
	cal_params_int(&p, "m", m);
	cal_params_int(&p, "n", n);
	cal_params_int(&p, "k", k);
	cal_params_str(&p, "transa", f[8]);
	cal_params_str(&p, "transb", f[9]);
	deepbench_tail(&p, f, prec);
	return cal_sample_add(out, in, "gemm", &p, ms * 1e-3, "s", err);
}

static int deepbench_conv(struct cal_in *in, char **f, struct cal_samples *out,
		   struct dlsim_err *err)
{
	/* column of each params key, in params order */
	static const struct {
		const char *key;
		int col, zero_ok;
	} dims[] = {
		{ "n", 8, 0 }, { "c", 7, 0 }, { "h", 6, 0 }, { "w", 5, 0 },
		{ "k", 9, 0 }, { "r", 11, 0 }, { "s", 10, 0 },
		{ "pad_h", 13, 1 }, { "pad_w", 12, 1 },
		{ "stride_h", 15, 0 }, { "stride_w", 14, 0 },
	};
	static const char *const pass[] = { "fwd", "bwd_data", "bwd_filter" };
	static const char *const col[] = {
		"fwd_ms", "bwd_inputs_ms", "bwd_params_ms"
	};
	int64_t v[11];
	struct cal_params p;
	int prec, i, j, have, rc;
	double s, flops;

	if (deepbench_common(in, f, &prec, err))
		return DLSIM_EPARSE;
	for (i = 0; i < 11; i++)
		if ((dims[i].zero_ok ? cal_uint : cal_count)(
			    in, f[dims[i].col], dims[i].key, MAX_DIM, &v[i],
			    err))
			return DLSIM_EPARSE;
	if (conv_shape_ok(in, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
			  v[8], v[9], v[10], &flops, err))
		return DLSIM_EPARSE;
	for (j = 0; j < 3; j++) {
		if (opt_time(in, f[16 + j], col[j], 1e-3, &s, &have, err))
			return DLSIM_EPARSE;
		if (!have)
			continue;
		if (rate_ok(in, flops, s, err))
			return DLSIM_EPARSE;
		cal_params_init(&p);
		for (i = 0; i < 11; i++)
			cal_params_int(&p, dims[i].key, v[i]);
		cal_params_str(&p, "pass", pass[j]);
		deepbench_tail(&p, f, prec);
		if ((rc = cal_sample_add(out, in, "conv", &p, s, "s", err)))
			return rc;
	}
	return DLSIM_OK;
}

static int deepbench_allreduce(struct cal_in *in, char **f,
			struct cal_samples *out, struct dlsim_err *err)
{
	struct cal_params p;
	int64_t floats, ranks;
	double ms;
	int prec;

	if (deepbench_common(in, f, &prec, err) ||
	    cal_count(in, f[5], "size_floats", MAX_DIM, &floats, err) ||
	    cal_count(in, f[6], "ranks", 1 << 30, &ranks, err) ||
	    cal_positive(in, f[7], "mean_time_ms", &ms, err))
		return DLSIM_EPARSE;
	if (!*f[9])
		return cal_fail(in, err, "empty 'algorithm' column");
	cal_params_init(&p);
	cal_params_int(&p, "bytes", floats * precisions[prec].bytes);
	cal_params_int(&p, "ranks", ranks);
	cal_params_str(&p, "dtype", precisions[prec].dtype);
	cal_params_str(&p, "impl", f[9]);
	cal_params_str(&p, "device", f[DB_HW]);
	return cal_sample_add(out, in, sim_collective_name(SIM_COLL_ALLREDUCE),
			      &p, ms * 1e-3, "s", err);
}

static int deepbench_rnn(struct cal_in *in, char **f, struct cal_samples *out,
		  struct dlsim_err *err)
{
	static const char *const cells[] = { "LSTM", "GRU", "Vanilla", NULL };
	/* stored as the cell's class is named: its fit's group (the
	 * class= word, cal_points.c) is the cell */
	static const enum model_kernel cell_class[] = {
		MODEL_KERNEL_LSTM, MODEL_KERNEL_GRU, MODEL_KERNEL_RNN_TANH
	};
	static const char *const pass[] = { "fwd", "bwd", "bwd_weights" };
	static const char *const col[] = { "fwd_ms", "bwd_ms",
					   "bwd_weights_ms" };
	struct cal_params p;
	int64_t hidden, n, steps;
	int prec, c, j, have, rc;
	double s;

	if (deepbench_common(in, f, &prec, err))
		return DLSIM_EPARSE;
	for (c = 0; cells[c] && strcmp(cells[c], f[5]) != 0; c++)
		;
	if (!cells[c])
		return cal_fail(in, err, "unknown rnn_type '%s' (expected "
				"LSTM, GRU, Vanilla)", f[5]);
	/* the sizes a recurrent layer of the simulator takes (cal.h) */
	if (cal_count(in, f[6], "hidden", (int64_t)CAL_RNN_MAX, &hidden,
		      err) ||
	    cal_count(in, f[7], "N", (int64_t)CAL_RNN_MAX, &n, err) ||
	    cal_count(in, f[8], "timesteps", CAL_RNN_MAX_STEPS, &steps, err))
		return DLSIM_EPARSE;
	for (j = 0; j < 3; j++) {
		if (opt_time(in, f[9 + j], col[j], 1e-3, &s, &have, err))
			return DLSIM_EPARSE;
		if (!have)
			continue;
		cal_params_init(&p);
		cal_params_str(&p, "cell",
			       model_kernel_name(cell_class[c])->cls);
		cal_params_int(&p, "hidden", hidden);
		cal_params_int(&p, "n", n);
		cal_params_int(&p, "timesteps", steps);
		cal_params_str(&p, "pass", pass[j]);
		deepbench_tail(&p, f, prec);
		if ((rc = cal_sample_add(out, in, "rnn", &p, s, "s", err)))
			return rc;
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Private helpers: generic tables                                   */
/* ---------------------------------------------------------------- */

/* One of dlsim's precision names. */
static int dtype(struct cal_in *in, const char *s, struct dlsim_err *err)
{
	int i;

	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		if (strcmp(s, dlsim_precision_name(
				   (enum dlsim_precision)i)) == 0)
			return DLSIM_OK;
	return cal_fail(in, err, "unknown dtype '%s' (expected fp64, fp32, "
			"tf32, fp16, bf16, fp8, int8)", s);
}

static int gen_gemm(struct cal_in *in, char **f, struct cal_samples *out,
		    struct dlsim_err *err)
{
	static const char *const keys[] = { "m", "n", "k" };
	struct cal_params p;
	int64_t v[3];
	double s;
	int i;

	cal_params_init(&p);
	for (i = 0; i < 3; i++) {
		if (cal_count(in, f[i], keys[i], MAX_DIM, &v[i], err))
			return DLSIM_EPARSE;
		cal_params_int(&p, keys[i], v[i]);
	}
	if (dtype(in, f[3], err) ||
	    cal_positive(in, f[4], "time_s", &s, err) ||
	    rate_ok(in, 2.0 * (double)v[0] * (double)v[1] * (double)v[2], s,
		    err))
		return DLSIM_EPARSE;
	cal_params_str(&p, "dtype", f[3]);
	return cal_sample_add(out, in, "gemm", &p, s, "s", err);
}

static int gen_conv(struct cal_in *in, char **f, struct cal_samples *out,
		    struct dlsim_err *err)
{
	static const char *const keys[] = {
		"n", "c", "h", "w", "k", "r", "s", "stride", "pad"
	};
	struct cal_params p;
	int64_t v[9];
	double s, flops;
	int i;

	cal_params_init(&p);
	for (i = 0; i < 9; i++) {
		if ((i == 8 ? cal_uint : cal_count)(in, f[i], keys[i],
						    MAX_DIM, &v[i], err))
			return DLSIM_EPARSE;
		cal_params_int(&p, keys[i], v[i]);
	}
	if (conv_shape_ok(in, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[8],
			  v[8], v[7], v[7], &flops, err) ||
	    dtype(in, f[9], err) ||
	    cal_positive(in, f[10], "time_s", &s, err) ||
	    rate_ok(in, flops, s, err))
		return DLSIM_EPARSE;
	cal_params_str(&p, "dtype", f[9]);
	return cal_sample_add(out, in, "conv", &p, s, "s", err);
}

/* The per-pass table: a filter's strides and pads per axis (DeepBench's
 * speech shapes are not square) and which pass was timed. */
static int gen_conv_pass(struct cal_in *in, char **f,
			 struct cal_samples *out, struct dlsim_err *err)
{
	static const char *const keys[] = {
		"n", "c", "h", "w", "k", "r", "s", "stride_h", "stride_w",
		"pad_h", "pad_w"
	};
	static const char *const passes[] = { "fwd", "bwd_data",
					      "bwd_filter", NULL };
	struct cal_params p;
	int64_t v[11];
	double s, flops;
	int i;

	for (i = 0; i < 11; i++)
		if ((i >= 9 ? cal_uint : cal_count)(in, f[i], keys[i],
						    MAX_DIM, &v[i], err))
			return DLSIM_EPARSE;
	for (i = 0; passes[i] && strcmp(f[11], passes[i]); i++)
		;
	if (!passes[i])
		return cal_fail(in, err, "unknown pass '%s' (expected fwd, "
				"bwd_data, bwd_filter)", f[11]);
	if (conv_shape_ok(in, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[9],
			  v[10], v[7], v[8], &flops, err) ||
	    dtype(in, f[12], err) ||
	    cal_positive(in, f[13], "time_s", &s, err) ||
	    rate_ok(in, flops, s, err))
		return DLSIM_EPARSE;
	/* DeepBench's keys in DeepBench's order (its rows also carry math,
	 * setting and device, so the two never share a group) */
	cal_params_init(&p);
	for (i = 0; i < 7; i++)
		cal_params_int(&p, keys[i], v[i]);
	cal_params_int(&p, "pad_h", v[9]);
	cal_params_int(&p, "pad_w", v[10]);
	cal_params_int(&p, "stride_h", v[7]);
	cal_params_int(&p, "stride_w", v[8]);
	cal_params_str(&p, "pass", f[11]);
	cal_params_str(&p, "dtype", f[12]);
	return cal_sample_add(out, in, "conv", &p, s, "s", err);
}

/* ---------------------------------------------------------------- */
/* Private helpers: tables                                           */
/* ---------------------------------------------------------------- */

static const char *const h_db_gemm[] = {
	"hardware", "setting", "sheet", "precision", "application", "M", "N",
	"K", "transA", "transB", "time_ms", "tflops", "flops_unit", "source",
	NULL
};
static const char *const h_db_conv[] = {
	"hardware", "setting", "sheet", "precision", "application", "W", "H",
	"C", "N", "K", "S_filter_w", "R_filter_h", "pad_w", "pad_h",
	"stride_w", "stride_h", "fwd_ms", "bwd_inputs_ms", "bwd_params_ms",
	"total_ms", "fwd_algo", "source", NULL
};
static const char *const h_db_allreduce[] = {
	"hardware", "setting", "sheet", "precision", "application",
	"size_floats", "ranks", "mean_time_ms", "reported_GBps", "algorithm",
	"std_ms", "source", NULL
};
static const char *const h_db_rnn[] = {
	"hardware", "setting", "sheet", "precision", "application",
	"rnn_type", "hidden", "N", "timesteps", "fwd_ms", "bwd_ms",
	"bwd_weights_ms", "total_ms", "fwd_tflops", "source", NULL
};
static const char *const h_gemm[] = {
	"m", "n", "k", "dtype", "time_s", NULL
};
static const char *const h_conv[] = {
	"n", "c", "h", "w", "k", "r", "s", "stride", "pad", "dtype", "time_s",
	NULL
};
static const char *const h_conv_pass[] = {
	"n", "c", "h", "w", "k", "r", "s", "stride_h", "stride_w", "pad_h",
	"pad_w", "pass", "dtype", "time_s", NULL
};

static const struct layout deepbench[] = {
	{ "DeepBench GEMM", h_db_gemm, deepbench_gemm },
	{ "DeepBench convolution", h_db_conv, deepbench_conv },
	{ "DeepBench all-reduce", h_db_allreduce, deepbench_allreduce },
	{ "DeepBench RNN", h_db_rnn, deepbench_rnn },
	{ NULL, NULL, NULL }
};
static const struct layout generic_gemm[] = {
	{ "generic GEMM", h_gemm, gen_gemm }, { NULL, NULL, NULL }
};
static const struct layout generic_conv[] = {
	{ "generic convolution", h_conv, gen_conv },
	{ "generic per-pass convolution", h_conv_pass, gen_conv_pass },
	{ NULL, NULL, NULL }
};

/* Does the split header f (n fields) spell h? */
static int same_header(char **f, int n, const char *const *h)
{
	int i;

	for (i = 0; h[i]; i++)
		if (i >= n || strcmp(f[i], h[i]) != 0)
			return 0;
	return i == n;
}

/* Read the header, pick the layout, then every row. */
static int parse_table(struct cal_in *in, const struct layout *layouts,
		       const char *expected, struct cal_samples *out,
		       struct dlsim_err *err)
{
	char *f[CAL_MAX_FIELDS + 1], *line = cal_in_next(in);
	const struct layout *l;
	int n = line ? cal_split_csv(line, f, CAL_MAX_FIELDS) : 0, width, rc;

	for (l = layouts; l->what; l++)
		if (n > 0 && n <= CAL_MAX_FIELDS &&
		    same_header(f, n, l->header))
			break;
	if (!l->what)
		return cal_fail(in, err, "unknown header: expected %s",
				expected);
	for (width = n; (line = cal_in_next(in));) {
		if (cal_blank(line))
			continue;
		n = cal_split_csv(line, f, CAL_MAX_FIELDS);
		if (n < 0)
			return cal_fail(in, err, "a quoted field is not closed "
					"properly");
		if (n != width)
			return cal_fail(in, err, "the row has %s%d fields, the "
					"%s header %d", n > width ? "more "
					"than " : "", n > width ? width : n,
					l->what, width);
		if ((rc = l->row(in, f, out, err)))
			return rc;
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_deepbench_parse(struct cal_in *in, struct cal_samples *out,
			struct dlsim_err *err)
{
	return parse_table(in, deepbench, "one of DeepBench's gemm, conv, "
			   "allreduce or rnn layouts (hardware,setting,"
			   "sheet,precision,application,...)", out, err);
}

int cal_gemm_csv_parse(struct cal_in *in, struct cal_samples *out,
		       struct dlsim_err *err)
{
	return parse_table(in, generic_gemm, "'m,n,k,dtype,time_s'", out,
			   err);
}

int cal_conv_csv_parse(struct cal_in *in, struct cal_samples *out,
		       struct dlsim_err *err)
{
	return parse_table(in, generic_conv,
			   "'n,c,h,w,k,r,s,stride,pad,dtype,time_s' or 'n,c,h,"
			   "w,k,r,s,stride_h,stride_w,pad_h,pad_w,pass,dtype,"
			   "time_s'", out,
			   err);
}
