/*
 * cmd_db.c -- `dlsim db info|runs|samples|fits|export|vacuum`: look at
 * and move what the measurement store holds.
 *
 * The subcommands are a nested table (git's builtin/bundle.c): each names
 * the function that prints it, whether --run applies, its default
 * format, and whether it writes.  info, runs, samples, fits and export
 * only read: they open the file read-only, so that they never create,
 * change or upgrade it, and a file without dlsim's tables (an empty one)
 * lists as an empty database; vacuum writes.  Everything is checked
 * before the database is opened, so that misuse never creates a file.
 * Output is streamed row by row from the database's visitors; CSV and
 * JSON carry every column, the table the ones a person scans.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "run", "ID", CLI_COUNT, "samples, export: only this run's samples" },
	{ "format", "F", CLI_STRING,
	  "table, csv, json (default table; export: csv)" },
	{ "csv", NULL, CLI_FLAG, "the same as --format csv" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_db = {
	"db", "info|runs|samples|fits|export|vacuum [OPTIONS]",
	"Show and manage the measurement database.",
	1, 1, options, cmd_db
};

/* What every printer gets. */
struct out {
	FILE *f;
	enum report_format fmt;
	struct db *db;
	int64_t run_id;         /* --run, 0: all */
	int64_t rows;           /* printed so far */
	const struct run_refs *refs;    /* export: run id -> hw, tool */
	int64_t damaged, first_damaged; /* fits whose JSON is not JSON */
};

/* ---------------------------------------------------------------- */
/* Output helpers                                                    */
/* ---------------------------------------------------------------- */


/* "2026-11-22 17:52:02" (UTC), or "-" for 0. */
/* The comma that separates JSON array elements, and a row count. */
static void json_next(struct out *o)
{
	fputs(o->rows++ ? ",\n    " : "\n    ", o->f);
}

static void json_head(struct out *o, const char *key)
{
	fputs("{\n  \"database\": ", o->f);
	report_json_string(o->f, db_path(o->db));
	fprintf(o->f, ",\n  \"%s\": [", key);
}

static void json_tail(struct out *o)
{
	fputs(o->rows ? "\n  ]\n}\n" : "]\n}\n", o->f);
}

/* ---------------------------------------------------------------- */
/* info, vacuum                                                      */
/* ---------------------------------------------------------------- */

static int show_info(struct out *o, struct dlsim_err *err)
{
	static const char *const keys[] = { "hosts", "runs", "samples",
					    "fits", "predictions",
					    "measurements" };
	struct db_info in;
	int64_t count[6];
	int i, rc = db_info(o->db, &in, err);

	if (rc)
		return rc;
	count[0] = in.hosts, count[1] = in.runs, count[2] = in.samples;
	count[3] = in.fits, count[4] = in.predictions;
	count[5] = in.measurements;
	if (o->fmt == REPORT_JSON) {
		fputs("{\n  \"path\": ", o->f);
		report_json_string(o->f, in.path);
		fprintf(o->f, ",\n  \"schema_version\": %d,\n"
			"  \"file_bytes\": %.0f", in.schema_version,
			in.file_bytes);
		for (i = 0; i < 6; i++)
			fprintf(o->f, ",\n  \"%s\": %lld", keys[i],
				(long long)count[i]);
		fputs("\n}\n", o->f);
	} else if (o->fmt == REPORT_CSV) {
		fputs("path,schema_version,file_bytes", o->f);
		for (i = 0; i < 6; i++)
			fprintf(o->f, ",%s", keys[i]);
		fputc('\n', o->f);
		report_csv_field(o->f, in.path);
		fprintf(o->f, ",%d,%.0f", in.schema_version, in.file_bytes);
		for (i = 0; i < 6; i++)
			fprintf(o->f, ",%lld", (long long)count[i]);
		fputc('\n', o->f);
	} else {
		fprintf(o->f, "%-16s%s\n%-16s%d\n%-16s%.0f bytes\n", "path",
			in.path, "schema version", in.schema_version, "size",
			in.file_bytes);
		for (i = 0; i < 6; i++)
			fprintf(o->f, "%-16s%lld\n", keys[i],
				(long long)count[i]);
	}
	return DLSIM_OK;
}

