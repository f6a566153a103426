/*
 * test_cli_clobber.c -- an output that names one of the command's own
 * inputs is refused (cli_outputs_check): --trace over the database, the
 * model or the --hw file; --plot's image, .dat or .gp over the database,
 * --seq-lengths or a --file; calibrate import of the database into
 * itself.  Each case was found destroying its input with exit 0; each
 * test asserts the one error line, exit 2, empty stdout, and that the
 * input is byte for byte what it was (and a database still opens with
 * its rows).  Every file lives in a directory of the test's own
 * (db_util.c).
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

#define SNAP_BYTES 4096
#define GPT "gpt:layers=2,hidden=256,heads=4,vocab=1000,seq=2048"

/* A file's size and first bytes, to say afterwards it is untouched. */
struct snap {
	char path[192];
	off_t size;
	char head[SNAP_BYTES];
	size_t n;
};

/* The first SNAP_BYTES of path into buf; how many there were. */
static size_t head(const char *path, char *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	n = fread(buf, 1, SNAP_BYTES, f);
	fclose(f);
	return n;
}

static void snap_take(struct snap *s, const char *path)
{
	struct stat st;

	snprintf(s->path, sizeof(s->path), "%s", path);
	ck_assert_msg(stat(path, &st) == 0, "%s is missing", path);
	s->size = st.st_size;
	s->n = head(path, s->head);
}

static void snap_same(const struct snap *s)
{
	char now[SNAP_BYTES];
	struct stat st;

	ck_assert_msg(stat(s->path, &st) == 0, "%s is gone", s->path);
	ck_assert_msg(st.st_size == s->size, "%s: %lld bytes, was %lld",
		      s->path, (long long)st.st_size, (long long)s->size);
	ck_assert_int_eq(head(s->path, now), s->n);
	ck_assert_msg(memcmp(now, s->head, s->n) == 0, "%s was rewritten",
		      s->path);
}

/* dir/name into buf. */
static void in_dir(const struct tmp *t, const char *name, char *buf,
		   size_t n)
{
	snprintf(buf, n, "%s/%s", t->dir, name);
}

/* A database at path with two runs (seven samples). */
static void make_db(const char *path)
{
	struct db *db = open_ok(path);

	insert_run(db, "import:nccl-tests", "v100x8", 1000.0, 4, 0.25);
	insert_run(db, "calibrate", "local", 2000.0, 3, 1.5);
	db_close(db);
}

/* The rows of a database's tables, all together. */
static int64_t db_rows(const char *path)
{
	struct db *db = open_ok(path);
	int64_t n = scalar(db, "SELECT (SELECT count(*) FROM runs) + "
			   "(SELECT count(*) FROM samples) + (SELECT count(*) "
			   "FROM fits) + (SELECT count(*) FROM predictions)");

	db_close(db);
	return n;
}

/* make_db's database still opens with its rows, and nothing added. */
static void db_intact(const char *path)
{
	ck_assert_int_eq(db_rows(path), 2 + 7);
}

static void copy_file(const char *from, const char *to)
{
	static char buf[1 << 16];
	size_t n = read_bytes(from, buf, sizeof(buf));
	FILE *f = fopen(to, "wb");

	ck_assert(n > 0 && n < sizeof(buf));
	ck_assert(f != NULL);
	ck_assert(fwrite(buf, 1, n, f) == n);
	ck_assert(fclose(f) == 0);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert(f != NULL);
	fputs(text, f);
	ck_assert(fclose(f) == 0);
}

/* Run the printf-style command line; ARGS are test text. */
static void runf(struct run *r, const char *fmt, const char *a,
		 const char *b)
{
	char args[1024];

	snprintf(args, sizeof(args), fmt, a, b);
	run(r, args);
}

/* "OPT OUTPUT is WHAT: refusing to overwrite it" into buf. */
static void refusal(char *buf, size_t n, const char *opt,
		    const char *output, const char *what)
{
	snprintf(buf, n, "%s %s is %s: refusing to overwrite it", opt, output,
		 what);
}

/* ---------------------------------------------------------------- */
/* predict --trace                                                   */
/* ---------------------------------------------------------------- */

/* The fuzzing audit's first case, alone and with --record (which then
 * failed "database disk image is malformed"), and the same file by
 * another name: "./", a symbolic link. */
