/*
 * cal.h -- what the importers of calibrate/ share, inside the library:
 * a line reader over a whole file, failures placed as "path:line: what",
 * checked numbers, the parameter string builder, the growing sample list
 * with its cap, a small JSON reader, and the parser of each format.
 *
 * Every parser has the same shape (struct cal_in in, samples out, err)
 * and the same contract: it appends to the list or fails with
 * DLSIM_EPARSE (DLSIM_ENOMEM past the cap); on failure the caller throws
 * the whole list away, so nothing of a damaged file is ever kept.
 */
#ifndef DLSIM_CALIBRATE_CAL_H
#define DLSIM_CALIBRATE_CAL_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "dlsim.h"

#define CAL_MAX_SAMPLES ((int64_t)10000000)  /* 10^7 per import */
#define CAL_MAX_FIELDS 64                    /* columns of one row */

/* ---------------------------------------------------------------- */
/* Reading lines                                                     */
/* ---------------------------------------------------------------- */

/* A whole file read line by line; the text is cut in place. */
struct cal_in {
	const char *path;       /* borrowed, for messages */
	char *text;             /* borrowed, NUL-terminated, modified */
	size_t len, pos;
	int64_t line;           /* 1-based number of the last line read */
	char where[32];         /* "" or a place inside the line, e.g.
				   "results[3]", that messages name too */
};

/* Start reading text (skipping a UTF-8 byte-order mark). */
void cal_in_init(struct cal_in *in, const char *path, char *text,
		 size_t len);

/* The next line without its "\n" or "\r\n", NUL-terminated in place;
 * NULL at the end of the text. */
char *cal_in_next(struct cal_in *in);

/* Fail with DLSIM_EPARSE and "path:LINE: what" ("path:LINE: where:
 * what" when in->where is set); returns DLSIM_EPARSE.  cal_fail uses the
 * line last read. */
