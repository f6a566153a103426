/*
 * cal_nccl.c -- nccl-tests results (NVIDIA/nccl-tests: all_reduce_perf,
 * all_gather_perf, reduce_scatter_perf, broadcast_perf, reduce_perf,
 * alltoall_perf), as the text table they print or the -J JSON file.
 *
 * SAMPLES: one per message size and placement, value = the time of one
 * collective in seconds (the table's "time" column, in us), benchmark =
 * the collective as sim_collective_name() spells it ("allreduce",
 * "allgather", "reduce-scatter", "broadcast", "reduce", "all-to-all"),
 * params in this order:
 *
 *   bytes=<size column> ranks=<ranks> op=<redop> inplace=0|1 dtype=<type>
 *
 * bytes is nccl-tests' "size" (the whole buffer, as sim_collective_time
 * takes it); op is the redop column (sum, prod, max, min, avg, mulsum,
 * or none for the collectives that do not reduce); dtype is dlsim's name
 * (float -> fp32, half -> fp16, bfloat16 -> bf16, double -> fp64, the
 * f8 types -> fp8; integer types keep theirs: int8, uint8, int32, ...).
 *
 * TEXT: header lines start with '#'.  Which collective ran comes from
 * "# Collective test starting: all_reduce_perf" (printed by recent
 * nccl-tests, 2.17 at least).  Older output lacks that line; the
 * collective is then inferred from the first row (root >= 0: broadcast
 * or reduce by the redop; size = count x type size: allreduce; size =
 * ranks x that: reduce-scatter), or the file is refused where the row
 * cannot tell (all-gather from all-to-all).  The rank count is the number of
 * "#  Rank r Group g ..." lines in the first line's group, or nThread x
 * nGpus of the "# nThread N nGpus G" line if that is more (nccl-tests
 * cuts the device list of a process at 2 KiB).  Column positions come
 * from the "#  size  count  type  redop  root  time ..." header, so the
 * optional #bitdiff, per-iteration and timestamp columns are skipped.
 * A line that does not start with a digit and not with '#' is noise
 * (mpirun warnings, NCCL_DEBUG=INFO lines, "host: Test NCCL failure")
 * and is skipped; one that does is a row, and must be whole and inside a
 * table.  Several runs in one file are read one after another.
 *
 * JSON (-J, JSON_FILE_VERSION 2 and 3 of src/util.cu): the program is
 * args[0]; ranks = len(config.devices) x config.nthreads x config.ngpus
 * (one device entry per process); each element of "results" gives size,
 * type, redop, root and the objects out_of_place / in_place with "time"
 * (or "cpu_time") in us and "nwrong"; a result with neither (or both
 * null) is refused, as is any object naming a key twice (cal_json.c).
 *
 * A row whose data check failed (#wrong > 0) is refused: its time is
 * not a measurement of a working collective.
 *
 * LIMITATIONS: communicators split with NCCL_TESTS_SPLIT_MASK are
 * counted by the first group's Rank lines in text and not at all in
 * JSON; sendrecv, gather, scatter, hypercube and alltoallv programs are
 * refused; the root column is not kept.
 */
#include "calibrate/cal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

#define MAX_BYTES ((int64_t)1 << 60)

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

/* The programs nccl-tests builds and the collective each times. */
static const struct {
	const char *program;
	enum sim_collective coll;
} programs[] = {
	{ "all_reduce_perf", SIM_COLL_ALLREDUCE },
	{ "all_gather_perf", SIM_COLL_ALLGATHER },
	{ "reduce_scatter_perf", SIM_COLL_REDUCE_SCATTER },
	{ "broadcast_perf", SIM_COLL_BROADCAST },
	{ "reduce_perf", SIM_COLL_REDUCE },
	{ "alltoall_perf", SIM_COLL_ALLTOALL },
};

#define N_PROGRAMS ((int)(sizeof(programs) / sizeof(programs[0])))
#define PROGRAM_LIST "all_reduce_perf, all_gather_perf, " \
	"reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf"

