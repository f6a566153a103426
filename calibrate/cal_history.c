/*
 * cal_history.c -- dlsim validate's record kept in the database, so that
 * `dlsim validate --history` shows how accuracy moved across versions.
 *
 * HOW IT WORKS
 * `validate --record` stores, in one transaction of the predictions
 * table (db_prediction_insert_many, which stamps the dlsim version and
 * the time):
 * - each set's figures: inputs_json {"validate": NAME, "rows": n,
 *   "skipped": k, "calibrated": b}, outputs_json {"median_abs_error",
 *   "p90_abs_error", "median_signed_error"};
 * - every comparison: inputs_json {"validate_row": NAME, "what": the
 *   row's inputs, "calibrated": b}, outputs_json {"predicted",
 *   "measured", "error"};
 * and, in the same transaction, the measured values in the measurements
 * table (set_name NAME, row_key the row's inputs and its data row, source
 * the file's source column) unless the database holds the set's values
 * as they are: a corrected file is stored again.  --history reads back the set rows (db_each_prediction
 * with the pattern '{"validate": %', which the per-row '{"validate_row"'
 * does not match) in the order they were stored.  Rows the pattern
 * matches but that do not parse are skipped: another tool may have
 * stored them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Recording                                                         */
/* ---------------------------------------------------------------- */

/* v as a JSON number into buf (32 bytes): null when not finite, as a
 * set with no row compared has its figures. */
static const char *json_num(char *buf, double v)
{
	if (isfinite(v))
		snprintf(buf, 32, "%.9g", v);
	else
		snprintf(buf, 32, "null");
	return buf;
}

/* s as a JSON string literal, quoted, in a new buffer (NULL: out of
 * memory).  Every byte is kept or escaped, so UTF-8 is never split. */
static char *json_quote(const char *s)
{
	size_t n = 3;
	const char *p;
	char *out, *q;

	for (p = s; *p; p++)
		n += (unsigned char)*p < 0x20 ? 6 : *p == '"' || *p == '\\' ?
		     2 : 1;
	if (!(out = malloc(n)))
		return NULL;
	q = out;
	*q++ = '"';
	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20) {
			snprintf(q, 7, "\\u%04x", c);
			q += 6;
		} else {
			if (c == '"' || c == '\\')
				*q++ = '\\';
			*q++ = (char)c;
		}
	}
	*q++ = '"';
	*q = '\0';
	return out;
}

/* The texts of one stored prediction, malloc'd; NULL when out of memory. */
static char *text_printf(const char *fmt, ...)
{
	va_list ap;
	char *out;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !(out = malloc((size_t)n + 1)))
		return NULL;
	va_start(ap, fmt);
	vsnprintf(out, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return out;
}

/* A row's key in the measurements table: its inputs and its data row,
 * which tells apart rows whose inputs read alike (a value published
 * twice, a column dlsim does not use). */
static void row_key(char *dst, size_t n, const struct cal_val_row *w)
{
	snprintf(dst, n, "%.200s (row %lld)", w->what, (long long)w->line);
}

/* The stored measurements of one set, in id order. */
struct stored {
	struct db_measurement *m;
	int64_t n, cap;
	int nomem;
};

static int collect(void *ctx, const struct db_measurement *m)
{
	struct stored *st = ctx;

	if (st->n == st->cap) {
		int64_t cap = st->cap ? 2 * st->cap : 64;
		struct db_measurement *v = realloc(st->m, (size_t)cap *
						   sizeof(*v));

		if (!v) {
			st->nomem = 1;
			return 1;
		}
		st->m = v;
		st->cap = cap;
	}
	st->m[st->n++] = *m;
	return 0;
}

/* Does the database already hold s's measured values as they are now
 * (its last s->rows of the set, key for key and value for value)? */
