/*
 * cmd_validate.c -- `dlsim validate [--set NAME[,NAME...]]`: dlsim's
 * accuracy record against the published measurements it ships
 * (cal_validate).  By default the predictions are calibrated as a
 * first-time user's are: with the shipped calibration data, seeded into
 * a private in-memory database (so the record does not depend on what a
 * user has stored); --uncalibrated uses the catalog's figures alone.
 * --record stores the figures, every comparison and the measured values
 * in a database (--db, created if new, else the default one, which must
 * exist) and --history lists what was stored (cal_history.c), opening
 * it read-only so that listing never creates or changes it.  --file
 * adds a user's measurement files as sets of their own
 * (cal_validate_file), alone unless --set names shipped ones too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "set", "NAME[,NAME...]", CLI_STRING,
	  "only these sets (vtrain, vtrain_fit, vtrain_multi, tf_cnn_p100, "
	  "tf_cnn_k80, dle, "
	  "dle_bert, dle_transformer, dle_gnmt, dle_ssd, megatron, "
	  "korthikanti, horovod, "
	  "imagenet, "
	  "mlperf, jcjohnson, cnn_cloud, h100_pytorch, deepbench_gemm, "
	  "deepbench_conv, "
	  "deepbench_gemm_heldout, deepbench_conv_heldout, deepbench_rnn, "
	  "deepbench_rnn_heldout, nccl, deepbench_allreduce)" },
	{ "file", "CSV[,CSV...]", CLI_STRING, "your own measurements, "
	  "each file a set (columns: model, hw, metric, measured and "
	  "predict's options; man dlsim); alone, without the shipped sets" },
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "db", "PATH", CLI_STRING, "where --record stores and --history "
	  "reads, and the fits --file rows are predicted with, as predict's "
	  "(default $DLSIM_DB, else the XDG data directory)" },
	{ "uncalibrated", NULL, CLI_FLAG,
	  "use the catalog's datasheet figures alone (the shipped sets: "
	  "else the shipped fits; --file: else predict's database)" },
	{ "record", NULL, CLI_FLAG, "store each set's figures and every "
	  "comparison, with this version, in the database (--db, else the "
	  "default one)" },
	{ "history", NULL, CLI_FLAG, "list the figures recorded so far, by "
	  "version, instead of validating" },
	{ "rows", NULL, CLI_FLAG, "list every row compared (set, error, "
	  "measured, predicted, what) instead of the summary" },
	{ "plot", "FILE", CLI_STRING, "draw predicted against measured, "
	  "log-log, with the +-10% and +-25% bands (.png or .svg)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_validate = {
	"validate", "[--set NAME[,NAME...]] [--file CSV[,CSV...]] "
	"[--format table|csv|json]",
	"Predict every row of the shipped measurement sets and report the "
	"error.",
	0, 0, options, cmd_validate
};

/* The fits the predictions use: the shipped calibration in a private
 * in-memory database; NULL with --uncalibrated. */
static int open_fits(const struct cli_command *cmd, const struct cli_values *v,
		     struct db **db, struct dlsim_err *err)
{
	int64_t runs, samples;

	*db = NULL;
	if (v->set[cli_opt(cmd, "uncalibrated")])
		return DLSIM_OK;
	if (db_open(":memory:", db, err))
		return err->code;
	return cal_seed(*db, &runs, &samples, err);
}

static int no_store(struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_ENOTFOUND, "no database to record "
			     "in or read from (name one with --db)");
}

/* The database --record stores in: --db (created if new), else the
 * default one if it exists. */
static int open_store(const struct cli_command *cmd,
		      const struct cli_values *v, struct cli_calib_src *src,
		      struct dlsim_err *err)
{
	struct cli_values w = *v;
	int i = cli_opt(cmd, "db");

	if (v->set[i])
		return db_open(v->str[i], &src->db, err);
	w.set[cli_opt(cmd, "uncalibrated")] = 0;
	if (cli_calib_open(cmd, &w, 1, src, err))
		return err->code;
	if (!src->db)
		return no_store(err);
	return DLSIM_OK;
}

/* --history: the database --record stores in, opened read-only (never
 * created: --db must name a file), so that listing leaves it byte for
 * byte as it was; a file without dlsim's tables holds no records. */
static int history(const struct cli_command *cmd, const struct cli_values *v,
		   enum report_format fmt, struct dlsim_err *err)
{
	struct cli_calib_src src = { NULL };
	struct cal_val_history h;
	int rc;