START_TEST(clobber_predict_trace_over_the_database)
{
	char link[192], dotted[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	make_db(t.path);
	snap_take(&s, t.path);
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s", t.path,
	     t.path);
	refusal(want, sizeof(want), "--trace", t.path,
		"the calibration database (--db)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s --record",
	     t.path, t.path);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	in_dir(&t, "./test.db", dotted, sizeof(dotted));
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s", t.path,
	     dotted);
	refusal(want, sizeof(want), "--trace", dotted,
		"the calibration database (--db)");
	assert_one_error(&r, 2, want);
	in_dir(&t, "link.json", link, sizeof(link));
	ck_assert(symlink("test.db", link) == 0);
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s", t.path,
	     link);
	refusal(want, sizeof(want), "--trace", link,
		"the calibration database (--db)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(t.path);
	tmp_remove(&t);
}
END_TEST

/* The database's write-ahead log, named before SQLite makes it. */
START_TEST(clobber_predict_trace_over_the_wal)
{
	char wal[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	make_db(t.path);
	snap_take(&s, t.path);
	in_dir(&t, "test.db-wal", wal, sizeof(wal));
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s --record",
	     t.path, wal);
	refusal(want, sizeof(want), "--trace", wal, "the calibration "
		"database's write-ahead log (--db)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(t.path);
	tmp_remove(&t);
}
END_TEST

/* --record --db NEW creates NEW, which --trace then wrote over: the
 * names are compared before either exists, and nothing is created. */
START_TEST(clobber_predict_trace_over_the_database_record_creates)
{
	char db[192], dotted[192], want[512];
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "new.db", db, sizeof(db));
	in_dir(&t, "./new.db", dotted, sizeof(dotted));
	runf(&r, "predict resnet50 --hw v100 --db %s --record --trace %s",
	     db, dotted);
	refusal(want, sizeof(want), "--trace", dotted,
		"the calibration database (--db)");
	assert_one_error(&r, 2, want);
	ck_assert_msg(access(db, F_OK) != 0, "%s was created", db);
	tmp_remove(&t);
}
END_TEST

