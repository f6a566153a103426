/*
 * test_db.c -- the measurement store (db/): the schema and its
 * migrations, all-or-nothing writes, the visitors, two processes writing
 * one file at once, where the file lives, and `dlsim db` end to end.
 *
 * Every test works in its own mkdtemp() directory and names its database
 * explicitly (an argument, --db or DLSIM_DB): no test reads or writes the
 * user's database.  Invariant numbers cite the comments at the top of
 * db/db.c, db/db_schema.c, db/db_runs.c and db/db_results.c.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "db/db.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

struct tmp {
	char dir[64];
	char path[128];         /* dir/test.db */
};

static void tmp_make(struct tmp *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/dlsim-db-XXXXXX");
	ck_assert(mkdtemp(t->dir) != NULL);
	snprintf(t->path, sizeof(t->path), "%s/test.db", t->dir);
}

/* Remove dir and everything under it (a few levels: the XDG test). */
static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char p[512];
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static void tmp_remove(struct tmp *t)
{
	rm_tree(t->dir);
}

static struct db *open_ok(const char *path)
{
	struct dlsim_err err = { 0, "" };
	struct db *db = NULL;

	ck_assert_msg(db_open(path, &db, &err) == DLSIM_OK, "%s", err.msg);
	ck_assert(db != NULL);
	return db;
}

/* One integer from a query with no parameters (test-only SQL). */
static int64_t scalar(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	ck_assert_msg(sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) ==
		      SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db->h));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A raw connection for hand-made files, without dlsim's schema. */
static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	char *msg = NULL;

	ck_assert(sqlite3_open(path, &h) == SQLITE_OK);
	ck_assert_msg(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK,
		      "%s: %s", sql, msg ? msg : "");
	sqlite3_close(h);
}

static int64_t raw_scalar(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	ck_assert(sqlite3_open(path, &h) == SQLITE_OK);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

/* The whole file into buf (at most n bytes); returns the size. */
static size_t read_bytes(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	ck_assert(f != NULL);
	got = fread(buf, 1, n, f);
	ck_assert(feof(f));
	fclose(f);
	return got;
}

static void make_run(struct db_run *r, const char *tool, const char *hw,
		     double start_s)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->tool, sizeof(r->tool), "%s", tool);
	snprintf(r->hw, sizeof(r->hw), "%s", hw);
	snprintf(r->cmdline, sizeof(r->cmdline), "dlsim calibrate run");
	snprintf(r->status, sizeof(r->status), "done");
	r->start_s = start_s;
	r->end_s = start_s + 60.0;
}

/* Sample k of a GEMM sweep: value k + base, unit seconds. */
static void make_sample(struct db_sample *s, int k, double base)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->benchmark, sizeof(s->benchmark), "gemm");
	snprintf(s->params, sizeof(s->params),
		 "m=%d n=%d k=%d dtype=fp32 threads=1", 64 * (k + 1),
		 64 * (k + 1), 64 * (k + 1));
	s->rep = k % 5;
	s->value = base + k;
	snprintf(s->unit, sizeof(s->unit), "s");
}

