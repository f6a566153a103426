/*
 * hw_calib.c -- the fitted calibration of one hardware name, read from
 * the database's fits table, that a system carries (hw_system.calib).
 *
 * HOW IT WORKS
 *   db_each_fit visits the fits for the name newest first, and the first
 *   usable fit of each kind wins, with three exceptions: STREAM triad
 *   beats the other kernels; of the GEMM curves one `calibrate fit`
 *   stored together (one per thread count) the fastest wins, since
 *   training uses every thread; of the allreduce fits, the one at the
 *   most ranks.  The parameters come from the JSON `dlsim calibrate fit`
 *   stores (calibrate/cal_fitdb.c), read with the calibration module's
 *   JSON reader (calibrate/cal.h: the one dependency of hw/ on another
 *   module beside core/).  The allreduce fit is turned into the alpha
 *   and beta of one ring step by inverting the ring form (see struct
 *   hw_calib in dlsim.h).
 *
 * LIMITATIONS
 * - Only intra-node collectives are calibrated; a multi-node system keeps
 *   the catalog's NIC figures.
 * - The allreduce fit at the most ranks (the fullest node measured) gives
 *   alpha and beta for every rank count inside a node.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlsim.h"
#include "calibrate/cal.h"
#include "core/banned.h"

struct loader {
	struct hw_calib *c;
	int nomem;
	int have_triad;
};

static double num(const struct cal_json_doc *d, const struct cal_json *o,
		  const char *key)
{
	const struct cal_json *v = o ? cal_json_get(d, o, key) : NULL;

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
}

/* The i-th element of an array or NULL. */
static const struct cal_json *at(const struct cal_json_doc *d,
				 const struct cal_json *a, int i)
{
	const struct cal_json *v;

	if (!a || a->type != CAL_JSON_ARRAY)
		return NULL;
	for (v = cal_json_first(d, a); v && i > 0; i--)
		v = cal_json_next(d, v);
	return v;
}

static double num_at(const struct cal_json_doc *d, const struct cal_json *a,
		     int i)
{
	const struct cal_json *v = at(d, a, i);

	return v && v->type == CAL_JSON_NUMBER ? v->num : NAN;
}

static int parse(const char *text, char **copy, struct cal_json_doc *doc)
{
	size_t n = text ? strlen(text) : 0;
	struct cal_in in;

	if (!text || !(*copy = malloc(n + 1)))
		return -1;
	memcpy(*copy, text, n + 1);
	cal_in_init(&in, "fit", *copy, n);
	return cal_json_parse(&in, doc, NULL) ? -1 : 0;
}

static int positive(double x)
{
	return isfinite(x) && x > 0.0;
}

static double sigma(double var)
{
	return isfinite(var) && var > 0.0 ? sqrt(var) : 0.0;
}

static void provenance(struct hw_calib_fit *p, const struct db_fit *f)
{
	p->id = f->id;
	memcpy(p->kind, f->kind, sizeof(p->kind));
	p->n_samples = f->n_samples;
	p->created_s = f->created_s;
}

static void take_gemm(struct hw_calib *c, const struct db_fit *f,
		      const struct cal_json_doc *p,
		      const struct cal_json_doc *cv)
{
	enum dlsim_precision pr;
	double fmax = num(p, &p->v[0], "flops_max");
	double half = num(p, &p->v[0], "flops_half");

	if (dlsim_precision_parse(f->kind + 5, &pr, NULL) ||
	    !positive(fmax) || !(isfinite(half) && half >= 0.0))
		return;
	/* one `calibrate fit` stores a curve per thread count at one time:
	 * of those, the fastest (all threads, as training runs) */
	if (c->gemm[pr].id && !(f->created_s == c->gemm[pr].created_s &&
				fmax > c->gemm_flops_max[pr]))
		return;
	c->gemm_flops_max[pr] = fmax;
	c->gemm_flops_half[pr] = half;
	c->gemm_sigma_flops_max[pr] = sigma(num_at(cv, at(cv, &cv->v[0], 0),
						   0));
	provenance(&c->gemm[pr], f);
}

