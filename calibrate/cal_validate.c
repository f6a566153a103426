/*
 * cal_validate.c -- `dlsim validate`: every row of the measurement sets
 * dlsim ships (data/validation/, compiled in as cal_validation_files),
 * predicted and compared.
 *
 * HOW IT WORKS
 * A set is a file and a row function.  The function reads one row's
 * columns (by header name, so a reordered file still reads) into the
 * inputs of one prediction -- model, system, batch, precision, strategy
 * -- makes it with the library's own calls (sim_predict,
 * sim_parallel_predict), and returns the measured and predicted value of
 * the same quantity (throughput, step time, or TFLOP/s per device), or
 * the reason the row is skipped (a device the catalog lacks, a column
 * left empty).  Error is predicted / measured - 1.  A set's figures are
 * the median and P90 (nearest rank) of |error|, the median of the signed
 * error (bias), and its five worst rows.  Rows that repeat an earlier
 * row's inputs and value (the files keep every transcription) are read
 * once.  A user's own file (cal_validate_file) is a set like the others
 * whose row function is cal_validate_user.c's, and whose bad rows stop
 * the run instead of being skipped.
 *
 * THE RULE THAT KEEPS THE RECORD HONEST (issue 6): one parameter is
 * fitted on these rows, Megatron-DeepSpeed's host dispatch time, on a
 * fifth of vTrain's rows chosen before fitting and reported apart
 * (cal_validate_rows.c); everything else comes from the catalog and,
 * when the caller passes a database, its fits (microbenchmarks only).
 * The kernel sets those fits come from are in-sample; their held-out
 * twins predict each row with fits made without it (two folds,
 * cal_validate_heldout.c).
 *
 * LIMITATIONS
 * - The sets are those whose inputs map onto dlsim's without guessing
 *   (cal_validate_rows.c lists them and the assumptions each makes);
 *   rows whose device or model the catalog or zoo lacks are skipped
 *   with the reason.
 * - A set with no row compared reports NAN (null) figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/core.h"
#include "hw/hw.h"
#include "core/banned.h"

/* build/gen/validation_builtin.c (tools/embed.sh). */
extern const struct hw_builtin_file cal_validation_files[];

const char *cal_validation_set(int i)
{
	return i >= 0 && i < cal_val_n_sets ? cal_val_sets[i].name : NULL;
}

static const struct hw_builtin_file *file_of(const char *name)
{
	const struct hw_builtin_file *f;
	size_t n = strlen(name);

	for (f = cal_validation_files; f->name; f++)
		if (strlen(f->name) >= n &&
		    strcmp(f->name + strlen(f->name) - n, name) == 0)
			return f;
	return NULL;
}

const char *cal_val_builtin(const char *name, size_t *size)
{
	const struct hw_builtin_file *f = file_of(name);

	if (!f)
		return NULL;
	*size = f->size;
	return f->data;
}

