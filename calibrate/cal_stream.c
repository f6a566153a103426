/*
 * cal_stream.c -- McCalpin's STREAM results (stream.c 5.x, the output
 * every HPC site keeps).
 *
 * STREAM prints its set-up, then one table:
 *
 *   This system uses 8 bytes per array element.
 *   Array size = 10000000 (elements), Offset = 0 (elements)
 *   Number of Threads counted = 2                       (OpenMP builds)
 *   Function    Best Rate MB/s  Avg time     Min time     Max time
 *   Copy:           30162.4     0.005356     0.005305     0.005456
 *
 * The rate is 10^-6 x bytes / min time (stream.c: "1.0E-06 * bytes[j] /
 * mintime[j]"), so MB = 10^6 B, where a kernel moves 2 arrays (Copy,
 * Scale) or 3 (Add, Triad) of N elements.  Older versions say "Rate
 * (MB/s)" and "Array size = N, Offset = 0"; both are read.
 *
 * SAMPLES: one per kernel, benchmark "stream", value = the best rate in
 * B/s, rep -1, params in this order:
 *
 *   bytes=<bytes the kernel moves per pass> kernel=copy|scale|add|triad
 *   threads=<Number of Threads counted, else requested, else 1>
 *
 * bytes is the kernel's working set (2 or 3 arrays), the size a
 * bandwidth-versus-working-set fit wants.  Output that says "Failed
 * Validation" is refused.
 *
 * LIMITATIONS: the Avg/Min/Max time columns are checked but not kept
 * (the rate is the min time restated); BabelStream and other variants
 * with their own tables are not read.
 */
#include "calibrate/cal.h"

#include <string.h>

#include "core/banned.h"

#define MAX_ELEMENTS ((int64_t)1 << 50)

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

/* The kernels: the name STREAM prints, ours, arrays moved per pass. */
static const struct {
	const char *label;
	const char *kernel;
	int arrays;
} kernels[] = {
	{ "Copy:", "copy", 2 }, { "Scale:", "scale", 2 },
	{ "Add:", "add", 3 }, { "Triad:", "triad", 3 },
};

#define N_KERNELS ((int)(sizeof(kernels) / sizeof(kernels[0])))

struct stream_state {
	int64_t elem_bytes;     /* 0: not said */
	int64_t elements;       /* 0: not said */
	int64_t threads_counted, threads_requested;
	int in_table, seen_table;
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* The whole number right after "prefix" in line (which starts with
 * it), up to the first character that is not a digit. */
static int number_after(struct cal_in *in, const char *line,
			const char *prefix, const char *what, int64_t max,
			int64_t *out, struct dlsim_err *err)
{
	char digits[24];
	const char *p = line + strlen(prefix);
	size_t n = 0;

	while (*p == ' ')
		p++;
	/* the whole word, so that a damaged "-5" or "1e7" is named as it
	 * is written, not as the digits before it */
	while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '(' &&
	       n + 1 < sizeof(digits)) {
		digits[n] = p[n];
		n++;
	}
	digits[n] = '\0';
	return cal_count(in, digits, what, max, out, err);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A set-up line: element size, array size, threads, validation. */
static int setup_line(struct cal_in *in, struct stream_state *st,
		      const char *line, struct dlsim_err *err)
{
	if (starts(line, "This system uses "))
		return number_after(in, line, "This system uses ",
				    "bytes per array element", 64,
				    &st->elem_bytes, err);
	if (starts(line, "Array size ="))
		return number_after(in, line, "Array size =", "Array size",
				    MAX_ELEMENTS, &st->elements, err);
	if (starts(line, "Number of Threads counted ="))
		return number_after(in, line, "Number of Threads counted =",
				    "Number of Threads counted", 1 << 20,
				    &st->threads_counted, err);
	if (starts(line, "Number of Threads requested ="))
		return number_after(in, line, "Number of Threads requested =",
				    "Number of Threads requested", 1 << 20,
				    &st->threads_requested, err);
	if (strstr(line, "Failed Validation"))
		return cal_fail(in, err, "STREAM says its results failed "
				"validation, so none are kept");
	return DLSIM_OK;
}

/* "Function    Best Rate MB/s  Avg time     Min time     Max time" */
static int header_line(struct cal_in *in, struct stream_state *st,
		       const char *line, struct dlsim_err *err)
{
	if (!strstr(line, "MB/s"))
		return cal_fail(in, err, "the rate column must be in MB/s");
	if (!st->elem_bytes)
		return cal_fail(in, err, "no 'This system uses N bytes per "
				"array element' line before the table");
	if (!st->elements)
		return cal_fail(in, err, "no 'Array size = N' line before "
				"the table");
	st->in_table = st->seen_table = 1;
	return DLSIM_OK;
}

static int row(struct cal_in *in, const struct stream_state *st,
	       char *line, struct cal_samples *out, struct dlsim_err *err)
{
	static const char *const what[] = {
		"Best Rate MB/s", "Avg time", "Min time", "Max time"
	};
	char *tok[CAL_MAX_FIELDS + 1];
	int n = cal_split_blanks(line, tok, CAL_MAX_FIELDS), k, i;
	struct cal_params p;
	double v[4];

	for (k = 0; k < N_KERNELS; k++)
		if (strcmp(tok[0], kernels[k].label) == 0)
			break;
	if (k == N_KERNELS)
		return cal_fail(in, err, "unknown STREAM kernel '%s' "
				"(expected Copy:, Scale:, Add:, Triad:)",
				tok[0]);
	if (n != 5)
		return cal_fail(in, err, "the row has %s%d columns, expected "
				"5", n > CAL_MAX_FIELDS ? "more than " : "",
				n > CAL_MAX_FIELDS ? CAL_MAX_FIELDS : n);
	for (i = 0; i < 4; i++)
		if (cal_positive(in, tok[i + 1], what[i], &v[i], err))
			return DLSIM_EPARSE;
	cal_params_init(&p);
	cal_params_int(&p, "bytes",
		       kernels[k].arrays * st->elements * st->elem_bytes);
	cal_params_str(&p, "kernel", kernels[k].kernel);
	cal_params_int(&p, "threads", st->threads_counted ?
		       st->threads_counted : st->threads_requested ?
		       st->threads_requested : 1);
	return cal_sample_add(out, in, "stream", &p, v[0] * 1e6, "B/s", err);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_stream_parse(struct cal_in *in, struct cal_samples *out,
		     struct dlsim_err *err)
{
	struct stream_state st;
	char *line;
	int rc = DLSIM_OK;

	memset(&st, 0, sizeof(st));
	while (!rc && (line = cal_in_next(in))) {
		if (starts(line, "Function") && strstr(line, "Rate"))
			rc = header_line(in, &st, line, err);
		else if (st.in_table && !cal_blank(line) && line[0] != '-')
			rc = row(in, &st, line, out, err);
		else if (st.in_table)
			st.in_table = 0;
		else
			rc = setup_line(in, &st, line, err);
	}
	if (!rc && !st.seen_table)
		rc = cal_fail(in, err, "not STREAM output: no 'Function  Best "
			      "Rate MB/s  Avg time  Min time  Max time' "
			      "table");
	return rc;
}
