/*
 * test_calibrate_import.c -- imports into a database (cal_import): one
 * run holding every sample of a file, a failed import that changes
 * nothing, and `dlsim calibrate import` end to end with its errors, on
 * the fixtures of tests/data/calibrate/ (test_calibrate.c checks what
 * each parser reads from them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "calibrate/cal.h"
#include "db_util.h"
#include "hwcalib_util.h"

#define DIR "tests/data/calibrate/"

static void counts(struct db *db, int64_t *runs, int64_t *samples)
{
	struct dlsim_err err = { 0, "" };
	struct db_info info;

	ck_assert_msg(db_info(db, &info, &err) == DLSIM_OK, "%s", err.msg);
	*runs = info.runs;
	*samples = info.samples;
}

struct seen {
	int64_t n;
	struct db_sample last;
};

static int see_sample(void *ctx, int64_t run_id, const struct db_sample *s)
{
	struct seen *seen = ctx;

	(void)run_id;
	seen->n++;
	seen->last = *s;
	return 0;
}

static int see_run(void *ctx, const struct db_run *r)
{
	*(struct db_run *)ctx = *r;
	return 1;
}

START_TEST(cal_import_is_one_run_with_every_sample)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	struct seen seen = { 0 };
	struct db_run run;
	int64_t id = 0, n = 0, runs, samples;

	tmpdb_open(&t);
	ck_assert_msg(cal_import(t.db, CAL_NCCL_TESTS, DIR
				 "nccl_all_reduce.txt", "a100x8", &id, &n,
				 &err) == DLSIM_OK, "%s", err.msg);
	ck_assert(id > 0);
	ck_assert_int_eq(n, 12);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 12);
	ck_assert_int_eq(db_each_sample(t.db, id, see_sample, &seen, &err),
			 DLSIM_OK);
	ck_assert_int_eq(seen.n, 12);
	ck_assert_str_eq(seen.last.params, "bytes=134217728 ranks=8 op=sum "
			 "inplace=1 dtype=fp32");
	ck_assert_rel(seen.last.value, 1001.9e-6, 1e-12);
	ck_assert_int_eq(seen.last.rep, -1);
	ck_assert_int_eq(db_each_run(t.db, see_run, &run, &err), DLSIM_OK);
	ck_assert_int_eq(run.id, id);
	ck_assert_str_eq(run.tool, "import:nccl-tests");
	ck_assert_str_eq(run.hw, "a100x8");
	ck_assert_str_eq(run.status, "done");
	ck_assert(strstr(run.source, "tests/data/calibrate/"
			 "nccl_all_reduce.txt") != NULL);
	ck_assert(run.end_s >= run.start_s && run.start_s > 1.5e9);
	/* a second import is a second run */
	ck_assert_int_eq(cal_import(t.db, CAL_STREAM, DIR "stream.txt",
				    "local", &id, &n, &err), DLSIM_OK);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 2);
	ck_assert_int_eq(samples, 16);
	tmpdb_close(&t);
}
END_TEST

START_TEST(cal_failed_import_changes_nothing)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	int64_t id = 0, n = 0, runs, samples;

	tmpdb_open(&t);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt", "ib-hdr",
				    &id, &n, &err), DLSIM_OK);
	/* damaged on line 20 of 27: the 2 good rows before it are not kept */
	ck_assert_int_eq(cal_import(t.db, CAL_NCCL_TESTS, DIR
				    "nccl_truncated.txt", "a100x8", &id, &n,
				    &err), DLSIM_EPARSE);
	ck_assert(id == 0 && n == 0);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 5);
	/* a hardware name with a blank is refused before anything */
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt",
				    "ib hdr", &id, &n, &err), DLSIM_EINVAL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt", "", &id,
				    &n, &err), DLSIM_EINVAL);
	/* and one no lookup would find: the catalog's names are lowercase */
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt", "V100",
				    &id, &n, &err), DLSIM_EINVAL);
	ck_assert_str_eq(err.msg, "the hardware name 'V100' holds 'V': names "
			 "are lowercase, as the catalog's (did you mean "
			 "'v100'?)");
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt",
				    "ib-\xc3\xa9", &id, &n, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "holds byte 0xc3 (at byte 4)") != NULL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "no-such.txt", "x",
				    &id, &n, &err), DLSIM_EIO);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 5);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

