/*
 * test_db_cli.c -- `dlsim db` end to end: info, runs, samples, fits,
 * vacuum, $DLSIM_DB and bad arguments, each on a database of its own
 * (db_util.c) named with --db or DLSIM_DB; and every command that only
 * reads a database (db, predict, plan, scale, comm, validate --history
 * and --file, calibrate show) leaving it as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "db/db.h"
#include "db_util.h"

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

static double file_size(const char *path)
{
	struct stat sb;

	ck_assert_msg(stat(path, &sb) == 0, "%s is missing", path);
	return (double)sb.st_size;
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
	/* closed, the file is its 14 pages */
	ck_assert(json_number(r.out, "file_bytes") == file_size(t.path));
	ck_assert(json_number(r.out, "file_bytes") ==
		  small_db_bytes(t.path));
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
	db_close(open_ok(t.path));
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
	/* a value damaged to infinity (9e999 in SQL) is JSON's null, not a
	 * bare inf no JSON reader takes */
	raw_exec(t.path, "UPDATE samples SET value = 9e999 WHERE run_id = 2");
	run_db(&r, &t, "samples --run 2 --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(json_valid(r.out), "%s", r.out);
	ck_assert(strstr(r.out, "\"value\": null") != NULL);
	ck_assert(strstr(r.out, "inf") == NULL);
	run_db(&r, &t, "export --format json");
	ck_assert(json_valid(r.out));
	tmp_remove(&t);
}
END_TEST

START_TEST(db_cli_fits_and_vacuum)
{
	struct dlsim_err err = { 0, "" };
	struct db_fit f;
	char want[256];
	double size;
	struct run r;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	run_db(&r, &t, "fits");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "(no fits)") != NULL);
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
	ck_assert_msg(strstr(r.out, "\n     1  local          stream        "
			     "            120          0.03  ") != NULL, "%s",
		      r.out);
	run_db(&r, &t, "fits --format json");
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "bw_Bps") == 1.5e10);
	ck_assert(json_number(r.out, "n_samples") == 120);
	run_db(&r, &t, "fits --csv");
	ck_assert(strstr(r.out, ",\"{\"\"bw_Bps\"\": 1.5e10, ") != NULL);
	/* the file is its 14 pages before and after: nothing was deleted,
	 * so there is nothing to give back */
	size = file_size(t.path);
	ck_assert(size == small_db_bytes(t.path));
	run_db(&r, &t, "vacuum --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "bytes_before") == size);
	ck_assert(json_number(r.out, "bytes_after") == size);
	ck_assert(file_size(t.path) == size);
	run_db(&r, &t, "vacuum");
	ck_assert_int_eq(r.status, 0);
	snprintf(want, sizeof(want), "%s: %.0f bytes before, %.0f after\n",
		 t.path, size, size);
	ck_assert_str_eq(r.out, want);
	tmp_remove(&t);
}
END_TEST

/*
 * A fit row damaged outside dlsim (a JSON column that is not JSON, a
 * version of bytes that are not UTF-8) still lists as valid JSON: the
 * column as null, the bytes as U+FFFD, and one warning naming the fit.
 */
START_TEST(db_cli_fits_damaged_rows_stay_valid_json)
{
	struct dlsim_err err = { 0, "" };
	struct db_fit f;
	struct run r;
	struct tmp t;
	struct db *db;

	tmp_make(&t);
	db = open_ok(t.path);
	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "local");
	snprintf(f.kind, sizeof(f.kind), "stream");
	f.params_json = "{\"bw_Bps\": 1.5e10}";
	f.covariance_json = "[[1e16]]";
	f.sample_run_ids = "[1]";
	f.n_samples = 3;
	ck_assert_int_eq(db_fit_insert(db, &f, &err), DLSIM_OK);
	db_close(db);
	raw_exec(t.path, "PRAGMA ignore_check_constraints = 1; "
		 "UPDATE fits SET params_json = 'not json', "
		 "dlsim_version = X'FF41'");
	run_db(&r, &t, "fits --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(json_valid(r.out), "%s", r.out);
	ck_assert(strstr(r.out, "\"params\": null") != NULL);
	ck_assert(strstr(r.out, "\"dlsim_version\": \"\\ufffdA\"") != NULL);
	ck_assert_str_eq(r.err, "dlsim: db fits: warning: fit 1 holds a JSON "
			 "column that is not JSON (damaged outside dlsim): "
			 "shown as null\n");
	run_db(&r, &t, "fits --csv");
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.err, "dlsim: db fits: warning: fit 1 holds a JSON "
			 "column that is not JSON (damaged outside dlsim): "
			 "shown as an empty field\n");
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