static int64_t insert_run(struct db *db, const char *tool, const char *hw,
			  double start_s, int n, double base)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample s[64];
	struct db_run r;
	int k;

	ck_assert(n <= 64);
	make_run(&r, tool, hw, start_s);
	for (k = 0; k < n; k++)
		make_sample(&s[k], k, base);
	ck_assert_msg(db_run_insert(db, &r, s, n, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert(r.id > 0);
	ck_assert_int_eq(r.n_samples, n);
	return r.id;
}

/* ---------------------------------------------------------------- */
/* Schema and migrations                                             */
/* ---------------------------------------------------------------- */

START_TEST(db_schema_creates_every_table)
{
	static const char *const tables[] = {
		"hosts", "runs", "samples", "fits", "predictions",
		"measurements", "samples_benchmark_run", "samples_run", NULL
	};
	struct tmp t;
	struct db *db;
	int i;

	tmp_make(&t);
	db = open_ok(t.path);
	ck_assert_int_eq(db_schema_version(db), DB_SCHEMA_VERSION);
	ck_assert_int_eq(scalar(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	ck_assert_int_eq(scalar(db, "PRAGMA foreign_keys"), 1);
	ck_assert_int_eq(scalar(db, "SELECT journal_mode = 'wal' FROM "
				"pragma_journal_mode()"), 1);
	for (i = 0; tables[i]; i++) {
		sqlite3_stmt *st;
		int found;

		ck_assert(sqlite3_prepare_v2(db->h, "SELECT count(*) FROM "
					     "sqlite_master WHERE name = ?1",
					     -1, &st, NULL) == SQLITE_OK);
		sqlite3_bind_text(st, 1, tables[i], -1, SQLITE_STATIC);
		ck_assert(sqlite3_step(st) == SQLITE_ROW);
		found = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		ck_assert_msg(found == 1, "no %s in the schema", tables[i]);
	}
	ck_assert_str_eq(db_path(db), t.path);
	db_close(db);
	/* Opening again changes nothing (invariant 2 of db_schema.c). */
	db = open_ok(t.path);
	ck_assert_int_eq(db_schema_version(db), DB_SCHEMA_VERSION);
	db_close(db);
	db_close(NULL);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_schema_migrations_are_numbered_in_order)
{
	const struct db_migration *m;
	int i, n;

	m = db_schema_migrations(&n);
	ck_assert_int_eq(n, DB_SCHEMA_VERSION);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(m[i].version, i + 1);
		ck_assert(m[i].sql != NULL && m[i].what != NULL);
	}
}
END_TEST

/*
 * "Version 0" is what dlsim found before it had a schema: a SQLite file
 * with user_version 0.  The older layout here is the one an early
 * calibration script kept (a notes table); migrating must add every
 * table and keep what was there.
 */
START_TEST(db_migrates_a_version_0_file)
{
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	raw_exec(t.path, "CREATE TABLE notes (text TEXT);"
		 "INSERT INTO notes VALUES ('kept across the migration');");
	ck_assert_int_eq(raw_scalar(t.path, "PRAGMA user_version"), 0);
	db = open_ok(t.path);
	ck_assert_int_eq(db_schema_version(db), 1);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM notes"), 1);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples"), 0);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

/* A later version is one more table entry: 0 -> 1 -> 2 in order, the
 * data of version 1 carried over, and the result refused by this build
 * (which reads up to 1) as newer. */
START_TEST(db_migrates_in_order_through_a_later_version)
{
	struct db_migration m[2];
	struct dlsim_err err = { 0, "" };
	const struct db_migration *real;
	struct db bare;
	struct tmp t;
	struct db *db;
	int n;

	real = db_schema_migrations(&n);
	ck_assert_int_eq(n, 1);
	m[0] = real[0];
	m[1].version = 2;
	m[1].what = "a note per sample";
	m[1].sql = "ALTER TABLE samples ADD COLUMN note TEXT NOT NULL "
		   "DEFAULT '';"
		   "CREATE INDEX samples_note ON samples (note);";
	tmp_make(&t);
	db = open_ok(t.path);
	insert_run(db, "calibrate", "local", 1000.0, 7, 0.5);
	ck_assert_int_eq(db_migrate(db, m, 2, &err), DLSIM_OK);
	ck_assert_int_eq(db_schema_version(db), 2);
	ck_assert_int_eq(scalar(db, "PRAGMA user_version"), 2);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples WHERE "
				"note = ''"), 7);
	/* Applying the table again is a no-op. */
	ck_assert_int_eq(db_migrate(db, m, 2, &err), DLSIM_OK);
	db_close(db);

	/* From version 0 straight to 2, each step in turn, on a bare
	 * connection (db_open would stop at this build's version). */
	unlink(t.path);
	raw_exec(t.path, "CREATE TABLE notes (text TEXT);");
	memset(&bare, 0, sizeof(bare));
	snprintf(bare.path, sizeof(bare.path), "%s", t.path);
	ck_assert(sqlite3_open(t.path, &bare.h) == SQLITE_OK);
	ck_assert_int_eq(db_migrate(&bare, m, 2, &err), DLSIM_OK);
	ck_assert_int_eq(bare.version, 2);
	ck_assert_int_eq(scalar(&bare, "SELECT count(*) FROM "
				"pragma_table_info('samples') WHERE name = "
				"'note'"), 1);
	ck_assert_int_eq(scalar(&bare, "SELECT count(*) FROM notes"), 0);
	sqlite3_close(bare.h);

	/* This build reads up to version 1. */
	ck_assert(db_open(t.path, &db, &err) == DLSIM_EDB);
	ck_assert(db == NULL);
	ck_assert_msg(strstr(err.msg, "created by a newer dlsim") != NULL,
		      "%s", err.msg);
	tmp_remove(&t);
}
END_TEST

/* A step that fails leaves nothing of itself (invariant 2 of
 * db_schema.c): no table, and user_version where it was. */
START_TEST(db_failed_migration_leaves_nothing)
{
	struct db_migration m[2];
	struct dlsim_err err = { 0, "" };
	const struct db_migration *real;
	struct tmp t;
	struct db *db;
	int n;

	real = db_schema_migrations(&n);
	m[0] = real[0];
	m[1].version = 2;
	m[1].what = "broken";
	m[1].sql = "CREATE TABLE half (x INTEGER);"
		   "INSERT INTO no_such_table VALUES (1);";
	tmp_make(&t);
	db = open_ok(t.path);
	ck_assert_int_eq(db_migrate(db, m, 2, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg &&
		      strstr(err.msg, "migration to schema version 2") &&
		      strstr(err.msg, "no_such_table"), "%s", err.msg);
	ck_assert_int_eq(db_schema_version(db), 1);
	ck_assert_int_eq(scalar(db, "PRAGMA user_version"), 1);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM sqlite_master "
				"WHERE name = 'half'"), 0);
	/* A table whose numbers skip is refused before anything runs. */
	m[1].version = 3;
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_migrate(db, m, 2, &err), DLSIM_EINVAL);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_refuses_a_newer_file)
{
	static char before[65536], after[65536];
	struct dlsim_err err = { 0, "" };
	struct db *db = (struct db *)&err;  /* must come back NULL */
	size_t n_before, n_after;
	struct tmp t;

	tmp_make(&t);
	raw_exec(t.path, "CREATE TABLE future (x);"
		 "PRAGMA user_version = 7;");
	n_before = read_bytes(t.path, before, sizeof(before));
	ck_assert_int_eq(db_open(t.path, &db, &err), DLSIM_EDB);
	ck_assert(db == NULL);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg &&
		      strstr(err.msg, "created by a newer dlsim") &&
		      strstr(err.msg, "schema version 7"), "%s", err.msg);
	/* Untouched, byte for byte (not even switched to WAL). */
	n_after = read_bytes(t.path, after, sizeof(after));
	ck_assert(n_before == n_after &&
		  memcmp(before, after, n_before) == 0);
	ck_assert_int_eq(raw_scalar(t.path, "PRAGMA user_version"), 7);
	ck_assert_int_eq(raw_scalar(t.path, "SELECT count(*) FROM "
				    "sqlite_master WHERE name = 'runs'"), 0);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_refuses_what_is_not_a_database)
{
	struct dlsim_err err = { 0, "" };
	struct db *db = NULL;
	struct tmp t;
	FILE *f;

	tmp_make(&t);
	f = fopen(t.path, "w");
	ck_assert(f != NULL);
	fputs("model,step_time_s\nresnet50,0.1\n"
	      "a CSV file of results, long enough for SQLite to read its "
	      "first 100 bytes as a header\n", f);
	fclose(f);
	ck_assert_int_eq(db_open(t.path, &db, &err), DLSIM_EDB);
	ck_assert(db == NULL);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg &&
		      strstr(err.msg, "not a database"), "%s", err.msg);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_open("/nonexistent-dir/x.db", &db, &err),
			 DLSIM_EDB);
	ck_assert(strstr(err.msg, "/nonexistent-dir/x.db: opening: ") ==
		  err.msg);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Writes                                                            */
