/*
 * cli.c -- option parsing, help and error reporting shared by every
 * subcommand.  Options are GNU style: --name VALUE, --name=VALUE, and
 * "--" ends them.  Every count goes through one positive-integer parser,
 * which rejects 0, -3, 1e99 and 12abc with the same message.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "reports/report.h"
#include "core/banned.h"

#define CLI_MAX_COUNT DLSIM_MAX_COUNT

int cli_opt(const struct cli_command *cmd, const char *name)
{
	int i;

	for (i = 0; cmd->options[i].name; i++)
		if (strcmp(cmd->options[i].name, name) == 0)
			return i;
	fprintf(stderr, "dlsim: internal error: no option --%s\n", name);
	abort();
}

int cli_opt_find(const struct cli_command *cmd, const char *name)
{
	int i;

	for (i = 0; cmd->options[i].name; i++)
		if (strcmp(cmd->options[i].name, name) == 0)
			return i;
	return -1;
}

void cli_help(const struct cli_command *cmd, FILE *f)
{
	int i;

	fprintf(f, "Usage: dlsim %s %s\n%s\n\nOptions:\n", cmd->name,
		cmd->usage, cmd->summary);
	for (i = 0; cmd->options[i].name; i++) {
		const struct cli_option *o = &cmd->options[i];
		char left[48];

		snprintf(left, sizeof(left), "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-24s %s\n", left, o->help);
	}
}

/* 1 if msg already starts with the subcommand's name ("predict: ..."). */
static int names_subcommand(const struct cli_command *cmd, const char *msg)
{
	size_t n = strlen(cmd->name);

	return strncmp(msg, cmd->name, n) == 0 && msg[n] == ':';
}

/* The length of the UTF-8 character at p (2 to 4 bytes: a lead byte
 * C2..F4 and its continuation bytes 80..BF), or 0 when p holds none. */
