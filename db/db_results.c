/*
 * db_results.c -- what is made from the samples and what they are
 * checked against: fitted models, predictions, and measurements (ground
 * truth from validation sets or a user).
 *
 * INVARIANTS (numbers continue db_runs.c's)
 * 7. A fit names the runs whose samples it fitted (sample_run_ids) and
 *    how many samples; a prediction names the fits it used (fit_ids), so
 *    a predicted figure traces back to raw samples.  The schema keeps
 *    these lists valid JSON.
 * 8. A batch of measurements is stored all or nothing, as a run is.
 *
 * LIMITATIONS
 * The id lists are JSON text, not foreign keys: deleting a run does not
 * delete the fits made from it (they stay, and still say which runs they
 * came from).
 */
#include "db/db.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "core/banned.h"

/* created_s as given, or now. */
static double stamp(double created_s)
{
	return created_s > 0 ? created_s : (double)time(NULL);
}

/* Run one prepared INSERT in its own transaction; sets *id. */
static int insert_one(struct db *db, sqlite3_stmt *st, const char *what,
		      int64_t *id, struct dlsim_err *err)
{
	int rc;

	*id = 0;
	if ((rc = db_begin(db, what, err))) {
		sqlite3_finalize(st);
		return rc;
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = db_fail(db, what, err);
		sqlite3_finalize(st);
		db_rollback(db);
		return rc;
	}
	sqlite3_finalize(st);
	*id = sqlite3_last_insert_rowid(db->h);
	if ((rc = db_commit(db, what, err)))
		*id = 0;
	return rc;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s ? s : "", -1, SQLITE_STATIC);
}

static void bind_version(sqlite3_stmt *st, int i, const char *v, size_t n)
{
	if (v[0])
		sqlite3_bind_text(st, i, v, (int)strnlen(v, n), SQLITE_STATIC);
	else
		sqlite3_bind_text(st, i, dlsim_version(), -1, SQLITE_STATIC);
}

/* ---------------------------------------------------------------- */
/* Fits                                                              */
/* ---------------------------------------------------------------- */

int db_fit_insert(struct db *db, struct db_fit *f, struct dlsim_err *err)
{
	static const char sql[] =
		"INSERT INTO fits (hw, kind, params_json, covariance_json,"
		" residual_rms, n_samples, sample_run_ids, created_s,"
		" dlsim_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
	sqlite3_stmt *st;
	int rc;

	f->id = 0;
	if (!isfinite(f->residual_rms) || f->n_samples < 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "fit %s for %s: "
				     "residual and sample count must be "
				     "finite and non-negative", f->kind,
				     f->hw);
	if ((rc = db_prepare(db, sql, &st, "storing a fit", err)))
		return rc;
	db_bind_field(st, 1, f->hw);
	db_bind_field(st, 2, f->kind);
	bind_text(st, 3, f->params_json);
	bind_text(st, 4, f->covariance_json);
	sqlite3_bind_double(st, 5, f->residual_rms);
	sqlite3_bind_int64(st, 6, f->n_samples);
	bind_text(st, 7, f->sample_run_ids);
	sqlite3_bind_double(st, 8, stamp(f->created_s));
	bind_version(st, 9, f->dlsim_version, sizeof(f->dlsim_version));
	return insert_one(db, st, "storing a fit", &f->id, err);
}