/* test_typenames[] of nccl-tests' src/common.cu, old and new. */
static const struct cal_dtype nccl_types[] = {
	{ "int8", "int8", 1 }, { "char", "int8", 1 },
	{ "uint8", "uint8", 1 },
	{ "int32", "int32", 4 }, { "int", "int32", 4 },
	{ "uint32", "uint32", 4 },
	{ "int64", "int64", 8 }, { "uint64", "uint64", 8 },
	{ "half", "fp16", 2 }, { "float", "fp32", 4 },
	{ "double", "fp64", 8 }, { "bfloat16", "bf16", 2 },
	{ "f8e4m3", "fp8", 1 }, { "f8e5m2", "fp8", 1 },
	{ NULL, NULL, 0 }
};

#define TYPE_LIST "int8, uint8, int32, uint32, int64, uint64, half, " \
	"float, double, bfloat16, f8e4m3, f8e5m2"

static const char *const redops[] = {
	"sum", "prod", "max", "min", "avg", "mulsum", "none", NULL
};

/* One result row, from text or JSON. */
struct row {
	int64_t bytes, count, root;
	const struct cal_dtype *type;
	const char *redop;
	double time_us[2];      /* out-of-place, in-place */
	int have[2];
};

/* What the text has said so far about the run being read. */
struct text_state {
	int coll;               /* enum sim_collective; -1: not known */
	int named;              /* 1: a "Collective test starting" line
				   opened this run, before its table */
	int64_t nthread, ngpus; /* 0: no "# nThread" line */
	int64_t group_lines;    /* Rank lines in the first line's group */
	int64_t first_group;    /* -1: no Rank line yet */
	int seen_table;         /* a column header anywhere in the file */
	int in_table;
	int ncol;               /* tokens in a row */
	int col_time[2], col_wrong[2];
};

/* ---------------------------------------------------------------- */
/* Private helpers: shared by text and JSON                          */
/* ---------------------------------------------------------------- */

/* The collective of a program path ("./build/all_reduce_perf"): exact
 * name, or the name followed by '_' or '.' ("all_reduce_perf_mpi"). */
static int program_coll(const char *path)
{
	const char *base = strrchr(path, '/');
	int i;

	base = base ? base + 1 : path;
	for (i = 0; i < N_PROGRAMS; i++) {
		size_t n = strlen(programs[i].program);

		if (strncmp(base, programs[i].program, n) == 0 &&
		    (base[n] == '\0' || base[n] == '_' || base[n] == '.'))
			return (int)programs[i].coll;
	}
	return -1;
}

/* The collective a row of old output must come from, or -1. */
static int infer(const struct row *r, int64_t ranks)
{
	int reduces = strcmp(r->redop, "none") != 0;
	double unit = (double)r->count * r->type->bytes;

	if (r->root >= 0)
		return reduces ? SIM_COLL_REDUCE : SIM_COLL_BROADCAST;
	if (!reduces || ranks < 2 || r->count == 0)
		return -1;
	if ((double)r->bytes == unit)
		return SIM_COLL_ALLREDUCE;
	if ((double)r->bytes == unit * (double)ranks)
		return SIM_COLL_REDUCE_SCATTER;
	return -1;
}

/* Add the row's samples; *coll is inferred first if still unknown. */
static int emit(struct cal_in *in, struct cal_samples *out, int *coll,
		int64_t ranks, const struct row *r, struct dlsim_err *err)
{
	struct cal_params p;
	int i, rc;

	if (*coll < 0 && (*coll = infer(r, ranks)) < 0)
		return cal_fail(in, err, "cannot tell which collective this "
				"is: no '# Collective test starting: "
				"PROGRAM' line (recent nccl-tests print one; "
				"add it)");
	for (i = 0; i < 2; i++) {
		if (!r->have[i])
			continue;
		cal_params_init(&p);
		cal_params_int(&p, "bytes", r->bytes);
		cal_params_int(&p, "ranks", ranks);
		cal_params_str(&p, "op", r->redop);
		cal_params_int(&p, "inplace", i);
		cal_params_str(&p, "dtype", r->type->name);
		rc = cal_sample_add(out, in, sim_collective_name(
					    (enum sim_collective)*coll), &p,
				    r->time_us[i] * 1e-6, "s", err);
		if (rc)
			return rc;
	}
	return DLSIM_OK;
}