	/* no file is a runtime error naming the path (exit 1), as for
	 * every other reader */
	if ((rc = cli_db_open_read(cmd, v, &src.db, err)))
		return rc;
	if (!(rc = cal_validation_history(src.db, &h, err)))
		rc = report_validation_history(stdout, fmt, &h, err);
	if (!rc && h.n_damaged)
		fprintf(stderr, "dlsim: validate: warning: prediction %lld%s "
			"in the database %s not read as a validation record "
			"(damaged outside dlsim): left out\n",
			(long long)h.first_damaged,
			h.n_damaged > 1 ? " and others" : "",
			h.n_damaged > 1 ? "do" : "does");
	cal_validation_history_release(&h);
	cli_calib_close(&src);
	return rc;
}

/* Split a comma list option into names[0, n) (buf holds the text);
 * the count, or -1 with err set. */
static int split_option(const char *opt, const char *text, char *buf,
			size_t cap, char **names, int max,
			struct dlsim_err *err)
{
	char what[16];

	snprintf(what, sizeof(what), "--%s", opt);
	if (strlen(text) >= cap) {
		dlsim_err_set(err, DLSIM_EINVAL, "%s: the list is longer "
			      "than %zu characters", what, cap - 1);
		return -1;
	}
	snprintf(buf, cap, "%s", text);
	return cli_split(buf, names, max, what, err);
}

/* Each --file's set name, refused before anything is predicted when
 * two are the same or one is a shipped set's. */
static int check_names(char *const *files, int nf, struct dlsim_err *err)
{
	char name[CAL_VAL_SETS][32];
	int k, j;

	for (k = 0; k < nf; k++) {
		if (cal_validate_file_name(files[k], name[k], sizeof(name[k]),
					   err))
			return err->code;
		for (j = 0; j < k; j++)
			if (strcmp(name[j], name[k]) == 0)
				return dlsim_err_set(err, DLSIM_EINVAL, "--file: "
						     "two sets named '%s' (a "
						     "set is named after its "
						     "file)", name[k]);
	}
	return DLSIM_OK;
}

/* Each --file's set, its rows predicted with the fits `dlsim predict`
 * would use (--db, $DLSIM_DB or the default database when it exists;
 * none with --uncalibrated), appended to rep. */
static int run_files(const struct cli_command *cmd, const struct cli_values *v,
		     char *const *files, int nf, struct hw_catalog *cat,
		     struct cal_val_report *rep, struct dlsim_err *err)
{
	struct cli_calib_src fits = { NULL };
	int k, rc = cli_calib_open(cmd, v, 0, &fits, err);

	for (k = 0; !rc && k < nf; k++) {
		if (rep->n_sets == CAL_VAL_SETS) {
			rc = dlsim_err_set(err, DLSIM_EINVAL, "--file: at most "
					   "%d sets in all", CAL_VAL_SETS);
			break;
		}
		rc = cal_validate_file(cat, fits.db, files[k],
				       &rep->set[rep->n_sets], err);
		rep->n_sets++;      /* so that release frees its rows */
	}
	cli_calib_close(&fits);
	return rc;
}

/* A set predicted without a damaged fit of its hardware's says so, a
 * line of stderr for each fit, as predict does; the figures stand. */
static void warn_damaged(const struct cal_val_report *rep)
{
	int i, j;

	for (i = 0; i < rep->n_sets; i++) {
		const struct cal_val_set *s = &rep->set[i];

		for (j = 0; j < s->n_damaged; j++)
			fprintf(stderr, "dlsim: validate: warning: %s: %s: "
				"fit %lld (%s) in the calibration database "
				"cannot be used (damaged or out of range) and "
				"is left out (%lld row%s)\n", s->name, s->damaged[j].hw,
				(long long)s->damaged[j].id,
				s->damaged[j].kind,
				(long long)s->damaged[j].rows,
				s->damaged[j].rows == 1 ? "" : "s");
		if (s->damaged_rows_other)
			fprintf(stderr, "dlsim: validate: warning: %s: %lld "
				"more row%s predicted without other damaged "
				"fits\n",
				s->name, (long long)s->damaged_rows_other,
				s->damaged_rows_other == 1 ? "" : "s");
	}
}

/* The shipped sets asked for (all without --set or --file), with the
 * shipped fits db, then each --file's set after them. */
static int run_sets(const struct cli_command *cmd, const struct cli_values *v,
		    struct hw_catalog *cat, struct db *db,
		    struct cal_val_report *rep, struct dlsim_err *err)
{
	char buf[1024], fbuf[4096], *names[CAL_VAL_SETS + 1];
	char *files[CAL_VAL_SETS];
	int i = cli_opt(cmd, "set"), j = cli_opt(cmd, "file"), n = 0, nf = 0;
	int rc;

