/*
 * cli_outputs.c -- an output that names an input is refused.
 *
 * An output (--trace, --plot and the .dat and .gp beside it) that is the
 * same file as something the command reads (its database, a model,
 * --seq-lengths) or another of its outputs is refused before anything is
 * opened: fopen "w" empties a file before a word is written, so the
 * command would destroy its own input and exit 0.  Files are compared
 * by device and inode where both exist, else by their resolved names
 * (--record creates its database later).
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "reports/report.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Outputs that name an input                                        */
/* ---------------------------------------------------------------- */

/* path with its directory resolved ("./", "..", symbolic links) for a
 * file not there yet; path itself when the directory is not there
 * either. */
static void resolved(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)(slash - path) + (slash == path), path);
	if (realpath(dir, real))
		snprintf(buf, n, "%s/%s", real, slash ? slash + 1 : path);
	else
		snprintf(buf, n, "%s", path);
}

/* 1 when a and b are one file: the same regular file where both exist
 * (writing to /dev/null or a pipe also read destroys nothing stored),
 * else the same name once their directories are resolved (a file about
 * to be created: --record's new database). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;

	if (ea && eb)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev &&
		       sa.st_ino == sb.st_ino;
	if (ea || eb)
		return 0;
	resolved(a, ra, sizeof(ra));
	resolved(b, rb, sizeof(rb));
	return strcmp(ra, rb) == 0;
}

/* The database and its three siblings, --seq-lengths, every --file, the
 * caller's, --trace and --plot's three: a bound with room to spare. */
#define CLI_MAX_FILES (CAL_VAL_SETS + 16)
#define CLI_MAX_DERIVED 8

/* A file the command reads or writes; an output also keeps its option
 * and what the user gave it (--plot w.png writes w.dat). */
struct named_file {
	const char *path;
	char what[96];
	const char *opt, *given;     /* NULL for an input */
};

struct file_list {
	struct named_file f[CLI_MAX_FILES];
	char derived[CLI_MAX_DERIVED][1024];  /* names no argument holds */
	char files[4096];                      /* --file, split */
	int n, n_derived;
};

static struct named_file *add_file(struct file_list *l, const char *path,
				   const char *what)
{
	struct named_file *f;

	if (!path || l->n == CLI_MAX_FILES)
		return NULL;
	f = &l->f[l->n++];
	f->path = path;
	snprintf(f->what, sizeof(f->what), "%s", what);
	f->opt = f->given = NULL;
	return f;
}

static void add_output(struct file_list *l, const char *path,
		       const char *opt, const char *given, const char *what)
{
	struct named_file *f = add_file(l, path, what);

	if (f) {
		f->opt = opt;
		f->given = given;
	}
}

/* path + suffix, kept in l; NULL when it does not fit (the writer then
 * refuses the name itself). */
static const char *derive(struct file_list *l, const char *path,
			  const char *suffix)
{
	char *buf;
	int w;

	if (l->n_derived == CLI_MAX_DERIVED)
		return NULL;
	buf = l->derived[l->n_derived];
	w = snprintf(buf, sizeof(l->derived[0]), "%s%s", path, suffix);
	if (w < 0 || (size_t)w >= sizeof(l->derived[0]))
		return NULL;
	l->n_derived++;
	return buf;
}

/* SQLite keeps a WAL database in three files (a rollback journal where
 * WAL cannot be had): writing over any of them loses what it holds.
 * Used or not (--uncalibrated), the database is the user's store. */
static void add_database(struct file_list *l, const struct cli_command *cmd,
			 const struct cli_values *v)
{
	static const char *const part[][2] = {
		{ "", "the calibration database" },
		{ "-wal", "the calibration database's write-ahead log" },
		{ "-shm", "the calibration database's shared-memory index" },
		{ "-journal", "the calibration database's rollback journal" },
	};
	const char *env = getenv("DLSIM_DB"), *src = "--db", *base;
	char path[DB_PATH_LEN], what[96];
	int i = cli_opt_find(cmd, "db"), k;

	if (i < 0)
		return;
	if (v->set[i])
		base = v->str[i];
	else if (cli_default_db_path(path, sizeof(path)) == 0)
		base = path, src = env && *env ? "$DLSIM_DB" : "the default";
	else
		return;
	for (k = 0; k < (int)(sizeof(part) / sizeof(part[0])); k++) {
		snprintf(what, sizeof(what), "%s (%s)", part[k][1], src);
		add_file(l, derive(l, base, part[k][0]), what);
	}
}

