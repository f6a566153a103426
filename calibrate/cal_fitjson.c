/*
 * cal_fitjson.c -- a fit's JSON form: the params_json and
 * covariance_json a fit is stored with (db fits table), and reading them
 * back into a struct cal_fitted for `calibrate show` and hw/hw_calib.c.
 * The keys per model are listed in cal_fitdb.c's header comment.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* JSON in and out                                                   */
/* ---------------------------------------------------------------- */

/* One ", \"key\": value" member: every member after the first. */
static void json_num_member(FILE *o, const char *key, double v)
{
	fprintf(o, ", \"%s\": ", key);
	report_json_number(o, v);
}

static void json_str_member(FILE *o, const char *key, const char *v)
{
	fprintf(o, ", \"%s\": ", key);
	report_json_string(o, v);
}

/* A segment of a piecewise line, or a level of a bandwidth curve: the
 * same span and count, with the line's alpha and beta or the level's
 * bandwidth and its sigma. */
static void json_segment(FILE *o, const struct cal_line_fit *s, int curve,
			 int first)
{
	fputs(first ? "{" : ", {", o);
	fprintf(o, "\"%s\": ", curve ? "bytes_lo" : "x_lo");
	report_json_number(o, s->x_lo);
	json_num_member(o, curve ? "bytes_hi" : "x_hi", s->x_hi);
	if (curve) {
		json_num_member(o, "Bps", s->a);
		json_num_member(o, "sigma_Bps", sqrt(s->cov_aa));
	} else {
		json_num_member(o, "alpha_s", s->a);
		json_num_member(o, "beta_s_per_byte", s->b);
	}
	fprintf(o, ", \"n\": %d", s->n);
	json_num_member(o, "rel_rms", s->rel_rms);
	fputc('}', o);
}

void cal_fit_params_json(FILE *o, const struct cal_fitted *f,
			const char *dtype, const char *device)
{
	int i;

	fputs("{\"benchmark\": ", o);
	report_json_string(o, f->benchmark);
	json_str_member(o, "group", f->group);
	if (f->model == CAL_MODEL_LINES || cal_fitted_is_curve(f)) {
		int curve = f->model != CAL_MODEL_LINES;

		fprintf(o, ", \"%s\": [", curve ? "levels" : "segments");
		for (i = 0; i < f->n_segments; i++)
			json_segment(o, &f->seg[i], curve, i == 0);
		fputc(']', o);
	} else if (f->model == CAL_MODEL_ROOFLINE) {
		json_num_member(o, "fixed_s", f->roof.fixed_s);
		json_num_member(o, "s_per_flop", f->roof.s_per_flop);
		json_num_member(o, "s_per_byte", f->roof.s_per_byte);
		if (cal_fitted_has_calls(f))
			json_num_member(o, "s_per_call", f->roof.s_per_call);
		json_num_member(o, "flops_per_s", 1.0 / f->roof.s_per_flop);
		json_str_member(o, "loss", f->roof.huber ? "huber" : "squares");
		json_str_member(o, "dtype", dtype);
		json_str_member(o, "device", device);
	} else {
		json_num_member(o, "bw_Bps", f->plateau_Bps);
		json_num_member(o, "from_bytes", f->plateau_from_bytes);
	}
	fputc('}', o);
}

void cal_fit_covariance_json(FILE *o, const struct cal_fitted *f)
{
	int i;

	fputc('[', o);
	if (f->model == CAL_MODEL_LINES) {
		for (i = 0; i < f->n_segments; i++) {
			const struct cal_line_fit *s = &f->seg[i];

			fputs(i ? ", [[" : "[[", o);
			report_json_number(o, s->cov_aa);
			fputs(", ", o);
			report_json_number(o, s->cov_ab);
			fputs("], [", o);
			report_json_number(o, s->cov_ab);
			fputs(", ", o);
			report_json_number(o, s->cov_bb);
			fputs("]]", o);
		}
	} else if (cal_fitted_is_curve(f)) {
		int j;

		/* the levels are fitted apart: a diagonal matrix */
		for (i = 0; i < f->n_segments; i++) {
			fputs(i ? ", [" : "[", o);
			for (j = 0; j < f->n_segments; j++) {
				if (j)
					fputs(", ", o);
				if (i == j)
					report_json_number(o, f->seg[i].cov_aa);
				else
					fputc('0', o);
			}
			fputc(']', o);
		}
	} else if (f->model == CAL_MODEL_ROOFLINE) {
		int j, m = cal_fitted_has_calls(f) ? CAL_ROOF_TERMS : 3;

		for (i = 0; i < m; i++) {
			fputs(i ? ", [" : "[", o);
			for (j = 0; j < m; j++) {
				if (j)
					fputs(", ", o);
				report_json_number(o, f->roof.cov[i][j]);
			}
			fputc(']', o);
		}
	} else {
		fputc('[', o);
		report_json_number(o, f->plateau_sigma_Bps * f->plateau_sigma_Bps);
		fputc(']', o);
	}
	fputc(']', o);
}