static int measured_stored(struct db *db, const struct cal_val_set *s,
			   int *same, struct dlsim_err *err)
{
	struct stored st = { NULL, 0, 0, 0 };
	char key[256];
	int64_t i, base;
	int rc;

	*same = 0;
	if ((rc = db_each_measurement(db, s->name, collect, &st, err)))
		goto done;
	if (st.nomem) {
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
		goto done;
	}
	if (st.n < s->rows)
		goto done;
	base = st.n - s->rows;
	*same = 1;
	for (i = 0; i < s->rows && *same; i++) {
		row_key(key, sizeof(key), &s->row[i]);
		*same = strcmp(st.m[base + i].row_key, key) == 0 &&
			st.m[base + i].value == s->row[i].measured;
	}
done:
	free(st.m);
	return rc;
}

/* The measured values of r's sets the database does not hold as they
 * are, into *out (*n of them; malloc'd). */
static int new_measurements(struct db *db, const struct cal_val_report *r,
			    struct db_measurement **out, int64_t *n,
			    struct dlsim_err *err)
{
	int64_t total = 0, i;
	int s, same, rc;

	*out = NULL;
	*n = 0;
	for (s = 0; s < r->n_sets; s++)
		total += r->set[s].rows;
	if (total && !(*out = calloc((size_t)total, sizeof(**out))))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	for (s = 0; s < r->n_sets; s++) {
		const struct cal_val_set *v = &r->set[s];

		if ((rc = measured_stored(db, v, &same, err)))
			return rc;
		for (i = 0; !same && i < v->rows; i++) {
			struct db_measurement *m = &(*out)[(*n)++];

			snprintf(m->set_name, sizeof(m->set_name), "%s",
				 v->name);
			row_key(m->row_key, sizeof(m->row_key), &v->row[i]);
			m->value = v->row[i].measured;
			snprintf(m->unit, sizeof(m->unit), "%s", v->unit);
			snprintf(m->source, sizeof(m->source), "%s",
				 v->row[i].source[0] ? v->row[i].source :
				 v->title);
		}
	}
	return DLSIM_OK;
}

/* The predictions rows of r: each set's figures, then its comparisons;
 * texts malloc'd into txt[2k], txt[2k + 1]. */
static int prediction_rows(const struct cal_val_report *r,
			   struct db_prediction *p, char **txt)
{
	const char *cal = r->calibrated ? "true" : "false";
	char a[32], b[32], c[32];
	int64_t k = 0, i;
	int s;

	for (s = 0; s < r->n_sets; s++) {
		const struct cal_val_set *v = &r->set[s];

		txt[2 * k] = text_printf("{\"validate\": \"%s\", \"rows\": "
			"%lld, \"skipped\": %lld, \"calibrated\": %s}",
			v->name, (long long)v->rows, (long long)v->skipped,
			cal);
		txt[2 * k + 1] = text_printf("{\"median_abs_error\": %s, "
			"\"p90_abs_error\": %s, \"median_signed_error\": %s}",
			json_num(a, v->median_abs_error),
			json_num(b, v->p90_abs_error),
			json_num(c, v->median_signed_error));
		k++;
		for (i = 0; i < v->rows; i++, k++) {
			char *what = json_quote(v->row[i].what);

			txt[2 * k] = what ? text_printf("{\"validate_row\": "
				"\"%s\", \"what\": %s, \"line\": %lld, "
				"\"calibrated\": %s}", v->name, what,
				(long long)v->row[i].line, cal) : NULL;
			free(what);
			txt[2 * k + 1] = text_printf("{\"predicted\": %s, "
				"\"measured\": %s, \"error\": %s}",
				json_num(a, v->row[i].predicted),
				json_num(b, v->row[i].measured),
				json_num(c, v->row[i].error));
		}
	}
	for (i = 0; i < k; i++) {
		if (!txt[2 * i] || !txt[2 * i + 1])
			return -1;
		p[i].inputs_json = txt[2 * i];
		p[i].outputs_json = txt[2 * i + 1];
		p[i].fit_ids = "[]";
	}
	return 0;
}

int cal_validation_record(struct db *db, const struct cal_val_report *r,
			  struct dlsim_err *err)
{
	struct db_measurement *m = NULL;
	struct db_prediction *p;
	char **txt;
	int64_t n = 0, nm = 0, k;
	int s, rc;

