/*
 * cmd_calibrate.c -- `dlsim calibrate import|run|fit|show|seed`: fill the
 * measurement store and fit models from it.
 *
 * The subcommands are a nested table in this file (git's
 * builtin/bundle.c): the first word picks one, which then parses the
 * rest against its own option table, so its --help and errors name it
 * ("dlsim calibrate import --help").
 *
 * run's Ctrl-C (and a batch system's SIGTERM, its notice before the
 * kill): a handler sets a flag (the one static mutable variable here: a
 * signal handler has nowhere else to write) that the runner reads
 * between measurements; the run then ends "interrupted" with what it
 * measured kept, and the exit status is 1.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/core.h"
#include "core/banned.h"

static int cmd_calibrate_import(const struct cli_command *cmd, int argc,
				char **argv);
static int cmd_calibrate_run(const struct cli_command *cmd, int argc,
			     char **argv);

static volatile sig_atomic_t interrupted;
static int cmd_calibrate_fit(const struct cli_command *cmd, int argc,
			     char **argv);
static int cmd_calibrate_show(const struct cli_command *cmd, int argc,
			      char **argv);
static int cmd_calibrate_seed(const struct cli_command *cmd, int argc,
			      char **argv);

/* ---------------------------------------------------------------- */
/* The subcommands                                                   */
/* ---------------------------------------------------------------- */