/* ---------------------------------------------------------------- */

/* Invariant 6 of db_runs.c. */
START_TEST(db_host_upsert_is_idempotent)
{
	struct dlsim_err err = { 0, "" };
	struct db_host h;
	int64_t a = 0, b = 0, c = 0;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	memset(&h, 0, sizeof(h));
	snprintf(h.name, sizeof(h.name), "node17");
	snprintf(h.hw, sizeof(h.hw), "local");
	snprintf(h.cpu, sizeof(h.cpu), "AMD EPYC 7742");
	h.cores = 2;
	h.mem_bytes = 8.0 * 1073741824.0;
	snprintf(h.kernel, sizeof(h.kernel), "6.1.0");
	ck_assert_int_eq(db_host_upsert(db, &h, &a, &err), DLSIM_OK);
	snprintf(h.kernel, sizeof(h.kernel), "6.1.1");
	ck_assert_int_eq(db_host_upsert(db, &h, &b, &err), DLSIM_OK);
	ck_assert(a > 0);
	ck_assert_int_eq(a, b);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM hosts"), 1);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM hosts WHERE "
				"kernel = '6.1.1'"), 1);
	snprintf(h.gpu, sizeof(h.gpu), "NVIDIA A100-SXM4-40GB");
	ck_assert_int_eq(db_host_upsert(db, &h, &c, &err), DLSIM_OK);
	ck_assert(c != a);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM hosts"), 2);
	h.cores = -1;
	ck_assert_int_eq(db_host_upsert(db, &h, &c, &err), DLSIM_EINVAL);
	ck_assert_int_eq(c, 0);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

static void assert_empty(struct db *db)
{
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs"), 0);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples"), 0);
}