static int utf8_length(const unsigned char *p)
{
	int n = *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ?
		3 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0, i;

	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A message quotes the user's input (a YAML scalar may span lines, a
 * binary file's bytes are anything), and an error is one line of text:
 * control characters and bytes that are not UTF-8 are escaped. */
void cli_put_escaped(const char *msg, FILE *f)
{
	const unsigned char *p;
	int n;

	for (p = (const unsigned char *)msg; *p; p++)
		if (*p >= 0x80 && (n = utf8_length(p)) > 0) {
			fwrite(p, 1, (size_t)n, f);
			p += n - 1;
		} else if (*p >= 0x80)
			fprintf(f, "\\x%02x", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
}

/* "dlsim: SUBCOMMAND: MSG", with the --help hint when hint is set. */
static void print_error(const struct cli_command *cmd,
			const struct dlsim_err *err, int hint)
{
	int named = !cmd || names_subcommand(cmd, err->msg);

	fprintf(stderr, "dlsim: %s%s", named ? "" : cmd->name,
		named ? "" : ": ");
	cli_put_escaped(err->msg, stderr);
	if (hint && cmd)
		fprintf(stderr, "; try 'dlsim %s --help'", cmd->name);
	fputc('\n', stderr);
}

int cli_fail(const struct cli_command *cmd, const struct dlsim_err *err)
{
	int usage = err->code == DLSIM_EINVAL ||
		    err->code == DLSIM_ENOTFOUND ||
		    err->code == DLSIM_ERANGE;

	print_error(cmd, err, usage);
	return usage ? CLI_USAGE : CLI_FAIL;
}

int cli_fail_run(const struct cli_command *cmd, const struct dlsim_err *err)
{
	print_error(cmd, err, 0);
	return CLI_FAIL;
}

static int usage_error(const struct cli_command *cmd, const char *fmt,
		       const char *a)
{
	struct dlsim_err err = { 0, "" };
	char msg[DLSIM_ERR_LEN];

	snprintf(msg, sizeof(msg), fmt, a);
	dlsim_err_set(&err, DLSIM_EINVAL, "%s: %s", cmd->name, msg);
	return cli_fail(cmd, &err);
}

static int find_option(const struct cli_command *cmd, const char *name,
		       size_t len)
{
	int i;

	for (i = 0; cmd->options[i].name; i++)
		if (strlen(cmd->options[i].name) == len &&
		    strncmp(cmd->options[i].name, name, len) == 0)
			return i;
	return -1;
}

static int take_value(const struct cli_command *cmd, int i, const char *val,
		      struct cli_values *v)
{
	const struct cli_option *o = &cmd->options[i];
	struct dlsim_err err = { 0, "" };
	char what[64];

	snprintf(what, sizeof(what), "--%s", o->name);
	v->set[i] = 1;
	v->str[i] = val;
	/* no option of dlsim means anything by "": --db "" would otherwise
	 * fall back to the default database, silently */
	if (o->type == CLI_STRING && !*val)
		return usage_error(cmd, "%s needs a value, not an empty "
				   "string", what);
	if (o->type == CLI_COUNT &&
	    dlsim_parse_count(val, CLI_MAX_COUNT, &v->count[i], what, &err))
		return cli_fail(cmd, &err);
	if (o->type == CLI_NUMBER || o->type == CLI_NONNEG) {
		if (dlsim_parse_number(val, &v->num[i], what, &err))
			return cli_fail(cmd, &err);
		if ((o->type == CLI_NUMBER && v->num[i] <= 0.0) ||
		    (o->type == CLI_NONNEG && v->num[i] < 0.0)) {
			char msg[DLSIM_ERR_LEN];

			snprintf(msg, sizeof(msg), "%s must be %s (got '%s')",
				 what, o->type == CLI_NUMBER ? "positive" :
				 "0 or more", val);
			return usage_error(cmd, "%s", msg);
		}
	}
	return -1;
}

int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      struct cli_values *v)
{
	int a, rc, only_positional = 0;

	memset(v, 0, sizeof(*v));
	for (a = 0; cmd->options[a].name; a++)
		;
	if (a > CLI_MAX_OPTIONS) {
		/* a table that outgrew struct cli_values: a bug, caught by
		 * every command's --help in the tests */
		fprintf(stderr, "dlsim %s: %d options, more than the %d "
			"the parser holds\n", cmd->name, a, CLI_MAX_OPTIONS);
		return cli_finish(cmd, CLI_FAIL);
	}
	for (a = 1; a < argc; a++) {
		const char *s = argv[a], *eq;
		int i;

		if (only_positional || s[0] != '-' || !s[1]) {
			if (v->n_positional >= cmd->max_positional)
				return usage_error(cmd, "unexpected argument "
						   "'%s'", s);
			v->positional[v->n_positional++] = s;
			continue;
		}
		if (strcmp(s, "--") == 0) {
			only_positional = 1;
			continue;
		}
		if (s[1] != '-')
			return usage_error(cmd, "unknown option '%s'", s);
		eq = strchr(s + 2, '=');
		i = find_option(cmd, s + 2,
				eq ? (size_t)(eq - s - 2) : strlen(s + 2));
		if (i < 0)
			return usage_error(cmd, "unknown option '%s'", s);
		if (strcmp(cmd->options[i].name, "help") == 0) {
			cli_help(cmd, stdout);
			return cli_finish(cmd, CLI_OK);
		}
		if (cmd->options[i].type == CLI_FLAG) {
			if (eq)
				return usage_error(cmd, "option '%s' takes no "
						   "value", s);
			v->set[i] = 1;
			continue;
		}
		if (!eq && a + 1 >= argc)
			return usage_error(cmd, "option '%s' needs a value",
					   s);
		rc = take_value(cmd, i, eq ? eq + 1 : argv[++a], v);
		if (rc >= 0)
			return rc;
	}
	if (v->n_positional < cmd->min_positional)
		return usage_error(cmd, "missing argument (usage: %s)",
				   cmd->usage);
	return -1;
}

/* An unknown --precision is told the names the help lists, the
 * training precisions; int8, the library's too, goes on to the
 * simulator, which says why it is refused (an inference precision). */
int cli_precision(const struct cli_command *cmd, const struct cli_values *v,
		  enum dlsim_precision *p, int *is_auto, struct dlsim_err *err)
{
	static const char *const names[] = {
		"auto", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", NULL
	};
	int i = cli_opt(cmd, "precision");

	if (!v->set[i] || strcmp(v->str[i], "auto") == 0)
		return DLSIM_OK;
	if (dlsim_precision_parse(v->str[i], p, err)) {
		dlsim_err_clear(err);
		core_name_parse(names, v->str[i], "precision", err);
		return err->code;
	}
	*is_auto = 0;
	return DLSIM_OK;
}

int cli_sim_options(const struct cli_command *cmd,
		    const struct cli_values *v, struct sim_options *o,
		    struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	sim_options_init(o);
	if (v->set[i = cli_opt(cmd, "batch")])
		o->batch_per_device = v->count[i];
	if (v->set[i = cli_opt(cmd, "global-batch")])
		o->global_batch = v->count[i];
	if (o->batch_per_device && o->global_batch)
		return dlsim_err_set(err, DLSIM_EINVAL, "--batch and "
				     "--global-batch exclude each other");
	rc = cli_precision(cmd, v, &o->precision, &o->precision_auto, err);
	if (!rc && v->set[i = cli_opt(cmd, "optimizer")])
		rc = sim_optimizer_parse(v->str[i], &o->optimizer, err);
	if (!rc && v->set[i = cli_opt(cmd, "allreduce")])
		rc = sim_algo_parse(v->str[i], &o->allreduce, err);
	if (!rc && v->set[i = cli_opt(cmd, "compression")])
		rc = sim_compression_parse(v->str[i], &o->compression, err);
	if (!rc && v->set[i = cli_opt(cmd, "topk-ratio")]) {
		if (o->compression != SIM_COMPRESS_TOPK)
			return dlsim_err_set(err, DLSIM_EINVAL, "--topk-ratio "
					     "needs --compression topk");
		if (v->num[i] > 1.0)
			return dlsim_err_set(err, DLSIM_EINVAL, "--topk-ratio "
					     "must be at most 1 (got %s)",
					     v->str[i]);
		o->topk_ratio = v->num[i];
	}
	if (v->set[i = cli_opt(cmd, "bucket-mb")])
		o->bucket_bytes = v->num[i] * 1048576.0;
	o->overlap = !v->set[cli_opt(cmd, "no-overlap")];
	if (!rc && (rc = cli_update_on(cmd, v, &o->update_on_host, err)))
		return rc;
	/* the host's update fills no buckets (sim_host.c refuses
	 * --no-overlap, which it can see) */
	if (o->update_on_host && v->set[cli_opt(cmd, "bucket-mb")])
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host "
				     "fills no gradient buckets: drop "
				     "--bucket-mb");
	o->fuse_conv_bn = v->set[cli_opt(cmd, "fuse-conv-bn")];
	o->fuse_elementwise = v->set[cli_opt(cmd, "fuse-elementwise")] ||
			      o->fuse_conv_bn;
	o->optimizer_foreach = v->set[cli_opt(cmd, "optimizer-foreach")];
	o->autocast = v->set[cli_opt(cmd, "autocast")];
	return rc;
}