static char *dup_line(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static int by_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

static int by_signed(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Keep r among the five worst by |error|. */
static void worst_add(struct cal_val_set *s, const struct cal_vrow *r, double e)
{
	int i = s->n_worst < CAL_VAL_WORST ? s->n_worst++ : CAL_VAL_WORST;

	if (i == CAL_VAL_WORST && !(fabs(e) > fabs(s->worst[i - 1].error)))
		return;
	if (i == CAL_VAL_WORST)
		i--;
	while (i > 0 && fabs(e) > fabs(s->worst[i - 1].error)) {
		s->worst[i] = s->worst[i - 1];
		i--;
	}
	snprintf(s->worst[i].what, sizeof(s->worst[i].what), "%s", r->what);
	s->worst[i].measured = r->measured;
	s->worst[i].predicted = r->predicted;
	s->worst[i].error = e;
}

static void skip_add(struct cal_val_set *s, const char *why)
{
	int i;

	s->skipped++;
	for (i = 0; i < s->n_reasons; i++)
		if (strcmp(s->reason[i].why, why) == 0) {
			s->reason[i].n++;
			return;
		}
	if (s->n_reasons == CAL_VAL_REASONS)
		return;
	snprintf(s->reason[s->n_reasons].why, sizeof(s->reason[0].why), "%s",
		 why);
	s->reason[s->n_reasons++].n = 1;
}

/* Keep row n (data row `line` of the file, its source column `source`)
 * in out's array (grown by doubling). */
static int keep_row(struct cal_val_set *out, int64_t n, const struct cal_vrow *r,
		    double e, const char *source, int64_t line)
{
	struct cal_val_row *k;

	if ((n & (n - 1)) == 0) {    /* 0, 1, 2, 4, ...: grow */
		size_t cap = n ? 2 * (size_t)n : 1;
		struct cal_val_row *a = realloc(out->row, cap * sizeof(*a));

		if (!a)
			return -1;
		out->row = a;
	}
	k = &out->row[n];
	snprintf(k->what, sizeof(k->what), "%s", r->what);
	k->measured = r->measured;
	k->predicted = r->predicted;
	k->error = e;
	snprintf(k->source, sizeof(k->source), "%s", source);
	k->line = line;
	return 0;
}

/* The set's statistics from its errors (sorted here). */
static void stats(struct cal_val_set *s, double *e, int64_t n)
{
	int64_t k;

	s->rows = n;
	if (n == 0) {
		/* nothing compared is no accuracy, not a perfect one */
		s->median_abs_error = s->p90_abs_error = NAN;
		s->median_signed_error = NAN;
		return;
	}
	qsort(e, (size_t)n, sizeof(double), by_signed);
	s->median_signed_error = n % 2 ? e[n / 2] :
				 0.5 * (e[n / 2 - 1] + e[n / 2]);
	qsort(e, (size_t)n, sizeof(double), by_abs);
	s->median_abs_error = n % 2 ? fabs(e[n / 2]) :
			      0.5 * (fabs(e[n / 2 - 1]) + fabs(e[n / 2]));
	k = (int64_t)ceil(0.9 * (double)n) - 1;
	s->p90_abs_error = fabs(e[k < 0 ? 0 : k]);
}

static int val_run(const struct cal_val_set_def *def, const char *fname,
		   const char *data, size_t size, struct hw_catalog *cat,
		   struct db *db, struct db *const *fold,
		   struct cal_val_set *out, struct dlsim_err *err);

/* err's message, set by a row or header check, placed at in's line. */
static int placed(const struct cal_in *in, struct dlsim_err *err)
{
	char msg[sizeof(err->msg)];

	snprintf(msg, sizeof(msg), "%s", err->msg);
	dlsim_err_clear(err);       /* the first error is kept otherwise */
	return cal_fail(in, err, "%s", msg);
}

/* A row that states its own unit (a user's metric column): the set's
 * unit is that, or "mixed" when its rows differ. */
static void unit_add(struct cal_val_set *s, int64_t n_before,
		     const char *unit)
{
	if (!*unit || strcmp(s->unit, unit) == 0)
		return;
	snprintf(s->unit, sizeof(s->unit), "%s", n_before ? "mixed" : unit);
}

/* The two fold databases of the held-out sets, made the first time one
 * is asked for (a calibrated run only) and kept for the next. */
static int folds_open(struct db **fold, struct dlsim_err *err)
{
	int k;

	for (k = 0; k < 2; k++)
		if (!fold[k] && (db_open(":memory:", &fold[k], err) ||
				 cal_val_seed_fold(fold[k], k, err)))
			return err->code;
	return DLSIM_OK;
}

static int run_set(int i, struct hw_catalog *cat, struct db *db,
		   struct db **fold, struct cal_val_set *out,
		   struct dlsim_err *err)
{
	const struct cal_val_set_def *def = &cal_val_sets[i];
	const struct hw_builtin_file *file = file_of(def->file);
	int held = def->heldout && db;

	if (!file || (held && folds_open(fold, err))) {
		memset(out, 0, sizeof(*out));
		return file ? err->code :
		       dlsim_err_set(err, DLSIM_ENOTFOUND, "validation file "
				     "%s is not compiled in", def->file);
	}
	return val_run(def, file->name, file->data, file->size, cat, db,
		       held ? fold : NULL, out, err);
}

int cal_val_run_text(const struct cal_val_set_def *def, const char *fname,
		     const char *data, size_t size, struct hw_catalog *cat,
		     struct db *db, struct cal_val_set *out,
		     struct dlsim_err *err)
{
	return val_run(def, fname, data, size, cat, db, NULL, out, err);
}

/* cal_val_run_text; with fold (two databases), a row of fold k is
 * predicted with fold[k]'s fits, made without its fold. */
static int val_run(const struct cal_val_set_def *def, const char *fname,
		   const char *data, size_t size, struct hw_catalog *cat,
		   struct db *db, struct db *const *fold,
		   struct cal_val_set *out, struct dlsim_err *err)
{
	char *text, *line, *head[CAL_MAX_FIELDS], *f[CAL_MAX_FIELDS];
	unsigned char padded[CAL_MAX_FIELDS];
	char **seen = NULL;
	double *e = NULL;
	int64_t n = 0, cap = 0, n_seen = 0, data_row = 0;
	struct cal_in in;
	struct cal_vctx v;
	int nh, rc = DLSIM_OK;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", def->name);
	snprintf(out->title, sizeof(out->title), "%s", def->title);
	snprintf(out->unit, sizeof(out->unit), "%s", def->unit);
	if (!(text = malloc(size + 1)))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	cal_in_init(&in, fname, text, size);
	line = cal_in_next(&in);
	nh = line ? cal_split_csv(line, head, CAL_MAX_FIELDS) : -1;
	if (nh < 1 || nh > CAL_MAX_FIELDS) {
		free(text);
		return cal_fail(&in, err, "not a CSV header");
	}
	if (def->head && def->head((const char *const *)head, nh, err)) {
		rc = placed(&in, err);
		free(text);
		return rc;
	}
	v.cat = cat;
	v.db = db;
	v.head = (const char *const *)head;
	v.padded = padded;
	v.n_head = nh;
	v.err = err;
	v.set = out;
	while ((line = cal_in_next(&in)) != NULL) {
		struct cal_vrow r;
		char *copy = dup_line(line);
		int64_t k;
		int got;

		if (!copy) {
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
			break;
		}
		if (cal_blank(line)) {
			free(copy);
			continue;
		}
		/* a user's repeated row is a repeated measurement, a
		 * shipped file's a repeated transcription */
		for (k = 0; !def->head && k < n_seen && strcmp(seen[k], copy);
		     k++)
			;
		if (!def->head && k < n_seen) {
			free(copy);
			continue;
		}
		if (n_seen % 64 == 0) {
			char **s2 = realloc(seen, (size_t)(n_seen + 64) *
					    sizeof(*seen));

			if (!s2) {
				free(copy);
				rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of "
						   "memory");
				break;
			}
			seen = s2;
		}
		seen[n_seen++] = copy;
		v.n = cal_split_csv_padded(line, f, padded, CAL_MAX_FIELDS);
		if (v.n < 1 || v.n > CAL_MAX_FIELDS) {
			rc = cal_fail(&in, err, "not a CSV record");
			break;
		}
		if (fold)
			v.db = fold[cal_val_fold(v.head, nh, f, v.n)];
		v.f = f;
		v.row = data_row++;
		memset(&r, 0, sizeof(r));
		got = def->row(&v, &r);
		if (got < 0)
			continue;       /* the row is another set's */
		if (got == CAL_VAL_FAILED) {
			rc = placed(&in, err);
			break;
		}
		if (got == 0 && !(isfinite(r.measured) && r.measured > 0.0))
			got = cal_val_skip(&r, "no measured value");
		if (got == 0 && !(isfinite(r.predicted) && r.predicted > 0.0))
			got = cal_val_skip(&r, "no prediction");
		if (got) {
			skip_add(out, r.why);
			continue;
		}
		if (n == cap) {
			double *e2 = realloc(e, (size_t)(cap ? 2 * cap : 256) *
					     sizeof(double));

			if (!e2) {
				rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of "
						   "memory");
				break;
			}
			e = e2;
			cap = cap ? 2 * cap : 256;
		}
		e[n] = r.predicted / r.measured - 1.0;
		if (keep_row(out, n, &r, e[n], cal_val_col(&v, "source"),
			     v.row)) {
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
			break;
		}
		worst_add(out, &r, e[n]);
		unit_add(out, n, r.unit);
		n++;
	}
	if (!rc)
		stats(out, e, n);
	while (n_seen > 0)
		free(seen[--n_seen]);
	free(seen);
	free(e);
	free(text);
	return rc;
}