/* Invariant 5 of db_runs.c: a failure anywhere stores nothing. */
START_TEST(db_run_insert_all_or_nothing)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample s[50];
	struct db_run r;
	struct tmp t;
	struct db *db;
	int k;

	tmp_make(&t);
	db = open_ok(t.path);
	for (k = 0; k < 50; k++)
		make_sample(&s[k], k, 1.0);

	/* The run row itself breaks the CHECK on status. */
	make_run(&r, "calibrate", "local", 1000.0);
	snprintf(r.status, sizeof(r.status), "exploded");
	r.id = 99;
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg &&
		      strstr(err.msg, "CHECK constraint failed"), "%s",
		      err.msg);
	ck_assert_int_eq(r.id, 0);
	assert_empty(db);

	/* Sample 25 of 50 breaks the CHECK on unit: the run and samples
	 * 0..24 were written inside the transaction and must be gone. */
	make_run(&r, "calibrate", "local", 1000.0);
	snprintf(s[25].unit, sizeof(s[25].unit), "parsec");
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, "storing sample 25 (gemm)") &&
		      strstr(err.msg, "CHECK constraint failed"), "%s",
		      err.msg);
	ck_assert_int_eq(r.id, 0);
	ck_assert_int_eq(r.n_samples, 0);
	assert_empty(db);
	snprintf(s[25].unit, sizeof(s[25].unit), "s");

	/* A value SQLite would store as NULL never gets that far. */
	s[40].value = NAN;
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "sample 40") != NULL);
	assert_empty(db);
	s[40].value = 3.0;

	/* A run must say what made it and which hardware it measured. */
	r.hw[0] = '\0';
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EINVAL);
	assert_empty(db);
	snprintf(r.hw, sizeof(r.hw), "local");

	/* A host that is not there breaks the foreign key. */
	r.host_id = 12345;
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, "FOREIGN KEY") != NULL, "%s", err.msg);
	assert_empty(db);
	r.host_id = 0;

	/* And the same run, repaired, goes in whole. */
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_OK);
	ck_assert(r.id > 0);
	ck_assert_int_eq(r.n_samples, 50);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs"), 1);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples"), 50);

	/* A run with nothing measured is still a run. */
	make_run(&r, "import:stream", "local", 2000.0);
	ck_assert_int_eq(db_run_insert(db, &r, NULL, 0, &err), DLSIM_OK);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs"), 2);
	ck_assert_int_eq(db_run_insert(db, &r, NULL, -1, &err), DLSIM_EINVAL);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_run_finish_marks_the_run)
{
	struct dlsim_err err = { 0, "" };
	struct db_run r, got;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	make_run(&r, "calibrate", "local", 1700000000.0);
	r.end_s = 0;
	r.status[0] = '\0';             /* stored as "running" */
	r.version[0] = '\0';            /* stored as dlsim_version() */
	ck_assert_int_eq(db_run_insert(db, &r, NULL, 0, &err), DLSIM_OK);
	ck_assert_int_eq(db_run_get(db, r.id, &got, &err), DLSIM_OK);
	ck_assert_str_eq(got.status, "running");
	ck_assert_str_eq(got.version, dlsim_version());
	ck_assert(got.end_s == 0.0);

	ck_assert_int_eq(db_run_finish(db, r.id, "interrupted",
				       1700000042.5, &err), DLSIM_OK);
	ck_assert_int_eq(db_run_get(db, r.id, &got, &err), DLSIM_OK);
	ck_assert_str_eq(got.status, "interrupted");
	ck_assert(got.end_s == 1700000042.5);
	ck_assert(got.start_s == 1700000000.0);

	ck_assert_int_eq(db_run_finish(db, r.id, "running", 1.0, &err),
			 DLSIM_EINVAL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_finish(db, r.id, NULL, 1.0, &err),
			 DLSIM_EINVAL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_finish(db, r.id + 1, "done", 1.0, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "not found") != NULL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_get(db, r.id + 1, &got, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_int_eq(got.id, 0);
	/* Nothing changed by the refused calls. */
	ck_assert_int_eq(db_run_get(db, r.id, &got, NULL), DLSIM_OK);
	ck_assert_str_eq(got.status, "interrupted");
	db_close(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_info_counts_every_table)
{
	struct dlsim_err err = { 0, "" };
	struct db_measurement m[2];
	struct db_prediction p;
	struct db_info in;
	struct db_host h;
	struct db_fit f;
	int64_t host;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	memset(&h, 0, sizeof(h));
	snprintf(h.name, sizeof(h.name), "box");
	snprintf(h.hw, sizeof(h.hw), "local");
	ck_assert_int_eq(db_host_upsert(db, &h, &host, &err), DLSIM_OK);
	insert_run(db, "calibrate", "local", 1.0, 3, 0.0);
	insert_run(db, "calibrate", "local", 2.0, 0, 0.0);
	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "local");
	snprintf(f.kind, sizeof(f.kind), "gemm:fp32");
	f.params_json = "{\"peak_flops\": 1e11, \"half_size\": 256}";
	f.covariance_json = "[[1e18, 0], [0, 4]]";
	f.sample_run_ids = "[1]";
	f.n_samples = 3;
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	ck_assert(f.id > 0);
	memset(&p, 0, sizeof(p));
	p.inputs_json = "{\"model\": \"resnet18\", \"hw\": \"local\"}";
	p.outputs_json = "{\"step_time_s\": 0.25}";
	p.fit_ids = "[1]";
	ck_assert_int_eq(db_prediction_insert(db, &p, &err), DLSIM_OK);
	ck_assert(p.id > 0);
	memset(m, 0, sizeof(m));
	snprintf(m[0].set_name, sizeof(m[0].set_name), "tf_cnn_benchmarks");
	snprintf(m[0].row_key, sizeof(m[0].row_key), "resnet50 p100x8");
	m[0].value = 1680.0;
	snprintf(m[0].unit, sizeof(m[0].unit), "samples/s");
	m[1] = m[0];
	snprintf(m[1].row_key, sizeof(m[1].row_key), "resnet50 p100x1");
	m[1].value = 219.0;
	ck_assert_int_eq(db_measurement_insert(db, m, 2, &err), DLSIM_OK);

	ck_assert_int_eq(db_info(db, &in, &err), DLSIM_OK);
	ck_assert_str_eq(in.path, t.path);
	ck_assert_int_eq(in.schema_version, DB_SCHEMA_VERSION);
	ck_assert_int_eq(in.hosts, 1);
	ck_assert_int_eq(in.runs, 2);
	ck_assert_int_eq(in.samples, 3);
	ck_assert_int_eq(in.fits, 1);
	ck_assert_int_eq(in.predictions, 1);
	ck_assert_int_eq(in.measurements, 2);
	ck_assert(in.file_bytes >= 4096.0);
	ck_assert_int_eq(db_vacuum(db, &err), DLSIM_OK);
	ck_assert_int_eq(db_info(db, &in, &err), DLSIM_OK);
	ck_assert_int_eq(in.samples, 3);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

/* Invariant 7 of db_results.c: the id lists and parameters are JSON. */
START_TEST(db_fit_refuses_text_that_is_not_json)
{
	struct dlsim_err err = { 0, "" };
	struct db_measurement m;
	struct db_fit f;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "local");
	snprintf(f.kind, sizeof(f.kind), "stream");
	f.params_json = "{\"bw_Bps\": 1e10";           /* unclosed */
	f.covariance_json = "[[1]]";
	f.sample_run_ids = "[]";
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, "storing a fit") != NULL, "%s",
		      err.msg);
	ck_assert_int_eq(f.id, 0);
	f.params_json = "{}";
	f.residual_rms = INFINITY;
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_EINVAL);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM fits"), 0);
	memset(&m, 0, sizeof(m));
	m.value = NAN;
	ck_assert_int_eq(db_measurement_insert(db, &m, 1, &err), DLSIM_EINVAL);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM measurements"), 0);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_deleting_a_run_deletes_its_samples)
{
	struct tmp t;
	struct db *db;
	int64_t a, b;

	tmp_make(&t);
	db = open_ok(t.path);
	a = insert_run(db, "calibrate", "local", 1.0, 10, 0.0);
	b = insert_run(db, "calibrate", "local", 2.0, 5, 0.0);
	ck_assert(a != b);
	ck_assert(sqlite3_exec(db->h, "DELETE FROM runs WHERE id = 1", NULL,
			       NULL, NULL) == SQLITE_OK);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples"), 5);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Reading                                                           */
/* ---------------------------------------------------------------- */

struct seen {
	int n, stop_after;
	int64_t ids[16];
	double values[128];
	char text[16][160];
};

static int see_run(void *ctx, const struct db_run *r)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		s->ids[s->n] = r->id;
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s:%lld", r->hw,
			 (long long)r->n_samples);
	}
	return ++s->n == s->stop_after;
}