static int bad_type(struct cal_in *in, const char *t, struct dlsim_err *err)
{
	return cal_fail(in, err, "unknown dtype '%s' (expected "
			TYPE_LIST ")", t);
}

static int bad_redop(struct cal_in *in, const char *t,
		     struct dlsim_err *err)
{
	return cal_fail(in, err, "unknown redop '%s' (expected sum, prod, "
			"max, min, avg, mulsum, none)", t);
}

static int failed_check(struct cal_in *in, double wrong,
			struct dlsim_err *err)
{
	return cal_fail(in, err, "%.0f wrong elements: this size failed "
			"its data check, so its time is not kept", wrong);
}

/* ---------------------------------------------------------------- */
/* Private helpers: text                                             */
/* ---------------------------------------------------------------- */

static void new_run(struct text_state *st, int coll, int named)
{
	st->coll = coll;
	st->named = named;
	st->nthread = st->ngpus = 0;
	st->group_lines = 0;
	st->first_group = -1;
	st->in_table = 0;
}

static int64_t text_ranks(const struct text_state *st)
{
	int64_t threads = st->nthread * st->ngpus;

	return st->group_lines > threads ? st->group_lines : threads;
}

/* "# Collective test starting: PROGRAM" */
static int starting_line(struct cal_in *in, struct text_state *st,
			 char **tok, int n, struct dlsim_err *err)
{
	int c;

	if (n < 4)
		return cal_fail(in, err, "no program after 'Collective test "
				"starting:'");
	c = program_coll(tok[3]);
	if (c < 0)
		return cal_fail(in, err, "unsupported nccl-tests program "
				"'%s' (expected " PROGRAM_LIST ")", tok[3]);
	new_run(st, c, 1);
	return DLSIM_OK;
}

/* "# nThread N nGpus G ..." */
static int threads_line(struct cal_in *in, struct text_state *st,
			char **tok, int n, struct dlsim_err *err)
{
	if (!st->named)
		new_run(st, -1, 0);
	st->named = 0;
	if (n < 4 || strcmp(tok[2], "nGpus") != 0)
		return cal_fail(in, err, "expected '# nThread N nGpus G ...'");
	if (cal_count(in, tok[1], "nThread", 1 << 20, &st->nthread, err) ||
	    cal_count(in, tok[3], "nGpus", 1 << 20, &st->ngpus, err))
		return DLSIM_EPARSE;
	return DLSIM_OK;
}

/* "#  Rank r Group g Pid ..." (older: no Group, which is group 0) */
static int rank_line(struct cal_in *in, struct text_state *st, char **tok,
		     int n, struct dlsim_err *err)
{
	int64_t group = 0;

	if (n >= 4 && strcmp(tok[2], "Group") == 0 &&
	    cal_uint(in, tok[3], "Group", 1 << 30, &group, err))
		return DLSIM_EPARSE;
	if (st->first_group < 0)
		st->first_group = group;
	if (group == st->first_group)
		st->group_lines++;
	return DLSIM_OK;
}

/* "#  size  count  type  redop  root  time  algbw  busbw  #wrong ..." */
static int header_line(struct cal_in *in, struct text_state *st,
		       char **tok, int n, struct dlsim_err *err)
{
	static const char *const lead[] = {
		"size", "count", "type", "redop", "root"
	};
	int i, t = 0, w = 0;

	for (i = 0; i < 5; i++)
		if (i >= n || strcmp(tok[i], lead[i]) != 0)
			return cal_fail(in, err, "expected the column header "
					"'size count type redop root ...'");
	st->ncol = n;
	for (i = 5; i < n; i++) {
		if ((strcmp(tok[i], "time") == 0 ||
		     strcmp(tok[i], "cputime") == 0) && t < 2)
			st->col_time[t++] = i;
		else if (strcmp(tok[i], "#wrong") == 0 && w < 2)
			st->col_wrong[w++] = i;
		else if (strcmp(tok[i], "timestamp") == 0)
			st->ncol++;     /* printed as a date and a time */
	}
	if (t < 2 || w < 2)
		return cal_fail(in, err, "the column header lacks the "
				"out-of-place and in-place time and #wrong "
				"columns");
	st->named = 0;
	st->seen_table = 1;
	st->in_table = 1;
	return DLSIM_OK;
}