	for (s = 0; s < r->n_sets; s++)
		n += 1 + r->set[s].rows;
	if ((rc = new_measurements(db, r, &m, &nm, err))) {
		free(m);
		return rc;
	}
	p = calloc((size_t)n, sizeof(*p));
	txt = calloc(2 * (size_t)n, sizeof(*txt));
	if (!p || !txt || prediction_rows(r, p, txt))
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	else
		rc = db_results_insert(db, p, n, m, nm, err);
	for (k = 0; txt && k < 2 * n; k++)
		free(txt[k]);
	free(txt);
	free(p);
	free(m);
	return rc;
}

static double num(const struct cal_json_doc *d, const char *key)
{
	const struct cal_json *v = cal_json_get(d, &d->v[0], key);

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
}

/* A record's figures as cal_validation_record writes them: a count of
 * rows, absolute errors of at least 0 and a signed one, all finite;
 * or, for a set with no row compared, no figures (null). */
static int record_sane(const struct cal_json_doc *a,
		       const struct cal_json_doc *b)
{
	double rows = num(a, "rows"), med = num(b, "median_abs_error");
	double p90 = num(b, "p90_abs_error");
	double bias = num(b, "median_signed_error");

	if (!(isfinite(rows) && rows >= 0.0 && rows <= 1e15 &&
	      rows == floor(rows)))
		return 0;
	if (rows == 0.0 && isnan(med) && isnan(p90) && isnan(bias))
		return 1;
	return isfinite(med) && med >= 0.0 && isfinite(p90) && p90 >= 0.0 &&
	       isfinite(bias);
}

struct reader {
	struct cal_val_history *h;
	int nomem;
};

static int one(void *ctx, const struct db_prediction *p)
{
	struct reader *rd = ctx;
	struct cal_val_history *h = rd->h;
	struct cal_json_doc a = { 0 }, b = { 0 };
	char *ta = NULL, *tb = NULL;
	const struct cal_json *name;
	struct cal_val_entry *e;

	/* the query matched a validate record's inputs by their start;
	 * one that then does not read as one is damaged, not skipped in
	 * silence */
	if (!p->inputs_json || !p->outputs_json ||
	    cal_json_parse_text("validate", p->inputs_json, &ta, &a) ||
	    cal_json_parse_text("validate", p->outputs_json, &tb, &b) ||
	    !(name = cal_json_get(&a, &a.v[0], "validate")) ||
	    name->type != CAL_JSON_STRING || !record_sane(&a, &b)) {
		if (!h->n_damaged++)
			h->first_damaged = p->id;
		goto done;
	}
	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 16;
		struct cal_val_entry *v = realloc(h->e, (size_t)cap *
						  sizeof(*v));

		if (!v) {
			rd->nomem = 1;
			goto done;
		}
		h->e = v;
		h->cap = cap;
	}
	e = &h->e[h->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->set, sizeof(e->set), "%s", name->str);
	snprintf(e->version, sizeof(e->version), "%s", p->dlsim_version);
	e->created_s = p->created_s;
	e->rows = isfinite(num(&a, "rows")) ? (int64_t)num(&a, "rows") : 0;
	name = cal_json_get(&a, &a.v[0], "calibrated");
	e->calibrated = name && name->type == CAL_JSON_TRUE;
	e->median_abs_error = num(&b, "median_abs_error");
	e->p90_abs_error = num(&b, "p90_abs_error");
	e->median_signed_error = num(&b, "median_signed_error");
done:
	cal_json_release(&a);
	cal_json_release(&b);
	free(ta);
	free(tb);
	return rd->nomem;
}

int cal_validation_history(struct db *db, struct cal_val_history *out,
			   struct dlsim_err *err)
{
	struct reader rd = { out, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = db_each_prediction(db, "{\"validate\": %", one, &rd, err);
	if (!rc && rd.nomem)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (rc)
		cal_validation_history_release(out);
	return rc;
}

void cal_validation_history_release(struct cal_val_history *h)
{
	if (!h)
		return;
	free(h->e);
	memset(h, 0, sizeof(*h));
}