static int see_sample(void *ctx, int64_t run_id, const struct db_sample *x)
{
	struct seen *s = ctx;

	if (s->n < 128)
		s->values[s->n] = x->value;
	if (s->n < 16)
		s->ids[s->n] = run_id;
	return ++s->n == s->stop_after;
}

static int see_fit(void *ctx, const struct db_fit *f)
{
	struct seen *s = ctx;

	if (s->n < 16)
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s %s %s",
			 f->hw, f->kind, f->params_json);
	return ++s->n == s->stop_after;
}

static int see_measurement(void *ctx, const struct db_measurement *m)
{
	struct seen *s = ctx;

	if (s->n < 128)
		s->values[s->n] = m->value;
	return ++s->n == s->stop_after;
}

START_TEST(db_visitors_order_and_stop)
{
	struct dlsim_err err = { 0, "" };
	struct db_measurement m[3];
	struct seen s;
	struct db_fit f;
	int64_t old, mid, new;
	struct tmp t;
	struct db *db;
	int k;

	tmp_make(&t);
	db = open_ok(t.path);
	mid = insert_run(db, "import:osu", "v100x8", 2000.0, 4, 100.0);
	old = insert_run(db, "calibrate", "local", 1000.0, 3, 0.0);
	new = insert_run(db, "calibrate", "local", 3000.0, 2, 200.0);

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_run(db, see_run, &s, &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 3);
	ck_assert_int_eq(s.ids[0], new);        /* newest first */
	ck_assert_int_eq(s.ids[1], mid);
	ck_assert_int_eq(s.ids[2], old);
	ck_assert_str_eq(s.text[1], "v100x8:4");
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	ck_assert_int_eq(db_each_run(db, see_run, &s, &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 1);

	/* One run's samples, in the order they were measured. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_sample(db, mid, see_sample, &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(s.n, 4);
	for (k = 0; k < 4; k++)
		ck_assert(s.values[k] == 100.0 + k);
	/* All samples, by run id. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_sample(db, 0, see_sample, &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(s.n, 9);
	ck_assert_int_eq(s.ids[0], mid);
	ck_assert_int_eq(s.ids[4], old);
	ck_assert_int_eq(s.ids[7], new);
	memset(&s, 0, sizeof(s));
	s.stop_after = 2;
	ck_assert_int_eq(db_each_sample(db, 0, see_sample, &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(s.n, 2);
	/* What a fit reads: one hardware, one benchmark. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_sample_of(db, "local", "gemm", see_sample,
					   &s, &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 5);
	ck_assert(s.values[0] == 0.0 && s.values[3] == 200.0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_sample_of(db, "local", "stream", see_sample,
					   &s, &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_sample_of(db, "v100x8", NULL, see_sample,
					   &s, &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 4);

	/* Fits, newest first, filtered by hardware and kind. */
	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "local");
	snprintf(f.kind, sizeof(f.kind), "gemm:fp32");
	f.params_json = "{\"a\": 1}";
	f.covariance_json = "[[0]]";
	f.sample_run_ids = "[2, 3]";
	f.created_s = 100.0;
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	f.params_json = "{\"a\": 2}";
	f.created_s = 200.0;
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	snprintf(f.kind, sizeof(f.kind), "stream");
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_fit(db, "local", "gemm:fp32", see_fit, &s,
				     &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.text[0], "local gemm:fp32 {\"a\": 2}");
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_fit(db, NULL, NULL, see_fit, &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(s.n, 3);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_fit(db, "v100", NULL, see_fit, &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(s.n, 0);

	/* Measurements by set, in the order stored. */
	memset(m, 0, sizeof(m));
	for (k = 0; k < 3; k++) {
		snprintf(m[k].set_name, sizeof(m[k].set_name), "%s",
			 k < 2 ? "a" : "b");
		snprintf(m[k].row_key, sizeof(m[k].row_key), "row %d", k);
		m[k].value = 10.0 * (k + 1);
		snprintf(m[k].unit, sizeof(m[k].unit), "s");
	}
	ck_assert_int_eq(db_measurement_insert(db, m, 3, &err), DLSIM_OK);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_measurement(db, "a", see_measurement, &s,
					     &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 2);
	ck_assert(s.values[0] == 10.0 && s.values[1] == 20.0);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(db_each_measurement(db, NULL, see_measurement, &s,
					     &err), DLSIM_OK);
	ck_assert_int_eq(s.n, 3);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Two processes at once                                             */
/* ---------------------------------------------------------------- */

#define CHILD_RUNS 200
#define CHILD_SAMPLES 50

/* In a child: open the (perhaps not yet existing) file and store
 * CHILD_RUNS runs of CHILD_SAMPLES samples, each value unique. */
static void child_insert(const char *path, int which)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample s[CHILD_SAMPLES];
	struct db_run r;
	struct db *db = NULL;
	int i, k;

	if (db_open(path, &db, &err)) {
		fprintf(stderr, "child %d: %s\n", which, err.msg);
		_exit(1);
	}
	for (i = 0; i < CHILD_RUNS; i++) {
		make_run(&r, which ? "child1" : "child0", "local",
			 1000.0 + i);
		for (k = 0; k < CHILD_SAMPLES; k++)
			make_sample(&s[k], k, 1e6 * which + 100.0 * i);
		if (db_run_insert(db, &r, s, CHILD_SAMPLES, &err)) {
			fprintf(stderr, "child %d, run %d: %s\n", which, i,
				err.msg);
			db_close(db);
			_exit(2);
		}
	}
	db_close(db);
	_exit(0);
}

static int count_full(void *ctx, const struct db_run *r)
{
	int *n = ctx;

	*n += r->n_samples == CHILD_SAMPLES;
	return 0;
}

START_TEST(db_two_processes_lose_nothing)
{
	struct tmp t;
	struct db *db;
	pid_t pid[2];
	int i, full = 0;

	tmp_make(&t);
	fflush(stdout);
	fflush(stderr);
	/* Both children find no file and race to create and migrate it,
	 * then to write (db_schema.c's HOW IT WORKS, db.c invariant 1). */
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ck_assert(pid[i] >= 0);
		if (pid[i] == 0)
			child_insert(t.path, i);
	}
	for (i = 0; i < 2; i++) {
		int st = 0;

		ck_assert(waitpid(pid[i], &st, 0) == pid[i]);
		ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "child %d failed (status %d)", i, st);
	}
	db = open_ok(t.path);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs"),
			 2 * CHILD_RUNS);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM samples"),
			 2 * CHILD_RUNS * CHILD_SAMPLES);
	ck_assert_int_eq(scalar(db, "SELECT count(DISTINCT value) FROM "
				"samples"), 2 * CHILD_RUNS * CHILD_SAMPLES);
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs WHERE tool = "
				"'child1'"), CHILD_RUNS);
	ck_assert_int_eq(db_each_run(db, count_full, &full, NULL), DLSIM_OK);
	ck_assert_int_eq(full, 2 * CHILD_RUNS);
	ck_assert_int_eq(db_schema_version(db), DB_SCHEMA_VERSION);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Where the file lives                                              */