int cal_fail(const struct cal_in *in, struct dlsim_err *err,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int cal_fail_at(const struct cal_in *in, int64_t line,
		struct dlsim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Split s in place at runs of blanks; returns the count (at most max;
 * max + 1 means there were more). */
int cal_split_blanks(char *s, char **tok, int max);

/* 1 when a line of a text report (nccl-tests, OSU) is a result row:
 * after blanks, a number's start -- a digit, or a sign or a point before
 * one, so that a damaged "-8  0.24" is read, and refused, not passed
 * over as the tools' noise (mpirun, NCCL INFO, UCX lines). */
int cal_line_is_row(const char *s);

/* Split one CSV record in place into at most max fields (RFC 4180
 * quoting, unquoted fields trimmed); returns their count (max + 1:
 * more), or -1 for a quote left open or text after a closing quote. */
int cal_split_csv(char *s, char **f, int max);

/* cal_split_csv, and padded[i] 1 when unquoted field i had blanks
 * trimmed from around text (0 for a quoted, bare or all-blank one):
 * what a reader needs that takes a field as a flag takes its value, " 64"
 * not being "64" there.  padded holds max entries. */
int cal_split_csv_padded(char *s, char **f, unsigned char *padded,
			 int max);

/* 1 if s is empty or only blanks. */
int cal_blank(const char *s);

/* ---------------------------------------------------------------- */
/* Checked numbers (messages placed at the line last read)           */
/* ---------------------------------------------------------------- */

/* A whole number 0..max ("what" names the column). */
int cal_uint(const struct cal_in *in, const char *s, const char *what,
	     int64_t max, int64_t *out, struct dlsim_err *err);

/* A whole number 1..max. */
int cal_count(const struct cal_in *in, const char *s, const char *what,
	      int64_t max, int64_t *out, struct dlsim_err *err);

/* A finite number > 0 (a time or a rate). */
int cal_positive(const struct cal_in *in, const char *s, const char *what,
		 double *out, struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* Parameters and samples                                            */
/* ---------------------------------------------------------------- */

/*
 * The params string of a sample, "key=value" pairs separated by one
 * space in the order added.  Text values are made single words: blanks,
 * '=', control bytes and the UTF-8 no-break space become '_'.
 */
struct cal_params {
	char s[256];
	size_t n;
	int cut;                /* 1: did not fit in s */
};

void cal_params_init(struct cal_params *p);
void cal_params_int(struct cal_params *p, const char *key, int64_t v);
void cal_params_str(struct cal_params *p, const char *key, const char *v);

/* The samples read so far (rep -1: each is the tool's own summary). */
struct cal_samples {
	struct db_sample *v;    /* owned */
	int64_t n, cap;
	int64_t max;            /* the cap: CAL_MAX_SAMPLES, or less in tests */
};

void cal_samples_init(struct cal_samples *s, int64_t max);
void cal_samples_release(struct cal_samples *s);

/*
 * The figures no microbenchmark gives (man dlsim, CALIBRATE): a time
 * above a day, or above 0 and below a nanosecond (no kernel, copy or
 * message ends sooner: a launch alone takes microseconds), or a rate
 * above a petabyte a second.
 */
#define CAL_MAX_TIME_S 86400.0
#define CAL_MIN_TIME_S 1e-9
#define CAL_MAX_RATE_BPS 1e15

/* 1 when value in unit ("s", "B/s") is outside those bounds. */
int cal_implausible(double value, const char *unit);

/* Append one sample.  DLSIM_ENOMEM past s->max or when memory runs out,
 * DLSIM_EPARSE if p was cut or value is implausible; messages placed at
 * the line last read. */
int cal_sample_add(struct cal_samples *s, const struct cal_in *in,
		   const char *benchmark, const struct cal_params *p,
		   double value, const char *unit, struct dlsim_err *err);

/* DLSIM_OK when hw is a name samples can be stored under and found by:
 * 1 to HW_NAME_LEN - 1 bytes of the catalog's names (a-z, 0-9, '-',
 * '_', '.'); DLSIM_EINVAL saying which byte otherwise. */
int cal_hw_name_check(const char *hw, struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* Vocabularies                                                      */
/* ---------------------------------------------------------------- */

/* A data type as a tool names it, and dlsim's name and size for it. */
struct cal_dtype {
	const char *tool;       /* "float", "MPI_FLOAT", "fp32" */
	const char *name;       /* dlsim's: fp32, fp16, bf16, int8, ... */
	int bytes;
};

/* Find tool's name in a table ending with a NULL tool; NULL if absent. */
const struct cal_dtype *cal_dtype_find(const struct cal_dtype *table,
				       const char *tool);

/* ---------------------------------------------------------------- */
/* A small JSON reader (cal_json.c)                                  */
/* ---------------------------------------------------------------- */

enum cal_json_type {
	CAL_JSON_NULL = 0, CAL_JSON_FALSE, CAL_JSON_TRUE, CAL_JSON_NUMBER,
	CAL_JSON_STRING, CAL_JSON_ARRAY, CAL_JSON_OBJECT
};

/* One value; the members of an object or array are a linked list. */
struct cal_json {
	enum cal_json_type type;
	int64_t line;           /* where the value starts */
	const char *key;        /* the member's name inside an object */
	const char *str;        /* STRING: the unescaped text */
	double num;             /* NUMBER */
	int64_t child, next;    /* indexes into the document, -1: none */
};

struct cal_json_doc {
	struct cal_json *v;     /* owned; v[0] is the root */
	int64_t n, cap;
};

/* Parse in->text (strings are unescaped in place).  DLSIM_EPARSE with
 * the line on malformed JSON, DLSIM_ENOMEM past 2^22 values. */
int cal_json_parse(struct cal_in *in, struct cal_json_doc *doc,
		   struct dlsim_err *err);
void cal_json_release(struct cal_json_doc *doc);

/* Parse a NUL-terminated JSON text (copied into *copy, which the caller
 * frees with the doc's release) named what in messages; -1 if it is
 * not JSON. */
int cal_json_parse_text(const char *what, const char *text, char **copy,
			struct cal_json_doc *doc);

/* The member key of an object, or NULL; the first and next element. */
const struct cal_json *cal_json_get(const struct cal_json_doc *doc,
				    const struct cal_json *obj,
				    const char *key);
const struct cal_json *cal_json_first(const struct cal_json_doc *doc,
				      const struct cal_json *v);
const struct cal_json *cal_json_next(const struct cal_json_doc *doc,
				     const struct cal_json *v);

/* ---------------------------------------------------------------- */
/* The parsers, one per format                                       */
/* ---------------------------------------------------------------- */

int cal_nccl_parse(struct cal_in *in, struct cal_samples *out,
		   struct dlsim_err *err);
int cal_osu_parse(struct cal_in *in, struct cal_samples *out,
		  struct dlsim_err *err);
int cal_stream_parse(struct cal_in *in, struct cal_samples *out,
		     struct dlsim_err *err);
int cal_deepbench_parse(struct cal_in *in, struct cal_samples *out,
			struct dlsim_err *err);
int cal_gemm_csv_parse(struct cal_in *in, struct cal_samples *out,
		       struct dlsim_err *err);
int cal_conv_csv_parse(struct cal_in *in, struct cal_samples *out,
		       struct dlsim_err *err);

/*
 * cal_parse_file on text already in memory (modified in place), with
 * the sample cap max (CAL_MAX_SAMPLES; tests pass less).  Same contract:
 * on failure *out is NULL and *n 0.
 */
int cal_parse_text(enum cal_format f, const char *path, char *text,
		   size_t len, int64_t max, struct db_sample **out,
		   int64_t *n, struct dlsim_err *err);

/*
 * cal_seed on a table of files (struct hw_builtin_file, hw/hw.h, ended
 * by a NULL name) instead of the compiled-in cal_seed_files: what tests
 * use to feed it a damaged file.  Same contract as cal_seed.
 */
struct hw_builtin_file;
int cal_seed_from(struct db *db, const struct hw_builtin_file *files,
		  int64_t *runs, int64_t *samples, struct dlsim_err *err);

/*
 * The stored samples of one hardware name as fit points (cal_points.c).
 * key is "benchmark|group"; x the size (bytes or FLOPs), y the value
 * (time, or for a GEMM or conv its FLOP/s), q a GEMM's or conv's bytes.
 */
#define CAL_KEY_LEN 320

struct cal_point {
	char key[CAL_KEY_LEN];
	double x, y, q;
	double l;               /* dependent calls (a recurrent pass's
				   steps' kernels); 1 for the others */
	int64_t run_id;
	int summary;            /* rep -1: a tool's own summary */
	int off_rows;           /* 1: a GEMM off 16-byte rows in its
				   dtype's GEMM group (cal_points.c), its
				   time over the group's factor there */
	uint64_t shape;         /* a conv's shape but its batch (a hash of
				   c, h, w, k, r, s, strides and pads): how
				   many shapes a group has; 0 for others */
};

/* What cal_points_read gathered, and what it passed over and why. */
struct cal_points {
	struct cal_point *v;
	int64_t n, cap, n_read;
	struct {
		char what[32];
		const char *why;
		int64_t n;
	} pass[16];
	int n_pass;
	int nomem;
};

/*
 * The cost of one pass of the recurrent layer DeepBench times: a cell
 * of kind (MODEL_LSTM, MODEL_GRU, MODEL_RNN) of hidden units over steps
 * steps at batch n, with a 1-wide input (CUDNN_SKIP_INPUT: only the
 * recurrence runs), at bytes per value; as model_layer_cost fills it,
 * less the input GEMM (gemm_flops and gemm_bytes 0), which DeepBench
 * skips.
 * -1 when the layer does not build.  Shared by the calibration points
 * and the validation rows, so that both count as the simulator does.
 */
/* Plausibility bounds, far above DeepBench's largest recurrent layer
 * (hidden 4,096, batch 128, 1,500 steps); steps as model_zoo.c bounds
 * them (the depth and launches of one pass). */
#define CAL_RNN_MAX 1000000      /* hidden units, batch: at most */
#define CAL_RNN_MAX_STEPS 65536  /* steps: at most */
int cal_rnn_pass_cost(enum model_layer_kind kind, int64_t hidden, int64_t n,
		      int64_t steps, enum model_pass pass, int bytes,
		      struct model_pass_cost *c);

/* Every sample stored for hw as points, sorted by key then size; the
 * caller frees rd->v (also after a failure, when it is NULL). */
int cal_points_read(struct db *db, const char *hw, struct cal_points *rd,
		    struct dlsim_err *err);

/* The enum cal_model a benchmark is fitted with, -1 if none. */
int cal_benchmark_model(const char *benchmark);

/* The value of key in a params string ("k=v k=v") into buf, "" if it is
 * absent; returns buf. */
const char *cal_param_get(const char *params, const char *key, char *buf,
			  size_t n);

/*
 * The fitting models of `calibrate fit` (cal_fitmodels.c): each fits the
 * points in f->x, f->y (sorted by x) and fills f, or returns -1 with the
 * reason in why.
 */
#define CAL_LINE_SEGMENTS 3
#define CAL_BW_LEVELS 4     /* cache levels of a bandwidth curve, at most */
#define CAL_BW_MIN_RUN 2    /* points per level, so that it has a sigma */

int cal_model_lines(struct cal_fitted *f, char *why, size_t n_why);
int cal_model_roofline(struct cal_fitted *f, char *why, size_t n_why);
/* A roofline that is base's times one factor fitted on f's points (the
 * GEMMs off 16-byte rows beside their aligned fit: cal_fitmodels.c). */
int cal_model_scaled(struct cal_fitted *f, const struct cal_fitted *base,
		     char *why, size_t n_why);
/* cal_model_roofline of a group some of whose points (off_rows[i] 1;
 * off_rows may be NULL) ran a factor slower, fitted with that factor. */
int cal_model_roofline_off_rows(struct cal_fitted *f,
				const unsigned char *off_rows, char *why,
				size_t n_why);
int cal_model_plateau(struct cal_fitted *f, char *why, size_t n_why);
int cal_model_levels(struct cal_fitted *f, char *why, size_t n_why);

/* A bandwidth curve: a plateau model with its levels in seg. */
static inline int cal_fitted_is_curve(const struct cal_fitted *f)
{
	return f->model == CAL_MODEL_PLATEAU && f->n_segments > 0;
}

/* A fit's JSON form (cal_fitjson.c). */
void cal_fit_params_json(FILE *o, const struct cal_fitted *f,
			 const char *dtype, const char *device);
void cal_fit_covariance_json(FILE *o, const struct cal_fitted *f);
/* A stored fit row read back into *f: 0; 1 for a kind this dlsim does
 * not read (a later version's: skipped without a word); -1 for a kind it
 * reads whose parameters it cannot, or which no fit could have (a
 * damaged row: cal_fitjson.c's in_domain says which). */
int cal_fit_from_row(struct cal_fitted *f, const struct db_fit *row);

/*
 * Does a model with `extra` more parameters explain significantly more?
 * The F-test of nested models at the 0.1% level (cal_fit.c), dof being
 * the larger model's residual degrees of freedom.  1: keep it.
 */
int cal_f_test_keeps(double sse_fewer, double sse_more, double extra,
		     double dof);

/* ---------------------------------------------------------------- */
/* Validation sets (cal_validate_rows.c, run by cal_validate.c)       */
/* ---------------------------------------------------------------- */

/* One row of a set's file, its fields found by header name. */
struct cal_vctx {
	struct hw_catalog *cat;
	struct db *db;          /* fits to predict with; NULL: none */
	char **f;               /* the row's fields */
	const unsigned char *padded;    /* per field: blanks were trimmed
					   (cal_split_csv_padded) */
	int n;
	int64_t row;            /* its index among the file's data rows */
	const char *const *head;
	int n_head;
	struct dlsim_err *err;  /* where a row function that returns
				   CAL_VAL_FAILED says why */
	struct cal_val_set *set;        /* the run's: damaged fits noted */
};

/* What a row became: both values, or why it was skipped. */
struct cal_vrow {
	char what[160];
	double measured, predicted;
	char unit[24];          /* "": the set's */
	char why[128];
};

/* A row function's return for input that must stop the run (a user's
 * file; the shipped sets skip what they cannot map): v->err says what,
 * and the run names the file and line. */
#define CAL_VAL_FAILED 2

struct cal_val_set_def {
	const char *name, *file, *title, *unit;
	int (*row)(const struct cal_vctx *v, struct cal_vrow *r);
	int heldout;    /* 1: each row costed with kernel fits made without
			   it (cal_validate_heldout.c); 0: the caller's */
	/* NULL for a shipped set; a user's file's check of the header (its
	 * n names) that refuses the file, err saying why (its repeated rows
	 * are kept: they are measurements, not transcriptions) */
	int (*head)(const char *const *head, int n, struct dlsim_err *err);
};

/* The 64-bit FNV-1a hash of s[0, n). */
uint64_t cal_val_fnv1a(const char *s, size_t n);

/* The shape of a kernel set's data row f[0, n) under header head[0, nh):
 * its hardware, precision and dimensions joined by commas (a GEMM file's
 * M, N, K; a convolution file's W, H, C, N, K, filter, pad and stride),
 * into key[0, cap), cut at the last whole column that fits; its length.
 * Its fold (0 or 1) is the low bit of the key's FNV-1a hash
 * (cal_validate_heldout.c). */
size_t cal_val_shape_key(const char *const *head, int nh, char *const *f,
			 int n, char *key, size_t cap);
int cal_val_fold(const char *const *head, int nh, char *const *f, int n);

/* Seed db with the shipped DeepBench GEMM and convolution rows outside
 * fold k, and fit them: what fold k's rows are predicted with. */
int cal_val_seed_fold(struct db *db, int k, struct dlsim_err *err);

extern const struct cal_val_set_def cal_val_sets[];
extern const int cal_val_n_sets;

/* Run set def over the CSV text data[0, size) named fname (for error
 * lines) into *out, as cal_validate runs a compiled-in file; the tests
 * feed it damaged rows. */
int cal_val_run_text(const struct cal_val_set_def *def, const char *fname,
		     const char *data, size_t size, struct hw_catalog *cat,
		     struct db *db, struct cal_val_set *out,
		     struct dlsim_err *err);

/* The field under header key ("" when absent), as a positive integer (0
 * otherwise) or a positive finite number (NAN otherwise). */
const char *cal_val_col(const struct cal_vctx *v, const char *key);
/* 1 when the field under key had blanks around it in the file. */
int cal_val_padded(const struct cal_vctx *v, const char *key);
int64_t cal_val_int(const struct cal_vctx *v, const char *key);
double cal_val_num(const struct cal_vctx *v, const char *key);

/* Mark r skipped for why; returns 1. */
int cal_val_skip(struct cal_vrow *r, const char *why);

/* The system spec with its calibration when v's database has one (s->calib
 * set); -1 if the catalog cannot resolve spec. */
int cal_val_system(const struct cal_vctx *v, const char *spec,
		   struct hw_system *s, struct hw_calib *cal);

/* Note in v's set that the row on system spec is predicted without the
 * damaged fits cal counted (cal->n_unreadable), under the first one's id
 * (a row on another system with the same first one adds to its count);
 * nothing when there are none.  A damaged fit is skipped by the loader,
 * so the run's caller, not the row, says so. */
void cal_val_note_calib(const struct cal_vctx *v, const char *spec,
			const struct hw_calib *cal);

/* The kernel and collective sets' rows (cal_validate_kernels.c). */
int cal_val_row_gemm(const struct cal_vctx *v, struct cal_vrow *r);
int cal_val_row_conv(const struct cal_vctx *v, struct cal_vrow *r);
int cal_val_row_rnn(const struct cal_vctx *v, struct cal_vrow *r);
int cal_val_row_nccl(const struct cal_vctx *v, struct cal_vrow *r);
int cal_val_row_deepbench_allreduce(const struct cal_vctx *v,
				    struct cal_vrow *r);

/* How a data-parallel row's gradients meet: dlsim's default allreduce;
 * as Horovod reduces them (NCCL's ring, 64 MB Tensor Fusion buffers);
 * in a parameter server on the host CPUs (sim_options.update_on_host). */
enum cal_val_reduce {
	CAL_REDUCE_DEFAULT = 0,
	CAL_REDUCE_HOROVOD,
	CAL_REDUCE_HOST
};

/* A data-parallel row (cal_validate_rows.c): model (a zoo name or
 * "NAME:key=value,...") on n devices dev at batch per device and
 * precision p with optimizer opt, element-wise fusion with fuse, the
 * gradients met as reduce says; predicted in samples/s against measured.
 * 0, or cal_val_skip's 1 with the reason. */
int cal_val_dp_row(const struct cal_vctx *v, const char *model,
		   const char *dev, int64_t n, int64_t batch,
		   enum dlsim_precision p, int fuse,
		   enum cal_val_reduce reduce, enum sim_optimizer opt,
		   double measured, struct cal_vrow *r);

/* DeepLearningExamples' BERT-Large pre-training rows (cal_validate_bert.c). */
int cal_val_row_dle_bert(const struct cal_vctx *v, struct cal_vrow *r);

/* DeepLearningExamples' README tables (cal_validate_bert.c): the catalog
 * device of a gpu_type column's DGX (V100-16GB: v100, ...), NULL when
 * none; the precision of a precision column (fp32, tf32, or mixed:
 * fp16 math), -1 for another. */
const char *cal_val_dle_device(const char *gpu_type);
int cal_val_dle_precision(const char *text, enum dlsim_precision *p);

/* DeepLearningExamples' PyTorch Transformer and GNMT, tokens/s
 * (cal_validate_nmt.c). */
int cal_val_row_dle_transformer(const struct cal_vctx *v,
				struct cal_vrow *r);
int cal_val_row_dle_gnmt(const struct cal_vctx *v, struct cal_vrow *r);

/* DeepLearningExamples' PyTorch SSD300, images/s (cal_validate_ssd.c). */
int cal_val_row_dle_ssd(const struct cal_vctx *v, struct cal_vrow *r);

/* The text of a file of data/validation/ compiled into dlsim, named by
 * the end of its path ("wikipedia_seq512_histogram.csv"), and its size in
 * *size; NULL when none is.  Not NUL-terminated. */
const char *cal_val_builtin(const char *name, size_t *size);

/* The MLPerf Training ResNet-50 rows (cal_validate_mlperf.c). */
int cal_val_row_mlperf(const struct cal_vctx *v, struct cal_vrow *r);

/* The ImageNet time-to-train records (cal_validate_imagenet.c). */
int cal_val_row_imagenet(const struct cal_vctx *v, struct cal_vrow *r);

/* A user's measurement file (cal_validate_user.c, which gives the
 * format): its header check and its rows, every failure CAL_VAL_FAILED. */
int cal_val_user_head(const char *const *head, int n, struct dlsim_err *err);
int cal_val_row_user(const struct cal_vctx *v, struct cal_vrow *r);

#endif /* DLSIM_CALIBRATE_CAL_H */
