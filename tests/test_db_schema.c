/*
 * test_db_schema.c -- the measurement store's schema (db/db_schema.c):
 * every table, migrations numbered and run in order, a failed step
 * leaving nothing of itself, and files it must refuse (newer than this
 * dlsim, or no database at all); opened to read (db_open_readonly), a
 * file is never written: an empty one holds no tables, an older one is
 * refused, not migrated.  Invariant numbers cite the comments at
 * the top of db/db.c and db/db_schema.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests.h"
#include "dlsim.h"
#include "db/db.h"
#include "db_util.h"

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
	/* A table whose numbers skip is refused before anything runs: a
	 * step that would succeed leaves no table either. */
	m[1].version = 3;
	m[1].sql = "CREATE TABLE later (x INTEGER);";
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_migrate(db, m, 2, &err), DLSIM_EINVAL);
	ck_assert_str_eq(err.msg, "internal error: migration 2 is numbered 3");
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM sqlite_master "
				"WHERE name = 'later'"), 0);
	ck_assert_int_eq(scalar(db, "PRAGMA user_version"), 1);
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
/* Opening to read                                                   */
/* ---------------------------------------------------------------- */

/* A run of one sample stored through db: DLSIM_OK, or the error. */
static int store_a_run(struct db *db, struct dlsim_err *err)
{
	struct db_sample smp;
	struct db_run r;

	make_run(&r, "calibrate", "local", 2000.0);
	make_sample(&smp, 0, 1.0);
	return db_run_insert(db, &r, &smp, 1, err);
}

static int count_run(void *ctx, const struct db_run *r)
{
	(void)r;
	++*(int *)ctx;
	return 0;
}

static int count_sample(void *ctx, int64_t run_id, const struct db_sample *s)
{
	(void)run_id, (void)s;
	++*(int *)ctx;
	return 0;
}

static int count_fit(void *ctx, const struct db_fit *f)
{
	(void)f;
	++*(int *)ctx;
	return 0;
}

static int count_prediction(void *ctx, const struct db_prediction *p)
{
	(void)p;
	++*(int *)ctx;
	return 0;
}

static int count_measurement(void *ctx, const struct db_measurement *m)
{
	(void)m;
	++*(int *)ctx;
	return 0;
}

/* Every reader's rows in db, counted. */
static int rows_read(struct db *db)
{
	struct dlsim_err err = { 0, "" };
	int n = 0;

	ck_assert(db_each_run(db, count_run, &n, &err) == DLSIM_OK);
	ck_assert(db_each_sample(db, 0, count_sample, &n, &err) == DLSIM_OK);
	ck_assert(db_each_sample(db, 1, count_sample, &n, &err) == DLSIM_OK);
	ck_assert(db_each_sample_of(db, "local", NULL, count_sample, &n,
				    &err) == DLSIM_OK);
	ck_assert(db_each_sample_of(db, "local", "gemm", count_sample, &n,
				    &err) == DLSIM_OK);
	ck_assert(db_each_fit(db, NULL, NULL, count_fit, &n, &err) ==
		  DLSIM_OK);
	ck_assert(db_each_prediction(db, NULL, count_prediction, &n, &err) ==
		  DLSIM_OK);
	ck_assert(db_each_measurement(db, NULL, count_measurement, &n,
				      &err) == DLSIM_OK);
	ck_assert_msg(err.code == 0, "%s", err.msg);
	return n;
}

/*
 * A 0-byte file is an empty SQLite database: db_open would write the
 * schema into it, db_open_readonly must not.  It opens at version 0,
 * every reader finds nothing, info counts nothing and a write fails; the
 * file stays 0 bytes with its time, and no journal appears beside it.
 */