/* ---------------------------------------------------------------- */

struct saved_env {
	char *v[3];
};

static const char *const env_names[] = { "DLSIM_DB", "XDG_DATA_HOME",
					 "HOME" };

static void env_save(struct saved_env *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		const char *v = getenv(env_names[i]);

		s->v[i] = v ? strdup(v) : NULL;
	}
}

static void env_restore(struct saved_env *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (s->v[i])
			setenv(env_names[i], s->v[i], 1);
		else
			unsetenv(env_names[i]);
		free(s->v[i]);
	}
}

START_TEST(db_resolve_path_in_order)
{
	struct dlsim_err err = { 0, "" };
	char buf[DB_PATH_LEN], want[256], tiny[8];
	struct saved_env saved;
	struct stat sb;
	struct tmp t;

	tmp_make(&t);
	env_save(&saved);

	/* XDG_DATA_HOME, created with mkdir -p semantics, mode 0700. */
	unsetenv("DLSIM_DB");
	snprintf(want, sizeof(want), "%s/data/deep", t.dir);
	setenv("XDG_DATA_HOME", want, 1);
	setenv("HOME", "/nonexistent-home", 1);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_OK);
	snprintf(want, sizeof(want), "%s/data/deep/dlsim/dlsim.db", t.dir);
	ck_assert_str_eq(buf, want);
	snprintf(want, sizeof(want), "%s/data/deep/dlsim", t.dir);
	ck_assert(stat(want, &sb) == 0 && S_ISDIR(sb.st_mode));
	ck_assert_int_eq(sb.st_mode & 0777, 0700);
	/* Twice is fine. */
	ck_assert_int_eq(db_resolve_path("", buf, sizeof(buf), &err),
			 DLSIM_OK);

	/* A relative XDG_DATA_HOME is ignored (XDG spec): HOME. */
	setenv("XDG_DATA_HOME", "relative/dir", 1);
	setenv("HOME", t.dir, 1);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_OK);
	snprintf(want, sizeof(want), "%s/.local/share/dlsim/dlsim.db", t.dir);
	ck_assert_str_eq(buf, want);

	/* $DLSIM_DB before both; the argument before everything; neither
	 * has directories made for it. */
	setenv("DLSIM_DB", "/somewhere/else.db", 1);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_OK);
	ck_assert_str_eq(buf, "/somewhere/else.db");
	ck_assert_int_eq(db_resolve_path("mine.db", buf, sizeof(buf), &err),
			 DLSIM_OK);
	ck_assert_str_eq(buf, "mine.db");
	ck_assert(stat("/somewhere", &sb) != 0);

	/* Failures. */
	ck_assert_int_eq(db_resolve_path("a-rather-long-name.db", tiny,
					 sizeof(tiny), &err), DLSIM_EIO);
	ck_assert_str_eq(tiny, "");
	unsetenv("DLSIM_DB");
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_EIO);
	ck_assert(strstr(err.msg, "--db") != NULL);
	snprintf(want, sizeof(want), "%s/file", t.dir);
	raw_exec(want, "CREATE TABLE x (y)");   /* a file where a dir goes */
	setenv("XDG_DATA_HOME", want, 1);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_EIO);
	ck_assert_msg(strstr(err.msg, want) == err.msg, "%s", err.msg);

	env_restore(&saved);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* dlsim db                                                          */