/* A '#' line: run boundaries, devices, the header, the footer. */
static int comment_line(struct cal_in *in, struct text_state *st,
			char *line, struct dlsim_err *err)
{
	char *tok[CAL_MAX_FIELDS + 1];
	int n = cal_split_blanks(line + 1, tok, CAL_MAX_FIELDS);

	if (n > CAL_MAX_FIELDS)
		n = CAL_MAX_FIELDS;
	if (n == 0)
		return DLSIM_OK;
	if (n >= 3 && strcmp(tok[0], "Collective") == 0 &&
	    strcmp(tok[1], "test") == 0 && strcmp(tok[2], "starting:") == 0)
		return starting_line(in, st, tok, n, err);
	if (strcmp(tok[0], "nThread") == 0)
		return threads_line(in, st, tok, n, err);
	if (strcmp(tok[0], "Rank") == 0)
		return rank_line(in, st, tok, n, err);
	if (strcmp(tok[0], "size") == 0)
		return header_line(in, st, tok, n, err);
	if (strcmp(tok[0], "Out") == 0 || strcmp(tok[0], "Avg") == 0 ||
	    strcmp(tok[0], "Collective") == 0)
		st->in_table = 0;
	return DLSIM_OK;
}

/* The #wrong column: "N/A" (no check ran) or 0. */
static int wrong_ok(struct cal_in *in, const char *s, struct dlsim_err *err)
{
	int64_t wrong;

	if (strcmp(s, "N/A") == 0)
		return DLSIM_OK;
	if (cal_uint(in, s, "#wrong", MAX_BYTES, &wrong, err))
		return DLSIM_EPARSE;
	return wrong ? failed_check(in, (double)wrong, err) : DLSIM_OK;
}

static int text_row(struct cal_in *in, struct text_state *st, char **tok,
		    int n, struct cal_samples *out, struct dlsim_err *err)
{
	struct row r;
	int i;

	if (n > CAL_MAX_FIELDS)
		return cal_fail(in, err, "the row has more than %d columns",
				CAL_MAX_FIELDS);
	if (n != st->ncol)
		return cal_fail(in, err, "the row has %d columns, the header "
				"%d", n, st->ncol);
	memset(&r, 0, sizeof(r));
	if (cal_uint(in, tok[0], "size", MAX_BYTES, &r.bytes, err) ||
	    cal_uint(in, tok[1], "count", MAX_BYTES, &r.count, err))
		return DLSIM_EPARSE;
	if (!(r.type = cal_dtype_find(nccl_types, tok[2])))
		return bad_type(in, tok[2], err);
	if (core_name_index(redops, tok[3]) < 0)
		return bad_redop(in, tok[3], err);
	r.redop = tok[3];
	r.root = -1;
	if (strcmp(tok[4], "-1") != 0 &&
	    cal_uint(in, tok[4], "root", 1 << 30, &r.root, err))
		return DLSIM_EPARSE;
	for (i = 0; i < 2; i++) {
		if (cal_positive(in, tok[st->col_time[i]], "time",
				 &r.time_us[i], err) ||
		    wrong_ok(in, tok[st->col_wrong[i]], err))
			return DLSIM_EPARSE;
		r.have[i] = 1;
	}
	if (text_ranks(st) == 0)
		return cal_fail(in, err, "cannot tell how many ranks ran: no "
				"'# Rank' lines and no '# nThread N nGpus G' "
				"line before the table");
	return emit(in, out, &st->coll, text_ranks(st), &r, err);
}

static int text_parse(struct cal_in *in, struct cal_samples *out,
		      struct dlsim_err *err)
{
	struct text_state st;
	char *line, *tok[CAL_MAX_FIELDS + 1];
	int rc = DLSIM_OK;