int cli_update_on(const struct cli_command *cmd, const struct cli_values *v,
		  int *on_host, struct dlsim_err *err)
{
	int i = cli_opt(cmd, "update-on");

	*on_host = 0;
	if (!v->set[i])
		return DLSIM_OK;
	if (strcmp(v->str[i], "host") && strcmp(v->str[i], "device"))
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on takes "
				     "device or host (got '%s')", v->str[i]);
	*on_host = strcmp(v->str[i], "host") == 0;
	return DLSIM_OK;
}

int cli_dispatch_s(const struct cli_command *cmd, const struct cli_values *v,
		   double *s, struct dlsim_err *err)
{
	int i = cli_opt_find(cmd, "dispatch-us");

	if (i < 0 || !v->set[i])
		return DLSIM_OK;
	if (!(v->num[i] >= 0.0 && v->num[i] < 1e6))
		return dlsim_err_set(err, DLSIM_EINVAL, "--dispatch-us must "
				     "be at least 0 and below 1e6 (got %s)",
				     v->str[i]);
	*s = v->num[i] * 1e-6;
	return DLSIM_OK;
}

int cli_seq_bins(const struct cli_command *cmd, const struct cli_values *v,
		 const char *model_arg, struct model_seq_bins **out,
		 struct dlsim_err *err)
{
	int i = cli_opt(cmd, "seq-bin");
	const char *path = v->str[cli_opt(cmd, "seq-lengths")];
	struct model *probe = NULL;
	char *text = NULL;
	size_t len;
	int rc;