static void take_stream(struct loader *ld, const struct db_fit *f,
			const struct cal_json_doc *p,
			const struct cal_json_doc *cv)
{
	struct hw_calib *c = ld->c;
	int triad = strcmp(f->kind, "stream:triad") == 0;
	double bw = num(p, &p->v[0], "bw_Bps");

	/* triad, the kernel STREAM reports as the machine's bandwidth, wins
	 * over any other; else the newest kernel */
	if (ld->have_triad || (c->stream.id && !triad) || !positive(bw))
		return;
	c->mem_bw_Bps = bw;
	c->mem_sigma_Bps = sigma(num_at(cv, at(cv, &cv->v[0], 0), 0));
	provenance(&c->stream, f);
	ld->have_triad = triad;
}

static void take_allreduce(struct hw_calib *c, const struct db_fit *f,
			   const struct cal_json_doc *p,
			   const struct cal_json_doc *cv)
{
	const struct cal_json *segs = cal_json_get(p, &p->v[0], "segments");
	const struct cal_json *s, *last = NULL;
	const char *rk = f->kind + strlen("alphabeta:allreduce:");
	char *end;
	long r;
	int i, n = 0;
	double a, b, k;

	r = strtol(rk, &end, 10);
	if (end == rk || *end || r < 2 || r > 1000000 ||
	    (c->intra.id && r <= c->intra_ranks))
		return;
	for (i = 0; (s = at(p, segs, i)); i++, n++)
		last = s;   /* segments run in increasing size */
	if (!last)
		return;
	a = num(p, last, "alpha_s");
	b = num(p, last, "beta_s_per_byte");
	if (!(isfinite(a) && a >= 0.0) || !positive(b))
		return;
	k = 2.0 * (double)(r - 1);
	c->intra_ranks = r;
	c->intra_alpha_s = a / k;
	c->intra_beta_s_per_byte = b * (double)r / k;
	c->intra_sigma_beta = sigma(num_at(cv, at(cv, at(cv, &cv->v[0],
							      n - 1), 1),
					   1)) * (double)r / k;
	provenance(&c->intra, f);
}

static int visit(void *ctx, const struct db_fit *f)
{
	struct loader *ld = ctx;
	struct cal_json_doc p = { 0 }, cv = { 0 };
	char *pt = NULL, *ct = NULL;

	if (parse(f->params_json, &pt, &p) ||
	    parse(f->covariance_json, &ct, &cv) || p.n < 1 || cv.n < 1)
		goto cleanup;   /* not ours to judge: skipped */
	if (strncmp(f->kind, "gemm:", 5) == 0)
		take_gemm(ld->c, f, &p, &cv);
	else if (strncmp(f->kind, "stream:", 7) == 0)
		take_stream(ld, f, &p, &cv);
	else if (strncmp(f->kind, "alphabeta:allreduce:", 20) == 0)
		take_allreduce(ld->c, f, &p, &cv);
cleanup:
	cal_json_release(&p);
	cal_json_release(&cv);
	free(pt);
	free(ct);
	return 0;
}

int hw_calib_count(const struct hw_calib *c)
{
	int i, n = 0;

	if (!c)
		return 0;
	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		n += c->gemm[i].id != 0;
	return n + (c->stream.id != 0) + (c->intra.id != 0);
}

int hw_calib_load(struct db *db, const char *hw, struct hw_calib *out,
		  struct dlsim_err *err)
{
	struct loader ld;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&ld, 0, sizeof(ld));
	ld.c = out;
	if (!hw || !*hw)
		return dlsim_err_set(err, DLSIM_EINVAL, "no hardware name");
	snprintf(out->hw, sizeof(out->hw), "%s", hw);
	if ((rc = db_each_fit(db, hw, NULL, visit, &ld, err))) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	if (hw_calib_count(out) == 0) {
		memset(out, 0, sizeof(*out));
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "no usable fits "
				     "for hardware '%s'", hw);
	}
	return DLSIM_OK;
}