	memset(&st, 0, sizeof(st));
	new_run(&st, -1, 0);
	while (!rc && (line = cal_in_next(in))) {
		if (line[0] == '#') {
			rc = comment_line(in, &st, line, err);
		} else if (!cal_line_is_row(line)) {
			continue;       /* blank, or mpirun and NCCL noise */
		} else if (st.in_table) {
			rc = text_row(in, &st, tok, cal_split_blanks(
					      line, tok, CAL_MAX_FIELDS),
				      out, err);
		} else {
			rc = cal_fail(in, err, "a result row outside a table "
				      "(no '#  size  count  type  redop  "
				      "root ...' header before it)");
		}
	}
	if (!rc && !st.seen_table)
		rc = cal_fail(in, err, "not nccl-tests output: no '#  size  "
			      "count  type  redop  root ...' column header");
	return rc;
}

/* ---------------------------------------------------------------- */
/* Private helpers: JSON                                             */
/* ---------------------------------------------------------------- */

/* A whole number >= 0 held in a JSON number. */
static int json_uint(struct cal_in *in, const struct cal_json *v,
		     const char *what, int64_t *out, struct dlsim_err *err)
{
	if (!v || v->type != CAL_JSON_NUMBER || v->num < 0 ||
	    v->num > (double)MAX_BYTES || floor(v->num) != v->num)
		return cal_fail(in, err, "'%s' must be a whole number >= 0",
				what);
	*out = (int64_t)v->num;
	return DLSIM_OK;
}

/* The rank count from "args" and "config". */
static int json_run(struct cal_in *in, const struct cal_json_doc *d,
		    int *coll, int64_t *ranks, struct dlsim_err *err)
{
	const struct cal_json *root = &d->v[0], *prog, *cfg, *dev;
	int64_t nthreads, ngpus, procs = 0;

	in->line = root->line;
	prog = cal_json_first(d, cal_json_get(d, root, "args"));
	if (!prog || prog->type != CAL_JSON_STRING)
		return cal_fail(in, err, "no 'args' list naming the "
				"nccl-tests program");
	if ((*coll = program_coll(prog->str)) < 0)
		return cal_fail_at(in, prog->line, err, "unsupported "
				   "nccl-tests program '%s' (expected "
				   PROGRAM_LIST ")", prog->str);
	cfg = cal_json_get(d, root, "config");
	if (!cfg)
		return cal_fail(in, err, "no 'config' object");
	in->line = cfg->line;
	if (json_uint(in, cal_json_get(d, cfg, "nthreads"), "nthreads",
		      &nthreads, err) ||
	    json_uint(in, cal_json_get(d, cfg, "ngpus"), "ngpus", &ngpus,
		      err))
		return DLSIM_EPARSE;
	dev = cal_json_get(d, cfg, "devices");
	for (dev = cal_json_first(d, dev); dev; dev = cal_json_next(d, dev))
		procs++;
	*ranks = (procs ? procs : 1) * nthreads * ngpus;
	if (*ranks <= 0)
		return cal_fail(in, err, "'nthreads' and 'ngpus' must be "
				"positive");
	return DLSIM_OK;
}

/* "time" (or "cpu_time") and "nwrong" of out_of_place / in_place. */
static int json_placement(struct cal_in *in, const struct cal_json_doc *d,
			  const struct cal_json *res, int i, struct row *r,
			  struct dlsim_err *err)
{
	static const char *const keys[] = { "out_of_place", "in_place" };
	const struct cal_json *pl = cal_json_get(d, res, keys[i]), *t, *w;

	if (!pl || pl->type == CAL_JSON_NULL)
		return DLSIM_OK;
	in->line = pl->line;
	t = cal_json_get(d, pl, "time");
	if (!t)
		t = cal_json_get(d, pl, "cpu_time");
	if (!t || t->type != CAL_JSON_NUMBER || !(t->num > 0))
		return cal_fail(in, err, "'%s' needs a positive 'time' in us",
				keys[i]);
	w = cal_json_get(d, pl, "nwrong");
	if (w && w->type == CAL_JSON_NUMBER && w->num != 0)
		return failed_check(in, w->num, err);
	if (w && w->type != CAL_JSON_NUMBER && w->type != CAL_JSON_NULL)
		return cal_fail(in, err, "'nwrong' must be a number or null");
	r->time_us[i] = t->num;
	r->have[i] = 1;
	return DLSIM_OK;
}