/* A $DLSIM_DB longer than a path may be is named as such, not as "HOME
 * is not set" (the two failures of the default path were one message). */
START_TEST(db_cli_names_a_default_path_too_long)
{
	struct saved_env saved;
	char longpath[700];
	struct run r;

	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	env_save(&saved);
	setenv("DLSIM_DB", longpath, 1);
	run(&r, "db info");
	assert_one_error(&r, 1, "is longer than 511 bytes");
	ck_assert_msg(strstr(r.err, "HOME") == NULL, "%s", r.err);
	run(&r, "validate --history");
	assert_one_error(&r, 1, "is longer than 511 bytes");
	env_restore(&saved);
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
	assert_one_error(&r, 2, "--run must be a positive integer (got '0')");
	run_db(&r, &t, "samples --run abc");
	assert_one_error(&r, 2, "--run must be a positive integer (got "
			 "'abc')");
	run_db(&r, &t, "runs --format xml");
	assert_one_error(&r, 2, "unknown format 'xml'");
	run_db(&r, &t, "runs --csv --format json");
	assert_one_error(&r, 2, "--csv and --format json exclude each other");
	run_db(&r, &t, "runs extra");
	assert_one_error(&r, 2, "unexpected argument 'extra'");
	run_db(&r, &t, "runs --frobnicate");
	assert_one_error(&r, 2, "unknown option '--frobnicate'");
	ck_assert(stat(t.path, &sb) != 0);
	snprintf(cmd, sizeof(cmd), "db --db %s", t.path);
	run(&r, cmd);
	assert_one_error(&r, 2, "missing argument (usage: info|runs|samples|"
			 "fits|export|vacuum [OPTIONS])");
	/* A run that is not there. */
	fill_for_cli(&t);
	run_db(&r, &t, "samples --run 99");
	assert_one_error(&r, 2, "run 99 not found");
	/* Database failures exit 1, with the path and SQLite's words. */
	run(&r, "db info --db /nonexistent-dir/x.db");
	assert_one_error(&r, 1, "--db /nonexistent-dir/x.db: No such file or "
			 "directory");
	run(&r, "db vacuum --db /nonexistent-dir/x.db");
	assert_one_error(&r, 1, "/nonexistent-dir/x.db: opening: unable to "
			 "open database file");
	raw_exec(t.path, "PRAGMA user_version = 42");
	run_db(&r, &t, "runs");
	snprintf(cmd, sizeof(cmd), "%s: created by a newer dlsim (schema "
		 "version 42; this dlsim ", t.path);
	assert_one_error(&r, 1, cmd);
	snprintf(cmd, sizeof(cmd), " reads up to %d)\n", DB_SCHEMA_VERSION);
	ck_assert_msg(strstr(r.err, cmd) != NULL, "%s", r.err);
	/* a version below 0 is read, not "cannot be read": say which */
	raw_exec(t.path, "PRAGMA user_version = -1");
	run_db(&r, &t, "runs");
	assert_one_error(&r, 1, "schema version -1, which no dlsim writes "
			 "(the file was changed outside dlsim)");
	run(&r, "db --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--run ID") && strstr(r.out, "--csv"));
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Commands that only read                                           */
/* ---------------------------------------------------------------- */

#define GPT "gpt:layers=2,hidden=256,heads=4,vocab=1000,seq=2048"

