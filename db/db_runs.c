/*
 * db_runs.c -- hosts, runs and their raw samples: what a calibration run
 * or an import stores, and what fits and `dlsim db` read back.
 *
 * INVARIANTS (numbers continue db.c's)
 * 5. A run and its samples are stored together or not at all: a run row
 *    exists only if every one of its samples was stored with it, so a
 *    fit never reads half an import.  (tests: db_run_insert_all_or_
 *    nothing, db_two_processes_lose_nothing)
 * 6. A host is one row per (name, hw, cpu, gpu); storing it again finds
 *    that row and brings its other attributes up to date.
 *
 * LIMITATIONS
 * A sample's value must be finite: SQLite stores NaN as NULL, which the
 * schema refuses, and infinities would poison every fit downstream, so
 * both are refused before anything is written.
 */
#include "db/db.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Hosts                                                             */
/* ---------------------------------------------------------------- */

int db_host_upsert(struct db *db, const struct db_host *h, int64_t *id,
		   struct dlsim_err *err)
{
	static const char upsert[] =
		"INSERT INTO hosts (name, hw, cpu, gpu, cores, mem_bytes,"
		" kernel, libs) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
		" ON CONFLICT (name, hw, cpu, gpu) DO UPDATE SET"
		" cores = excluded.cores, mem_bytes = excluded.mem_bytes,"
		" kernel = excluded.kernel, libs = excluded.libs";
	static const char find[] =
		"SELECT id FROM hosts WHERE name = ?1 AND hw = ?2"
		" AND cpu = ?3 AND gpu = ?4";
	sqlite3_stmt *st = NULL, *sel = NULL;
	const char *what = "storing a host";
	int rc;

	*id = 0;
	if (h->cores < 0 || !isfinite(h->mem_bytes) || h->mem_bytes < 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "host %s: cores and "
				     "memory must be non-negative",
				     h->name);
	if ((rc = db_begin(db, what, err)))
		return rc;
	if ((rc = db_prepare(db, upsert, &st, what, err)) ||
	    (rc = db_prepare(db, find, &sel, what, err)))
		goto fail;
	db_bind_field(st, 1, h->name);
	db_bind_field(st, 2, h->hw);
	db_bind_field(st, 3, h->cpu);
	db_bind_field(st, 4, h->gpu);
	sqlite3_bind_int64(st, 5, h->cores);
	sqlite3_bind_double(st, 6, h->mem_bytes);
	db_bind_field(st, 7, h->kernel);
	db_bind_field(st, 8, h->libs);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = db_fail(db, what, err);
		goto fail;
	}
	db_bind_field(sel, 1, h->name);
	db_bind_field(sel, 2, h->hw);
	db_bind_field(sel, 3, h->cpu);
	db_bind_field(sel, 4, h->gpu);
	if (sqlite3_step(sel) != SQLITE_ROW) {
		rc = db_fail(db, what, err);
		goto fail;
	}
	*id = sqlite3_column_int64(sel, 0);
	sqlite3_finalize(st);
	sqlite3_finalize(sel);
	if ((rc = db_commit(db, what, err)))
		*id = 0;
	return rc;
fail:
	sqlite3_finalize(st);
	sqlite3_finalize(sel);
	db_rollback(db);
	*id = 0;
	return rc;
}

/* The one wording of hardware no stored host has run for. */
static int no_host(const char *hw, struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_ENOTFOUND, "no host has run "
			     "benchmarks for hardware '%s'", hw);
}

int db_host_newest(struct db *db, const char *hw, struct db_host *out,
		   struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT h.name, h.hw, h.cpu, h.gpu, h.cores, h.mem_bytes,"
		" h.kernel, h.libs FROM runs r JOIN hosts h"
		" ON h.id = r.host_id WHERE r.hw = ?1"
		" ORDER BY r.start_s DESC, r.id DESC LIMIT 1";
	sqlite3_stmt *st = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if (db_no_tables(db))
		return no_host(hw, err);
	if ((rc = db_prepare(db, sql, &st, "reading hosts", err)))
		return rc;
	db_bind_field(st, 1, hw);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		db_column_field(st, 0, out->name, sizeof(out->name));
		db_column_field(st, 1, out->hw, sizeof(out->hw));
		db_column_field(st, 2, out->cpu, sizeof(out->cpu));
		db_column_field(st, 3, out->gpu, sizeof(out->gpu));
		out->cores = sqlite3_column_int64(st, 4);
		out->mem_bytes = sqlite3_column_double(st, 5);
		db_column_field(st, 6, out->kernel, sizeof(out->kernel));
		db_column_field(st, 7, out->libs, sizeof(out->libs));
		sqlite3_finalize(st);
		return DLSIM_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		memset(out, 0, sizeof(*out));
		return db_fail(db, "reading hosts", err);
	}
	return no_host(hw, err);
}