START_TEST(cal_cli_import_and_its_errors)
{
	char dir[] = "/tmp/dlsim-calcli-XXXXXX", args[512], db[64];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/c.db", dir);
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --hw local --db %s", db);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "imported 4 samples from " DIR "stream.txt "
			 "as run 1 (stream, hardware local)") != NULL);
	ck_assert_str_eq(r.err, "");
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream_truncated.txt --hw local --db %s", db);
	run(&r, args);
	assert_one_error(&r, 1, DIR "stream_truncated.txt:30: the row has 3 "
			 "columns");
	ck_assert(strstr(r.err, "(nothing imported)") != NULL);
	snprintf(args, sizeof(args), "calibrate import streem " DIR
		 "stream.txt --hw local --db %s", db);
	run(&r, args);
	assert_one_error(&r, 2, "unknown format 'streem'");
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --db %s", db);
	run(&r, args);
	assert_one_error(&r, 2, "--hw is required");
	run(&r, "calibrate import stream");
	assert_one_error(&r, 2, "missing argument");
	run(&r, "calibrate run --only frob");
	assert_one_error(&r, 2, "unknown benchmark 'frob'");
	run(&r, "calibrate fit");
	assert_one_error(&r, 2, "calibrate fit: --hw is required");
	run(&r, "calibrate show");
	assert_one_error(&r, 2, "calibrate show: --hw is required");
	run(&r, "calibrate frob");
	assert_one_error(&r, 2, "unknown subcommand 'frob'");
	run(&r, "calibrate");
	assert_one_error(&r, 2, "missing subcommand");
	run(&r, "calibrate --hw x import stream x.txt");
	assert_one_error(&r, 2, "comes before '--hw'");
	run(&r, "calibrate --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--hw NAME") && strstr(r.out, "--db PATH") &&
		  strstr(r.out, "Subcommands:") && strstr(r.out, "conv-csv"));
	run(&r, "calibrate import --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "Usage: dlsim calibrate import FORMAT FILE "
			 "--hw NAME") != NULL);
	dir_remove(dir);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Refused files: one line, exit 1, the database as it was           */
/* ---------------------------------------------------------------- */

/* A database holding a run: its directory, path, and every run and
 * sample of it as text. */
struct held {
	char dir[32], db[64];
	char before[16384];
};

/* Every run and sample of db as text, to compare before and after. */
static void db_text(const char *db, char *buf, size_t n)
{
	raw_text(db, "SELECT (SELECT group_concat(id || ' ' || tool || ' ' "
		 "|| hw || ' ' || status, ';') FROM runs) || '#' || (SELECT "
		 "group_concat(id || ' ' || run_id || ' ' || benchmark || ' ' "
		 "|| params || ' ' || rep || ' ' || quote(value) || ' ' || "
		 "unit, ';') FROM samples)", buf, n);
}

/* A new database in a directory of its own, holding the run of
 * stream.txt. */
static void held_open(struct held *h)
{
	char args[256];
	struct run r;

	snprintf(h->dir, sizeof(h->dir), "/tmp/dlsim-held-XXXXXX");
	ck_assert(mkdtemp(h->dir) != NULL);
	snprintf(h->db, sizeof(h->db), "%s/h.db", h->dir);
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --hw lab --db %s", h->db);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	db_text(h->db, h->before, sizeof(h->before));
	ck_assert(strstr(h->before, "import:stream lab done#") != NULL);
}

/* Write text into the held directory as name; its path into path. */
static void held_file(const struct held *h, const char *name,
		      const char *text, char *path, size_t n)
{
	FILE *f;

	snprintf(path, n, "%s/%s", h->dir, name);
	ck_assert((f = fopen(path, "w")) != NULL);
	ck_assert(fputs(text, f) >= 0);
	ck_assert(fclose(f) == 0);
}

/* The fixture DIR fixture with its first "from" made "to". */
static void held_fixture(const struct held *h, const char *fixture,
			 const char *from, const char *to, char *path,
			 size_t n)
{
	static char text[65536];
	char src[256], *at;
	size_t len;

	snprintf(src, sizeof(src), DIR "%s", fixture);
	slurp(src, text, sizeof(text) - 256);
	ck_assert_msg((at = strstr(text, from)) != NULL, "%s: no '%s'",
		      fixture, from);
	len = strlen(from);
	memmove(at + strlen(to), at + len, strlen(at + len) + 1);
	memcpy(at, to, strlen(to));
	held_file(h, fixture, text, path, n);
}

/* `calibrate import format path --hw lab` refused: exit 1, one line
 * holding "path:line: says", and the database as it was. */
static void held_refuses(const struct held *h, const char *format,
			 const char *path, int line, const char *says)
{
	char args[512], want[512];
	static char after[16384];
	struct run r;

	snprintf(args, sizeof(args), "calibrate import %s %s --hw lab --db "
		 "%s", format, path, h->db);
	run(&r, args);
	snprintf(want, sizeof(want), "%s:%d: %s", path, line, says);
	assert_one_error(&r, 1, want);
	db_text(h->db, after, sizeof(after));
	ck_assert_str_eq(after, h->before);
}

