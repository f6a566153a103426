/*
 * db_schema.c -- the schema of the measurement store as numbered
 * migrations, and the mechanism that applies them.
 *
 * HOW IT WORKS
 * The file's schema version is PRAGMA user_version, an integer SQLite
 * keeps in the database header and changes transactionally.  A new file
 * holds 0.  migrations[] lists the steps 1, 2, ... in order; opening a
 * file whose version v is below the last runs steps v+1, ..., each in
 * its own BEGIN IMMEDIATE transaction that ends by setting user_version
 * to the step's number, so a step is applied entirely or not at all.
 * The write lock is taken before user_version is re-read, so when two
 * processes open one new file at once the second finds the work done.
 * A file whose version is above the last step was written by a newer
 * dlsim and is refused unchanged: this build cannot know what its
 * tables mean.
 *
 * INVARIANTS
 * 1. An entry of migrations[] that has been released never changes;
 *    version 2 is a new entry at the end, with DB_SCHEMA_VERSION = 2.
 * 2. After db_migrate() succeeds, user_version equals the last entry's
 *    number; after it fails, user_version is that of the last step that
 *    committed, and the failed step left no table, index or row.
 * 3. Every value column is NOT NULL unless NULL means something (a run's
 *    end_s while it runs, a run's host when unknown), so readers never
 *    guess.
 *
 * LIMITATIONS
 * PRAGMA foreign_keys cannot change inside a transaction, so a future
 * step that rebuilds a table (SQLite's twelve-step ALTER TABLE recipe)
 * must keep the new table's foreign keys consistent itself; PRAGMA
 * defer_foreign_keys = ON inside the step postpones the checks to COMMIT.
 */
#include <limits.h>

#include "db/db.h"

#include <stdio.h>

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* The migrations                                                    */
/* ---------------------------------------------------------------- */

/*
 * Version 1.  Units are in the column names where a column has one
 * (start_s, mem_bytes); a sample's unit is a column because one
 * benchmark reports seconds, another bytes per second.  samples has an
 * index on run_id of its own because the foreign key's ON DELETE CASCADE
 * and "the samples of run N" look rows up by it, and (benchmark, run_id)
 * for a fit, which reads one benchmark over the runs of one hardware.
 */
static const char schema_v1[] =
	"CREATE TABLE hosts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL,\n"
	"  hw TEXT NOT NULL,\n"
	"  cpu TEXT NOT NULL DEFAULT '',\n"
	"  gpu TEXT NOT NULL DEFAULT '',\n"
	"  cores INTEGER NOT NULL DEFAULT 0 CHECK (cores >= 0),\n"
	"  mem_bytes REAL NOT NULL DEFAULT 0 CHECK (mem_bytes >= 0),\n"
	"  kernel TEXT NOT NULL DEFAULT '',\n"
	"  libs TEXT NOT NULL DEFAULT '',\n"
	"  UNIQUE (name, hw, cpu, gpu)\n"
	");\n"
	"CREATE TABLE runs (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER REFERENCES hosts (id),\n"
	"  tool TEXT NOT NULL,\n"
	"  cmdline TEXT NOT NULL DEFAULT '',\n"
	"  version TEXT NOT NULL,\n"
	"  start_s REAL NOT NULL,\n"
	"  end_s REAL,\n"
	"  status TEXT NOT NULL CHECK (status IN\n"
	"    ('running', 'done', 'interrupted', 'failed')),\n"
	"  hw TEXT NOT NULL,\n"
	"  source TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE INDEX runs_hw ON runs (hw);\n"
	"CREATE INDEX runs_host ON runs (host_id);\n"
	"CREATE TABLE samples (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,\n"
	"  benchmark TEXT NOT NULL,\n"
	"  params TEXT NOT NULL,\n"
	"  rep INTEGER NOT NULL CHECK (rep >= -1),\n"
	"  value REAL NOT NULL,\n"
	"  unit TEXT NOT NULL CHECK (unit IN ('s', 'B/s', 'FLOP/s'))\n"
	");\n"
	"CREATE INDEX samples_benchmark_run ON samples (benchmark, run_id);\n"
	"CREATE INDEX samples_run ON samples (run_id);\n"
	"CREATE TABLE fits (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  hw TEXT NOT NULL,\n"
	"  kind TEXT NOT NULL,\n"
	"  params_json TEXT NOT NULL CHECK (json_valid(params_json)),\n"
	"  covariance_json TEXT NOT NULL CHECK (json_valid(covariance_json)),\n"
	"  residual_rms REAL NOT NULL,\n"
	"  n_samples INTEGER NOT NULL CHECK (n_samples >= 0),\n"
	"  sample_run_ids TEXT NOT NULL CHECK (json_valid(sample_run_ids)),\n"
	"  created_s REAL NOT NULL,\n"
	"  dlsim_version TEXT NOT NULL\n"
	");\n"
	"CREATE INDEX fits_hw_kind ON fits (hw, kind, created_s);\n"
	"CREATE TABLE predictions (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  inputs_json TEXT NOT NULL CHECK (json_valid(inputs_json)),\n"
	"  outputs_json TEXT NOT NULL CHECK (json_valid(outputs_json)),\n"
	"  fit_ids TEXT NOT NULL CHECK (json_valid(fit_ids)),\n"
	"  created_s REAL NOT NULL,\n"
	"  dlsim_version TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE measurements (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  set_name TEXT NOT NULL,\n"
	"  row_key TEXT NOT NULL,\n"
	"  value REAL NOT NULL,\n"
	"  unit TEXT NOT NULL,\n"
	"  source TEXT NOT NULL DEFAULT '',\n"
	"  created_s REAL NOT NULL\n"
	");\n"
	"CREATE INDEX measurements_set ON measurements (set_name, row_key);\n";