int db_each_fit(struct db *db, const char *hw, const char *kind,
		int (*fn)(void *ctx, const struct db_fit *f), void *ctx,
		struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT id, hw, kind,"
		" CASE WHEN json_valid(params_json) THEN params_json END,"
		" CASE WHEN json_valid(covariance_json)"
		"  THEN covariance_json END,"
		" residual_rms, n_samples,"
		" CASE WHEN json_valid(sample_run_ids) THEN sample_run_ids END,"
		" created_s, dlsim_version FROM fits"
		" WHERE (?1 IS NULL OR hw = ?1) AND (?2 IS NULL OR kind = ?2)"
		" ORDER BY created_s DESC, id DESC";
	sqlite3_stmt *st;
	struct db_fit f;
	int rc, step;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, sql, &st, "listing fits", err)))
		return rc;
	if (hw)
		bind_text(st, 1, hw);
	if (kind)
		bind_text(st, 2, kind);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&f, 0, sizeof(f));
		f.id = sqlite3_column_int64(st, 0);
		db_column_field(st, 1, f.hw, sizeof(f.hw));
		db_column_field(st, 2, f.kind, sizeof(f.kind));
		f.params_json = (const char *)sqlite3_column_text(st, 3);
		f.covariance_json = (const char *)sqlite3_column_text(st, 4);
		f.residual_rms = sqlite3_column_double(st, 5);
		f.n_samples = sqlite3_column_int64(st, 6);
		f.sample_run_ids = (const char *)sqlite3_column_text(st, 7);
		f.created_s = sqlite3_column_double(st, 8);
		db_column_field(st, 9, f.dlsim_version,
				sizeof(f.dlsim_version));
		if (fn(ctx, &f))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, "listing fits", err);
	sqlite3_finalize(st);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Predictions                                                       */
/* ---------------------------------------------------------------- */

/* Insert p[0..n-1] inside the open transaction; ids set. */
static int put_predictions(struct db *db, struct db_prediction *p, int64_t n,
			   struct dlsim_err *err)
{
	static const char sql[] =
		"INSERT INTO predictions (inputs_json, outputs_json, fit_ids,"
		" created_s, dlsim_version) VALUES (?1, ?2, ?3, ?4, ?5)";
	const char *what = "storing predictions";
	sqlite3_stmt *st = NULL;
	int64_t i;
	int rc;