/* `dlsim ARGS --db <the held database>` refused with exit status and
 * one line holding want, the database as it was. */
static void held_cli_refuses(const struct held *h, const char *args,
			     int status, const char *want)
{
	char line[512];
	static char after[16384];
	struct run r;

	snprintf(line, sizeof(line), "%s --db %s", args, h->db);
	run(&r, line);
	assert_one_error(&r, status, want);
	db_text(h->db, after, sizeof(after));
	ck_assert_str_eq(after, h->before);
}

/* strtod reads "0x10" as 16 and "0x1p-8" as 1/256: every decimal
 * column of every format is read by one parser, which refuses them,
 * as it refuses inf and nan. */
START_TEST(cal_cli_import_refuses_hex_numbers)
{
	static const struct {
		const char *format, *text, *says;
	} bad[] = {
		{ "gemm-csv", "m,n,k,dtype,time_s\n1024,1024,1024,fp32,0x10\n",
		  "'time_s' must be a decimal number, not hexadecimal (got "
		  "'0x10')" },
		{ "gemm-csv", "m,n,k,dtype,time_s\n8,8,8,fp16,0x1p-8\n",
		  "'time_s' must be a decimal number, not hexadecimal (got "
		  "'0x1p-8')" },
		{ "gemm-csv", "m,n,k,dtype,time_s\n8,8,8,fp16,inf\n",
		  "'time_s' must be a finite number (got 'inf')" },
		{ "gemm-csv", "m,n,k,dtype,time_s\n8,8,8,fp16,nan\n",
		  "'time_s' must be a finite number (got 'nan')" },
		{ "gemm-csv", "m,n,k,dtype,time_s\n8,8,8,fp16,\"1e-3 \"\n",
		  "'time_s' must be a number without blanks around it (got "
		  "'1e-3 ')" },
		{ "conv-csv", "n,c,h,w,k,r,s,stride,pad,dtype,time_s\n"
		  "32,64,56,56,64,3,3,1,1,fp32,0x1P-6\n",
		  "'time_s' must be a decimal number, not hexadecimal (got "
		  "'0x1P-6')" },
		{ "conv-csv", "n,c,h,w,k,r,s,stride_h,stride_w,pad_h,pad_w,"
		  "pass,dtype,time_s\n32,64,56,56,64,3,3,1,1,1,1,fwd,fp32,"
		  "-0x1p-6\n",
		  "'time_s' must be a decimal number, not hexadecimal (got "
		  "'-0x1p-6')" },
	};
	static const struct {
		const char *format, *fixture, *from, *to;
		int line;
		const char *says;
	} fixtures[] = {
		{ "deepbench", "deepbench_gemm.csv", ",0.999,", ",0x1p-1,", 2,
		  "'time_ms' must be a decimal number, not hexadecimal (got "
		  "'0x1p-1')" },
		{ "nccl-tests", "nccl_all_reduce.txt", "  36.65 ",
		  "0x24.8p0 ", 18, "'time' must be a decimal number, not "
		  "hexadecimal (got '0x24.8p0')" },
		{ "nccl-tests", "nccl_all_reduce.txt", "  36.39 ", "    inf ",
		  18, "'time' must be a finite number (got 'inf')" },
		{ "osu", "osu_latency.txt", "    0.21", "  0x1p-2", 3,
		  "'Latency (us)' must be a decimal number, not hexadecimal "
		  "(got '0x1p-2')" },
		{ "osu", "osu_bw.txt", "    3.12", "    0x3p0", 5,
		  "'Bandwidth (MB/s)' must be a decimal number, not "
		  "hexadecimal (got '0x3p0')" },
		{ "osu", "osu_latency.txt", "    0.24", "    -nan", 5,
		  "'Latency (us)' must be a finite number (got '-nan')" },
		{ "stream", "stream.txt", "30162.4", "0x75d2", 27,
		  "'Best Rate MB/s' must be a decimal number, not hexadecimal "
		  "(got '0x75d2')" },
	};
	struct held h;
	char path[128], name[32];
	size_t i;

	held_open(&h);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "bad%zu.csv", i);
		held_file(&h, name, bad[i].text, path, sizeof(path));
		held_refuses(&h, bad[i].format, path, 2, bad[i].says);
	}
	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		held_fixture(&h, fixtures[i].fixture, fixtures[i].from,
			     fixtures[i].to, path, sizeof(path));
		held_refuses(&h, fixtures[i].format, path, fixtures[i].line,
			     fixtures[i].says);
	}
	dir_remove(h.dir);
}
END_TEST