/* ---------------------------------------------------------------- */

/* A database with two runs: 1 (v100x8, 4 samples), 2 (local, 3). */
static void fill_for_cli(struct tmp *t)
{
	struct db *db = open_ok(t->path);

	insert_run(db, "import:nccl-tests", "v100x8", 1000.0, 4, 0.25);
	insert_run(db, "calibrate", "local", 2000.0, 3, 1.5);
	db_close(db);
}

static void run_db(struct run *r, const struct tmp *t, const char *args)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "db %s --db %s", args, t->path);
	run(r, cmd);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

START_TEST(db_cli_info_json_has_the_keys)
{
	static const char *const keys[] = {
		"path", "schema_version", "file_bytes", "hosts", "runs",
		"samples", "fits", "predictions", "measurements", NULL
	};
	struct run r;
	struct tmp t;
	int i;

	tmp_make(&t);
	fill_for_cli(&t);
	run_db(&r, &t, "info --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	for (i = 0; keys[i]; i++)
		ck_assert_msg(json_has(r.out, keys[i]), "no %s in %s",
			      keys[i], r.out);
	ck_assert(json_number(r.out, "schema_version") == DB_SCHEMA_VERSION);
	ck_assert(json_number(r.out, "runs") == 2);
	ck_assert(json_number(r.out, "samples") == 7);
	ck_assert(json_number(r.out, "file_bytes") > 0);
	ck_assert(strstr(r.out, t.path) != NULL);
	run_db(&r, &t, "info");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "schema version  1\n") != NULL);
	ck_assert(strstr(r.out, "samples         7\n") != NULL);
	run_db(&r, &t, "info --csv");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strncmp(r.out, "path,schema_version,file_bytes,hosts,runs,"
			  "samples,", 48) == 0);
	ck_assert_int_eq(count_lines(r.out), 2);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_runs_lists_newest_first)
{
	struct run r;
	struct tmp t;
	const char *a, *b;

	tmp_make(&t);
	run_db(&r, &t, "runs");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "(no runs)") != NULL);
	fill_for_cli(&t);
	run_db(&r, &t, "runs");
	ck_assert_msg(r.status == 0, "%s", r.err);
	a = strstr(r.out, "calibrate");
	b = strstr(r.out, "import:nccl-tests");
	ck_assert(a && b && a < b);
	ck_assert(strstr(r.out, "1970-01-01 00:33:20") != NULL);  /* 2000 s */
	ck_assert_int_eq(count_lines(r.out), 3);
	run_db(&r, &t, "runs --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "samples") == 3);   /* newest: run 2 */
	run_db(&r, &t, "runs --format csv");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strncmp(r.out, "id,tool,hw,start_s,end_s,status,samples,",
			  40) == 0);
	ck_assert(strstr(r.out, "\n2,calibrate,local,2000,2060,done,3,,") !=
		  NULL);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_samples_of_one_run_as_csv)
{
	struct run r;
	struct tmp t;

	tmp_make(&t);
	fill_for_cli(&t);
	run_db(&r, &t, "samples --run 1 --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(count_lines(r.out), 1 + 4);
	ck_assert(strncmp(r.out, "run_id,benchmark,params,rep,value,unit\n"
			  "1,gemm,m=64 n=64 k=64 dtype=fp32 threads=1,0,"
			  "0.25,s\n", 88) == 0);
	ck_assert(strstr(r.out, "\n1,gemm,m=256 n=256 k=256 dtype=fp32 "
			 "threads=1,3,3.25,s\n") != NULL);
	ck_assert(strstr(r.out, "\n2,") == NULL);
	/* All runs, and the table and JSON forms. */
	run_db(&r, &t, "samples --csv");
	ck_assert_int_eq(count_lines(r.out), 1 + 7);
	run_db(&r, &t, "samples --run 2");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count_lines(r.out), 1 + 3);
	run_db(&r, &t, "samples --run 2 --format json");
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "run_id") == 2);
	/* export: CSV by default, with each run's hardware and tool. */
	run_db(&r, &t, "export --csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strncmp(r.out, "run_id,hw,tool,benchmark,", 25) == 0);
	ck_assert(strstr(r.out, "\n2,local,calibrate,gemm,") != NULL);
	ck_assert_int_eq(count_lines(r.out), 1 + 7);
	run_db(&r, &t, "export --run 1");
	ck_assert_int_eq(count_lines(r.out), 1 + 4);
	ck_assert(strstr(r.out, "\n1,v100x8,import:nccl-tests,gemm,") != NULL);
	run_db(&r, &t, "export --format json");
	ck_assert(json_valid(r.out));
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_fits_and_vacuum)
{
	struct dlsim_err err = { 0, "" };
	struct db_fit f;
	struct run r;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	run_db(&r, &t, "fits");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "(no fits)") != NULL);
	db = open_ok(t.path);
	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "local");
	snprintf(f.kind, sizeof(f.kind), "stream");
	f.params_json = "{\"bw_Bps\": 1.5e10, \"l1_bytes\": 32768}";
	f.covariance_json = "[[1e16, 0], [0, 1e6]]";
	f.sample_run_ids = "[1, 2]";
	f.residual_rms = 0.03;
	f.n_samples = 120;
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	db_close(db);
	run_db(&r, &t, "fits");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "stream") && strstr(r.out, "120"));
	run_db(&r, &t, "fits --format json");
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "bw_Bps") == 1.5e10);
	ck_assert(json_number(r.out, "n_samples") == 120);
	run_db(&r, &t, "fits --csv");
	ck_assert(strstr(r.out, ",\"{\"\"bw_Bps\"\": 1.5e10, ") != NULL);
	run_db(&r, &t, "vacuum --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "bytes_after") > 0);
	run_db(&r, &t, "vacuum");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "bytes before") != NULL);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_uses_dlsim_db)
{
	struct saved_env saved;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	fill_for_cli(&t);
	env_save(&saved);
	setenv("DLSIM_DB", t.path, 1);
	run(&r, "db info --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "runs") == 2);
	env_restore(&saved);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_rejects_bad_arguments)
{
	struct run r;
	struct tmp t;
	struct stat sb;
	char cmd[512];

	tmp_make(&t);
	/* Misuse is found before the file is opened: no file appears. */
	run_db(&r, &t, "bogus");
	assert_one_error(&r, 2, "unknown subcommand 'bogus'");
	run_db(&r, &t, "info --run 3");
	assert_one_error(&r, 2, "--run applies to samples and export");
	run_db(&r, &t, "samples --run 0");
	assert_one_error(&r, 2, "--run");
	run_db(&r, &t, "samples --run abc");
	assert_one_error(&r, 2, "--run");
	run_db(&r, &t, "runs --format xml");
	assert_one_error(&r, 2, "unknown format 'xml'");
	run_db(&r, &t, "runs --csv --format json");
	assert_one_error(&r, 2, "exclude each other");
	run_db(&r, &t, "runs extra");
	assert_one_error(&r, 2, "unexpected argument 'extra'");
	run_db(&r, &t, "runs --frobnicate");
	assert_one_error(&r, 2, "unknown option '--frobnicate'");
	ck_assert(stat(t.path, &sb) != 0);
	snprintf(cmd, sizeof(cmd), "db --db %s", t.path);
	run(&r, cmd);
	assert_one_error(&r, 2, "missing argument");
	/* A run that is not there. */
	fill_for_cli(&t);
	run_db(&r, &t, "samples --run 99");
	assert_one_error(&r, 2, "run 99 not found");
	/* Database failures exit 1, with the path and SQLite's words. */
	run(&r, "db info --db /nonexistent-dir/x.db");
	assert_one_error(&r, 1, "/nonexistent-dir/x.db: opening: unable to "
			 "open database file");
	raw_exec(t.path, "PRAGMA user_version = 42");
	run_db(&r, &t, "runs");
	assert_one_error(&r, 1, "created by a newer dlsim");
	run(&r, "db --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--run ID") && strstr(r.out, "--csv"));
	tmp_remove(&t);
}
END_TEST

