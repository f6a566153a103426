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
 * and the measured values themselves in the measurements table (set_name
 * NAME, row_key the row's inputs), once: a set already there is not
 * stored again.  --history reads back the set rows (db_each_prediction
 * with the pattern '{"validate": %', which the per-row '{"validate_row"'
 * does not match) in the order they were stored.  Rows the pattern
 * matches but that do not parse are skipped: another tool may have
 * stored them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

/* Is any measurement of set_name stored? (db_each_measurement's visit) */
static int found(void *ctx, const struct db_measurement *m)
{
	(void)m;
	*(int *)ctx = 1;
	return 1;
}

/* s as the inside of a JSON string into dst (n bytes, truncated at a
 * character boundary of the escaping). */
static void json_inner(char *dst, size_t n, const char *s)
{
	size_t k = 0;

	for (; *s && k + 7 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			dst[k++] = '\\';
			dst[k++] = (char)c;
		} else if (c < 0x20) {
			k += (size_t)snprintf(dst + k, n - k, "\\u%04x", c);
		} else {
			dst[k++] = (char)c;
		}
	}
	dst[k] = '\0';
}

/* The measured values of set s, unless the database has them. */
static int record_measurements(struct db *db, const struct cal_val_set *s,
			       struct dlsim_err *err)
{
	struct db_measurement *m;
	int have = 0, rc;
	int64_t i;

	if ((rc = db_each_measurement(db, s->name, found, &have, err)))
		return rc;
	if (have || s->rows == 0)
		return DLSIM_OK;
	if (!(m = calloc((size_t)s->rows, sizeof(*m))))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	for (i = 0; i < s->rows; i++) {
		snprintf(m[i].set_name, sizeof(m[i].set_name), "%s", s->name);
		snprintf(m[i].row_key, sizeof(m[i].row_key), "%s",
			 s->row[i].what);
		m[i].value = s->row[i].measured;
		snprintf(m[i].unit, sizeof(m[i].unit), "%s", s->unit);
		snprintf(m[i].source, sizeof(m[i].source), "dlsim validate: "
			 "%s", s->title);
	}
	rc = db_measurement_insert(db, m, s->rows, err);
	free(m);
	return rc;
}

/* The texts of one stored prediction: a set's figures or one row's. */
struct record_text {
	char in[320], out[160];
};

int cal_validation_record(struct db *db, const struct cal_val_report *r,
			  struct dlsim_err *err)
{
	const char *cal = r->calibrated ? "true" : "false";
	struct db_prediction *p;
	struct record_text *t;
	int64_t n = 0, k, i;
	int s, rc = DLSIM_OK;
	char what[200];

	for (s = 0; s < r->n_sets; s++) {
		n += 1 + r->set[s].rows;
		if ((rc = record_measurements(db, &r->set[s], err)))
			return rc;
	}
	p = calloc((size_t)n, sizeof(*p));
	t = calloc((size_t)n, sizeof(*t));
	if (!p || !t) {
		free(p);
		free(t);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	for (s = 0, k = 0; s < r->n_sets; s++) {
		const struct cal_val_set *v = &r->set[s];

		snprintf(t[k].in, sizeof(t[k].in), "{\"validate\": \"%s\", "
			 "\"rows\": %lld, \"skipped\": %lld, \"calibrated\": "
			 "%s}", v->name, (long long)v->rows,
			 (long long)v->skipped, cal);
		snprintf(t[k].out, sizeof(t[k].out), "{\"median_abs_error\": "
			 "%.9g, \"p90_abs_error\": %.9g, "
			 "\"median_signed_error\": %.9g}", v->median_abs_error,
			 v->p90_abs_error, v->median_signed_error);
		k++;
		for (i = 0; i < v->rows; i++, k++) {
			json_inner(what, sizeof(what), v->row[i].what);
			snprintf(t[k].in, sizeof(t[k].in), "{\"validate_row\": "
				 "\"%s\", \"what\": \"%s\", \"calibrated\": %s}",
				 v->name, what, cal);
			snprintf(t[k].out, sizeof(t[k].out), "{\"predicted\": "
				 "%.9g, \"measured\": %.9g, \"error\": %.9g}",
				 v->row[i].predicted, v->row[i].measured,
				 v->row[i].error);
		}
	}
	for (k = 0; k < n; k++) {
		p[k].inputs_json = t[k].in;
		p[k].outputs_json = t[k].out;
		p[k].fit_ids = "[]";
	}
	rc = db_prediction_insert_many(db, p, n, err);
	free(p);
	free(t);
	return rc;
}

static double num(const struct cal_json_doc *d, const char *key)
{
	const struct cal_json *v = cal_json_get(d, &d->v[0], key);

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
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

	if (!p->inputs_json || !p->outputs_json ||
	    cal_json_parse_text("validate", p->inputs_json, &ta, &a) ||
	    cal_json_parse_text("validate", p->outputs_json, &tb, &b) ||
	    !(name = cal_json_get(&a, &a.v[0], "validate")) ||
	    name->type != CAL_JSON_STRING)
		goto done;
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