/* ---------------------------------------------------------------- */
/* Runs and samples                                                  */
/* ---------------------------------------------------------------- */

/* The one wording of a run id that is not stored. */
static int no_run(int64_t run_id, struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_ENOTFOUND, "run %lld not found",
			     (long long)run_id);
}

static int store_run(struct db *db, const struct db_run *run,
		     int64_t *id, struct dlsim_err *err)
{
	static const char sql[] =
		"INSERT INTO runs (host_id, tool, cmdline, version, start_s,"
		" end_s, status, hw, source)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
	sqlite3_stmt *st;
	int rc;

	if ((rc = db_prepare(db, sql, &st, "storing a run", err)))
		return rc;
	if (run->host_id > 0)
		sqlite3_bind_int64(st, 1, run->host_id);
	else
		sqlite3_bind_null(st, 1);
	db_bind_field(st, 2, run->tool);
	db_bind_field(st, 3, run->cmdline);
	if (run->version[0])
		db_bind_field(st, 4, run->version);
	else
		sqlite3_bind_text(st, 4, dlsim_version(), -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 5, run->start_s);
	if (run->end_s > 0)
		sqlite3_bind_double(st, 6, run->end_s);
	else
		sqlite3_bind_null(st, 6);
	if (run->status[0])
		db_bind_field(st, 7, run->status);
	else
		sqlite3_bind_text(st, 7, "running", -1, SQLITE_STATIC);
	db_bind_field(st, 8, run->hw);
	db_bind_field(st, 9, run->source);
	if (sqlite3_step(st) != SQLITE_DONE)
		rc = db_fail(db, "storing a run", err);
	else
		*id = sqlite3_last_insert_rowid(db->h);
	sqlite3_finalize(st);
	return rc;
}

static int store_samples(struct db *db, int64_t run_id,
			 const struct db_sample *s, int64_t n,
			 struct dlsim_err *err)
{
	static const char sql[] =
		"INSERT INTO samples (run_id, benchmark, params, rep, value,"
		" unit) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	sqlite3_stmt *st;
	int64_t i;
	int rc;