static double moved(double x, double dx)
{
	return x + dx > 0.1 * x ? x + dx : 0.1 * x;
}

void hw_calib_shift(const struct hw_calib *in, double z,
		    struct hw_calib *out)
{
	int i;

	*out = *in;
	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		out->gemm_flops_max[i] = moved(in->gemm_flops_max[i],
					       z * in->gemm_sigma_flops_max[i]);
	out->mem_bw_Bps = moved(in->mem_bw_Bps, z * in->mem_sigma_Bps);
	out->intra_beta_s_per_byte = moved(in->intra_beta_s_per_byte,
					   -z * in->intra_sigma_beta);
}

int hw_local_system(struct db *db, struct hw_local *out,
		    struct dlsim_err *err)
{
	static const char *const first = "no calibration for 'local': run "
		"'dlsim calibrate run' and 'dlsim calibrate fit --hw local' "
		"first";
	struct dlsim_err quiet = { 0, "" };
	struct hw_device *d = &out->dev;
	struct db_host h;
	int rc, p, any = 0;

	memset(out, 0, sizeof(*out));
	rc = hw_calib_load(db, "local", &out->calib, &quiet);
	if (rc && rc != DLSIM_ENOTFOUND)
		return dlsim_err_set(err, rc, "%s", quiet.msg);
	for (p = 0; p < DLSIM_PRECISION_COUNT; p++)
		any |= out->calib.gemm[p].id != 0;
	if (rc || !any || !out->calib.stream.id) {
		memset(out, 0, sizeof(*out));
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "%s", first);
	}
	rc = db_host_newest(db, "local", &h, &quiet);
	if (rc && rc != DLSIM_ENOTFOUND) {
		memset(out, 0, sizeof(*out));
		return dlsim_err_set(err, rc, "%s", quiet.msg);
	}
	snprintf(d->name, sizeof(d->name), "local");
	d->kind = HW_CPU;
	snprintf(d->model, sizeof(d->model), "%.95s",
		 h.cpu[0] ? h.cpu : "this machine");
	d->units = h.cores;
	for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
		struct hw_peak *pk = &d->peak[p];

		if (!out->calib.gemm[p].id)
			continue;
		/* the fitted plateau is the best rate seen: it stands for
		 * the peak, the curve for the efficiency */
		pk->matrix_flops = out->calib.gemm_flops_max[p];
		pk->vector_flops = out->calib.gemm_flops_max[p];
		pk->eff_gemm = pk->eff_conv = pk->eff_conv3x3 = 1.0;
		snprintf(pk->source, sizeof(pk->source), "fit #%lld",
			 (long long)out->calib.gemm[p].id);
	}
	d->n_mem = 1;
	snprintf(d->mem[0].type, sizeof(d->mem[0].type), "DRAM");
	d->mem[0].capacity_bytes = h.mem_bytes;
	d->mem[0].bandwidth_Bps = out->calib.mem_bw_Bps;
	snprintf(d->mem[0].source, sizeof(d->mem[0].source), "fit #%lld",
		 (long long)out->calib.stream.id);
	d->mem_capacity_bytes = h.mem_bytes;
	d->eff_memory = 1.0;
	snprintf(d->source, sizeof(d->source), "dlsim calibrate run on %s",
		 h.name[0] ? h.name : "this machine");
	snprintf(d->node, sizeof(d->node), "local");
	snprintf(out->node.name, sizeof(out->node.name), "local");
	snprintf(out->node.device, sizeof(out->node.device), "local");
	out->node.devices_per_node = 1;
	snprintf(out->sys.spec, sizeof(out->sys.spec), "local");
	out->sys.device = d;
	out->sys.node = &out->node;
	out->sys.n_devices = 1;
	out->sys.devices_per_node = 1;
	out->sys.n_nodes = 1;
	out->sys.calib = &out->calib;
	return DLSIM_OK;
}
