/*
 * cal_osu.c -- OSU Micro-Benchmarks results (osu_latency, osu_bw,
 * osu_allreduce; MVAPICH's OMB 5.x to 7.x, any MPI).
 *
 * OMB prints a title, "# OSU MPI Latency Test v7.3" (MPI-CUDA, MPI-ROCM,
 * NCCL ... in place of MPI for the accelerator builds), since 7.0 a
 * "# Datatype: MPI_CHAR." line, then a column header and one row per
 * message size.  The title says which test ran (7.x osu_latency and
 * osu_allreduce both head their column "Avg Latency(us)"); the header
 * says where the value is and in which unit:
 *
 *   osu_latency    "# Size          Latency (us)"  (7.x: "Avg Latency(us)")
 *   osu_bw         "# Size      Bandwidth (MB/s)"   MB = 10^6 B in OMB
 *   osu_allreduce  "# Size       Avg Latency(us)"  [ Min Latency(us)
 *                  Max Latency(us)  Iterations ] with -f
 *
 * Header columns are separated by two or more blanks (a name may hold
 * one); rows by any blanks.  Lines that start with neither '#' nor a
 * digit are MPI, UCX or shell noise and are skipped; a line that starts
 * with a digit is a row and must be whole and come after a header.
 * Further columns (Min/Max, Iterations, Validation, tail percentiles)
 * are counted and skipped; a row whose Validation is not "Pass" is
 * refused.
 *
 * SAMPLES: one per size, rep -1 (OMB reports the mean of its
 * iterations), params in this order:
 *
 *   p2p_latency  bytes=<Size> ranks=2 dtype=<type>          value in s
 *   p2p_bw       bytes=<Size> ranks=2 dtype=<type>          value in B/s
 *   allreduce    bytes=<Size> ranks=0 op=sum inplace=0 dtype=<type>
 *                                                           value in s
 *
 * dtype is dlsim's name for the Datatype line's MPI type; without that
 * line, int8 (MPI_CHAR) for the point-to-point tests and fp32 for
 * osu_allreduce, which used MPI_FLOAT before 7.0.
 *
 * LIMITATIONS: osu_allreduce does not print how many processes ran, so
 * its samples say ranks=0 (unknown); the --hw given to the import names
 * the system.  Other OMB tests are refused.
 */
#include "calibrate/cal.h"

#include <stdio.h>
#include <string.h>

#include "core/banned.h"

#define MAX_BYTES ((int64_t)1 << 60)
#define MAX_COLS 16

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

enum osu_test { OSU_NONE = -1, OSU_LATENCY, OSU_BW, OSU_ALLREDUCE };

/* The tests this importer reads: title, benchmark, default dtype. */
static const struct {
	const char *title;
	const char *benchmark;
	const char *dtype;
} tests[] = {
	{ "Latency", "p2p_latency", "int8" },
	{ "Bandwidth", "p2p_bw", "int8" },
	{ "Allreduce Latency", "allreduce", "fp32" },
};

#define N_TESTS ((int)(sizeof(tests) / sizeof(tests[0])))

static const struct cal_dtype mpi_types[] = {
	{ "MPI_CHAR", "int8", 1 }, { "MPI_SIGNED_CHAR", "int8", 1 },
	{ "MPI_UNSIGNED_CHAR", "uint8", 1 }, { "MPI_BYTE", "int8", 1 },
	{ "MPI_INT", "int32", 4 }, { "MPI_FLOAT", "fp32", 4 },
	{ "MPI_DOUBLE", "fp64", 8 },
	{ NULL, NULL, 0 }
};

/* The value columns: header name, scale to SI, unit. */
static const struct {
	const char *name;
	double scale;
	const char *unit;
} values[] = {
	{ "Latency (us)", 1e-6, "s" },
	{ "Avg Latency(us)", 1e-6, "s" },
	{ "Avg Latency (us)", 1e-6, "s" },
	{ "Bandwidth (MB/s)", 1e6, "B/s" },
};

#define N_VALUES ((int)(sizeof(values) / sizeof(values[0])))