/* nccl-tests -J: a result with no time refuses the file (it was
 * dropped: "imported 8 samples" of 5 results), and so does a key given
 * twice (the first won) */
START_TEST(cal_cli_import_refuses_json_without_times_or_with_twice)
{
	struct held h;
	char path[128];

	held_open(&h);
	held_fixture(&h, "nccl_all_gather.json", "\"out_of_place\":{\"time\":"
		     "25.020000,\"alg_bw\":0.654836,\"bus_bw\":0.572982,"
		     "\"nwrong\":0.000000},\"in_place\":{\"time\":24.660000,"
		     "\"alg_bw\":0.664396,\"bus_bw\":0.581346,\"nwrong\":"
		     "0.000000},", "", path, sizeof(path));
	held_refuses(&h, "nccl-tests", path, 1, "results[1]: neither "
		     "'out_of_place' nor 'in_place' holds a time");
	held_fixture(&h, "nccl_all_gather.json", "\"time\":24.310000,",
		     "\"time\":24.310000,\"time\":-5,", path, sizeof(path));
	held_refuses(&h, "nccl-tests", path, 1, "malformed JSON: the key "
		     "'time' appears twice in results[0].out_of_place");
	dir_remove(h.dir);
}
END_TEST

/* "a time above a day" (man dlsim) is 86400 s: 86401 and 100000 s
 * were imported */
START_TEST(cal_cli_import_refuses_a_time_above_a_day)
{
	struct held h;
	char path[128];

	held_open(&h);
	held_file(&h, "day.csv", "m,n,k,dtype,time_s\n8,8,8,fp32,86401\n",
		  path, sizeof(path));
	held_refuses(&h, "gemm-csv", path, 2, "86401 s is implausibly large "
		     "for one sample (above a day, 86400 s)");
	held_file(&h, "day.csv", "m,n,k,dtype,time_s\n8,8,8,fp32,2\n"
		  "8,8,8,fp32,100000\n", path, sizeof(path));
	held_refuses(&h, "gemm-csv", path, 3, "100000 s is implausibly large "
		     "for one sample (above a day, 86400 s)");
	dir_remove(h.dir);
}
END_TEST

/* Samples are found by catalog names (a-z, 0-9, '-', '_', '.'): "V100"
 * and invalid UTF-8 were stored where nothing looks, the latter written
 * into JSON output later; a name of the user's own that keeps the rule
 * (README's mylab) is taken. */
START_TEST(cal_cli_import_refuses_names_nothing_finds)
{
	struct held h;
	char args[256];
	struct run r;

	held_open(&h);
	held_cli_refuses(&h, "calibrate import stream " DIR "stream.txt "
			 "--hw V100", 2, "calibrate import: the hardware name "
			 "'V100' holds 'V': names are lowercase, as the "
			 "catalog's (did you mean 'v100'?)");
	held_cli_refuses(&h, "calibrate import stream " DIR "stream.txt "
			 "--hw 'hw\xff'", 2, "calibrate import: the hardware "
			 "name holds byte 0xff (at byte 3), which no name "
			 "may: names are lowercase, of a-z, 0-9, '-', '_' and "
			 "'.'");
	held_cli_refuses(&h, "calibrate import stream " DIR "stream.txt "
			 "--hw 'ib hdr'", 2, "the hardware name 'ib hdr' holds "
			 "a blank");
	held_cli_refuses(&h, "calibrate import stream " DIR "stream.txt "
			 "--hw my/lab.yaml", 2, "the hardware name "
			 "'my/lab.yaml' holds '/': names are lowercase");
	held_cli_refuses(&h, "calibrate run --quick --only stream --hw "
			 "Local", 2, "calibrate run: the hardware name 'Local' "
			 "holds 'L'");
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --hw my-lab_2.0 --db %s", h.db);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "(stream, hardware my-lab_2.0)") != NULL);
	dir_remove(h.dir);
}
END_TEST

Suite *suite_calibrate_import(void)
{
	Suite *s = suite_create("calibrate_import");
	TCase *c = tcase_create("import");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cal_import_is_one_run_with_every_sample);
	tcase_add_test(c, cal_failed_import_changes_nothing);
	tcase_add_test(c, cal_cli_import_and_its_errors);
	tcase_add_test(c, cal_cli_import_refuses_hex_numbers);
	tcase_add_test(c, cal_cli_import_refuses_names_nothing_finds);
	tcase_add_test(c, cal_cli_import_refuses_a_time_above_a_day);
	tcase_add_test(c,
		       cal_cli_import_refuses_json_without_times_or_with_twice);
	suite_add_tcase(s, c);
	return s;
}