/* The file is as taken and nothing lies beside it; taken again. */
static void untouched(struct file_state *fs)
{
	char path[sizeof(fs->path)];

	snprintf(path, sizeof(path), "%s", fs->path);
	file_state_same(fs);
	assert_no_side_files(path);
	file_state_take(fs, path);
}

/* "dlsim: CMD: warning: PATH holds no dlsim tables; ...", once. */
static void warned_once(const struct run *r, const char *cmd,
			const char *path)
{
	char want[512];

	snprintf(want, sizeof(want), "dlsim: %s: warning: %s holds no dlsim "
		 "tables; using the catalog's datasheet figures\n", cmd, path);
	ck_assert_msg(r->status == 0, "%s", r->err);
	ck_assert_str_eq(r->err, want);
}

/*
 * A 0-byte file is an empty SQLite database, into which every command
 * that opened it used to write dlsim's schema.  The commands that only
 * read leave it 0 bytes with its time: predict and the others that
 * predict with its fits say once that it holds none and use the
 * catalog's figures, as with no database; the listings print what an
 * empty database prints.
 */
START_TEST(db_cli_reading_leaves_an_empty_file_untouched)
{
	static struct run datasheet;
	struct file_state fs;
	struct run r;
	struct tmp t;
	char cmd[512];

	tmp_make(&t);
	empty_file(t.path);
	file_state_take(&fs, t.path);
	snprintf(cmd, sizeof(cmd), "predict resnet50 --hw v100 --db %s",
		 t.path);
	run(&r, cmd);
	untouched(&fs);
	warned_once(&r, "predict", t.path);
	run(&datasheet, "predict resnet50 --hw v100 --uncalibrated");
	ck_assert_int_eq(datasheet.status, 0);
	ck_assert_str_eq(r.out, datasheet.out);
	snprintf(cmd, sizeof(cmd), "plan " GPT " --hw v100x8 --global-batch "
		 "64 --db %s", t.path);
	run(&r, cmd);
	untouched(&fs);
	warned_once(&r, "plan", t.path);
	snprintf(cmd, sizeof(cmd), "scale resnet50 --hw v100 --db %s",
		 t.path);
	run(&r, cmd);
	untouched(&fs);
	warned_once(&r, "scale", t.path);
	snprintf(cmd, sizeof(cmd), "comm allreduce --hw dgx1 --db %s",
		 t.path);
	run(&r, cmd);
	untouched(&fs);
	warned_once(&r, "comm", t.path);
	snprintf(cmd, sizeof(cmd), "validate --file configs/measurements/"
		 "example.csv --db %s", t.path);
	run(&r, cmd);
	untouched(&fs);
	warned_once(&r, "validate", t.path);
	/* the listings: an empty database's output, no warning */
	run_db(&r, &t, "fits");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "(no fits)") != NULL && !r.err[0]);
	untouched(&fs);
	run_db(&r, &t, "runs");
	ck_assert(r.status == 0 && strstr(r.out, "(no runs)") && !r.err[0]);
	untouched(&fs);
	run_db(&r, &t, "samples");
	ck_assert(r.status == 0 && strstr(r.out, "(no samples)"));
	untouched(&fs);
	run_db(&r, &t, "export");
	ck_assert(r.status == 0 && count_lines(r.out) == 1);
	untouched(&fs);
	run_db(&r, &t, "samples --run 1");
	assert_one_error(&r, 2, "run 1 not found");
	untouched(&fs);
	run_db(&r, &t, "info --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "schema_version") == 0 &&
		  json_number(r.out, "runs") == 0 &&
		  json_number(r.out, "file_bytes") == 0);
	untouched(&fs);
	snprintf(cmd, sizeof(cmd), "validate --history --db %s", t.path);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "nothing recorded yet") != NULL && !r.err[0]);
	untouched(&fs);
	snprintf(cmd, sizeof(cmd), "calibrate show --hw v100 --db %s",
		 t.path);
	run(&r, cmd);
	assert_one_error(&r, 1, "no fits for hardware 'v100'");
	file_state_same(&fs);
	assert_no_side_files(t.path);
	tmp_remove(&t);
}
END_TEST