static const struct cli_option import_options[] = {
	{ "hw", "NAME", CLI_STRING,
	  "the hardware the results come from (required)" },
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

#define IMPORT_USAGE "FORMAT FILE --hw NAME [--db PATH]"
#define FORMATS "nccl-tests, osu, stream, deepbench, gemm-csv, conv-csv"

static const struct cli_command calibrate_import = {
	"calibrate import", IMPORT_USAGE,
	"Store a benchmark tool's results in the database as one run.\n"
	"FORMAT: " FORMATS ".\n"
	"A file in another format, or damaged anywhere, is refused whole.",
	2, 2, import_options, cmd_calibrate_import
};

static const struct cli_option fit_options[] = {
	{ "hw", "NAME", CLI_STRING, "the hardware to fit (required)" },
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "format", "F", CLI_STRING, "table or json (default table)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

static const struct cli_command calibrate_fit = {
	"calibrate fit", "--hw NAME [--db PATH] [--format table|json]",
	"Fit models to every run stored for the hardware and store them:\n"
	"alpha-beta lines with breakpoints for collectives and p2p latency,\n"
	"a roofline t = fixed + FLOPs/R + bytes/B for GEMM and convolution,\n"
	"the DRAM plateau and cache levels for STREAM.",
	0, 0, fit_options, cmd_calibrate_fit
};

static const struct cli_option show_options[] = {
	{ "hw", "NAME", CLI_STRING, "the hardware whose fits to show "
	  "(required)" },
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "format", "F", CLI_STRING, "table or json (default table)" },
	{ "plot", "FILE", CLI_STRING, "also plot the measured points over "
	  "the fits with gnuplot (.png or .svg)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

static const struct cli_command calibrate_show = {
	"calibrate show", "--hw NAME [--db PATH] [--format table|json] "
	"[--plot FILE]",
	"Print the newest fit of each kind and group stored for the\n"
	"hardware, with 95% intervals (1.96 sigma).",
	0, 0, show_options, cmd_calibrate_show
};

static const struct cli_option run_options[] = {
	{ "quick", NULL, CLI_FLAG, "small sizes, fewer repetitions (under a "
	  "minute)" },
	{ "only", "LIST", CLI_STRING, "some of gemm,stream,p2p,allreduce "
	  "(default all)" },
	{ "hw", "NAME", CLI_STRING, "the hardware the samples describe "
	  "(default local)" },
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

#define RUN_USAGE "[--quick] [--only LIST] [--hw NAME] [--db PATH]"

static const struct cli_command calibrate_run = {
	"calibrate run", RUN_USAGE,
	"Measure this machine: GEMM (OpenBLAS), memory bandwidth (STREAM\n"
	"kernels, one thread), MPI point-to-point and allreduce between two\n"
	"ranks (mpirun); store every repetition and its median as one run.\n"
	"Ctrl-C stops it, keeping what was measured.",
	0, 0, run_options, cmd_calibrate_run
};

static const struct cli_option seed_options[] = {
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

static const struct cli_command calibrate_seed = {
	"calibrate seed", "[--db PATH]",
	"Store the calibration data dlsim ships (DeepBench GEMM,\n"
	"convolution and, but for the Xeon Phi, recurrent results for V100,\n"
	"P100, T4, M40, Titan X, Titan Xp, GTX 1080 Ti and Xeon Phi 7250,\n"
	"all-reduce results for P100\n"
	"and Xeon Phi; vTrain's nccl-tests all-reduce curves for A100 and\n"
	"V100; dlsim's own H100 GEMM, convolution and STREAM runs) and fit\n"
	"them.  Runs already stored are not stored again; a database\n"
	"seeded by an older dlsim gains the hardware added since.  A new\n"
	"database at the default place (no --db, no $DLSIM_DB) is seeded by\n"
	"its first calibrate command.",
	0, 0, seed_options, cmd_calibrate_seed
};

static const struct {
	const char *name;
	const struct cli_command *cmd;   /* NULL: not yet available */
	const char *summary;
} subcommands[] = {
	{ "import", &calibrate_import,
	  "store nccl-tests, OSU, STREAM, DeepBench or CSV results" },
	{ "run", &calibrate_run, "measure this machine: " RUN_USAGE },
	{ "fit", &calibrate_fit, "fit models to the stored runs" },
	{ "show", &calibrate_show, "print fitted models, plot them" },
	{ "seed", &calibrate_seed, "store and fit the calibration data "
	  "dlsim ships" },
};

#define N_SUBCOMMANDS ((int)(sizeof(subcommands) / sizeof(subcommands[0])))

/* `dlsim calibrate --help` lists the subcommands, each of which has its
 * own options and --help; the positional counts are the subcommands' to
 * check. */
static const struct cli_option top_options[] = {
	{ "help", NULL, CLI_FLAG, "this text ('dlsim calibrate SUBCOMMAND "
	  "--help': a subcommand's options)" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_calibrate = {
	"calibrate", "import|run|fit|show|seed [OPTIONS]",
	"Measure this machine, import benchmark results, fit models.",
	1, 3, top_options, cmd_calibrate
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int usage(const struct cli_command *cmd, const char *fmt,
		 const char *word)
{
	struct dlsim_err err = { 0, "" };

	dlsim_err_set(&err, DLSIM_EINVAL, fmt, word);
	return cli_fail(cmd, &err);
}

/* A failure after the arguments were read: say that nothing was kept. */
static int fail_nothing_imported(const struct cli_command *cmd,
				 const struct dlsim_err *err)
{
	struct dlsim_err e = { 0, "" };

	if (err->code == DLSIM_EINVAL || err->code == DLSIM_ENOTFOUND ||
	    err->code == DLSIM_ERANGE)
		return cli_fail(cmd, err);
	dlsim_err_set(&e, err->code, "%.200s (nothing imported)", err->msg);
	return cli_fail(cmd, &e);
}

/*
 * --hw names what fits are stored under and looked up by: a catalog
 * device (kernel fits), a node (collective fits), "local", or a name of
 * the user's own.  A system spec the catalog resolves (a100x8, dgx1x2)
 * is none of these: fits stored under it would never be used, so it is
 * refused with the names that would be.
 */
static int hw_name(const struct cli_command *cmd, const char *name)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	int rc;

	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	rc = -1;
	if (!hw_device_find(cat, name) && !hw_node_find(cat, name) &&
	    !core_is_yaml_path(name) &&
	    hw_system_resolve(cat, name, &s, &err) == DLSIM_OK)
		rc = cli_fail(cmd, (dlsim_err_set(&err, DLSIM_EINVAL, "--hw "
			      "'%s' is a system: fits are stored under and "
			      "looked up by names, here '%s' (its device: "
			      "kernel fits) or '%s' (its node: collective "
			      "fits)", name, s.device->name, s.node ?
			      s.node->name : s.device->name), &err));
	hw_catalog_free(cat);
	return rc;
}

static int help(const struct cli_command *cmd)
{
	int i;

	cli_help(cmd, stdout);
	fputs("\nSubcommands:\n", stdout);
	for (i = 0; i < N_SUBCOMMANDS; i++)
		printf("  %-10s %s\n", subcommands[i].name,
		       subcommands[i].summary);
	fputs("\nFormats: " FORMATS "\n", stdout);
	return cli_finish(cmd, CLI_OK);
}

/* No --db (given), no $DLSIM_DB, and no file at the default path: the
 * first use of the default database, which seeds it. */
static int first_use(const char *given, const char *path)
{
	const char *env = getenv("DLSIM_DB");

	return !(given && *given) && !(env && *env) &&
	       access(path, F_OK) != 0;
}

/*
 * Resolve and open the database of --db (given, may be NULL).  A NEW
 * database at the default place (no --db, no $DLSIM_DB) is seeded with
 * the shipped calibration data (cal_seed) on this first use, and stderr
 * says so; one named explicitly (as every test's is) never is.  A seed
 * that fails is a warning: the database is still there to use.
 */
static int open_calibrate_db(const char *given, char *path, size_t n,
			     struct db **db, struct dlsim_err *err)
{
	struct dlsim_err e = { 0, "" };
	int fresh, rc;
	int64_t runs, samples;

	*db = NULL;
	if ((rc = db_resolve_path(given, path, n, err)))
		return rc;
	fresh = first_use(given, path);
	if ((rc = db_open(path, db, err)))
		return rc;
	if (!fresh)
		return DLSIM_OK;
	if (cal_seed(*db, &runs, &samples, &e))
		fprintf(stderr, "dlsim: calibrate: warning: seeding the new "
			"database failed: %s\n", e.msg);
	else
		fprintf(stderr, "dlsim: new database %s seeded with the "
			"shipped calibration data (%lld runs, %lld samples)\n",
			path, (long long)runs, (long long)samples);
	return DLSIM_OK;
}

static int cmd_calibrate_import(const struct cli_command *cmd, int argc,
				char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct cli_values v;
	struct db *db = NULL;
	enum cal_format f;
	int64_t run_id, n;
	char path[1024];
	int rc = cli_parse(cmd, argc, argv, &v), i;

	if (rc >= 0)
		return rc;
	if (!v.set[i = cli_opt(cmd, "hw")])
		return usage(cmd, "%s: --hw is required", cmd->name);
	if ((rc = hw_name(cmd, v.str[i])) >= 0)
		return rc;
	if (cal_format_parse(v.positional[0], &f, &err) ||
	    cli_input_not_database(cmd, &v, v.positional[1], &err))
		return cli_fail(cmd, &err);
	if (open_calibrate_db(v.set[cli_opt(cmd, "db")] ?
			      v.str[cli_opt(cmd, "db")] : NULL, path,
			      sizeof(path), &db, &err) ||
	    cal_import(db, f, v.positional[1], v.str[i], &run_id, &n, &err)) {
		db_close(db);
		return fail_nothing_imported(cmd, &err);
	}
	printf("imported %lld samples from %s as run %lld (%s, hardware %s) "
	       "into %s\n", (long long)n, v.positional[1], (long long)run_id,
	       cal_format_name(f), v.str[i], path);
	db_close(db);
	return cli_finish(cmd, CLI_OK);
}


/*
 * Open the database of --db (or the default): a fit's to write; show's,
 * which only reads, read-only (cli_db_open_read: never created, changed
 * or upgraded), unless it is the default one's first use, which makes
 * and seeds it for show too (open_calibrate_db).
 */
static int open_db(const struct cli_command *cmd,
		   const struct cli_values *v, int writes, struct db **db,
		   struct dlsim_err *err)
{
	char path[1024];
	int i = cli_opt(cmd, "db");
	const char *given = v->set[i] ? v->str[i] : NULL;

	if (!writes && (cli_default_db_path(path, sizeof(path)) ||
			!first_use(given, path)))
		return cli_db_open_read(cmd, v, db, err);
	return open_calibrate_db(given, path, sizeof(path), db, err);
}

/* The options fit and show share: --hw (required) and --format. */
static int fit_args(const struct cli_command *cmd, int argc, char **argv,
		    struct cli_values *v, enum report_format *fmt)
{
	struct dlsim_err err = { 0, "" };
	int rc = cli_parse(cmd, argc, argv, v);

	if (rc >= 0)
		return rc;
	if (!v->set[cli_opt(cmd, "hw")])
		return usage(cmd, "%s: --hw is required", cmd->name);
	if ((rc = hw_name(cmd, v->str[cli_opt(cmd, "hw")])) >= 0)
		return rc;
	if (cli_format(cmd, v, fmt, &err))
		return cli_fail(cmd, &err);
	if (*fmt == REPORT_CSV)
		return usage(cmd, "%s: --format is table or json", cmd->name);
	return -1;
}

static int cmd_calibrate_fit(const struct cli_command *cmd, int argc,
			     char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r = { 0 };
	struct cli_values v;
	enum report_format fmt;
	struct db *db = NULL;
	int rc = fit_args(cmd, argc, argv, &v, &fmt);

	if (rc >= 0)
		return rc;
	if (open_db(cmd, &v, 1, &db, &err) ||
	    cal_fit_hw(db, v.str[cli_opt(cmd, "hw")], &r, &err) ||
	    report_cal_fits(stdout, fmt, &r, &err)) {
		rc = cli_fail_run(cmd, &err);
		goto cleanup;
	}
	rc = CLI_OK;
	if (r.n_fit == 0) {
		dlsim_err_set(&err, DLSIM_ENOTFOUND, "no model could be fitted "
			      "to the samples of '%s'", r.hw);
		rc = cli_fail_run(cmd, &err);
	}
cleanup:
	cal_fit_report_release(&r);
	db_close(db);
	return rc == CLI_OK ? cli_finish(cmd, CLI_OK) : rc;
}

static int cmd_calibrate_show(const struct cli_command *cmd, int argc,
			      char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r = { 0 };
	struct report_plot p;
	struct cli_values v;
	enum report_format fmt;
	struct db *db = NULL;
	int rc = fit_args(cmd, argc, argv, &v, &fmt), plot;

	if (rc >= 0)
		return rc;
	plot = cli_opt(cmd, "plot");
	if ((v.set[plot] && report_plot_check(v.str[plot], &err)) ||
	    cli_outputs_check(cmd, &v, NULL, 0, &err))
		return cli_fail(cmd, &err);
	if (open_db(cmd, &v, 0, &db, &err) ||
	    cal_fit_load(db, v.str[cli_opt(cmd, "hw")], &r, &err) ||
	    report_cal_fits(stdout, fmt, &r, &err) ||
	    (v.set[plot] && report_cal_plot(v.str[plot], &r, &p, &err))) {
		rc = cli_fail_run(cmd, &err);
		goto cleanup;
	}
	if (v.set[plot] && !p.drawn)
		fprintf(stderr, "dlsim: %s: warning: gnuplot not found; wrote "
			"%s and %s\n", cmd->name, p.dat, p.gp);
	rc = cli_finish(cmd, CLI_OK);
cleanup:
	cal_fit_report_release(&r);
	db_close(db);
	return rc;
}

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* A bar on stderr, redrawn in place; only when stderr is a terminal. */
static void progress_bar(void *ctx, int64_t done, int64_t total,
			 const char *what)
{
	int width = 30, filled = total > 0 ? (int)(width * done / total) : 0;
	char bar[32];

	(void)ctx;
	memset(bar, '#', (size_t)filled);
	memset(bar + filled, '.', (size_t)(width - filled));
	bar[width] = '\0';
	fprintf(stderr, "\r[%s] %3lld/%-3lld %-44.44s", bar, (long long)done,
		(long long)total, what);
	fflush(stderr);
}

static void print_note(void *ctx, const char *msg)
{
	int *bar = ctx;

	fprintf(stderr, "%sdlsim: %s\n", *bar ? "\r\033[K" : "", msg);
}

/* dlsim-mpibench beside this dlsim (/proc/self/exe), else NULL. */
static const char *find_mpibench(char *buf, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0)
		return NULL;
	self[len] = '\0';
	if (!(slash = strrchr(self, '/')))
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(buf, n, "%s/dlsim-mpibench", self) >= n)
		return NULL;
	return buf;
}

static void join_args(int argc, char **argv, char *buf, size_t n)
{
	size_t used = (size_t)snprintf(buf, n, "dlsim calibrate");
	int i;

	for (i = 0; i < argc && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, " %s", argv[i]);
}

static int cmd_calibrate_run(const struct cli_command *cmd, int argc,
			     char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct cal_run_result res;
	struct cal_run_opts o;
	struct sigaction sa, old, old_term;
	struct cli_values v;
	struct db *db = NULL;
	char path[1024], mpibench[PATH_MAX + 32], cmdline[512];
	const char *tiny = getenv("DLSIM_CALIBRATE_TINY");
	int rc = cli_parse(cmd, argc, argv, &v), bar, i;

	if (rc >= 0)
		return rc;
	memset(&o, 0, sizeof(o));
	if (v.set[i = cli_opt(cmd, "only")] &&
	    cal_bench_parse(v.str[i], &o.only, &err))
		return usage(cmd, "%s", err.msg);
	o.quick = v.set[cli_opt(cmd, "quick")];
	o.tiny = tiny && strcmp(tiny, "1") == 0;
	o.hw = v.set[i = cli_opt(cmd, "hw")] ? v.str[i] : "local";
	if ((rc = hw_name(cmd, o.hw)) >= 0)
		return rc;
	join_args(argc - 1, argv + 1, cmdline, sizeof(cmdline));
	o.cmdline = cmdline;
	o.mpibench = find_mpibench(mpibench, sizeof(mpibench));
	o.stop = &interrupted;
	bar = isatty(STDERR_FILENO);
	if (bar)
		o.progress = progress_bar;
	o.note = print_note;
	o.note_ctx = &bar;
	if (open_calibrate_db(v.set[cli_opt(cmd, "db")] ?
			      v.str[cli_opt(cmd, "db")] : NULL, path,
			      sizeof(path), &db, &err)) {
		db_close(db);
		return cli_fail(cmd, &err);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	interrupted = 0;
	sigaction(SIGINT, &sa, &old);
	sigaction(SIGTERM, &sa, &old_term);
	rc = cal_run(db, &o, &res, &err);
	sigaction(SIGINT, &old, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (bar)
		fputs("\r\033[K", stderr);
	db_close(db);
	if (rc) {
		struct dlsim_err kept = err;

		/* one line: the error, and what the failed run kept */
		if (res.run_id)
			dlsim_err_set(&kept, err.code, "%s (run %lld kept %lld "
				      "samples)", err.msg,
				      (long long)res.run_id,
				      (long long)res.n_samples);
		return cli_fail(cmd, &kept);
	}
	if (strcmp(res.status, "interrupted") == 0) {
		fprintf(stderr, "dlsim: %s: interrupted; kept %lld samples in "
			"run %lld\n", cmd->name, (long long)res.n_samples,
			(long long)res.run_id);
		return CLI_FAIL;
	}
	printf("stored %lld samples as run %lld (hardware %s) into %s in "
	       "%.1f s\n", (long long)res.n_samples, (long long)res.run_id,
	       o.hw, path, res.elapsed_s);
	return cli_finish(cmd, CLI_OK);
}

/* What calibrate seed fitted for hw: the count and the kinds. */
static void print_seed_fits(struct db *db, const char *hw)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r = { 0 };

	if (cal_fit_load(db, hw, &r, &err)) {
		printf("  %-9s no fits (%s)\n", hw, err.msg);
	} else {
		printf("  %-9s %d fits:", hw, r.n_fit);
		for (int i = 0; i < r.n_fit; i++) {
			int seen = 0;

			for (int j = 0; j < i && !seen; j++)
				seen = !strcmp(r.fit[j].kind, r.fit[i].kind);
			if (!seen)
				printf(" %s", r.fit[i].kind);
		}
		putchar('\n');
	}
	cal_fit_report_release(&r);
}

static int cmd_calibrate_seed(const struct cli_command *cmd, int argc,
			      char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct timespec t0, t1;
	struct cli_values v;
	struct db *db = NULL;
	char path[1024];
	int64_t runs, samples;
	int rc = cli_parse(cmd, argc, argv, &v), i = cli_opt(cmd, "db");

	if (rc >= 0)
		return rc;
	if (db_resolve_path(v.set[i] ? v.str[i] : NULL, path, sizeof(path),
			    &err) ||
	    db_open(path, &db, &err))
		return cli_fail(cmd, &err);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (cal_seed(db, &runs, &samples, &err)) {
		db_close(db);
		return fail_nothing_imported(cmd, &err);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (runs == 0)
		printf("%s: already seeded, nothing added\n", path);
	else
		printf("seeded %s: %lld runs, %lld samples, fitted in %.2f s\n",
		       path, (long long)runs, (long long)samples,
		       (double)(t1.tv_sec - t0.tv_sec) +
		       1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	for (i = 0; cal_seed_hw(i); i++)
		print_seed_fits(db, cal_seed_hw(i));
	db_close(db);
	return cli_finish(cmd, CLI_OK);
}

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

int cmd_calibrate(const struct cli_command *cmd, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return usage(cmd, "%s: missing subcommand (import, run, fit, "
			     "show, seed)", cmd->name);
	if (strcmp(argv[1], "--help") == 0)
		return help(cmd);
	if (argv[1][0] == '-')
		return usage(cmd, "calibrate: the subcommand (import, run, "
			     "fit, show, seed) comes before '%s'", argv[1]);
	for (i = 0; i < N_SUBCOMMANDS; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			break;
	if (i == N_SUBCOMMANDS)
		return usage(cmd, "calibrate: unknown subcommand '%s' "
			     "(expected import, run, fit, show, seed)", argv[1]);
	if (!subcommands[i].cmd)
		return usage(cmd, "calibrate %s: not yet available", argv[1]);
	return subcommands[i].cmd->run(subcommands[i].cmd, argc - 1, argv + 1);
}
