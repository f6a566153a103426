/*
 * test_db.c -- the measurement store (db/): all-or-nothing writes, the
 * visitors, two processes writing one file at once, and where the file
 * lives (the schema and its migrations are test_db_schema.c, `dlsim db`
 * end to end test_db_cli.c, the helpers db_util.c).
 *
 * Every test works in its own mkdtemp() directory and names its database
 * explicitly (an argument, --db or DLSIM_DB): no test reads or writes the
 * user's database.  Invariant numbers cite the comments at the top of
 * db/db.c, db/db_schema.c, db/db_runs.c and db/db_results.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests.h"
#include "dlsim.h"
#include "db/db.h"
#include "db_util.h"


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
	ck_assert_str_eq(err.msg, "host node17: cores and memory must be "
			 "non-negative");
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
	/* make_sample: sample k is a GEMM of 64 (k + 1) = 2624 */
	ck_assert_str_eq(err.msg, "run calibrate: sample 40 (gemm m=2624 "
			 "n=2624 k=2624 dtype=fp32 threads=1) is not a finite "
			 "number");
	assert_empty(db);
	s[40].value = 3.0;

	/* A run must say what made it and which hardware it measured. */
	r.hw[0] = '\0';
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_insert(db, &r, s, 50, &err), DLSIM_EINVAL);
	ck_assert_str_eq(err.msg, "a run needs a tool and a hardware name");
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
	ck_assert_str_eq(err.msg, "run import:stream: -1 samples");
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM runs"), 2);
	db_close(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(db_run_finish_marks_the_run)
{
	struct dlsim_err err = { 0, "" };
	struct db_run r, got;
	char want[160];
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
	snprintf(want, sizeof(want), "run %lld: a finished run's status is "
		 "done, interrupted or failed (got 'running')",
		 (long long)r.id);
	ck_assert_str_eq(err.msg, want);
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_run_finish(db, r.id, NULL, 1.0, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "(got '')") != NULL);
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
	struct stat sb;
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
	ck_assert_int_eq(db_vacuum(db, &err), DLSIM_OK);
	ck_assert_int_eq(db_info(db, &in, &err), DLSIM_OK);
	ck_assert_int_eq(in.samples, 3);
	/* vacuumed and checkpointed, the file is its 14 pages */
	ck_assert(stat(t.path, &sb) == 0);
	ck_assert(in.file_bytes == (double)sb.st_size);
	ck_assert(in.file_bytes == small_db_bytes(t.path));
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
	ck_assert_str_eq(err.msg, "fit stream for local: residual and sample "
			 "count must be finite and non-negative");
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM fits"), 0);
	memset(&m, 0, sizeof(m));
	snprintf(m.set_name, sizeof(m.set_name), "horovod");
	snprintf(m.row_key, sizeof(m.row_key), "resnet50 v100x8");
	m.value = NAN;
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_measurement_insert(db, &m, 1, &err), DLSIM_EINVAL);
	ck_assert_str_eq(err.msg, "measurement 0 (horovod resnet50 v100x8) is "
			 "not a finite number");
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
	ck_assert_str_eq(err.msg, "database path too long (21 bytes, at most "
			 "7)");
	unsetenv("DLSIM_DB");
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	dlsim_err_clear(&err);
	ck_assert_int_eq(db_resolve_path(NULL, buf, sizeof(buf), &err),
			 DLSIM_EIO);
	ck_assert_str_eq(err.msg, "no database path: give --db PATH or set "
			 "DLSIM_DB (HOME is not set)");
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


Suite *suite_db(void)
{
	Suite *s = suite_create("db");
	TCase *c = tcase_create("store");
	TCase *p = tcase_create("processes");

	tcase_set_timeout(c, 60);
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

	return s;
}