	if ((rc = db_prepare(db, sql, &st, what, err)))
		return rc;
	for (i = 0; i < n; i++) {
		bind_text(st, 1, p[i].inputs_json);
		bind_text(st, 2, p[i].outputs_json);
		bind_text(st, 3, p[i].fit_ids ? p[i].fit_ids : "[]");
		sqlite3_bind_double(st, 4, stamp(p[i].created_s));
		bind_version(st, 5, p[i].dlsim_version,
			     sizeof(p[i].dlsim_version));
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = db_fail(db, what, err);
			break;
		}
		p[i].id = sqlite3_last_insert_rowid(db->h);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Insert m[0..n-1] inside the open transaction. */
static int put_measurements(struct db *db, const struct db_measurement *m,
			    int64_t n, struct dlsim_err *err)
{
	static const char sql[] =
		"INSERT INTO measurements (set_name, row_key, value, unit,"
		" source, created_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	const char *what = "storing measurements";
	sqlite3_stmt *st = NULL;
	int64_t i;
	int rc;

	if ((rc = db_prepare(db, sql, &st, what, err)))
		return rc;
	for (i = 0; i < n; i++) {
		db_bind_field(st, 1, m[i].set_name);
		db_bind_field(st, 2, m[i].row_key);
		sqlite3_bind_double(st, 3, m[i].value);
		db_bind_field(st, 4, m[i].unit);
		db_bind_field(st, 5, m[i].source);
		sqlite3_bind_double(st, 6, stamp(m[i].created_s));
		if (sqlite3_step(st) != SQLITE_DONE) {
			rc = db_fail(db, what, err);
			break;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int check_measurements(const struct db_measurement *m, int64_t n,
			      struct dlsim_err *err)
{
	int64_t i;

	if (n < 0 || (n > 0 && !m))
		return dlsim_err_set(err, DLSIM_EINVAL, "%lld measurements",
				     (long long)n);
	for (i = 0; i < n; i++)
		if (!isfinite(m[i].value))
			return dlsim_err_set(err, DLSIM_EINVAL, "measurement "
					     "%lld (%.64s %.64s) is not a "
					     "finite number", (long long)i,
					     m[i].set_name, m[i].row_key);
	return DLSIM_OK;
}

int db_results_insert(struct db *db, struct db_prediction *p, int64_t np,
		      const struct db_measurement *m, int64_t nm,
		      struct dlsim_err *err)
{
	const char *what = "storing results";
	int64_t i;
	int rc;

	if (np < 0 || (np > 0 && !p))
		return dlsim_err_set(err, DLSIM_EINVAL, "%lld predictions",
				     (long long)np);
	if ((rc = check_measurements(m, nm, err)))
		return rc;
	for (i = 0; i < np; i++)
		p[i].id = 0;
	if ((rc = db_begin(db, what, err)))
		return rc;
	if ((rc = put_predictions(db, p, np, err)) ||
	    (rc = put_measurements(db, m, nm, err)) ||
	    (rc = db_commit(db, what, err))) {
		db_rollback(db);
		for (i = 0; i < np; i++)
			p[i].id = 0;
		return rc;
	}
	return DLSIM_OK;
}

int db_prediction_insert(struct db *db, struct db_prediction *p,
			 struct dlsim_err *err)
{
	return db_results_insert(db, p, 1, NULL, 0, err);
}

int db_prediction_insert_many(struct db *db, struct db_prediction *p,
			      int64_t n, struct dlsim_err *err)
{
	return db_results_insert(db, p, n, NULL, 0, err);
}

int db_each_prediction(struct db *db, const char *inputs_like,
		       int (*fn)(void *ctx, const struct db_prediction *p),
		       void *ctx, struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT id, inputs_json, outputs_json, fit_ids, created_s,"
		" dlsim_version FROM predictions"
		" WHERE (?1 IS NULL OR inputs_json LIKE ?1) ORDER BY id";
	struct db_prediction p;
	sqlite3_stmt *st;
	int rc, step;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, sql, &st, "listing predictions", err)))
		return rc;
	if (inputs_like)
		bind_text(st, 1, inputs_like);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&p, 0, sizeof(p));
		p.id = sqlite3_column_int64(st, 0);
		p.inputs_json = (const char *)sqlite3_column_text(st, 1);
		p.outputs_json = (const char *)sqlite3_column_text(st, 2);
		p.fit_ids = (const char *)sqlite3_column_text(st, 3);
		p.created_s = sqlite3_column_double(st, 4);
		db_column_field(st, 5, p.dlsim_version,
				sizeof(p.dlsim_version));
		if (fn(ctx, &p))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, "listing predictions", err);
	sqlite3_finalize(st);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Measurements                                                      */
/* ---------------------------------------------------------------- */

int db_measurement_insert(struct db *db, const struct db_measurement *m,
			  int64_t n, struct dlsim_err *err)
{
	return db_results_insert(db, NULL, 0, m, n, err);
}

int db_each_measurement(struct db *db, const char *set_name,
			int (*fn)(void *ctx, const struct db_measurement *m),
			void *ctx, struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT id, set_name, row_key, value, unit, source, created_s"
		" FROM measurements WHERE (?1 IS NULL OR set_name = ?1)"
		" ORDER BY id";
	struct db_measurement m;
	sqlite3_stmt *st;
	int rc, step;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, sql, &st, "listing measurements", err)))
		return rc;
	if (set_name)
		bind_text(st, 1, set_name);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&m, 0, sizeof(m));
		m.id = sqlite3_column_int64(st, 0);
		db_column_field(st, 1, m.set_name, sizeof(m.set_name));
		db_column_field(st, 2, m.row_key, sizeof(m.row_key));
		m.value = sqlite3_column_double(st, 3);
		db_column_field(st, 4, m.unit, sizeof(m.unit));
		db_column_field(st, 5, m.source, sizeof(m.source));
		m.created_s = sqlite3_column_double(st, 6);
		if (fn(ctx, &m))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, "listing measurements", err);
	sqlite3_finalize(st);
	return rc;
}