	if (v->set[i] && (n = split_option("set", v->str[i], buf,
					   sizeof(buf), names, CAL_VAL_SETS,
					   err)) < 0)
		return err->code;
	names[n] = NULL;
	if (v->set[j] && ((nf = split_option("file", v->str[j], fbuf,
					     sizeof(fbuf), files, CAL_VAL_SETS,
					     err)) < 0 ||
			  check_names(files, nf, err)))
		return err->code;
	if ((v->set[i] || !v->set[j]) &&
	    (rc = cal_validate(cat, db, v->set[i] ?
			       (const char *const *)names : NULL, rep, err)))
		return rc;
	if (nf && (rc = run_files(cmd, v, files, nf, cat, rep, err)))
		return rc;
	warn_damaged(rep);
	return DLSIM_OK;
}

/* --plot: the figure, or a note on stderr when gnuplot is missing. */
static int plot(const char *image, const struct cal_val_report *rep,
		struct dlsim_err *err)
{
	struct report_plot p;
	int rc = report_validation_plot(image, rep, &p, err);

	if (!rc && !p.drawn)
		fprintf(stderr, "dlsim: gnuplot is not installed: wrote %s and "
			"%s, not %s\n", p.dat, p.gp, image);
	return rc;
}

/* Before any work: --history lists and takes none of the flags that
 * validate; --plot names a .png or .svg (else the sets would be run,
 * printed and recorded before the name was refused), and none of its
 * files is the database or a --file. */
static int check_flags(const struct cli_command *cmd,
		       const struct cli_values *v, struct dlsim_err *err)
{
	static const char *const not_with_history[] = {
		"set", "file", "uncalibrated", "record", "rows", "plot"
	};
	size_t k;

	if (v->set[cli_opt(cmd, "history")])
		for (k = 0; k < sizeof(not_with_history) /
			    sizeof(not_with_history[0]); k++)
			if (v->set[cli_opt(cmd, not_with_history[k])])
				return dlsim_err_set(err, DLSIM_EINVAL,
						     "--history lists what "
						     "was recorded and takes "
						     "no --%s",
						     not_with_history[k]);
	if (v->set[k = (size_t)cli_opt(cmd, "plot")] &&
	    report_plot_check(v->str[k], err))
		return err->code;
	return cli_outputs_check(cmd, v, NULL, 0, err);
}

int cmd_validate(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct cal_val_report *rep = NULL;
	struct db *db = NULL;
	struct cli_calib_src store = { NULL };
	struct cli_values v;
	enum report_format fmt;
	int rc = cli_parse(cmd, argc, argv, &v), i = 0;

	if (rc >= 0)
		return rc;
	if (cli_format(cmd, &v, &fmt, &err) || check_flags(cmd, &v, &err))
		return cli_fail(cmd, &err);
	if (v.set[cli_opt(cmd, "history")])
		return history(cmd, &v, fmt, &err) ? cli_fail(cmd, &err) :
		       cli_finish(cmd, CLI_OK);
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	if (!(rep = calloc(1, sizeof(*rep))))
		dlsim_err_set(&err, DLSIM_ENOMEM, "out of memory");
	if (!rep || (v.set[cli_opt(cmd, "record")] &&
		     open_store(cmd, &v, &store, &err)) ||
	    open_fits(cmd, &v, &db, &err) ||
	    run_sets(cmd, &v, cat, db, rep, &err) ||
	    (v.set[cli_opt(cmd, "rows")] ?
	     report_validation_rows(stdout, fmt, rep, &err) :
	     report_validation(stdout, fmt, rep, &err)) ||
	    (store.db && cal_validation_record(store.db, rep, &err)) ||
	    (v.set[i = cli_opt(cmd, "plot")] &&
	     plot(v.str[i], rep, &err)))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(cmd, CLI_OK);
	if (!rc && store.db) {
		int64_t rows = 0;

		for (i = 0; i < rep->n_sets; i++)
			rows += rep->set[i].rows;
		fprintf(stderr, "dlsim: recorded %d set%s and %lld "
			"comparison%s\n", rep->n_sets, rep->n_sets == 1 ? "" :
			"s", (long long)rows, rows == 1 ? "" : "s");
	}
	cli_calib_close(&store);
	cal_val_report_release(rep);
	free(rep);
	db_close(db);
	hw_catalog_free(cat);
	return rc;
}