void cal_val_report_release(struct cal_val_report *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->n_sets; i++) {
		free(r->set[i].row);
	}
	memset(r, 0, sizeof(*r));
}

int cal_validate(struct hw_catalog *cat, struct db *db,
		 const char *const *names, struct cal_val_report *out,
		 struct dlsim_err *err)
{
	struct db *fold[2] = { NULL, NULL };
	int i, j, rc = DLSIM_OK;

	memset(out, 0, sizeof(*out));
	out->calibrated = db != NULL;
	for (j = 0; names && names[j]; j++) {
		for (i = 0; i < cal_val_n_sets && strcmp(cal_val_sets[i].name, names[j]); i++)
			;
		if (i == cal_val_n_sets)
			return dlsim_err_set(err, DLSIM_ENOTFOUND, "unknown "
					     "validation set '%s' (dlsim "
					     "validate --help lists them)",
					     names[j]);
	}
	for (i = 0; i < cal_val_n_sets; i++) {
		if (names) {
			for (j = 0; names[j] && strcmp(names[j],
						       cal_val_sets[i].name); j++)
				;
			if (!names[j])
				continue;
		}
		rc = run_set(i, cat, db, fold, &out->set[out->n_sets], err);
		out->n_sets++;      /* so that release frees its rows */
		if (rc)
			break;
	}
	db_close(fold[0]);
	db_close(fold[1]);
	return rc;
}