	if ((rc = db_prepare(db, sql, &st, "storing samples", err)))
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	for (i = 0; i < n && !rc; i++) {
		char what[96];

		db_bind_field(st, 2, s[i].benchmark);
		db_bind_field(st, 3, s[i].params);
		sqlite3_bind_int64(st, 4, s[i].rep);
		sqlite3_bind_double(st, 5, s[i].value);
		db_bind_field(st, 6, s[i].unit);
		if (sqlite3_step(st) != SQLITE_DONE) {
			snprintf(what, sizeof(what), "storing sample %lld "
				 "(%.32s)", (long long)i,
				 s[i].benchmark);
			rc = db_fail(db, what, err);
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_run_insert(struct db *db, struct db_run *run,
		  const struct db_sample *s, int64_t n,
		  struct dlsim_err *err)
{
	int64_t i, id = 0;
	int rc;

	run->id = 0;
	run->n_samples = 0;
	if (!run->tool[0] || !run->hw[0])
		return dlsim_err_set(err, DLSIM_EINVAL, "a run needs a tool "
				     "and a hardware name");
	if (n < 0 || (n > 0 && !s))
		return dlsim_err_set(err, DLSIM_EINVAL, "run %.32s: %lld "
				     "samples", run->tool, (long long)n);
	for (i = 0; i < n; i++)
		if (!isfinite(s[i].value))
			return dlsim_err_set(err, DLSIM_EINVAL, "run %.32s: "
					     "sample %lld (%.32s %.64s) is "
					     "not a finite number", run->tool,
					     (long long)i, s[i].benchmark,
					     s[i].params);
	if (!isfinite(run->start_s) || !isfinite(run->end_s))
		return dlsim_err_set(err, DLSIM_EINVAL, "run %.32s: start "
				     "and end times must be finite",
				     run->tool);
	if ((rc = db_begin(db, "storing a run", err)))
		return rc;
	if ((rc = store_run(db, run, &id, err)) ||
	    (rc = store_samples(db, id, s, n, err))) {
		db_rollback(db);
		return rc;
	}
	if ((rc = db_commit(db, "storing a run", err)))
		return rc;
	run->id = id;
	run->n_samples = n;
	return DLSIM_OK;
}

/*
 * Samples added to a run already stored, for a run that measures while
 * it goes (dlsim calibrate run).  Such a run is stored "running" with no
 * samples, grows by whole batches, and ends with db_run_finish; what it
 * holds at any time is the samples of the batches committed so far, so
 * invariant 5 holds per batch: a batch is all there or not at all.
 */
int db_run_append(struct db *db, int64_t run_id, const struct db_sample *s,
		  int64_t n, struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT status FROM runs WHERE id = ?1";
	const char *what = "adding samples to a run";
	sqlite3_stmt *st = NULL;
	char status[16] = "";
	int64_t i;
	int rc;

	if (n < 0 || (n > 0 && !s))
		return dlsim_err_set(err, DLSIM_EINVAL, "run %lld: %lld "
				     "samples", (long long)run_id,
				     (long long)n);
	for (i = 0; i < n; i++)
		if (!isfinite(s[i].value))
			return dlsim_err_set(err, DLSIM_EINVAL, "run %lld: "
					     "sample %lld (%.32s %.64s) is "
					     "not a finite number",
					     (long long)run_id, (long long)i,
					     s[i].benchmark, s[i].params);
	if ((rc = db_begin(db, what, err)))
		return rc;
	if ((rc = db_prepare(db, sql, &st, what, err)))
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = no_run(run_id, err);
		goto fail;
	}
	db_column_field(st, 0, status, sizeof(status));
	sqlite3_finalize(st);
	st = NULL;
	if (strcmp(status, "running") != 0) {
		rc = dlsim_err_set(err, DLSIM_EINVAL, "run %lld is %s, not "
				   "running: it takes no more samples",
				   (long long)run_id, status);
		goto fail;
	}
	if ((rc = store_samples(db, run_id, s, n, err)))
		goto fail;
	return db_commit(db, what, err);
fail:
	sqlite3_finalize(st);
	db_rollback(db);
	return rc;
}

int db_run_finish(struct db *db, int64_t run_id, const char *status,
		  double end_s, struct dlsim_err *err)
{
	static const char *const finished[] = { "done", "interrupted",
						"failed", NULL };
	static const char sql[] =
		"UPDATE runs SET status = ?1, end_s = ?2 WHERE id = ?3";
	sqlite3_stmt *st = NULL;
	int rc;

	if (!status || core_name_index(finished, status) < 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "run %lld: a finished "
				     "run's status is done, interrupted or "
				     "failed (got '%s')", (long long)run_id,
				     status ? status : "");
	if (!isfinite(end_s))
		return dlsim_err_set(err, DLSIM_EINVAL, "run %lld: end time "
				     "must be finite", (long long)run_id);
	if ((rc = db_begin(db, "finishing a run", err)))
		return rc;
	if ((rc = db_prepare(db, sql, &st, "finishing a run", err)))
		goto fail;
	sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
	sqlite3_bind_double(st, 2, end_s);
	sqlite3_bind_int64(st, 3, run_id);
	if (sqlite3_step(st) != SQLITE_DONE) {
		rc = db_fail(db, "finishing a run", err);
		goto fail;
	}
	if (sqlite3_changes(db->h) == 0) {
		rc = no_run(run_id, err);
		goto fail;
	}
	sqlite3_finalize(st);
	return db_commit(db, "finishing a run", err);
fail:
	sqlite3_finalize(st);
	db_rollback(db);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Reading                                                           */
/* ---------------------------------------------------------------- */

#define RUN_COLUMNS \
	"SELECT id, coalesce(host_id, 0), tool, cmdline, version, start_s," \
	" coalesce(end_s, 0), status, hw, source," \
	" (SELECT count(*) FROM samples WHERE run_id = runs.id) FROM runs"

static void read_run(sqlite3_stmt *st, struct db_run *r)
{
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	r->host_id = sqlite3_column_int64(st, 1);
	db_column_field(st, 2, r->tool, sizeof(r->tool));
	db_column_field(st, 3, r->cmdline, sizeof(r->cmdline));
	db_column_field(st, 4, r->version, sizeof(r->version));
	r->start_s = sqlite3_column_double(st, 5);
	r->end_s = sqlite3_column_double(st, 6);
	db_column_field(st, 7, r->status, sizeof(r->status));
	db_column_field(st, 8, r->hw, sizeof(r->hw));
	db_column_field(st, 9, r->source, sizeof(r->source));
	r->n_samples = sqlite3_column_int64(st, 10);
}

int db_run_get(struct db *db, int64_t run_id, struct db_run *out,
	       struct dlsim_err *err)
{
	sqlite3_stmt *st;
	int rc, step;

	memset(out, 0, sizeof(*out));
	if (db_no_tables(db))
		return no_run(run_id, err);
	if ((rc = db_prepare(db, RUN_COLUMNS " WHERE id = ?1", &st,
			     "reading a run", err)))
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW)
		read_run(st, out);
	else if (step == SQLITE_DONE)
		rc = no_run(run_id, err);
	else
		rc = db_fail(db, "reading a run", err);
	sqlite3_finalize(st);
	return rc;
}

int db_each_run(struct db *db, int (*fn)(void *ctx, const struct db_run *r),
		void *ctx, struct dlsim_err *err)
{
	sqlite3_stmt *st;
	struct db_run r;
	int rc, step;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, RUN_COLUMNS " ORDER BY start_s DESC, id DESC",
			     &st, "listing runs", err)))
		return rc;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		read_run(st, &r);
		if (fn(ctx, &r))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, "listing runs", err);
	sqlite3_finalize(st);
	return rc;
}