static int do_vacuum(struct out *o, struct dlsim_err *err)
{
	struct db_info before, after;
	int rc;

	if ((rc = db_info(o->db, &before, err)) ||
	    (rc = db_vacuum(o->db, err)) ||
	    (rc = db_info(o->db, &after, err)))
		return rc;
	if (o->fmt == REPORT_JSON) {
		fputs("{\n  \"path\": ", o->f);
		report_json_string(o->f, after.path);
		fprintf(o->f, ",\n  \"bytes_before\": %.0f,\n"
			"  \"bytes_after\": %.0f\n}\n", before.file_bytes,
			after.file_bytes);
	} else if (o->fmt == REPORT_CSV) {
		fputs("path,bytes_before,bytes_after\n", o->f);
		report_csv_field(o->f, after.path);
		fprintf(o->f, ",%.0f,%.0f\n", before.file_bytes,
			after.file_bytes);
	} else {
		fprintf(o->f, "%s: %.0f bytes before, %.0f after\n",
			after.path, before.file_bytes, after.file_bytes);
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* runs                                                              */
/* ---------------------------------------------------------------- */

static int print_run(void *ctx, const struct db_run *r)
{
	struct out *o = ctx;
	char start[32], end[32];

	if (o->fmt == REPORT_JSON) {
		json_next(o);
		fprintf(o->f, "{\"id\": %lld, \"tool\": ", (long long)r->id);
		report_json_string(o->f, r->tool);
		fputs(", \"hw\": ", o->f);
		report_json_string(o->f, r->hw);
		fputs(", \"start_s\": ", o->f);
		report_json_number(o->f, r->start_s);
		fputs(", \"end_s\": ", o->f);
		report_json_number(o->f, r->end_s > 0 ? r->end_s : NAN);
		fputs(", \"status\": ", o->f);
		report_json_string(o->f, r->status);
		fprintf(o->f, ", \"samples\": %lld, \"host_id\": ",
			(long long)r->n_samples);
		if (r->host_id)
			fprintf(o->f, "%lld", (long long)r->host_id);
		else
			fputs("null", o->f);
		fputs(", \"version\": ", o->f);
		report_json_string(o->f, r->version);
		fputs(", \"source\": ", o->f);
		report_json_string(o->f, r->source);
		fputs(", \"cmdline\": ", o->f);
		report_json_string(o->f, r->cmdline);
		fputc('}', o->f);
	} else if (o->fmt == REPORT_CSV) {
		fprintf(o->f, "%lld,", (long long)r->id);
		report_csv_field(o->f, r->tool);
		fputc(',', o->f);
		report_csv_field(o->f, r->hw);
		fprintf(o->f, ",%.17g,", r->start_s);
		if (r->end_s > 0)
			fprintf(o->f, "%.17g", r->end_s);
		fputc(',', o->f);
		report_csv_field(o->f, r->status);
		fprintf(o->f, ",%lld,", (long long)r->n_samples);
		if (r->host_id)
			fprintf(o->f, "%lld", (long long)r->host_id);
		fputc(',', o->f);
		report_csv_field(o->f, r->version);
		fputc(',', o->f);
		report_csv_field(o->f, r->source);
		fputc(',', o->f);
		report_csv_field(o->f, r->cmdline);
		fputc('\n', o->f);
		o->rows++;
	} else {
		fprintf(o->f, "%6lld  %-22s %-14s %-19s  %-19s  %-11s %8lld\n",
			(long long)r->id, r->tool, r->hw,
			report_utc(r->start_s, start, sizeof(start)),
			report_utc(r->end_s, end, sizeof(end)), r->status,
			(long long)r->n_samples);
		o->rows++;
	}
	return 0;
}

static int list_runs(struct out *o, struct dlsim_err *err)
{
	int rc;

	if (o->fmt == REPORT_JSON)
		json_head(o, "runs");
	else if (o->fmt == REPORT_CSV)
		fputs("id,tool,hw,start_s,end_s,status,samples,host_id,"
		      "version,source,cmdline\n", o->f);
	else
		fprintf(o->f, "%6s  %-22s %-14s %-19s  %-19s  %-11s %8s\n",
			"id", "tool", "hw", "start (UTC)", "end (UTC)",
			"status", "samples");
	if ((rc = db_each_run(o->db, print_run, o, err)))
		return rc;
	if (o->fmt == REPORT_JSON)
		json_tail(o);
	else if (o->fmt == REPORT_TABLE && !o->rows)
		fputs("(no runs)\n", o->f);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* samples, export                                                   */
/* ---------------------------------------------------------------- */

/* The hardware and tool of every run, by id, for export's rows. */
struct run_ref {
	int64_t id;
	char hw[HW_NAME_LEN];
	char tool[32];
};

struct run_refs {
	struct run_ref *v;
	size_t n, cap;
	int oom;
};

static int add_ref(void *ctx, const struct db_run *r)
{
	struct run_refs *l = ctx;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct run_ref *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->oom = 1;
			return 1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].id = r->id;
	snprintf(l->v[l->n].hw, sizeof(l->v[l->n].hw), "%s", r->hw);
	snprintf(l->v[l->n].tool, sizeof(l->v[l->n].tool), "%s", r->tool);
	l->n++;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	int64_t x = ((const struct run_ref *)a)->id;
	int64_t y = ((const struct run_ref *)b)->id;

	return (x > y) - (x < y);
}

static const struct run_ref *find_ref(const struct run_refs *l, int64_t id)
{
	struct run_ref key;

	key.id = id;
	return l->n ? bsearch(&key, l->v, l->n, sizeof(*l->v), by_id) : NULL;
}

static int print_sample(void *ctx, int64_t run_id, const struct db_sample *s)
{
	struct out *o = ctx;
	const struct run_ref *ref = o->refs ? find_ref(o->refs, run_id) : NULL;
	const char *hw = ref ? ref->hw : "", *tool = ref ? ref->tool : "";

	if (o->fmt == REPORT_JSON) {
		json_next(o);
		fprintf(o->f, "{\"run_id\": %lld, ", (long long)run_id);
		if (o->refs) {
			fputs("\"hw\": ", o->f);
			report_json_string(o->f, hw);
			fputs(", \"tool\": ", o->f);
			report_json_string(o->f, tool);
			fputs(", ", o->f);
		}
		fputs("\"benchmark\": ", o->f);
		report_json_string(o->f, s->benchmark);
		fputs(", \"params\": ", o->f);
		report_json_string(o->f, s->params);
		fprintf(o->f, ", \"rep\": %lld, \"value\": ",
			(long long)s->rep);
		report_json_number(o->f, s->value);
		fputs(", \"unit\": ", o->f);
		report_json_string(o->f, s->unit);
		fputc('}', o->f);
	} else if (o->fmt == REPORT_CSV) {
		fprintf(o->f, "%lld,", (long long)run_id);
		if (o->refs) {
			report_csv_field(o->f, hw);
			fputc(',', o->f);
			report_csv_field(o->f, tool);
			fputc(',', o->f);
		}
		report_csv_field(o->f, s->benchmark);
		fputc(',', o->f);
		report_csv_field(o->f, s->params);
		fprintf(o->f, ",%lld,%.17g,", (long long)s->rep, s->value);
		report_csv_field(o->f, s->unit);
		fputc('\n', o->f);
		o->rows++;
	} else {
		fprintf(o->f, "%6lld  ", (long long)run_id);
		if (o->refs)
			fprintf(o->f, "%-14s ", hw);
		fprintf(o->f, "%-14s %-44s %4lld  %14.6g  %s\n", s->benchmark,
			s->params, (long long)s->rep, s->value, s->unit);
		o->rows++;
	}
	return 0;
}

static void samples_head(struct out *o, int with_run)
{
	if (o->fmt == REPORT_JSON) {
		json_head(o, "samples");
	} else if (o->fmt == REPORT_CSV) {
		fprintf(o->f, "run_id,%sbenchmark,params,rep,value,unit\n",
			with_run ? "hw,tool," : "");
	} else {
		fprintf(o->f, "%6s  ", "run");
		if (with_run)
			fprintf(o->f, "%-14s ", "hw");
		fprintf(o->f, "%-14s %-44s %4s  %14s  %s\n", "benchmark",
			"params", "rep", "value", "unit");
	}
}

static int samples_end(struct out *o)
{
	if (o->fmt == REPORT_JSON)
		json_tail(o);
	else if (o->fmt == REPORT_TABLE && !o->rows)
		fputs("(no samples)\n", o->f);
	return DLSIM_OK;
}

static int list_samples(struct out *o, struct dlsim_err *err)
{
	int rc;

	samples_head(o, 0);
	if ((rc = db_each_sample(o->db, o->run_id, print_sample, o, err)))
		return rc;
	return samples_end(o);
}

static int export_samples(struct out *o, struct dlsim_err *err)
{
	struct run_refs refs = { NULL, 0, 0, 0 };
	int rc = db_each_run(o->db, add_ref, &refs, err);

	if (!rc && refs.oom)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "export: out of memory");
	if (!rc) {
		/* no runs: refs.v is NULL, which qsort may not take even
		 * for no elements (UBSan says so) */
		if (refs.n)
			qsort(refs.v, refs.n, sizeof(*refs.v), by_id);
		o->refs = &refs;
		samples_head(o, 1);
		rc = db_each_sample(o->db, o->run_id, print_sample, o, err);
		if (!rc)
			rc = samples_end(o);
		o->refs = NULL;
	}
	free(refs.v);
	return rc;
}

/* ---------------------------------------------------------------- */
/* fits                                                              */
/* ---------------------------------------------------------------- */

/* A JSON column as it goes out: db_each_fit gave NULL for one that is
 * not JSON, written as JSON's null (and counted by print_fit). */
static const char *json_or_null(const char *s)
{
	return s ? s : "null";
}

static int print_fit(void *ctx, const struct db_fit *f)
{
	struct out *o = ctx;
	char when[32];

	if (!f->params_json || !f->covariance_json || !f->sample_run_ids) {
		if (!o->damaged++)
			o->first_damaged = f->id;
	}
	if (o->fmt == REPORT_JSON) {
		/* The JSON columns are valid JSON (db_each_fit checks), so
		 * they go out as they are. */
		json_next(o);
		fprintf(o->f, "{\"id\": %lld, \"hw\": ", (long long)f->id);
		report_json_string(o->f, f->hw);
		fputs(", \"kind\": ", o->f);
		report_json_string(o->f, f->kind);
		fprintf(o->f, ", \"params\": %s, \"covariance\": %s, "
			"\"residual_rms\": ", json_or_null(f->params_json),
			json_or_null(f->covariance_json));
		report_json_number(o->f, f->residual_rms);
		fprintf(o->f, ", \"n_samples\": %lld, \"sample_run_ids\": %s, "
			"\"created_s\": ", (long long)f->n_samples,
			json_or_null(f->sample_run_ids));
		report_json_number(o->f, f->created_s);
		fputs(", \"dlsim_version\": ", o->f);
		report_json_string(o->f, f->dlsim_version);
		fputc('}', o->f);
	} else if (o->fmt == REPORT_CSV) {
		fprintf(o->f, "%lld,", (long long)f->id);
		report_csv_field(o->f, f->hw);
		fputc(',', o->f);
		report_csv_field(o->f, f->kind);
		fprintf(o->f, ",%lld,%.17g,%.17g,", (long long)f->n_samples,
			f->residual_rms, f->created_s);
		report_csv_field(o->f, f->dlsim_version);
		fputc(',', o->f);
		report_csv_field(o->f, f->params_json ? f->params_json : "");
		fputc(',', o->f);
		report_csv_field(o->f, f->covariance_json ?
				 f->covariance_json : "");
		fputc(',', o->f);
		report_csv_field(o->f, f->sample_run_ids ?
				 f->sample_run_ids : "");
		fputc('\n', o->f);
		o->rows++;
	} else {
		fprintf(o->f, "%6lld  %-14s %-20s %8lld  %12.4g  %s\n",
			(long long)f->id, f->hw, f->kind,
			(long long)f->n_samples, f->residual_rms,
			report_utc(f->created_s, when, sizeof(when)));
		o->rows++;
	}
	return 0;
}

static int list_fits(struct out *o, struct dlsim_err *err)
{
	int rc;

	if (o->fmt == REPORT_JSON)
		json_head(o, "fits");
	else if (o->fmt == REPORT_CSV)
		fputs("id,hw,kind,n_samples,residual_rms,created_s,"
		      "dlsim_version,params_json,covariance_json,"
		      "sample_run_ids\n", o->f);
	else
		fprintf(o->f, "%6s  %-14s %-20s %8s  %12s  %s\n", "id", "hw",
			"kind", "samples", "residual_rms", "created (UTC)");
	if ((rc = db_each_fit(o->db, NULL, NULL, print_fit, o, err)))
		return rc;
	if (o->damaged)
		fprintf(stderr, "dlsim: db fits: warning: fit %lld%s %s a "
			"JSON column that is not JSON (damaged outside dlsim): "
			"shown as %s\n", (long long)o->first_damaged,
			o->damaged > 1 ? " and others" : "",
			o->damaged > 1 ? "hold" : "holds",
			o->fmt == REPORT_CSV ? "an empty field" : "null");
	if (o->fmt == REPORT_JSON)
		json_tail(o);
	else if (o->fmt == REPORT_TABLE && !o->rows)
		fputs("(no fits)\n", o->f);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* The subcommand table                                              */
/* ---------------------------------------------------------------- */

struct db_sub {
	const char *name;
	int (*run)(struct out *o, struct dlsim_err *err);
	int takes_run;                  /* --run applies */
	enum report_format fmt;         /* without --format */
	int writes;                     /* else opened read-only */
};

static const struct db_sub subs[] = {
	{ "info", show_info, 0, REPORT_TABLE, 0 },
	{ "runs", list_runs, 0, REPORT_TABLE, 0 },
	{ "samples", list_samples, 1, REPORT_TABLE, 0 },
	{ "fits", list_fits, 0, REPORT_TABLE, 0 },
	{ "export", export_samples, 1, REPORT_CSV, 0 },
	{ "vacuum", do_vacuum, 0, REPORT_TABLE, 1 },
	{ NULL, NULL, 0, REPORT_TABLE, 0 }
};

static const struct db_sub *find_sub(const char *name,
				     struct dlsim_err *err)
{
	int i;

	for (i = 0; subs[i].name; i++)
		if (strcmp(subs[i].name, name) == 0)
			return &subs[i];
	dlsim_err_set(err, DLSIM_EINVAL, "db: unknown subcommand '%s' "
		      "(expected info, runs, samples, fits, export, vacuum)",
		      name);
	return NULL;
}

/* --format and --csv into *fmt; 0 or DLSIM_EINVAL/ENOTFOUND. */
static int output_format(const struct cli_command *cmd,
			 const struct cli_values *v, const struct db_sub *sub,
			 enum report_format *fmt, struct dlsim_err *err)
{
	int i = cli_opt(cmd, "format"), csv = v->set[cli_opt(cmd, "csv")];

	*fmt = sub->fmt;
	if (v->set[i] && report_format_parse(v->str[i], fmt, err))
		return DLSIM_EINVAL;
	if (csv && v->set[i] && *fmt != REPORT_CSV)
		return dlsim_err_set(err, DLSIM_EINVAL, "db: --csv and "
				     "--format %s exclude each other",
				     v->str[i]);
	if (csv)
		*fmt = REPORT_CSV;
	return DLSIM_OK;
}

/*
 * The database: vacuum's opened to write (db_resolve_path, db_open:
 * created, with the default one's directory, if missing); the others'
 * read-only and never created (cli_db_open_read), a file without
 * dlsim's tables listing as an empty database.
 */
static int open_db(const struct cli_command *cmd, const struct cli_values *v,
		   const struct db_sub *sub, char *path, size_t n,
		   struct db **db, struct dlsim_err *err)
{
	int i = cli_opt(cmd, "db");

	if (sub->writes) {
		if (db_resolve_path(v->set[i] ? v->str[i] : NULL, path, n,
				    err))
			return err->code;
		return db_open(path, db, err);
	}
	return cli_db_open_read(cmd, v, db, err);
}

int cmd_db(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct out o = { stdout, REPORT_TABLE, NULL, 0, 0, NULL, 0, 0 };
	const struct db_sub *sub;
	char path[DB_PATH_LEN];
	struct cli_values v;
	struct db_run run;
	int i, rc = cli_parse(cmd, argc, argv, &v);

	if (rc >= 0)
		return rc;
	if (!(sub = find_sub(v.positional[0], &err)) ||
	    output_format(cmd, &v, sub, &o.fmt, &err))
		return cli_fail(cmd, &err);
	if (v.set[i = cli_opt(cmd, "run")]) {
		if (!sub->takes_run) {
			dlsim_err_set(&err, DLSIM_EINVAL, "db %s: --run "
				      "applies to samples and export",
				      sub->name);
			return cli_fail(cmd, &err);
		}
		o.run_id = v.count[i];
	}
	if (open_db(cmd, &v, sub, path, sizeof(path), &o.db, &err))
		return cli_fail(cmd, &err);
	if ((o.run_id && db_run_get(o.db, o.run_id, &run, &err)) ||
	    sub->run(&o, &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(cmd, CLI_OK);
	db_close(o.db);
	return rc;
}