	*out = NULL;
	if (!v->set[cli_opt(cmd, "seq-lengths")])
		return v->set[i] ? dlsim_err_set(err, DLSIM_EINVAL, "--seq-bin "
						 "needs --seq-lengths") :
		       DLSIM_OK;
	if (!(*out = malloc(sizeof(**out))))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (!(rc = core_read_file(path, &text, &len, err)) &&
	    !(rc = model_seq_bins_read(text, len, path,
				       v->set[i] ? v->count[i] : 64, *out,
				       err)))
		rc = model_resolve_seq(model_arg, (*out)->longest, &probe, err);
	model_free(probe);
	free(text);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* Split "a,b,c" into at most max pieces in buf (modified in place). */
int cli_split(char *buf, char **out, int max, const char *what,
	      struct dlsim_err *err)
{
	int n = 0;
	char *p = buf, *comma;

	for (;;) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p || n == max) {
			if (!*p)
				dlsim_err_set(err, DLSIM_EINVAL, "%s has an "
					      "empty entry", what);
			else
				dlsim_err_set(err, DLSIM_EINVAL, "%s has more "
					      "than %d entries", what, max);
			return -1;
		}
		out[n++] = p;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

static const char *const strategy_opts[] = {
	"tp", "pp", "dp", "micro-batch", "zero", "recompute", "schedule",
	"chunks", "sequence-parallel", "strategy", "dispatch-us", NULL
};

/* 0..3 from --zero's text. */
static int zero_stage(const char *s, int *out, struct dlsim_err *err)
{
	if (s[0] >= '0' && s[0] <= '3' && s[1] == '\0') {
		*out = s[0] - '0';
		return DLSIM_OK;
	}
	return dlsim_err_set(err, DLSIM_EINVAL, "--zero must be 0, 1, 2 or 3 "
			     "(got '%s')", s);
}

static int strategy_names(const struct cli_command *cmd,
			  const struct cli_values *v, struct sim_strategy *st,
			  int *auto_pick, struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	if (v->set[i = cli_opt(cmd, "zero")])
		rc = zero_stage(v->str[i], &st->zero, err);
	if (!rc && v->set[i = cli_opt(cmd, "recompute")])
		rc = sim_recompute_parse(v->str[i], &st->recompute, err);
	if (!rc && v->set[i = cli_opt(cmd, "schedule")])
		rc = sim_schedule_parse(v->str[i], &st->schedule, err);
	if (!rc && v->set[i = cli_opt(cmd, "strategy")]) {
		if (strcmp(v->str[i], "auto") != 0)
			return dlsim_err_set(err, DLSIM_EINVAL, "--strategy "
					     "takes 'auto' (got '%s'); set a "
					     "strategy by hand with --tp, "
					     "--pp, ...", v->str[i]);
		*auto_pick = 1;
	}
	return rc;
}

int cli_asks_strategy(const struct cli_command *cmd,
		      const struct cli_values *v, const struct model *m,
		      const char *name)
{
	int i = cli_opt(cmd, name);

	if (!v->set[i])
		return 0;
	if (strcmp(name, "dispatch-us"))
		return 1;
	/* the default's value (0) asks for nothing; another is a
	 * strategy's for a transformer, the data-parallel step's
	 * (sim_options.dispatch_s) for any other model */
	return v->num[i] > 0.0 && m->tf.blocks > 0;
}

int cli_strategy(const struct cli_command *cmd, const struct cli_values *v,
		 const struct sim_options *o, const struct model *m,
		 int64_t n, struct sim_strategy *st, int *asked,
		 int *auto_pick, struct dlsim_err *err)
{
	int i, rc;

	sim_strategy_init(st);
	*asked = *auto_pick = 0;
	for (i = 0; strategy_opts[i]; i++)
		*asked |= cli_asks_strategy(cmd, v, m, strategy_opts[i]);
	if (!*asked)
		return DLSIM_OK;
	if ((rc = strategy_names(cmd, v, st, auto_pick, err)))
		return rc;
	if (*auto_pick)
		for (i = 0; strategy_opts[i]; i++)
			if (strcmp(strategy_opts[i], "strategy") &&
			    strcmp(strategy_opts[i], "dispatch-us") &&
			    v->set[cli_opt(cmd, strategy_opts[i])])
				return dlsim_err_set(err, DLSIM_EINVAL, "--%s "
						     "and --strategy auto "
						     "exclude each other",
						     strategy_opts[i]);
	if (v->set[i = cli_opt(cmd, "tp")])
		st->tp = v->count[i];
	if (v->set[i = cli_opt(cmd, "pp")])
		st->pp = v->count[i];
	st->dp = v->set[i = cli_opt(cmd, "dp")] ? v->count[i] : 0;
	st->global_batch = o->global_batch;
	st->optimizer_foreach = o->optimizer_foreach;
	st->autocast = o->autocast;
	st->update_on_host = o->update_on_host;
	if ((rc = sim_strategy_complete(st, n, o->batch_per_device, m, err)))
		return rc;
	if (v->set[i = cli_opt(cmd, "micro-batch")])
		st->micro_batch = v->count[i];
	if (st->schedule == SIM_SCHED_INTERLEAVED)
		st->chunks = 2;
	if (v->set[i = cli_opt(cmd, "chunks")])
		st->chunks = v->count[i];
	st->sequence_parallel = v->set[cli_opt(cmd, "sequence-parallel")];
	st->dispatch_s = o->dispatch_s;   /* checked by the command */
	return DLSIM_OK;
}

int cli_format(const struct cli_command *cmd, const struct cli_values *v,
	       enum report_format *fmt, struct dlsim_err *err)
{
	int i = cli_opt_find(cmd, "format");