Suite *suite_db(void)
{
	Suite *s = suite_create("db");
	TCase *c = tcase_create("store");
	TCase *p = tcase_create("processes");
	TCase *cli;

	tcase_set_timeout(c, 60);
	tcase_add_test(c, db_schema_creates_every_table);
	tcase_add_test(c, db_schema_migrations_are_numbered_in_order);
	tcase_add_test(c, db_migrates_a_version_0_file);
	tcase_add_test(c, db_migrates_in_order_through_a_later_version);
	tcase_add_test(c, db_failed_migration_leaves_nothing);
	tcase_add_test(c, db_refuses_a_newer_file);
	tcase_add_test(c, db_refuses_what_is_not_a_database);
	tcase_add_test(c, db_host_upsert_is_idempotent);
	tcase_add_test(c, db_run_insert_all_or_nothing);
	tcase_add_test(c, db_run_finish_marks_the_run);
	tcase_add_test(c, db_info_counts_every_table);
	tcase_add_test(c, db_fit_refuses_text_that_is_not_json);
	tcase_add_test(c, db_deleting_a_run_deletes_its_samples);
	tcase_add_test(c, db_visitors_order_and_stop);
	tcase_add_test(c, db_resolve_path_in_order);
	suite_add_tcase(s, c);

	/* valgrind runs each child too: give it room. */
	tcase_set_timeout(p, 600);
	tcase_add_test(p, db_two_processes_lose_nothing);
	suite_add_tcase(s, p);

	/* The library tests run alone (build/asan/test_dlsim db); the
	 * command's need the binary, which make check names. */
	if (!getenv("DLSIM_BIN")) {
		fputs("test_dlsim: db: DLSIM_BIN is not set; the 'dlsim db' "
		      "tests are skipped\n", stderr);
		return s;
	}
	cli = tcase_create("cli");
	tcase_set_timeout(cli, 60);
	tcase_add_test(cli, db_cli_info_json_has_the_keys);
	tcase_add_test(cli, db_cli_runs_lists_newest_first);
	tcase_add_test(cli, db_cli_samples_of_one_run_as_csv);
	tcase_add_test(cli, db_cli_fits_and_vacuum);
	tcase_add_test(cli, db_cli_uses_dlsim_db);
	tcase_add_test(cli, db_cli_rejects_bad_arguments);
	suite_add_tcase(s, cli);
	return s;
}