/* Each CSV of validate's --file list (a list it refuses is refused
 * before anything is written, so what it holds does not matter here). */
static void add_file_list(struct file_list *l, const char *text)
{
	struct dlsim_err quiet = { 0, "" };
	char *piece[CAL_VAL_SETS];
	int k, n;

	snprintf(l->files, sizeof(l->files), "%s", text);
	n = cli_split(l->files, piece, CAL_VAL_SETS, "--file", &quiet);
	for (k = 0; k < n; k++)
		add_file(l, piece[k], "a measurement file (--file)");
}

/* The image (written by gnuplot) and the data and script beside it. */
static void add_plot(struct file_list *l, const char *image)
{
	struct dlsim_err quiet = { 0, "" };
	char dat[1024], gp[1024];

	add_output(l, image, "--plot", image, "the plot's image (--plot)");
	if (report_plot_paths(image, dat, gp, sizeof(dat), &quiet))
		return;
	add_output(l, derive(l, dat, ""), "--plot", image,
		   "the plot's data (--plot)");
	add_output(l, derive(l, gp, ""), "--plot", image,
		   "the plot's script (--plot)");
}

/* The inputs first, then the outputs: each output is compared with
 * everything before it.  The first output is returned. */
static int list_files(struct file_list *l, const struct cli_command *cmd,
		      const struct cli_values *v,
		      const struct cli_input *more, int n)
{
	int i, first;

	for (i = 0; i < n; i++)
		add_file(l, more[i].path, more[i].what);
	add_database(l, cmd, v);
	if ((i = cli_opt_find(cmd, "seq-lengths")) >= 0 && v->set[i])
		add_file(l, v->str[i], "the sequence-length histogram "
			 "(--seq-lengths)");
	if ((i = cli_opt_find(cmd, "file")) >= 0 && v->set[i])
		add_file_list(l, v->str[i]);
	first = l->n;
	if ((i = cli_opt_find(cmd, "trace")) >= 0 && v->set[i])
		add_output(l, v->str[i], "--trace", v->str[i],
			   "the trace (--trace)");
	if ((i = cli_opt_find(cmd, "plot")) >= 0 && v->set[i])
		add_plot(l, v->str[i]);
	return first;
}

static int clash(const struct named_file *out, const struct named_file *in,
		 struct dlsim_err *err)
{
	const char *why = in->opt ? "refusing to write it twice" :
			  "refusing to overwrite it";

	if (strcmp(out->path, out->given) == 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "%s %s is %s: %s",
				     out->opt, out->given, in->what, why);
	return dlsim_err_set(err, DLSIM_EINVAL, "%s %s writes %s, %s: %s",
			     out->opt, out->given, out->path, in->what, why);
}

int cli_outputs_check(const struct cli_command *cmd,
		      const struct cli_values *v,
		      const struct cli_input *more, int n,
		      struct dlsim_err *err)
{
	struct file_list l;
	int i, j, first;

	l.n = l.n_derived = 0;
	first = list_files(&l, cmd, v, more, n);
	for (i = first; i < l.n; i++)
		for (j = 0; j < i; j++)
			if (same_file(l.f[i].path, l.f[j].path))
				return clash(&l.f[i], &l.f[j], err);
	return DLSIM_OK;
}

int cli_input_not_database(const struct cli_command *cmd,
			   const struct cli_values *v, const char *path,
			   struct dlsim_err *err)
{
	struct file_list l;
	int k;

	l.n = l.n_derived = 0;
	add_database(&l, cmd, v);
	for (k = 0; k < l.n; k++)
		if (same_file(path, l.f[k].path))
			return dlsim_err_set(err, DLSIM_EINVAL, "%s is %s: "
					     "refusing to import it into "
					     "itself", path, l.f[k].what);
	return DLSIM_OK;
}