/* $DLSIM_DB is the user's store even when --uncalibrated reads none. */
START_TEST(clobber_predict_trace_over_the_default_database)
{
	struct saved_env env;
	char want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	make_db(t.path);
	snap_take(&s, t.path);
	env_save(&env);
	setenv("DLSIM_DB", t.path, 1);
	runf(&r, "predict resnet50 --hw v100 --uncalibrated --trace %s%s",
	     t.path, "");
	env_restore(&env);
	refusal(want, sizeof(want), "--trace", t.path,
		"the calibration database ($DLSIM_DB)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(t.path);
	tmp_remove(&t);
}
END_TEST

START_TEST(clobber_predict_trace_over_the_model)
{
	char model[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "m.yaml", model, sizeof(model));
	copy_file("configs/models/cifar-resnet8.yaml", model);
	snap_take(&s, model);
	runf(&r, "predict %s --hw v100 --uncalibrated --trace %s", model,
	     model);
	refusal(want, sizeof(want), "--trace", model,
		"the model file (MODEL)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	tmp_remove(&t);
}
END_TEST

START_TEST(clobber_predict_trace_over_the_hw_file)
{
	char hw[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "two.yaml", hw, sizeof(hw));
	write_text(hw, "system:\n  device: v100\n  count: 2\n");
	snap_take(&s, hw);
	runf(&r, "predict resnet50 --hw %s --uncalibrated --trace %s", hw,
	     hw);
	refusal(want, sizeof(want), "--trace", hw,
		"the hardware file (--hw)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* --plot and the files beside its image                             */
/* ---------------------------------------------------------------- */

/* The audit's third case: --plot w.png writes w.dat. */
START_TEST(clobber_scale_plot_data_over_the_database)
{
	char db[192], png[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "w.dat", db, sizeof(db));
	in_dir(&t, "w.png", png, sizeof(png));
	make_db(db);
	snap_take(&s, db);
	runf(&r, "scale resnet50 --hw v100 --devices 1,2 --db %s --plot %s",
	     db, png);
	snprintf(want, sizeof(want), "--plot %s writes %s, the calibration "
		 "database (--db): refusing to overwrite it", png, db);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(db);
	ck_assert(access(png, F_OK) != 0);
	tmp_remove(&t);
}
END_TEST

START_TEST(clobber_scale_plot_data_over_the_seq_lengths)
{
	char csv[192], png[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "lengths.dat", csv, sizeof(csv));
	in_dir(&t, "lengths.svg", png, sizeof(png));
	copy_file("tests/data/seqlen/small.csv", csv);
	snap_take(&s, csv);
	runf(&r, "scale " GPT " --hw v100 --devices 1,2 --uncalibrated "
	     "--seq-lengths %s --plot %s", csv, png);
	snprintf(want, sizeof(want), "--plot %s writes %s, the "
		 "sequence-length histogram (--seq-lengths): refusing to "
		 "overwrite it", png, csv);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	tmp_remove(&t);
}
END_TEST

START_TEST(clobber_comm_plot_image_over_the_database)
{
	char db[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "w.svg", db, sizeof(db));
	make_db(db);
	snap_take(&s, db);
	runf(&r, "comm allreduce --hw v100x8 --db %s --plot %s", db, db);
	refusal(want, sizeof(want), "--plot", db,
		"the calibration database (--db)");
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(db);
	tmp_remove(&t);
}
END_TEST

/* --record would store into the database, then the plot replace it. */
START_TEST(clobber_validate_plot_data_over_the_database)
{
	char db[192], png[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "v.dat", db, sizeof(db));
	in_dir(&t, "v.png", png, sizeof(png));
	make_db(db);
	snap_take(&s, db);
	runf(&r, "validate --set horovod --record --db %s --plot %s", db,
	     png);
	snprintf(want, sizeof(want), "--plot %s writes %s, the calibration "
		 "database (--db): refusing to overwrite it", png, db);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(db);
	tmp_remove(&t);
}
END_TEST

START_TEST(clobber_validate_plot_script_over_a_file)
{
	char csv[192], other[192], svg[192], list[400], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "mine.gp", csv, sizeof(csv));
	in_dir(&t, "other.csv", other, sizeof(other));
	in_dir(&t, "mine.svg", svg, sizeof(svg));
	write_text(csv, "model,hw,metric,measured\n"
		   "resnet50,v100,samples_per_s,900\n");
	write_text(other, "model,hw,metric,measured\n"
		   "resnet50,v100,step_s,0.1\n");
	snap_take(&s, csv);
	snprintf(list, sizeof(list), "%s,%s", other, csv);
	runf(&r, "validate --uncalibrated --file %s --plot %s", list, svg);
	snprintf(want, sizeof(want), "--plot %s writes %s, a measurement "
		 "file (--file): refusing to overwrite it", svg, csv);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	tmp_remove(&t);
}
END_TEST

/* A database with dgx1's all-reduce fits, so that show has a plot to
 * draw. */
START_TEST(clobber_calibrate_show_plot_data_over_the_database)
{
	char db[192], png[192], want[512];
	int64_t rows;
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "s.dat", db, sizeof(db));
	in_dir(&t, "s.png", png, sizeof(png));
	runf(&r, "calibrate import nccl-tests tests/data/calibrate/"
	     "nccl_all_reduce.txt --hw dgx1 --db %s%s", db, "");
	ck_assert_msg(r.status == 0, "%s", r.err);
	runf(&r, "calibrate fit --hw dgx1 --db %s%s", db, "");
	ck_assert_msg(r.status == 0, "%s", r.err);
	rows = db_rows(db);
	snap_take(&s, db);
	runf(&r, "calibrate show --hw dgx1 --db %s --plot %s", db, png);
	snprintf(want, sizeof(want), "--plot %s writes %s, the calibration "
		 "database (--db): refusing to overwrite it", png, db);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	ck_assert_int_eq(db_rows(db), rows);
	tmp_remove(&t);
}
END_TEST

/* The image and its .dat one file (a hard link): the plot would write
 * its data, then gnuplot the image over it. */
START_TEST(clobber_plot_files_that_are_one_file)
{
	char png[192], dat[192], want[512];
	struct run r;
	struct tmp t;

	tmp_make(&t);
	in_dir(&t, "p.png", png, sizeof(png));
	in_dir(&t, "p.dat", dat, sizeof(dat));
	write_text(png, "an image\n");
	ck_assert(link(png, dat) == 0);
	runf(&r, "scale resnet50 --hw v100 --devices 1,2 --uncalibrated "
	     "--plot %s%s", png, "");
	snprintf(want, sizeof(want), "--plot %s writes %s, the plot's image "
		 "(--plot): refusing to write it twice", png, dat);
	assert_one_error(&r, 2, want);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* calibrate import                                                  */
/* ---------------------------------------------------------------- */

/* The database as the file to import: refused before it is opened
 * (a FILE not there yet would be created as a database, then read). */
START_TEST(clobber_calibrate_import_the_database_into_itself)
{
	char fresh[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	make_db(t.path);
	snap_take(&s, t.path);
	runf(&r, "calibrate import nccl-tests %s --hw v100 --db %s", t.path,
	     t.path);
	snprintf(want, sizeof(want), "calibrate import: %s is the "
		 "calibration database (--db): refusing to import it into "
		 "itself", t.path);
	assert_one_error(&r, 2, want);
	snap_same(&s);
	db_intact(t.path);
	in_dir(&t, "fresh.db", fresh, sizeof(fresh));
	runf(&r, "calibrate import nccl-tests %s --hw v100 --db %s", fresh,
	     fresh);
	snprintf(want, sizeof(want), "calibrate import: %s is the "
		 "calibration database (--db): refusing to import it into "
		 "itself", fresh);
	assert_one_error(&r, 2, want);
	ck_assert_msg(access(fresh, F_OK) != 0, "%s was created", fresh);
	tmp_remove(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Outputs that name no input are written as before                  */
/* ---------------------------------------------------------------- */

START_TEST(clobber_other_outputs_still_written)
{
	char trace[192], png[192], dat[192], want[512];
	struct snap s;
	struct run r;
	struct tmp t;

	tmp_make(&t);
	make_db(t.path);
	snap_take(&s, t.path);
	in_dir(&t, "step.json", trace, sizeof(trace));
	runf(&r, "predict resnet50 --hw v100 --db %s --trace %s", t.path,
	     trace);
	ck_assert_msg(r.status == 0, "%s", r.err);
	slurp(trace, want, sizeof(want));
	ck_assert(strncmp(want, "{\"traceEvents\"", 14) == 0);
	in_dir(&t, "sweep.png", png, sizeof(png));
	in_dir(&t, "sweep.dat", dat, sizeof(dat));
	runf(&r, "scale resnet50 --hw v100 --devices 1,2 --db %s --plot %s",
	     t.path, png);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(access(dat, F_OK) == 0);
	run(&r, "predict resnet50 --hw v100 --uncalibrated --trace "
	    "/dev/null");
	ck_assert_msg(r.status == 0, "%s", r.err);
	snap_same(&s);
	db_intact(t.path);
	tmp_remove(&t);
}
END_TEST

Suite *suite_cli_clobber(void)
{
	Suite *s = suite_create("cli_clobber");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clobber_predict_trace_over_the_database);
	tcase_add_test(tc, clobber_predict_trace_over_the_wal);
	tcase_add_test(tc,
		       clobber_predict_trace_over_the_database_record_creates);
	tcase_add_test(tc, clobber_predict_trace_over_the_default_database);
	tcase_add_test(tc, clobber_predict_trace_over_the_model);
	tcase_add_test(tc, clobber_predict_trace_over_the_hw_file);
	tcase_add_test(tc, clobber_scale_plot_data_over_the_database);
	tcase_add_test(tc, clobber_scale_plot_data_over_the_seq_lengths);
	tcase_add_test(tc, clobber_comm_plot_image_over_the_database);
	tcase_add_test(tc, clobber_validate_plot_data_over_the_database);
	tcase_add_test(tc, clobber_validate_plot_script_over_a_file);
	tcase_add_test(tc, clobber_calibrate_show_plot_data_over_the_database);
	tcase_add_test(tc, clobber_plot_files_that_are_one_file);
	tcase_add_test(tc, clobber_calibrate_import_the_database_into_itself);
	tcase_add_test(tc, clobber_other_outputs_still_written);
	suite_add_tcase(s, tc);
	return s;
}