int cal_fitted_has_calls(const struct cal_fitted *f)
{
	return f->model == CAL_MODEL_ROOFLINE &&
	       strcmp(f->benchmark, "rnn") == 0;
}

/* ---------------------------------------------------------------- */
/* Reading fits back                                                 */
/* ---------------------------------------------------------------- */

static double jnum(const struct cal_json_doc *d, const struct cal_json *o,
		   const char *key)
{
	const struct cal_json *v = cal_json_get(d, o, key);

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
}

/* The i-th element of an array (NULL past its end). */
static const struct cal_json *jat(const struct cal_json_doc *d,
				  const struct cal_json *a, int i)
{
	const struct cal_json *v = a ? cal_json_first(d, a) : NULL;

	while (v && i-- > 0)
		v = cal_json_next(d, v);
	return v;
}

static double jnum_at(const struct cal_json_doc *d,
		      const struct cal_json *a, int i, int j)
{
	const struct cal_json *v = jat(d, jat(d, a, i), j);

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
}

/* Parse text (copied) into doc; -1 if it is not JSON. */
int cal_json_parse_text(const char *what, const char *text, char **copy,
			struct cal_json_doc *doc)
{
	size_t n;
	struct cal_in in;

	/* NULL: a column db_each_fit found not to be JSON (damaged) */
	*copy = NULL;
	if (!text)
		return -1;
	n = strlen(text);
	*copy = malloc(n + 1);
	if (!*copy)
		return -1;
	memcpy(*copy, text, n + 1);
	cal_in_init(&in, what, *copy, n);
	return cal_json_parse(&in, doc, NULL) ? -1 : 0;
}

/*
 * A roofline's parameters, or those of the saturating curve dlsim stored
 * before it (schema 1 fits made by the first calibration release:
 * "flops_max" R and "flops_half" h, rate R F / (F + h), i.e. time h / R
 * + F / R), turned into the roofline they are: fixed h / R, s_per_flop
 * 1 / R, no byte term, variances by the delta method.  -1 if neither
 * form is complete, or if "s_per_call" is not a number at least 0 where
 * it is given or, for a recurrent kernel's fit (calls), missing.
 */
static int read_roofline(const struct cal_json_doc *p,
			 const struct cal_json_doc *c,
			 const struct cal_json *cov, int calls,
			 struct cal_roof_fit *r)
{
	const struct cal_json *loss;
	int i, j;

	loss = cal_json_get(p, &p->v[0], "loss");
	r->huber = loss && loss->type == CAL_JSON_STRING &&
		   strcmp(loss->str, "huber") == 0;
	r->fixed_s = jnum(p, &p->v[0], "fixed_s");
	r->s_per_flop = jnum(p, &p->v[0], "s_per_flop");
	r->s_per_byte = jnum(p, &p->v[0], "s_per_byte");
	/* a recurrent kernel's fit must have the per-call term, a number
	 * not below 0; the others have none (0) */
	r->s_per_call = calls || cal_json_get(p, &p->v[0], "s_per_call") ?
			jnum(p, &p->v[0], "s_per_call") : 0.0;
	if (!(r->s_per_call >= 0.0))
		return -1;
	if (isfinite(r->fixed_s) && isfinite(r->s_per_flop) &&
	    isfinite(r->s_per_byte) && isfinite(r->s_per_call)) {
		for (i = 0; i < CAL_ROOF_TERMS; i++)
			for (j = 0; j < CAL_ROOF_TERMS; j++) {
				double v = jnum_at(c, cov, i, j);

				r->cov[i][j] = isnan(v) && (i == 3 || j == 3) ?
					       0.0 : v;
			}
		r->terms = (r->fixed_s > 0.0 ? 1u : 0u) | 2u |
			   (r->s_per_byte > 0.0 ? 4u : 0u) |
			   (r->s_per_call > 0.0 ? 8u : 0u);
		return 0;
	} else {
		double R = jnum(p, &p->v[0], "flops_max");
		double h = jnum(p, &p->v[0], "flops_half");
		double vR = jnum_at(c, cov, 0, 0), vh = jnum_at(c, cov, 1, 1);

		if (!isfinite(R) || !isfinite(h) || !(R > 0.0))
			return -1;
		r->fixed_s = h / R;
		r->s_per_flop = 1.0 / R;
		r->s_per_byte = 0.0;
		memset(r->cov, 0, sizeof(r->cov));
		r->cov[0][0] = vh / (R * R) + h * h * vR / (R * R * R * R);
		r->cov[1][1] = vR / (R * R * R * R);
		r->terms = 3u;
		return 0;
	}
}