START_TEST(db_readonly_reads_an_empty_file_as_no_tables)
{
	struct dlsim_err err = { 0, "" };
	struct file_state fs;
	struct db_info in;
	struct db_run run;
	struct db_host host;
	struct tmp t;
	struct db *db = NULL;

	tmp_make(&t);
	empty_file(t.path);
	file_state_take(&fs, t.path);
	ck_assert_msg(db_open_readonly(t.path, &db, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(db_schema_version(db), 0);
	ck_assert_str_eq(db_path(db), t.path);
	ck_assert_int_eq(rows_read(db), 0);
	ck_assert(db_info(db, &in, &err) == DLSIM_OK);
	ck_assert(in.schema_version == 0 && in.runs == 0 && in.fits == 0 &&
		  in.samples == 0 && in.measurements == 0 &&
		  in.file_bytes == 0);
	ck_assert_str_eq(in.path, t.path);
	ck_assert_int_eq(db_run_get(db, 1, &run, &err), DLSIM_ENOTFOUND);
	ck_assert_str_eq(err.msg, "run 1 not found");
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_host_newest(db, "local", &host, &err),
			 DLSIM_ENOTFOUND);
	dlsim_err_clear(&err);
	ck_assert_int_eq(store_a_run(db, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg, "%s", err.msg);
	db_close(db);
	file_state_same(&fs);
	assert_no_side_files(t.path);
	tmp_remove(&t);
}
END_TEST

/* Another program's SQLite file (user_version 0, tables of its own) is
 * read as holding no dlsim rows, even where a table's name is one of
 * dlsim's, and is left as it was. */
START_TEST(db_readonly_leaves_another_programs_file_alone)
{
	struct dlsim_err err = { 0, "" };
	struct file_state fs;
	struct tmp t;
	struct db *db = NULL;

	tmp_make(&t);
	raw_exec(t.path, "CREATE TABLE runs (who TEXT);"
		 "INSERT INTO runs VALUES ('not dlsim');");
	file_state_take(&fs, t.path);
	ck_assert_msg(db_open_readonly(t.path, &db, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(db_schema_version(db), 0);
	ck_assert_int_eq(rows_read(db), 0);
	db_close(db);
	file_state_same(&fs);
	tmp_remove(&t);
}
END_TEST

/* A dlsim file reads as db_open reads it, and stays byte for byte what
 * it was (not switched to WAL, not migrated). */
START_TEST(db_readonly_reads_a_dlsim_file_unchanged)
{
	struct dlsim_err err = { 0, "" };
	struct file_state fs;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	insert_run(db, "calibrate", "local", 1000.0, 3, 0.5);
	db_close(db);
	file_state_take(&fs, t.path);
	db = NULL;
	ck_assert_msg(db_open_readonly(t.path, &db, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(db_schema_version(db), DB_SCHEMA_VERSION);
	/* the run, its 3 samples twice over (all, run 1), and the 3 of
	 * hardware local twice over (any benchmark, gemm) */
	ck_assert_int_eq(rows_read(db), 1 + 3 + 3 + 3 + 3);
	ck_assert_int_eq(store_a_run(db, &err), DLSIM_EDB);
	ck_assert_msg(strstr(err.msg, "attempt to write a readonly "
			     "database"), "%s", err.msg);
	db_close(db);
	file_state_same(&fs);
	tmp_remove(&t);
}
END_TEST

/*
 * A file of an older schema, opened to read, is refused, naming the
 * command that upgrades it, and is not migrated: the same file opened by
 * a build that knows version 2 (db_open_schema with a second step).
 * A newer one is refused as db_open refuses it, and a missing one is not
 * created.
 */
START_TEST(db_readonly_refuses_an_older_file_unchanged)
{
	struct dlsim_err err = { 0, "" };
	const struct db_migration *real;
	struct db_migration m[2];
	struct file_state fs;
	struct tmp t;
	struct db *db = (struct db *)&err;  /* must come back NULL */
	char want[512];
	int n;

	real = db_schema_migrations(&n);
	m[0] = real[0];
	m[1].version = 2;
	m[1].what = "a note per sample";
	m[1].sql = "ALTER TABLE samples ADD COLUMN note TEXT NOT NULL "
		   "DEFAULT '';";
	tmp_make(&t);
	db_close(open_ok(t.path));
	file_state_take(&fs, t.path);
	ck_assert_int_eq(db_open_schema(t.path, 1, m, 2, &db, &err),
			 DLSIM_EDB);
	ck_assert(db == NULL);
	snprintf(want, sizeof(want), "%s: schema version 1, older than this "
		 "dlsim's 2, and reading does not upgrade it ('dlsim db "
		 "vacuum --db %s' does)", t.path, t.path);
	ck_assert_str_eq(err.msg, want);
	file_state_same(&fs);
	ck_assert_int_eq(raw_scalar(t.path, "PRAGMA user_version"), 1);
	/* what this build writes, a build that reads up to 1 reads */
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_open_schema(t.path, 1, m, 1, &db, &err),
			 DLSIM_OK);
	db_close(db);
	/* newer: refused, still untouched */
	raw_exec(t.path, "PRAGMA user_version = 7");
	file_state_take(&fs, t.path);
	ck_assert_int_eq(db_open_readonly(t.path, &db, &err), DLSIM_EDB);
	ck_assert(db == NULL);
	ck_assert_msg(strstr(err.msg, "created by a newer dlsim"), "%s",
		      err.msg);
	file_state_same(&fs);
	/* missing: an error, and no file */
	unlink(t.path);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_open_readonly(t.path, &db, &err), DLSIM_EDB);
	ck_assert(db == NULL);
	ck_assert_msg(strstr(err.msg, t.path) == err.msg &&
		      strstr(err.msg, ": opening: "), "%s", err.msg);
	ck_assert(access(t.path, F_OK) != 0);
	tmp_remove(&t);
}
END_TEST

Suite *suite_db_schema(void)
{
	Suite *s = suite_create("db_schema");
	TCase *c = tcase_create("schema");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, db_schema_creates_every_table);
	tcase_add_test(c, db_schema_migrations_are_numbered_in_order);
	tcase_add_test(c, db_migrates_a_version_0_file);
	tcase_add_test(c, db_migrates_in_order_through_a_later_version);
	tcase_add_test(c, db_failed_migration_leaves_nothing);
	tcase_add_test(c, db_refuses_a_newer_file);
	tcase_add_test(c, db_refuses_what_is_not_a_database);
	tcase_add_test(c, db_readonly_reads_an_empty_file_as_no_tables);
	tcase_add_test(c, db_readonly_leaves_another_programs_file_alone);
	tcase_add_test(c, db_readonly_reads_a_dlsim_file_unchanged);
	tcase_add_test(c, db_readonly_refuses_an_older_file_unchanged);
	suite_add_tcase(s, c);
	return s;
}
