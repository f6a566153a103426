/*
 * cal_history.c -- dlsim validate's record kept in the database, so that
 * `dlsim validate --history` shows how accuracy moved across versions.
 *
 * HOW IT WORKS
 * `validate --record` stores each set's figures as one row of the
 * predictions table (db_prediction_insert, which stamps the dlsim
 * version and the time): inputs_json {"validate": NAME, "rows": n,
 * "skipped": k}, outputs_json {"median_abs_error", "p90_abs_error",
 * "median_signed_error"}.  --history reads back every such row
 * (db_each_prediction with the pattern '{"validate": %') in the order it
 * was stored.  Rows the pattern matches but that do not parse are
 * skipped: another tool may have stored them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

int cal_validation_record(struct db *db, const struct cal_val_report *r,
			  struct dlsim_err *err)
{
	char in[160], out[256];
	int i, rc;

	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];
		struct db_prediction p;

		memset(&p, 0, sizeof(p));
		snprintf(in, sizeof(in), "{\"validate\": \"%s\", \"rows\": "
			 "%lld, \"skipped\": %lld, \"calibrated\": %s}",
			 s->name, (long long)s->rows, (long long)s->skipped,
			 r->calibrated ? "true" : "false");
		snprintf(out, sizeof(out), "{\"median_abs_error\": %.9g, "
			 "\"p90_abs_error\": %.9g, \"median_signed_error\": "
			 "%.9g}", s->median_abs_error, s->p90_abs_error,
			 s->median_signed_error);
		p.inputs_json = in;
		p.outputs_json = out;
		p.fit_ids = "[]";
		if ((rc = db_prediction_insert(db, &p, err)))
			return rc;
	}
	return DLSIM_OK;
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