/* A kind cal_fit_from_row reads (its prefix): a kernel class's roofline
 * (model_kernel_of_fit_kind) or one of the other models' kinds. */
static int known_kind(const char *kind)
{
	static const char *const prefix[] = {
		"alphabeta:", "bwcurve:", "stream:"
	};
	enum model_kernel k;
	size_t i;

	if (model_kernel_of_fit_kind(kind, &k))
		return 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (strncmp(kind, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	return 0;
}

static int positive(double x)
{
	return isfinite(x) && x > 0.0;
}

static int not_negative(double x)
{
	return isfinite(x) && x >= 0.0;
}

/*
 * The bounds of a roofline no device can fall outside, so that a row
 * edited by hand or damaged in a way that still parses cannot turn a
 * prediction into inf or nan: a time per call or pass of at most an
 * hour, at least 1 FLOP/s and 1 B/s, and at most 10^18 FLOP/s (an
 * exaflop from one device: today's fastest run dense fp8 at about
 * 2 x 10^15).  A term's variance may not exceed its bound squared.
 */
#define ROOF_MAX_FIXED_S 3600.0
#define ROOF_MAX_S_PER_UNIT 1.0
#define ROOF_MIN_S_PER_FLOP 1e-18

static int roof_in_bounds(const struct cal_roof_fit *r)
{
	const double bound[CAL_ROOF_TERMS] = {
		ROOF_MAX_FIXED_S, ROOF_MAX_S_PER_UNIT, ROOF_MAX_S_PER_UNIT,
		ROOF_MAX_FIXED_S
	};
	const double value[CAL_ROOF_TERMS] = {
		r->fixed_s, r->s_per_flop, r->s_per_byte, r->s_per_call
	};
	int i, j;

	if (!(r->s_per_flop >= ROOF_MIN_S_PER_FLOP))
		return 0;
	for (i = 0; i < CAL_ROOF_TERMS; i++) {
		if (!not_negative(value[i]) || value[i] > bound[i] ||
		    !not_negative(r->cov[i][i]) ||
		    r->cov[i][i] > bound[i] * bound[i])
			return 0;
		for (j = 0; j < CAL_ROOF_TERMS; j++)
			if (!isfinite(r->cov[i][j]))
				return 0;
	}
	return 1;
}

/*
 * Whether what a row parsed into is a fit the simulator can use: a
 * count of samples and a time of making not below 0; every
 * rate and time of a roofline and its covariance finite, not below 0
 * (its FLOP term above 0: the fit is non-negative by construction) and
 * within roof_in_bounds, a STREAM plateau and every
 * bandwidth level above 0 (medians of rates), an allreduce's
 * large-message line (its last segment, the ring's step) finite with a
 * cost per byte above 0 (its latency may come out below 0 from noisy
 * points: hw_calib.c takes it as 0).  Anything else is a damaged or
 * hand-edited row, or a line that prices bytes at nothing: named by its
 * readers, never used.
 */
static int in_domain(const struct cal_fitted *f)
{
	const struct cal_roof_fit *r = &f->roof;
	const struct cal_line_fit *last;
	int i;

	/* every fit: its counts and its time of making, which reports
	 * print (an age of 10^30 s, -5 samples) */
	if (f->n_samples < 0 || !not_negative(f->created_s))
		return 0;
	switch (f->model) {
	case CAL_MODEL_ROOFLINE:
		return positive(r->s_per_flop) && roof_in_bounds(r);
	case CAL_MODEL_PLATEAU:
		if (strncmp(f->kind, "stream:", 7) == 0)
			return positive(f->plateau_Bps);
		for (i = 0; i < f->n_segments; i++)
			if (!positive(f->seg[i].a) || !positive(f->seg[i].x_hi))
				return 0;
		return f->n_segments > 0;
	case CAL_MODEL_LINES:
		if (strncmp(f->kind, "alphabeta:allreduce:", 20))
			return 1;
		if (f->n_segments < 1)
			return 0;
		last = &f->seg[f->n_segments - 1];
		return isfinite(last->a) && positive(last->b);
	}
	return 0;
}

int cal_fit_from_row(struct cal_fitted *f, const struct db_fit *row)
{
	struct cal_json_doc p = { 0 }, c = { 0 };
	char *pt = NULL, *ct = NULL;
	const struct cal_json *v, *cov;
	enum model_kernel kernel;
	int ok = -1, i;

	if (!known_kind(row->kind))
		return 1;
	memset(f, 0, sizeof(*f));
	f->fit_id = row->id;
	memcpy(f->kind, row->kind, sizeof(f->kind));
	f->residual_rms = row->residual_rms;
	f->n_samples = row->n_samples;
	f->created_s = row->created_s;
	if (cal_json_parse_text("fit", row->params_json, &pt, &p) ||
	    cal_json_parse_text("fit", row->covariance_json, &ct, &c))
		goto cleanup;
	cov = &c.v[0];
	if (!(v = cal_json_get(&p, &p.v[0], "benchmark")) ||
	    v->type != CAL_JSON_STRING)
		goto cleanup;
	snprintf(f->benchmark, sizeof(f->benchmark), "%s", v->str);
	if (!(v = cal_json_get(&p, &p.v[0], "group")) ||
	    v->type != CAL_JSON_STRING)
		goto cleanup;
	snprintf(f->group, sizeof(f->group), "%s", v->str);
	if (strncmp(f->kind, "alphabeta:", 10) == 0) {
		f->model = CAL_MODEL_LINES;
		v = cal_json_get(&p, &p.v[0], "segments");
		for (i = 0; i < CAL_MAX_SEGMENTS && jat(&p, v, i); i++) {
			const struct cal_json *s = jat(&p, v, i);
			struct cal_line_fit *l = &f->seg[i];

			l->x_lo = jnum(&p, s, "x_lo");
			l->x_hi = jnum(&p, s, "x_hi");
			l->a = jnum(&p, s, "alpha_s");
			l->b = jnum(&p, s, "beta_s_per_byte");
			l->n = (int)jnum(&p, s, "n");
			l->rel_rms = jnum(&p, s, "rel_rms");
			l->cov_aa = jnum_at(&c, jat(&c, cov, i), 0, 0);
			l->cov_ab = jnum_at(&c, jat(&c, cov, i), 0, 1);
			l->cov_bb = jnum_at(&c, jat(&c, cov, i), 1, 1);
		}
		f->n_segments = i;
	} else if (model_kernel_of_fit_kind(f->kind, &kernel)) {
		f->model = CAL_MODEL_ROOFLINE;
		if (read_roofline(&p, &c, cov,
				  model_kernel_is_recurrent(kernel), &f->roof))
			goto cleanup;
		f->roof.n = (int)f->n_samples;
		f->roof.rms = f->residual_rms;
	} else if (strncmp(f->kind, "bwcurve:", 8) == 0) {
		f->model = CAL_MODEL_PLATEAU;
		v = cal_json_get(&p, &p.v[0], "levels");
		for (i = 0; i < CAL_MAX_SEGMENTS && jat(&p, v, i); i++) {
			const struct cal_json *s = jat(&p, v, i);
			struct cal_line_fit *l = &f->seg[i];

			l->x_lo = jnum(&p, s, "bytes_lo");
			l->x_hi = jnum(&p, s, "bytes_hi");
			l->a = jnum(&p, s, "Bps");
			l->n = (int)jnum(&p, s, "n");
			l->rel_rms = jnum(&p, s, "rel_rms");
			l->cov_aa = jnum_at(&c, cov, i, i);
		}
		f->n_segments = i;
		if (i == 0)
			goto cleanup;
	} else if (strncmp(f->kind, "stream:", 7) == 0) {
		f->model = CAL_MODEL_PLATEAU;
		f->plateau_Bps = jnum(&p, &p.v[0], "bw_Bps");
		f->plateau_from_bytes = jnum(&p, &p.v[0], "from_bytes");
		f->plateau_sigma_Bps = sqrt(jnum_at(&c, cov, 0, 0));
	} else {
		goto cleanup;
	}
	ok = in_domain(f) ? 0 : -1;
cleanup:
	cal_json_release(&p);
	cal_json_release(&c);
	free(pt);
	free(ct);
	return ok;
}