static const struct db_migration migrations[] = {
	{ 1, "hosts, runs, samples, fits, predictions, measurements",
	  schema_v1 },
};

#define N_MIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

const struct db_migration *db_schema_migrations(int *n)
{
	*n = N_MIGRATIONS;
	return migrations;
}

/* ---------------------------------------------------------------- */
/* Applying them                                                     */
/* ---------------------------------------------------------------- */

int db_user_version(struct db *db)
{
	sqlite3_stmt *st = NULL;
	int v = INT_MIN;

	if (sqlite3_prepare_v2(db->h, "PRAGMA user_version", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int refuse_newer(struct db *db, int found, int known,
			struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_EDB, "%s: created by a newer dlsim "
			     "(schema version %d; this dlsim %s reads up to "
			     "%d)", db->path, found, dlsim_version(), known);
}

/* PRAGMA user_version = -1: no dlsim writes one below 0 */
static int refuse_negative(struct db *db, int found, struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_EDB, "%s: schema version %d, which "
			     "no dlsim writes (the file was changed outside "
			     "dlsim)", db->path, found);
}

int db_schema_check(struct db *db, int known, int *version,
		    struct dlsim_err *err)
{
	int v = db_user_version(db);

	if (version)
		*version = v;
	if (v == INT_MIN)
		return db_fail(db, "reading the schema version", err);
	if (v < 0)
		return refuse_negative(db, v, err);
	if (v > known)
		return refuse_newer(db, v, known, err);
	return DLSIM_OK;
}

/* Apply step m inside its own transaction, unless another process has
 * applied it meanwhile. */
static int apply(struct db *db, const struct db_migration *m, int last,
		 struct dlsim_err *err)
{
	char what[96], pragma[48];
	int v, rc;

	snprintf(what, sizeof(what), "migration to schema version %d",
		 m->version);
	if ((rc = db_begin(db, what, err)))
		return rc;
	v = db_user_version(db);
	if (v == INT_MIN || v < 0) {
		rc = v == INT_MIN ? db_fail(db, what, err) :
		     refuse_negative(db, v, err);
		goto fail;
	}
	if (v > last) {
		rc = refuse_newer(db, v, last, err);
		goto fail;
	}
	if (v >= m->version) {          /* done by another process */
		db_rollback(db);
		return DLSIM_OK;
	}
	/* PRAGMA takes no bound parameters; the number comes from the
	 * compiled-in table, never from outside. */
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d",
		 m->version);
	if ((rc = db_exec(db, m->sql, what, err)) ||
	    (rc = db_exec(db, pragma, what, err)))
		goto fail;
	return db_commit(db, what, err);
fail:
	db_rollback(db);
	return rc;
}

int db_migrate(struct db *db, const struct db_migration *m, int n,
	       struct dlsim_err *err)
{
	int i, v, rc;

	for (i = 0; i < n; i++)
		if (m[i].version != i + 1 || !m[i].sql)
			return dlsim_err_set(err, DLSIM_EINVAL, "internal "
					     "error: migration %d is numbered "
					     "%d", i + 1, m[i].version);
	if ((rc = db_schema_check(db, n, &v, err)))
		return rc;
	for (i = v; i < n; i++)
		if ((rc = apply(db, &m[i], n, err))) {
			db->version = db_user_version(db);
			return rc;
		}
	db->version = db_user_version(db);
	return DLSIM_OK;
}