struct osu_state {
	enum osu_test test;
	const char *dtype;      /* dlsim's name */
	int in_table, seen_table;
	int ncol;
	int col_value, col_valid;   /* -1: none */
	double scale;
	const char *unit;
	const char *value_name;     /* the value column's header */
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* Split s in place at runs of two or more blanks. */
static int split_columns(char *s, char **col, int max)
{
	int n = 0;

	for (;;) {
		char *end;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		col[n++] = s;
		for (end = s; *end; end++)
			if ((end[0] == ' ' || end[0] == '\t') &&
			    (end[1] == ' ' || end[1] == '\t' || !end[1]))
				break;
		s = end;
		if (*s)
			*s++ = '\0';
	}
}

/* "# OSU MPI-CUDA Allreduce Latency Test v7.1" */
static int title_line(struct cal_in *in, struct osu_state *st, char **tok,
		      int n, struct dlsim_err *err)
{
	char title[64] = "";
	size_t used = 0;
	int i, end;

	for (end = 2; end < n && strcmp(tok[end], "Test") != 0; end++)
		;
	if (end == n)
		return cal_fail(in, err, "expected '# OSU ... Test vX' title");
	for (i = 2; i < end; i++)
		used += (size_t)snprintf(title + used, sizeof(title) - used,
					 "%s%s", i > 2 ? " " : "", tok[i]);
	for (i = 0; i < N_TESTS; i++)
		if (strcmp(title, tests[i].title) == 0)
			break;
	if (i == N_TESTS)
		return cal_fail(in, err, "unsupported OSU test '%s' (expected "
				"Latency, Bandwidth, Allreduce Latency)",
				title);
	st->test = (enum osu_test)i;
	st->dtype = tests[i].dtype;
	st->in_table = 0;
	return DLSIM_OK;
}

/* "# Datatype: MPI_CHAR." */
static int datatype_line(struct cal_in *in, struct osu_state *st,
			 char **tok, int n, struct dlsim_err *err)
{
	const struct cal_dtype *t;
	size_t len;

	if (n < 2)
		return cal_fail(in, err, "no type after 'Datatype:'");
	len = strlen(tok[1]);
	if (len && tok[1][len - 1] == '.')
		tok[1][len - 1] = '\0';
	if (!(t = cal_dtype_find(mpi_types, tok[1])))
		return cal_fail(in, err, "unknown dtype '%s' (expected "
				"MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, "
				"MPI_BYTE, MPI_INT, MPI_FLOAT, MPI_DOUBLE)",
				tok[1]);
	st->dtype = t->name;
	return DLSIM_OK;
}

/* "# Size   Avg Latency(us)   Min Latency(us) ..." */
static int header_line(struct cal_in *in, struct osu_state *st,
		       char *text, struct dlsim_err *err)
{
	char *col[MAX_COLS + 1];
	int n = split_columns(text, col, MAX_COLS), i, j;

	if (st->test == OSU_NONE)
		return cal_fail(in, err, "a column header before the "
				"'# OSU MPI ... Test' title");
	if (n > MAX_COLS)
		return cal_fail(in, err, "more than %d columns", MAX_COLS);
	st->ncol = n;
	st->col_value = st->col_valid = -1;
	for (i = 1; i < n; i++) {
		if (strcmp(col[i], "Validation") == 0)
			st->col_valid = i;
		for (j = 0; j < N_VALUES && st->col_value < 0; j++)
			if (strcmp(col[i], values[j].name) == 0 &&
			    (strcmp(values[j].unit, "B/s") == 0) ==
			    (st->test == OSU_BW)) {
				st->col_value = i;
				st->scale = values[j].scale;
				st->unit = values[j].unit;
				st->value_name = values[j].name;
			}
	}
	if (st->col_value < 0)
		return cal_fail(in, err, "no '%s' column in the header",
				st->test == OSU_BW ? "Bandwidth (MB/s)" :
				"Latency (us)' or 'Avg Latency(us)");
	st->in_table = st->seen_table = 1;
	return DLSIM_OK;
}

static int comment_line(struct cal_in *in, struct osu_state *st,
			char *line, struct dlsim_err *err)
{
	char copy[512], *tok[CAL_MAX_FIELDS + 1];
	int n;

	if (strlen(line) >= sizeof(copy))
		return DLSIM_OK;        /* no line OMB writes is this long */
	memcpy(copy, line + 1, strlen(line));
	n = cal_split_blanks(copy, tok, CAL_MAX_FIELDS);
	if (n > CAL_MAX_FIELDS)
		n = CAL_MAX_FIELDS;
	if (n >= 2 && strcmp(tok[0], "OSU") == 0)
		return title_line(in, st, tok, n, err);
	if (n >= 1 && strcmp(tok[0], "Datatype:") == 0)
		return datatype_line(in, st, tok, n, err);
	if (n >= 1 && strcmp(tok[0], "Size") == 0)
		return header_line(in, st, line + 1, err);
	return DLSIM_OK;
}

static int row(struct cal_in *in, const struct osu_state *st, char *line,
	       struct cal_samples *out, struct dlsim_err *err)
{
	char *tok[CAL_MAX_FIELDS + 1];
	int n = cal_split_blanks(line, tok, CAL_MAX_FIELDS);
	struct cal_params p;
	int64_t bytes;
	double v;

	if (n != st->ncol)
		return cal_fail(in, err, "the row has %s%d columns, the "
				"header %d", n > CAL_MAX_FIELDS ? "more than " :
				"", n > CAL_MAX_FIELDS ? CAL_MAX_FIELDS : n,
				st->ncol);
	if (cal_uint(in, tok[0], "Size", MAX_BYTES, &bytes, err) ||
	    cal_positive(in, tok[st->col_value], st->value_name, &v, err))
		return DLSIM_EPARSE;
	if (st->col_valid >= 0 && strcmp(tok[st->col_valid], "Pass") != 0)
		return cal_fail(in, err, "validation says '%s': the run "
				"failed, so its values are not kept",
				tok[st->col_valid]);
	cal_params_init(&p);
	cal_params_int(&p, "bytes", bytes);
	cal_params_int(&p, "ranks", st->test == OSU_ALLREDUCE ? 0 : 2);
	if (st->test == OSU_ALLREDUCE) {
		cal_params_str(&p, "op", "sum");
		cal_params_int(&p, "inplace", 0);
	}
	cal_params_str(&p, "dtype", st->dtype);
	return cal_sample_add(out, in, tests[st->test].benchmark, &p,
			      v * st->scale, st->unit, err);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_osu_parse(struct cal_in *in, struct cal_samples *out,
		  struct dlsim_err *err)
{
	struct osu_state st;
	char *line;
	int rc = DLSIM_OK;

	memset(&st, 0, sizeof(st));
	st.test = OSU_NONE;
	while (!rc && (line = cal_in_next(in))) {
		if (line[0] == '#')
			rc = comment_line(in, &st, line, err);
		else if (!cal_line_is_row(line))
			continue;       /* blank, or MPI and UCX noise */
		else if (!st.in_table)
			rc = cal_fail(in, err, "a result row outside a table "
				      "(no '# Size ...' header before it)");
		else
			rc = row(in, &st, line, out, err);
	}
	if (!rc && !st.seen_table)
		rc = cal_fail(in, err, "not OSU output: no '# OSU MPI ... "
			      "Test' title and '# Size ...' column header");
	return rc;
}
