/*
 * test_validate_cli.c -- `dlsim validate` as a command: --help names
 * every set, unknown sets are refused, --rows lists every row compared,
 * and --record stores each set (an empty one too) and every comparison
 * that --history then lists by version.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"
#include "calibrate/cal.h"
#include "cli_util.h"
#include "db_util.h"
#include "dlsim.h"

/* Whether text holds name as a whole word of a list ("(a, b, c)"). */
static int listed(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(text, name); p; p = strstr(p + 1, name))
		if ((p == text || p[-1] == ' ' || p[-1] == '(') &&
		    (p[n] == ',' || p[n] == ')'))
			return 1;
	return 0;
}

/* validate --help names every set there is (its list is written out). */
START_TEST(validate_help_names_every_set)
{
	struct run r;
	int i;

	run(&r, "validate --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(!listed(r.out, "vtrain_f"));
	for (i = 0; i < cal_val_n_sets; i++)
		ck_assert_msg(listed(r.out, cal_val_sets[i].name),
			      "validate --help lacks %s", cal_val_sets[i].name);
}
END_TEST

/* Unknown sets and flags that conflict are refused before any work; a
 * known set's JSON holds the figures cal_validate gives it, DLE's 28
 * rows uncalibrated, printed exactly (%.17g). */
START_TEST(validate_rejects_unknown_sets)
{
	static const char *const names[] = { "vtrain", "nosuch", NULL };
	static const char *const dle[] = { "dle", NULL };
	static struct cal_val_report rep;
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct run r;

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	ck_assert_int_eq(cal_validate(cat, NULL, names, &rep, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "'nosuch'") != NULL);
	cal_val_report_release(&rep);
	ck_assert_int_eq(cal_validate(cat, NULL, dle, &rep, &err), DLSIM_OK);
	hw_catalog_free(cat);
	run(&r, "validate --set dle,nosuch");
	assert_one_error(&r, 2, "unknown validation set 'nosuch'");
	/* refused before any set is run, printed or recorded */
	run(&r, "validate --set dle --plot fig.pdf");
	assert_one_error(&r, 2, "plot file 'fig.pdf' must end in .png or "
			 ".svg");
	ck_assert_str_eq(r.out, "");
	run(&r, "validate --history --rows");
	assert_one_error(&r, 2, "--history lists what was recorded and "
			 "takes no --rows");
	ck_assert_str_eq(r.out, "");
	run(&r, "validate --set dle --format json --uncalibrated");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out) && strstr(r.out, "\"sets\": {") &&
		  strstr(r.out, "\"dle\": {") &&
		  strstr(r.out, "\"worst\": ["));
	ck_assert_int_eq(rep.set[0].rows, 28);
	ck_assert(json_number(r.out, "rows") == 28.0);
	ck_assert(json_number(r.out, "median_abs_error") ==
		  rep.set[0].median_abs_error);
	ck_assert(json_number(r.out, "p90_abs_error") ==
		  rep.set[0].p90_abs_error);
	ck_assert(json_number(r.out, "median_signed_error") ==
		  rep.set[0].median_signed_error);
	cal_val_report_release(&rep);
}
END_TEST

/*
 * --rows lists every row compared: DLE's 28, in the file's order (the
 * first is TensorFlow ResNet-50 fp32 on one V100 at batch 128, 369.62
 * images/s in NVIDIA's table), each error predicted / measured - 1.
 */
START_TEST(validate_rows_lists_every_row)
{
	struct run r;
	char *line, *save = NULL;
	int n = 0;

	run(&r, "validate --set dle --rows --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char set[16], what[96];
		double m, p, e;

		if (n == 0) {
			ck_assert_str_eq(line, "set,what,measured,predicted,"
					 "error");
			continue;
		}
		ck_assert_int_eq(sscanf(line, "%15[^,],%95[^,],%lf,%lf,%lf",
					set, what, &m, &p, &e), 5);
		ck_assert_str_eq(set, "dle");
		ck_assert(fabs(e - (p / m - 1.0)) < 1e-5);
		if (n == 1) {
			ck_assert_str_eq(what, "resnet50 v100x1 batch 128 "
					 "fp32");
			ck_assert(fabs(m - 369.62) < 1e-9);
		}
		/* the first XLA row: DGX A100, TF32, fused element-wise */
		if (n == 9) {
			ck_assert_str_eq(what, "resnet50 a100-sxm4-40gbx1 "
					 "batch 256 tf32 fused");
			ck_assert(fabs(m - 808.0) < 1e-9);
		}
	}
	ck_assert_int_eq(n, 29);
	run(&r, "validate --set dle,megatron --rows --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out) && strstr(r.out, "{\"rows\": [{\"set\": "
					      "\"dle\"") &&
		  strstr(r.out, "\"set\": \"megatron\", \"what\": \"gpt:"));
}
END_TEST

