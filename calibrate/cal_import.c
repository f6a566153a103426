/*
 * cal_import.c -- importing a benchmark tool's output into the store:
 * the format names, reading a file whole, handing it to that format's
 * parser (cal_nccl.c, cal_osu.c, cal_stream.c, cal_csv.c), and storing
 * the result as one run.
 *
 * INVARIANT: an import is all or nothing.  The whole file is parsed into
 * memory first; any damage anywhere refuses it with "path:line: what"
 * before the database is touched, and the run with all its samples is
 * then written by one db_run_insert, which is one transaction (db/
 * invariant 1).  A failed import leaves the database as it was.
 *
 * The params convention of each format is written at the top of its
 * parser's file.  Every imported sample has rep -1: the tools report
 * their own summary (a mean or a best) of their iterations.
 */
#include "calibrate/cal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "hw/hw.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

static const char *const format_names[] = {
	"nccl-tests", "osu", "stream", "deepbench", "gemm-csv", "conv-csv",
	NULL
};

static int (*const parsers[])(struct cal_in *, struct cal_samples *,
			      struct dlsim_err *) = {
	cal_nccl_parse, cal_osu_parse, cal_stream_parse,
	cal_deepbench_parse, cal_gemm_csv_parse, cal_conv_csv_parse,
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (double)time(NULL);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The file as the run records it: absolute when it fits. */
static void source_of(const char *path, char *buf, size_t n)
{
	char cwd[4096];

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)) &&
	    (size_t)snprintf(buf, n, "%s/%s", cwd, path) < n)
		return;
	core_strlcpy(buf, path, n);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

/*
 * Samples are looked up by the name of a catalog device or node (or
 * "local"), and the catalog's names (the user's own YAML's included)
 * hold only a-z, 0-9, '-', '_' and '.' (hw_valid_name): a name with any
 * other byte -- "V100", a blank, invalid UTF-8 that JSON output would
 * carry -- is stored where nothing ever finds it.
 */
int cal_hw_name_check(const char *hw, struct dlsim_err *err)
{
	const char *bad, *c;
	char lower[HW_NAME_LEN];
	size_t n = hw ? strlen(hw) : 0, i;
	int printable = 1;

	if (n == 0 || n >= HW_NAME_LEN)
		return dlsim_err_set(err, DLSIM_EINVAL, "the hardware name "
				     "must have 1 to %d bytes (got %zu)",
				     HW_NAME_LEN - 1, n);
	if (!(bad = hw_name_bad_byte(hw)))
		return DLSIM_OK;
	for (c = hw; *c; c++)
		printable &= *c >= ' ' && *c < 0x7f;
	if (!printable)
		/* the name itself is not echoed: the message is one line of
		 * text, and these bytes may be neither */
		return dlsim_err_set(err, DLSIM_EINVAL, "the hardware name "
				     "holds byte 0x%02x (at byte %d), "
				     "which no name may: names are "
				     "lowercase, of a-z, 0-9, '-', '_' and "
				     "'.', as the catalog's",
				     (unsigned)(unsigned char)*bad,
				     (int)(bad - hw) + 1);
	for (i = 0; i <= n; i++)
		lower[i] = hw[i] >= 'A' && hw[i] <= 'Z' ?
			   (char)(hw[i] - 'A' + 'a') : hw[i];
	if (*bad >= 'A' && *bad <= 'Z' && !hw_name_bad_byte(lower))
		return dlsim_err_set(err, DLSIM_EINVAL, "the hardware name "
				     "'%s' holds '%c': names are lowercase, "
				     "as the catalog's (did you mean '%s'?)",
				     hw, *bad, lower);
	if (*bad == ' ')
		return dlsim_err_set(err, DLSIM_EINVAL, "the hardware name "
				     "'%s' holds a blank: names are "
				     "lowercase, of a-z, 0-9, '-', '_' and "
				     "'.', as the catalog's", hw);
	return dlsim_err_set(err, DLSIM_EINVAL, "the hardware name '%s' "
			     "holds '%c': names are lowercase, of a-z, 0-9, "
			     "'-', '_' and '.', as the catalog's", hw, *bad);
}

const char *cal_format_name(enum cal_format f)
{
	if ((int)f < 0 || f >= CAL_FORMAT_COUNT)
		return NULL;
	return format_names[f];
}

int cal_format_parse(const char *name, enum cal_format *out,
		     struct dlsim_err *err)
{
	int i = core_name_parse(format_names, name, "format", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum cal_format)i;
	return DLSIM_OK;
}

int cal_parse_text(enum cal_format f, const char *path, char *text,
		   size_t len, int64_t max, struct db_sample **out,
		   int64_t *n, struct dlsim_err *err)
{
	struct cal_samples s;
	struct cal_in in;
	int rc;

	*out = NULL;
	*n = 0;
	if ((int)f < 0 || f >= CAL_FORMAT_COUNT)
		return dlsim_err_set(err, DLSIM_EINVAL, "unknown format %d",
				     (int)f);
	cal_in_init(&in, path, text, len);
	if (strspn(text + in.pos, " \t\r\n\f\v") == len - in.pos)
		return cal_fail_at(&in, 1, err, "the file is empty");
	cal_samples_init(&s, max);
	rc = parsers[f](&in, &s, err);
	if (!rc && s.n == 0)
		rc = cal_fail(&in, err, "no measurements in the file");
	if (rc) {
		cal_samples_release(&s);
		return rc;
	}
	*out = s.v;
	*n = s.n;
	return DLSIM_OK;
}

int cal_parse_file(enum cal_format f, const char *path,
		   struct db_sample **out, int64_t *n, struct dlsim_err *err)
{
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	*n = 0;
	if ((int)f < 0 || f >= CAL_FORMAT_COUNT || !path)
		return dlsim_err_set(err, DLSIM_EINVAL, "cal_parse_file: bad "
				     "format or path");
	if ((rc = core_read_file(path, &text, &len, err)))
		return rc;
	if (memchr(text, '\0', len))
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s: a binary file, not "
				   "%s output", path, format_names[f]);
	else
		rc = cal_parse_text(f, path, text, len, CAL_MAX_SAMPLES, out,
				    n, err);
	free(text);
	return rc;
}

int cal_import(struct db *db, enum cal_format f, const char *path,
	       const char *hw, int64_t *run_id, int64_t *n_samples,
	       struct dlsim_err *err)
{
	struct db_sample *s = NULL;
	struct db_run run;
	int64_t n = 0;
	int rc;

	*run_id = 0;
	*n_samples = 0;
	if (!db)
		return dlsim_err_set(err, DLSIM_EINVAL, "cal_import: no "
				     "database");
	if ((rc = cal_hw_name_check(hw, err)))
		return rc;
	memset(&run, 0, sizeof(run));
	run.start_s = now_s();
	if ((rc = cal_parse_file(f, path, &s, &n, err)))
		return rc;
	snprintf(run.tool, sizeof(run.tool), "import:%s", format_names[f]);
	snprintf(run.cmdline, sizeof(run.cmdline), "dlsim calibrate import "
		 "%s %s --hw %s", format_names[f], path, hw);
	core_strlcpy(run.version, dlsim_version(), sizeof(run.version));
	core_strlcpy(run.status, "done", sizeof(run.status));
	core_strlcpy(run.hw, hw, sizeof(run.hw));
	source_of(path, run.source, sizeof(run.source));
	run.end_s = now_s();
	rc = db_run_insert(db, &run, s, n, err);
	free(s);
	if (rc)
		return rc;
	*run_id = run.id;
	*n_samples = n;
	return DLSIM_OK;
}