/* "root" is written as the text's padded "%6i" string, e.g. "    -1". */
static int json_root(struct cal_in *in, const struct cal_json *v,
		     int64_t *root, struct dlsim_err *err)
{
	char buf[32], *tok[2];

	*root = -1;
	if (v && v->type == CAL_JSON_NUMBER)
		return json_uint(in, v, "root", root, err);
	if (!v || v->type != CAL_JSON_STRING)
		return cal_fail(in, err, "'root' must be a string or number");
	core_strlcpy(buf, v->str, sizeof(buf));
	if (cal_split_blanks(buf, tok, 1) != 1)
		return cal_fail(in, err, "'root' is empty");
	if (strcmp(tok[0], "-1") == 0)
		return DLSIM_OK;
	return cal_uint(in, tok[0], "root", 1 << 30, root, err);
}

static int json_result(struct cal_in *in, const struct cal_json_doc *d,
		       const struct cal_json *res, int *coll, int64_t ranks,
		       struct cal_samples *out, struct dlsim_err *err)
{
	const struct cal_json *type, *op;
	struct row r;

	memset(&r, 0, sizeof(r));
	in->line = res->line;
	if (res->type != CAL_JSON_OBJECT)
		return cal_fail(in, err, "a result must be an object");
	type = cal_json_get(d, res, "type");
	op = cal_json_get(d, res, "redop");
	if (json_uint(in, cal_json_get(d, res, "size"), "size", &r.bytes,
		      err) ||
	    json_uint(in, cal_json_get(d, res, "count"), "count", &r.count,
		      err) ||
	    json_root(in, cal_json_get(d, res, "root"), &r.root, err))
		return DLSIM_EPARSE;
	if (!type || type->type != CAL_JSON_STRING ||
	    !(r.type = cal_dtype_find(nccl_types, type->str)))
		return bad_type(in, type && type->str ? type->str : "", err);
	if (!op || op->type != CAL_JSON_STRING ||
	    core_name_index(redops, op->str) < 0)
		return bad_redop(in, op && op->str ? op->str : "", err);
	r.redop = op->str;
	if (json_placement(in, d, res, 0, &r, err) ||
	    json_placement(in, d, res, 1, &r, err))
		return DLSIM_EPARSE;
	in->line = res->line;
	/* a result that timed nothing is a damaged file, not a size to
	 * pass over: the import would say fewer samples and no why */
	if (!r.have[0] && !r.have[1])
		return cal_fail(in, err, "neither 'out_of_place' nor "
				"'in_place' holds a time");
	return emit(in, out, coll, ranks, &r, err);
}

static int json_parse(struct cal_in *in, struct cal_samples *out,
		      struct dlsim_err *err)
{
	struct cal_json_doc d;
	const struct cal_json *results, *res;
	int64_t ranks = 0, i = 0;
	int coll = -1, rc;

	if ((rc = cal_json_parse(in, &d, err)))
		return rc;
	in->line = 1;
	results = cal_json_get(&d, &d.v[0], "results");
	if (!results || results->type != CAL_JSON_ARRAY)
		rc = cal_fail(in, err, "not nccl-tests -J output: no "
			      "'results' list");
	if (!rc)
		rc = json_run(in, &d, &coll, &ranks, err);
	for (res = cal_json_first(&d, results); !rc && res;
	     res = cal_json_next(&d, res), i++) {
		snprintf(in->where, sizeof(in->where), "results[%lld]",
			 (long long)i);
		rc = json_result(in, &d, res, &coll, ranks, out, err);
	}
	in->where[0] = '\0';
	cal_json_release(&d);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_nccl_parse(struct cal_in *in, struct cal_samples *out,
		   struct dlsim_err *err)
{
	const char *p = in->text + in->pos;

	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return *p == '{' ? json_parse(in, out, err) : text_parse(in, out,
								    err);
}