/*
 * A set with no row compared has NAN figures: --record stores them as
 * JSON null (the table refuses text that is not JSON), and --history
 * reads them back as NAN, with the rows (0) it had.
 */
START_TEST(validate_record_stores_an_empty_set)
{
	static struct cal_val_report rep;
	struct dlsim_err err = { 0, "" };
	struct cal_val_history h;
	struct db *db = NULL;

	memset(&rep, 0, sizeof(rep));
	rep.n_sets = 1;
	snprintf(rep.set[0].name, sizeof(rep.set[0].name), "empty");
	rep.set[0].skipped = 3;
	rep.set[0].median_abs_error = NAN;
	rep.set[0].p90_abs_error = NAN;
	rep.set[0].median_signed_error = NAN;
	ck_assert(db_open(":memory:", &db, &err) == DLSIM_OK);
	ck_assert_msg(cal_validation_record(db, &rep, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert(cal_validation_history(db, &h, &err) == DLSIM_OK);
	ck_assert_int_eq(h.n, 1);
	ck_assert_str_eq(h.e[0].set, "empty");
	ck_assert_int_eq(h.e[0].rows, 0);
	ck_assert(isnan(h.e[0].median_abs_error));
	ck_assert_int_eq(h.n_damaged, 0);
	cal_validation_history_release(&h);
	db_close(db);
}
END_TEST

/* The measurements of a set, in id order (at most 4). */
struct stored_values {
	struct db_measurement m[4];
	int n;
};

static int keep_measurement(void *ctx, const struct db_measurement *m)
{
	struct stored_values *v = ctx;

	ck_assert_int_lt(v->n, 4);
	v->m[v->n++] = *m;
	return 0;
}

/*
 * --record then --history give back what was stored: a calibrated set
 * of two rows, 6 predicted against 4 measured (+0.5) and 6 against 8
 * (-0.25), whose figures are median (0.25 + 0.5) / 2 = 0.375, P90 the
 * 2nd of 2 = 0.5 and bias (-0.25 + 0.5) / 2 = 0.125 (binary fractions,
 * exact through the JSON's %.9g), with this dlsim's version and the
 * time it was stored.  Each measured value is stored under its row's
 * inputs and data row, with its source, else the set's title; recorded
 * again unchanged they are not stored twice, and a corrected value
 * stores the set's values again.
 */
START_TEST(validate_history_reads_back_what_was_recorded)
{
	static struct cal_val_report rep;
	struct dlsim_err err = { 0, "" };
	struct cal_val_history h;
	struct cal_val_row row[2] = {
		{ "a", 4.0, 6.0, 0.5, "paper", 0 },
		{ "b", 8.0, 6.0, -0.25, "", 3 },
	};
	struct stored_values v = { .n = 0 };
	struct db *db = NULL;
	struct cal_val_set *s = &rep.set[0];
	time_t before, after;

	memset(&rep, 0, sizeof(rep));
	rep.n_sets = 1;
	rep.calibrated = 1;
	snprintf(s->name, sizeof(s->name), "mine");
	snprintf(s->title, sizeof(s->title), "t");
	snprintf(s->unit, sizeof(s->unit), "s");
	s->rows = 2;
	s->row = row;
	s->median_abs_error = 0.375;
	s->p90_abs_error = 0.5;
	s->median_signed_error = 0.125;
	ck_assert(db_open(":memory:", &db, &err) == DLSIM_OK);
	before = time(NULL);
	ck_assert_msg(cal_validation_record(db, &rep, &err) == DLSIM_OK, "%s",
		      err.msg);
	after = time(NULL);
	ck_assert(cal_validation_history(db, &h, &err) == DLSIM_OK);
	ck_assert_int_eq(h.n, 1);
	ck_assert_str_eq(h.e[0].set, "mine");
	ck_assert_str_eq(h.e[0].version, dlsim_version());
	ck_assert(h.e[0].created_s >= (double)before &&
		  h.e[0].created_s <= (double)after);
	ck_assert_int_eq(h.e[0].rows, 2);
	ck_assert_int_eq(h.e[0].calibrated, 1);
	ck_assert(h.e[0].median_abs_error == 0.375);
	ck_assert(h.e[0].p90_abs_error == 0.5);
	ck_assert(h.e[0].median_signed_error == 0.125);
	cal_validation_history_release(&h);
	ck_assert(db_each_measurement(db, "mine", keep_measurement, &v,
				      &err) == DLSIM_OK);
	ck_assert_int_eq(v.n, 2);
	ck_assert_str_eq(v.m[0].row_key, "a (row 0)");
	ck_assert_str_eq(v.m[1].row_key, "b (row 3)");
	ck_assert(v.m[0].value == 4.0 && v.m[1].value == 8.0);
	ck_assert_str_eq(v.m[1].unit, "s");
	ck_assert_str_eq(v.m[0].source, "paper");
	ck_assert_str_eq(v.m[1].source, "t");

	rep.calibrated = 0;
	ck_assert(cal_validation_record(db, &rep, &err) == DLSIM_OK);
	row[1].measured = 9.0;
	ck_assert(cal_validation_record(db, &rep, &err) == DLSIM_OK);
	ck_assert(cal_validation_history(db, &h, &err) == DLSIM_OK);
	ck_assert_int_eq(h.n, 3);
	ck_assert_int_eq(h.e[1].calibrated, 0);
	cal_validation_history_release(&h);
	v.n = 0;
	ck_assert(db_each_measurement(db, "mine", keep_measurement, &v,
				      &err) == DLSIM_OK);
	ck_assert_int_eq(v.n, 4);
	ck_assert(v.m[3].value == 9.0);
	db_close(db);
}
END_TEST

/*
 * Records damaged outside dlsim (figures missing where rows were
 * compared, text that is not JSON, an error that is not finite) are
 * left out of --history and counted, not shown as nan or inf; the
 * command warns once, naming the first.
 */
START_TEST(validate_history_leaves_damaged_records_out)
{
	char dir[] = "/tmp/dlsim-val-XXXXXX", args[256], path[64];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/v.db", dir);
	snprintf(args, sizeof(args), "validate --set megatron,horovod "
		 "--record --db %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	raw_exec(path, "PRAGMA ignore_check_constraints = 1; "
		 "UPDATE predictions SET outputs_json = '{}' WHERE "
		 "inputs_json LIKE '{\"validate\": \"horovod\"%'");
	snprintf(args, sizeof(args), "validate --history --db %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "megatron") != NULL);
	ck_assert(strstr(r.out, "horovod") == NULL);
	ck_assert(strstr(r.out, "nan") == NULL);
	ck_assert(strstr(r.err, "dlsim: validate: warning: prediction ") ==
		  r.err);
	ck_assert(strstr(r.err, " in the database does not read as a "
			 "validation record (damaged outside dlsim): left "
			 "out\n") != NULL);
	raw_exec(path, "PRAGMA ignore_check_constraints = 1; "
		 "UPDATE predictions SET outputs_json = "
		 "'{\"median_abs_error\": 1e999, \"p90_abs_error\": 0.1, "
		 "\"median_signed_error\": 0}' WHERE inputs_json LIKE "
		 "'{\"validate\": \"megatron\"%'");
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "megatron") == NULL);
	ck_assert(strstr(r.out, "inf") == NULL);
	ck_assert(strstr(r.err, " and others in the database do not read") !=
		  NULL);
	/* every record damaged: not "nothing recorded yet" */
	ck_assert(strstr(r.out, "\nnothing readable recorded: the records "
			 "stored are damaged (stderr says which)\n") != NULL);
	ck_assert(strstr(r.out, "nothing recorded yet") == NULL);
	snprintf(args, sizeof(args), "rm -rf %s", dir);
	ck_assert_int_eq(system(args), 0);
}
END_TEST

/* A stored comparison: both texts JSON, the error predicted / measured
 * - 1. */
static int row_json_valid(void *ctx, const struct db_prediction *p)
{
	double e = json_number(p->outputs_json, "error");
	double m = json_number(p->outputs_json, "measured");
	double q = json_number(p->outputs_json, "predicted");

	ck_assert(json_valid(p->inputs_json) && json_valid(p->outputs_json));
	ck_assert(fabs(e - (q / m - 1.0)) < 1e-6);
	++*(int *)ctx;
	return 0;
}

/* --record stores one row per set with the version, one per comparison
 * and the measured values once; --history reads the sets back in order,
 * calibrated or not; without a database it says so. */
START_TEST(validate_record_and_history)
{
	char dir[] = "/tmp/dlsim-val-XXXXXX", args[256], path[64];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/v.db", dir);
	snprintf(args, sizeof(args), "validate --set dle,megatron --record "
		 "--db %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.err, "recorded 2 sets and 38 comparisons") != NULL);
	snprintf(args, sizeof(args), "validate --set dle --uncalibrated "
		 "--record --db %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.err, "recorded 1 set and 28 comparisons") != NULL);
	/* every comparison is a prediction row (2 + 38 + 1 + 28); the
	 * measured values are stored once per set (10 + 28) */
	snprintf(args, sizeof(args), "db info --db %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "predictions     69\n") &&
		  strstr(r.out, "measurements    38\n"));
	{
		struct dlsim_err err = { 0, "" };
		struct db *db = NULL;
		int n = 0;

		ck_assert(db_open(path, &db, &err) == DLSIM_OK);
		ck_assert(db_each_prediction(db, "{\"validate_row\": %",
					     row_json_valid, &n, &err) ==
			  DLSIM_OK);
		db_close(db);
		ck_assert_int_eq(n, 66);
	}
	snprintf(args, sizeof(args), "validate --history --format csv --db "
		 "%s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	{
		char want[64];

		snprintf(want, sizeof(want), "\n%s,", dlsim_version());
		ck_assert(strstr(r.out, want) != NULL);
	}
	ck_assert(strncmp(r.out, "version,created_s,set,calibrated,", 33) ==
		  0);
	{
		const char *a = strstr(r.out, ",dle,1,28,");
		const char *b = strstr(r.out, ",megatron,1,10,");
		const char *c = strstr(r.out, ",dle,0,28,");

		ck_assert(a && b && c && a < b && b < c);
	}
	/* the plot: data and script beside the image, one block per set */
	snprintf(args, sizeof(args), "validate --set dle,megatron --plot "
		 "%s/v.png", dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	{
		char gp[4096], at[64];

		snprintf(at, sizeof(at), "%s/v.gp", dir);
		slurp(at, gp, sizeof(gp));
		ck_assert(strstr(gp, "set logscale xy") &&
			  strstr(gp, "\"v.dat\" index 1") &&
			  strstr(gp, "1.1*x") && strstr(gp, "0.75*x"));
		unlink(at);
		snprintf(at, sizeof(at), "%s/v.dat", dir);
		unlink(at);
		snprintf(at, sizeof(at), "%s/v.png", dir);
		unlink(at);
	}
	unlink(path);
	snprintf(args, sizeof(args), "%s/v.db-wal", dir);
	unlink(args);
	snprintf(args, sizeof(args), "%s/v.db-shm", dir);
	unlink(args);
	rmdir(dir);
}
END_TEST

Suite *suite_validate_cli(void)
{
	Suite *s = suite_create("validate_cli");
	TCase *c = tcase_create("cli");

	tcase_set_timeout(c, 120);
	tcase_add_test(c, validate_help_names_every_set);
	tcase_add_test(c, validate_rejects_unknown_sets);
	tcase_add_test(c, validate_rows_lists_every_row);
	tcase_add_test(c, validate_record_stores_an_empty_set);
	tcase_add_test(c, validate_history_reads_back_what_was_recorded);
	tcase_add_test(c, validate_history_leaves_damaged_records_out);
	tcase_add_test(c, validate_record_and_history);
	suite_add_tcase(s, c);
	return s;
}