	*fmt = REPORT_TABLE;
	if (i >= 0 && v->set[i])
		return report_format_parse(v->str[i], fmt, err);
	return DLSIM_OK;
}

int cli_catalog(const struct cli_command *cmd, struct hw_catalog **cat)
{
	struct dlsim_err err = { 0, "" };

	if (hw_catalog_load(getenv("DLSIM_PATH"), cat, &err))
		return cli_fail(cmd, &err);
	return -1;
}

int cli_finish(const struct cli_command *cmd, int status)
{
	/* A full disk or closed pipe shows only when the buffer goes out:
	 * check the flush and the close (git.c's run_builtin). */
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fprintf(stderr, "dlsim: %s%swrite error on standard output\n",
			cmd ? cmd->name : "", cmd ? ": " : "");
		return CLI_FAIL;
	}
	return status;
}

/* ---------------------------------------------------------------- */
/* Calibration                                                       */
/* ---------------------------------------------------------------- */

/* db_resolve_path's choice without making its directories: only looking
 * must leave no trace. */
int cli_default_db_path(char *buf, size_t n)
{
	const char *x = getenv("DLSIM_DB"), *home = getenv("HOME");
	int w;

	if (x && *x)
		w = snprintf(buf, n, "%s", x);
	else if ((x = getenv("XDG_DATA_HOME")) && x[0] == '/')
		w = snprintf(buf, n, "%s/dlsim/dlsim.db", x);
	else if (home && *home)
		w = snprintf(buf, n, "%s/.local/share/dlsim/dlsim.db", home);
	else
		return -1;
	return w < 0 || (size_t)w >= n ? -2 : 0;
}

int cli_db_locate(const struct cli_command *cmd, const struct cli_values *v,
		  char *path, size_t n, int *exists, struct dlsim_err *err)
{
	struct stat st;
	int i = cli_opt(cmd, "db"), rc;

	*exists = 0;
	if (n)
		path[0] = '\0';
	if (v->set[i]) {
		/* a file that cannot be read (exit 1), not a misuse */
		if (stat(v->str[i], &st) != 0)
			return dlsim_err_set(err, DLSIM_EIO, "--db %s: %s",
					     v->str[i], strerror(errno));
		if (core_strlcpy(path, v->str[i], n))
			return dlsim_err_set(err, DLSIM_EIO, "--db: the path "
					     "is longer than %zu bytes",
					     n ? n - 1 : 0);
		*exists = 1;
		return DLSIM_OK;
	}
	if ((rc = cli_default_db_path(path, n)) != 0) {
		if (n)
			path[0] = '\0';
		/* a $DLSIM_DB or XDG path too long is not "no HOME" */
		if (rc == -2)
			return dlsim_err_set(err, DLSIM_EIO, "the default "
					     "database path ($DLSIM_DB, else "
					     "the XDG data directory's) is "
					     "longer than %zu bytes",
					     n ? n - 1 : 0);
		return DLSIM_OK;
	}
	*exists = stat(path, &st) == 0;
	return DLSIM_OK;
}