/* ---------------------------------------------------------------- */
/* A user's measurement file                                         */
/* ---------------------------------------------------------------- */

int cal_validate_file_name(const char *path, char *name, size_t cap,
			   struct dlsim_err *err)
{
	const char *base = strrchr(path, '/');
	size_t n;
	int i;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".csv") == 0)
		n -= 4;
	if (n == 0 || n >= cap)
		return dlsim_err_set(err, DLSIM_EINVAL, "%s: a measurement "
				     "file's name (less .csv) names its set, "
				     "and must be 1 to %zu characters",
				     path, cap - 1);
	memcpy(name, base, n);
	name[n] = '\0';
	for (i = 0; i < cal_val_n_sets; i++)
		if (strcmp(cal_val_sets[i].name, name) == 0)
			return dlsim_err_set(err, DLSIM_EINVAL, "%s: '%s' is "
					     "a shipped set's name; rename "
					     "the file", path, name);
	return DLSIM_OK;
}

int cal_validate_file(struct hw_catalog *cat, struct db *db,
		      const char *path, struct cal_val_set *out,
		      struct dlsim_err *err)
{
	struct cal_val_set_def def = {
		NULL, NULL, NULL, "", cal_val_row_user, 0, cal_val_user_head
	};
	char name[sizeof(out->name)], title[sizeof(out->title)], *text;
	const char *nul, *p;
	long long line;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = cal_validate_file_name(path, name, sizeof(name), err)) ||
	    (rc = core_read_file(path, &text, &len, err)))
		return rc;
	/* the rows are C strings: a NUL would end its line there, and a
	 * row that began with one would pass for a blank line, unread */
	if ((nul = memchr(text, '\0', len))) {
		for (line = 1, p = text; p < nul; p++)
			line += *p == '\n';
		free(text);
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:%lld: a NUL byte "
				     "(a measurement file is text)", path,
				     line);
	}
	snprintf(title, sizeof(title), "your measurements: %s", path);
	def.name = name;
	def.file = path;
	def.title = title;
	rc = val_run(&def, path, text, len, cat, db, NULL, out, err);
	free(text);
	if (!rc && out->rows == 0)
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s: no measurement "
				   "below the header", path);
	return rc;
}