/* A reader whose database is not there fails, exit 1, and makes neither
 * the file nor (the default one) its directory. */
START_TEST(db_cli_reading_creates_no_database)
{
	struct saved_env saved;
	char cmd[512], xdg[128], want[256];
	struct run r;
	struct tmp t;
	static const char *const readers[] = {
		"db info", "db runs", "db fits", "db export",
		"validate --history", "calibrate show --hw v100",
		"predict resnet50 --hw v100", NULL
	};
	int i;

	tmp_make(&t);
	for (i = 0; readers[i]; i++) {
		snprintf(cmd, sizeof(cmd), "%s --db %s", readers[i], t.path);
		run(&r, cmd);
		snprintf(want, sizeof(want), "--db %s: No such file or "
			 "directory", t.path);
		assert_one_error(&r, 1, want);
		ck_assert_msg(access(t.path, F_OK) != 0, "%s made %s",
			      readers[i], t.path);
	}
	/* the default path: named, not made */
	env_save(&saved);
	unsetenv("DLSIM_DB");
	snprintf(xdg, sizeof(xdg), "%s/xdg", t.dir);
	setenv("XDG_DATA_HOME", xdg, 1);
	run(&r, "db runs");
	snprintf(want, sizeof(want), "%s/dlsim/dlsim.db: no database there "
		 "yet (calibrate seed, import or run makes one)", xdg);
	assert_one_error(&r, 1, want);
	ck_assert(access(xdg, F_OK) != 0);
	env_restore(&saved);
	tmp_remove(&t);
}
END_TEST

/* The commands that write still make the schema in a 0-byte file. */
START_TEST(db_cli_writing_makes_the_schema_in_an_empty_file)
{
	struct run r;
	struct tmp t;
	char cmd[512];

	tmp_make(&t);
	empty_file(t.path);
	snprintf(cmd, sizeof(cmd), "predict resnet50 --hw v100 --record "
		 "--db %s", t.path);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.err, "holds no dlsim tables") == NULL);
	ck_assert(strstr(r.err, "dlsim: recorded prediction 1\n") != NULL);
	ck_assert_int_eq(raw_scalar(t.path, "PRAGMA user_version"),
			 DB_SCHEMA_VERSION);
	ck_assert_int_eq(raw_scalar(t.path, "SELECT count(*) FROM "
				    "predictions"), 1);
	empty_file(t.path);
	run_db(&r, &t, "vacuum");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(raw_scalar(t.path, "PRAGMA user_version"),
			 DB_SCHEMA_VERSION);
	tmp_remove(&t);
}
END_TEST

Suite *suite_db_cli(void)
{
	Suite *s = suite_create("db_cli");
	TCase *cli = tcase_create("cli");

	/* the command's tests need the binary, which make check names */
	if (!getenv("DLSIM_BIN")) {
		fputs("test_dlsim: db_cli: DLSIM_BIN is not set; the 'dlsim "
		      "db' tests are skipped\n", stderr);
		return s;
	}
	tcase_set_timeout(cli, 60);
	tcase_add_test(cli, db_cli_info_json_has_the_keys);
	tcase_add_test(cli, db_cli_runs_lists_newest_first);
	tcase_add_test(cli, db_cli_samples_of_one_run_as_csv);
	tcase_add_test(cli, db_cli_fits_and_vacuum);
	tcase_add_test(cli, db_cli_fits_damaged_rows_stay_valid_json);
	tcase_add_test(cli, db_cli_uses_dlsim_db);
	tcase_add_test(cli, db_cli_names_a_default_path_too_long);
	tcase_add_test(cli, db_cli_rejects_bad_arguments);
	tcase_add_test(cli, db_cli_reading_leaves_an_empty_file_untouched);
	tcase_add_test(cli, db_cli_reading_creates_no_database);
	tcase_add_test(cli, db_cli_writing_makes_the_schema_in_an_empty_file);
	suite_add_tcase(s, cli);
	return s;
}