int cli_db_open_read(const struct cli_command *cmd,
		     const struct cli_values *v, struct db **db,
		     struct dlsim_err *err)
{
	char path[DB_PATH_LEN];
	int exists, rc;

	*db = NULL;
	if ((rc = cli_db_locate(cmd, v, path, sizeof(path), &exists, err)))
		return rc;
	if (!path[0])
		return dlsim_err_set(err, DLSIM_EIO, "no database path: give "
				     "--db PATH or set DLSIM_DB (HOME is not "
				     "set)");
	if (!exists)
		return dlsim_err_set(err, DLSIM_EIO, "%s: no database there "
				     "yet (calibrate seed, import or run "
				     "makes one)", path);
	return db_open_readonly(path, db, err);
}

int cli_calib_open(const struct cli_command *cmd, const struct cli_values *v,
		   int write, struct cli_calib_src *src, struct dlsim_err *err)
{
	char path[DB_PATH_LEN];
	int exists, rc;

	src->db = NULL;
	src->cmd_name = cmd->name;
	src->uncalibrated = v->set[cli_opt(cmd, "uncalibrated")];
	if (src->uncalibrated)
		return DLSIM_OK;
	if ((rc = cli_db_locate(cmd, v, path, sizeof(path), &exists, err)) ||
	    !exists)
		return rc;
	if (write)
		return db_open(path, &src->db, err);
	if ((rc = db_open_readonly(path, &src->db, err)))
		return rc;
	if (db_schema_version(src->db) == 0) {
		/* an empty file, say: as if there were no database, and
		 * left as it is */
		fprintf(stderr, "dlsim: %s: warning: %s holds no dlsim "
			"tables; using the catalog's datasheet figures\n",
			cmd->name, path);
		db_close(src->db);
		src->db = NULL;
	}
	return DLSIM_OK;
}

void cli_calib_close(struct cli_calib_src *src)
{
	db_close(src->db);
	src->db = NULL;
}

int cli_system_resolve(struct cli_calib_src *src, struct hw_catalog *cat,
		       const char *spec, struct cli_system *out,
		       struct dlsim_err *err)
{
	const struct hw_calib *c;
	const char *who;
	int rc;

	memset(out, 0, sizeof(*out));
	if (src->uncalibrated && strcmp(spec, "local") == 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "--hw local is this "
				     "machine as its fits describe it, with "
				     "no datasheet figures: not with "
				     "--uncalibrated");
	rc = hw_system_open(cat, src->db, spec, &out->sys, &out->calib,
			    &out->local, err);
	/* a damaged fit row is not used, but not passed over in silence;
	 * the fits the system uses ("local" keeps its own), or those the
	 * loader found none usable among */
	c = out->sys.calib ? out->sys.calib : &out->calib;
	who = src->cmd_name ? src->cmd_name : "?";
	if (!rc && c->n_unreadable == 1)
		fprintf(stderr, "dlsim: %s: warning: %s: fit %lld (%s) in the "
			"calibration database cannot be used (damaged or out of "
			"range) and is left out\n", who, spec,
			(long long)c->unreadable_id, c->unreadable_kind);
	else if (!rc && c->n_unreadable > 1)
		fprintf(stderr, "dlsim: %s: warning: %s: fit %lld (%s) and %d "
			"more in the calibration database cannot be used "
			"(damaged or out of range) and are left out\n", who,
			spec, (long long)c->unreadable_id, c->unreadable_kind,
			c->n_unreadable - 1);
	return rc;
}