/* Step st (columns run_id, benchmark, params, rep, value, unit) to the
 * end, handing each row to fn. */
static int visit_samples(struct db *db, sqlite3_stmt *st,
			 int (*fn)(void *ctx, int64_t run_id,
				   const struct db_sample *s),
			 void *ctx, struct dlsim_err *err)
{
	struct db_sample s;
	int rc = DLSIM_OK, step;

	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&s, 0, sizeof(s));
		db_column_field(st, 1, s.benchmark, sizeof(s.benchmark));
		db_column_field(st, 2, s.params, sizeof(s.params));
		s.rep = sqlite3_column_int64(st, 3);
		s.value = sqlite3_column_double(st, 4);
		db_column_field(st, 5, s.unit, sizeof(s.unit));
		if (fn(ctx, sqlite3_column_int64(st, 0), &s))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		rc = db_fail(db, "reading samples", err);
	sqlite3_finalize(st);
	return rc;
}

int db_each_sample(struct db *db, int64_t run_id,
		   int (*fn)(void *ctx, int64_t run_id,
			     const struct db_sample *s),
		   void *ctx, struct dlsim_err *err)
{
	static const char all[] =
		"SELECT run_id, benchmark, params, rep, value, unit"
		" FROM samples ORDER BY run_id, id";
	static const char one[] =
		"SELECT run_id, benchmark, params, rep, value, unit"
		" FROM samples WHERE run_id = ?1 ORDER BY id";
	sqlite3_stmt *st;
	int rc;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, run_id ? one : all, &st, "reading samples",
			     err)))
		return rc;
	if (run_id)
		sqlite3_bind_int64(st, 1, run_id);
	return visit_samples(db, st, fn, ctx, err);
}

int db_each_sample_of(struct db *db, const char *hw, const char *benchmark,
		      int (*fn)(void *ctx, int64_t run_id,
				const struct db_sample *s),
		      void *ctx, struct dlsim_err *err)
{
	/* Two statements rather than "?2 IS NULL OR ...", which would
	 * keep the planner off the (benchmark, run_id) index. */
	static const char all[] =
		"SELECT s.run_id, s.benchmark, s.params, s.rep, s.value,"
		" s.unit FROM samples s JOIN runs r ON r.id = s.run_id"
		" WHERE r.hw = ?1 ORDER BY s.run_id, s.id";
	static const char one[] =
		"SELECT s.run_id, s.benchmark, s.params, s.rep, s.value,"
		" s.unit FROM samples s JOIN runs r ON r.id = s.run_id"
		" WHERE r.hw = ?1 AND s.benchmark = ?2"
		" ORDER BY s.run_id, s.id";
	sqlite3_stmt *st;
	int rc;

	if (db_no_tables(db))
		return DLSIM_OK;
	if ((rc = db_prepare(db, benchmark ? one : all, &st,
			     "reading samples", err)))
		return rc;
	sqlite3_bind_text(st, 1, hw ? hw : "", -1, SQLITE_STATIC);
	if (benchmark)
		sqlite3_bind_text(st, 2, benchmark, -1, SQLITE_STATIC);
	return visit_samples(db, st, fn, ctx, err);
}
