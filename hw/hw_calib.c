/*
 * hw_calib.c -- the fitted calibration of one hardware name, read from
 * the database's fits table, that a system carries (hw_system.calib).
 *
 * HOW IT WORKS
 *   db_each_fit visits the fits for the name newest first, and the first
 *   usable fit of each kind wins, with three exceptions: STREAM triad
 *   beats the other kernels (plateau and curve alike); of the kernel
 *   rooflines one `calibrate fit` stored together (one per thread count)
 *   the fastest wins, since training uses every thread; of the
 *   allreduce fits, the one at the most ranks.  A row is decoded by
 *   cal_fit_from_row, the one reader of the format `calibrate fit`
 *   writes (calibrate/cal_fitjson.c; the one dependency of hw/ on
 *   another module beside core/ and db/: the calibration module owns its
 *   format, and two readers of it would drift).  The allreduce fit is
 *   turned into the alpha and beta of one ring step by inverting the
 *   ring form (see struct hw_calib in dlsim.h).
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
	int have_triad;
	int have_triad_curve;
};

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

/* "gemm:fp32" -> GEMM, fp32; -1 for another kind or precision (the
 * classes' fit names: model_kernel_of_fit_kind). */
static int kernel_of(const char *kind, enum model_kernel *k,
		     enum dlsim_precision *p)
{
	size_t n = model_kernel_of_fit_kind(kind, k);

	if (!n)
		return -1;
	return dlsim_precision_parse(kind + n + 1, p, NULL) ? -1 : 0;
}

/* Count row as damaged in c: read, but not usable. */
static void note_unreadable(struct hw_calib *c, const struct db_fit *row)
{
	if (c->n_unreadable++ == 0) {
		c->unreadable_id = row->id;
		snprintf(c->unreadable_kind, sizeof(c->unreadable_kind), "%s",
			 row->kind);
	}
}

static void take_kernel(struct hw_calib *c, const struct db_fit *row,
			const struct cal_fitted *f)
{
	const struct cal_roof_fit *r = &f->roof;
	struct hw_calib_kernel *kc;
	enum model_kernel k;
	enum dlsim_precision p;
	int i;

	/* the terms are in their domain: cal_fit_from_row refuses others */
	if (kernel_of(row->kind, &k, &p))
		return;         /* a precision this dlsim does not know */
	kc = &c->kernel[k][p];
	/* one `calibrate fit` stores a roofline per thread count at one
	 * time: of those, the fastest (all threads, as training runs) */
	if (kc->fit.id && !(row->created_s == kc->fit.created_s &&
			    r->s_per_flop < kc->s_per_flop))
		return;
	kc->fixed_s = r->fixed_s;
	kc->s_per_flop = r->s_per_flop;
	kc->s_per_byte = r->s_per_byte;
	kc->s_per_call = r->s_per_call;
	kc->per_call = model_kernel_is_recurrent(k);
	for (i = 0; i < CAL_ROOF_TERMS; i++)
		kc->sigma[i] = sigma(r->cov[i][i]);
	provenance(&kc->fit, row);
}

static void take_stream(struct loader *ld, const struct db_fit *row,
			const struct cal_fitted *f)
{
	struct hw_calib *c = ld->c;
	int triad = strcmp(row->kind, "stream:triad") == 0;

	/* triad, the kernel STREAM reports as the machine's bandwidth, wins
	 * over any other; else the newest kernel */
	if (ld->have_triad || (c->stream.id && !triad))
		return;
	c->mem_bw_Bps = f->plateau_Bps;
	c->mem_sigma_Bps = f->plateau_sigma_Bps > 0.0 ?
			   f->plateau_sigma_Bps : 0.0;
	provenance(&c->stream, row);
	ld->have_triad = triad;
}

/* A bandwidth curve's levels, boundaries at the geometric mean of the
 * sets on either side (the cache size lies between them). */
static void take_curve(struct loader *ld, const struct db_fit *row,
		       const struct cal_fitted *f)
{
	struct hw_calib *c = ld->c;
	int triad = strcmp(row->kind, "bwcurve:triad") == 0, i;

	if (ld->have_triad_curve || (c->bwcurve.id && !triad) ||
	    f->n_segments > HW_CALIB_LEVELS)
		return;
	for (i = 0; i < f->n_segments; i++) {
		c->level_Bps[i] = f->seg[i].a;
		c->level_sigma_Bps[i] = sigma(f->seg[i].cov_aa);
		c->level_upto_bytes[i] = i + 1 < f->n_segments ?
			sqrt(f->seg[i].x_hi * f->seg[i + 1].x_lo) : INFINITY;
	}
	c->n_levels = f->n_segments;
	provenance(&c->bwcurve, row);
	ld->have_triad_curve = triad;
}

/* An allreduce fit's ring step into c->rings, the newest per R. */
static void take_allreduce(struct hw_calib *c, const struct db_fit *row,
			   const struct cal_fitted *f)
{
	const char *rk = row->kind + strlen("alphabeta:allreduce:");
	const struct cal_line_fit *last;
	struct hw_calib_ring *g;
	char *end;
	long r;
	int i;
	double k;

	r = strtol(rk, &end, 10);
	if (end == rk || *end || r < 2 || r > 1000000 ||
	    c->n_rings == HW_CALIB_RINGS)
		return;
	for (i = 0; i < c->n_rings; i++)
		if (c->rings[i].ranks == r)
			return;     /* visited newest first: have it */
	/* segments run up in size; cal_fit_from_row checked the last.  A
	 * line fitted to noisy points can cross 0 below the sizes it saw:
	 * no message is free, so its latency counts as 0 */
	last = &f->seg[f->n_segments - 1];
	k = 2.0 * (double)(r - 1);
	g = &c->rings[c->n_rings++];
	g->ranks = r;
	g->alpha_s = (last->a > 0.0 ? last->a : 0.0) / k;
	g->beta_s_per_byte = last->b * (double)r / k;
	g->sigma_beta = sigma(last->cov_bb) * (double)r / k;
	provenance(&g->fit, row);
}

/* How far a fit over `ranks` is from a collective over n: |log(ranks /
 * n)|, a fit with more ranks than n a hair nearer than one with as many
 * fewer (a ring's per-step cost grows with its ranks: the larger errs on
 * the safe side). */
static double rank_distance(int64_t ranks, int64_t n)
{
	double d = log((double)ranks / (double)n);

	return d >= 0.0 ? d : -d + 1e-9;
}

/*
 * intra: the most ranks at most g (g 0: any); inter: of those above g
 * (none when g is 0), the one nearest the system's n devices.  The
 * bandwidth a ring attains falls with its ranks (DeepBench's Xeon Phi
 * allreduce: 10 GB/s a rank-pair at 2 ranks, 3.4 at 32), so a fit at
 * other ranks would misprice the ring; with fits at 2, 4, ... 32 the
 * system's own count is the one taken.
 */
static void pick_rings(struct hw_calib *c, int64_t g, int64_t n)
{
	int i;

	memset(&c->intra, 0, sizeof(c->intra));
	memset(&c->inter, 0, sizeof(c->inter));
	for (i = 0; i < c->n_rings; i++) {
		const struct hw_calib_ring *r = &c->rings[i];

		if ((g == 0 || r->ranks <= g) && r->ranks > c->intra.ranks)
			c->intra = *r;
		if (g > 0 && r->ranks > g &&
		    (c->inter.ranks == 0 ||
		     rank_distance(r->ranks, n > g ? n : g + 1) <
		     rank_distance(c->inter.ranks, n > g ? n : g + 1)))
			c->inter = *r;
	}
}

static int visit(void *ctx, const struct db_fit *row)
{
	struct loader *ld = ctx;
	struct cal_fitted f;
	int rc = cal_fit_from_row(&f, row);

	if (rc > 0)
		return 0;       /* a later dlsim's kind: not ours to judge */
	if (rc < 0) {
		note_unreadable(ld->c, row);
		return 0;
	}
	if (f.model == CAL_MODEL_ROOFLINE)
		take_kernel(ld->c, row, &f);
	else if (strncmp(row->kind, "stream:", 7) == 0)
		take_stream(ld, row, &f);
	else if (strncmp(row->kind, "bwcurve:", 8) == 0)
		take_curve(ld, row, &f);
	else if (strncmp(row->kind, "alphabeta:allreduce:", 20) == 0)
		take_allreduce(ld->c, row, &f);
	return 0;
}

int hw_calib_count(const struct hw_calib *c)
{
	int i, k, n = 0;

	if (!c)
		return 0;
	for (k = 0; k < MODEL_KERNEL_COUNT; k++)
		for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
			n += c->kernel[k][i].fit.id != 0;
	return n + (c->stream.id != 0) + (c->bwcurve.id != 0) +
	       (c->intra.fit.id != 0) + (c->inter.fit.id != 0);
}

/* from's count of damaged fits added to to's (its first kept first). */
static void keep_unreadable(struct hw_calib *to, const struct hw_calib *from)
{
	if (from->n_unreadable && !to->n_unreadable) {
		to->unreadable_id = from->unreadable_id;
		memcpy(to->unreadable_kind, from->unreadable_kind,
		       sizeof(to->unreadable_kind));
	}
	to->n_unreadable += from->n_unreadable;
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
	pick_rings(out, 0, 0);
	if (hw_calib_count(out) == 0) {
		struct hw_calib damaged = *out;

		memset(out, 0, sizeof(*out));
		keep_unreadable(out, &damaged);
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "no usable fits "
				     "for hardware '%s'", hw);
	}
	return DLSIM_OK;
}

/* Are there kernel or memory fits (what a device's name holds)? */
static int has_device_fits(const struct hw_calib *c)
{
	int k, p;

	for (k = 0; k < MODEL_KERNEL_COUNT; k++)
		for (p = 0; p < DLSIM_PRECISION_COUNT; p++)
			if (c->kernel[k][p].fit.id)
				return 1;
	return c->stream.id || c->bwcurve.id;
}

/* Another device's fits, scaled to d (hw_device.calib_flop_scale):
 * time per FLOP and per byte, and the bandwidths, with their sigmas
 * (the fixed costs, once and per call, are the library's and the
 * launch's, which the peaks do not scale).
 * The bandwidth curve's levels before the last are caches, which run
 * at the core clock: they take the FP32 peaks' ratio (the clocks'); the
 * last, device memory, the bandwidths'. */
static void scale_device_fits(struct hw_calib *c, const struct hw_device *d)
{
	double b = d->calib_byte_scale, clock = d->calib_flop_scale[DLSIM_FP32];
	int k, p, i;

	for (k = 0; k < MODEL_KERNEL_COUNT; k++)
		for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
			struct hw_calib_kernel *x = &c->kernel[k][p];

			x->s_per_flop *= d->calib_flop_scale[p];
			x->sigma[1] *= d->calib_flop_scale[p];
			x->s_per_byte *= b;
			x->sigma[2] *= b;
		}
	c->mem_bw_Bps /= b;
	c->mem_sigma_Bps /= b;
	for (i = 0; i < c->n_levels && i < HW_CALIB_LEVELS; i++) {
		double f = i == c->n_levels - 1 ? b : clock;

		c->level_Bps[i] /= f;
		c->level_sigma_Bps[i] /= f;
	}
}

static void copy_device_fits(struct hw_calib *to, const struct hw_calib *from)
{
	memcpy(to->kernel, from->kernel, sizeof(to->kernel));
	to->mem_bw_Bps = from->mem_bw_Bps;
	to->mem_sigma_Bps = from->mem_sigma_Bps;
	to->stream = from->stream;
	to->n_levels = from->n_levels;
	memcpy(to->level_upto_bytes, from->level_upto_bytes,
	       sizeof(to->level_upto_bytes));
	memcpy(to->level_Bps, from->level_Bps, sizeof(to->level_Bps));
	memcpy(to->level_sigma_Bps, from->level_sigma_Bps,
	       sizeof(to->level_sigma_Bps));
	to->bwcurve = from->bwcurve;
}

/* name's fits into *out, zeroed when there are none; only a database
 * failure is an error. */
static int load_quiet(struct db *db, const char *name, struct hw_calib *out,
		      struct dlsim_err *err)
{
	struct dlsim_err quiet = { 0, "" };
	int rc = hw_calib_load(db, name, out, &quiet);

	if (rc == DLSIM_ENOTFOUND)
		return DLSIM_OK;
	return rc ? dlsim_err_set(err, rc, "%s", quiet.msg) : DLSIM_OK;
}

/*
 * Into o (the node's own fits, which have no rings), the allreduce rings
 * of node's calibration_from at most one node wide: the same node type's
 * inside, where across nodes it measured its own network, not this one.
 */
static int borrow_rings(struct db *db, const struct hw_node *node,
			struct hw_calib *out, struct hw_calib *o,
			struct dlsim_err *err)
{
	struct hw_calib from;
	int i, rc;

	if ((rc = load_quiet(db, node->calib_from, &from, err)))
		return rc;
	keep_unreadable(out, &from);
	for (i = 0; i < from.n_rings; i++)
		if (from.rings[i].ranks <= node->devices_per_node)
			o->rings[o->n_rings++] = from.rings[i];
	return DLSIM_OK;
}

int hw_calib_load_system(struct db *db, const struct hw_system *sys,
			 struct hw_calib *out, struct dlsim_err *err)
{
	const struct hw_device *d = sys->device;
	struct hw_calib other;
	int rc;

	if ((rc = load_quiet(db, d->name, out, err)))
		return rc;
	/* the chip's kernels and memory, not its node's collectives */
	if (!has_device_fits(out) && d->calib_from[0]) {
		if ((rc = load_quiet(db, d->calib_from, &other, err)))
			goto fail;
		keep_unreadable(out, &other);
		if (has_device_fits(&other)) {
			scale_device_fits(&other, d);
			copy_device_fits(out, &other);
			snprintf(out->hw, sizeof(out->hw), "%s", other.hw);
		}
	}
	/* the node's collectives win over any stored under the device;
	 * a node without collective fits of its own takes its
	 * calibration_from's */
	if (sys->node) {
		if ((rc = load_quiet(db, sys->node->name, &other, err)))
			goto fail;
		if (!other.n_rings && sys->node->calib_from[0] &&
		    (rc = borrow_rings(db, sys->node, out, &other, err)))
			goto fail;
		keep_unreadable(out, &other);
		if (other.n_rings) {
			out->n_rings = other.n_rings;
			memcpy(out->rings, other.rings, sizeof(out->rings));
		}
		if (!has_device_fits(out) && has_device_fits(&other)) {
			copy_device_fits(out, &other);
			snprintf(out->hw, sizeof(out->hw), "%s", other.hw);
		}
		if (!out->hw[0])
			snprintf(out->hw, sizeof(out->hw), "%s", other.hw);
	}
	pick_rings(out, sys->devices_per_node > 0 ? sys->devices_per_node :
		   1, sys->n_devices);
	if (hw_calib_count(out) == 0) {
		struct hw_calib damaged = *out;

		memset(out, 0, sizeof(*out));
		keep_unreadable(out, &damaged);
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "no usable fits "
				     "for device '%s' or node '%s'", d->name,
				     sys->node ? sys->node->name : "");
	}
	return DLSIM_OK;
fail:
	memset(out, 0, sizeof(*out));
	return rc;
}

static double moved(double x, double dx)
{
	return x + dx > 0.1 * x ? x + dx : 0.1 * x;
}

void hw_calib_shift(const struct hw_calib *in, double z,
		    struct hw_calib *out)
{
	int i, k;

	*out = *in;
	for (k = 0; k < MODEL_KERNEL_COUNT; k++)
		for (i = 0; i < DLSIM_PRECISION_COUNT; i++) {
			const struct hw_calib_kernel *a = &in->kernel[k][i];
			struct hw_calib_kernel *b = &out->kernel[k][i];

			b->fixed_s = moved(a->fixed_s, -z * a->sigma[0]);
			b->s_per_flop = moved(a->s_per_flop, -z * a->sigma[1]);
			b->s_per_byte = moved(a->s_per_byte, -z * a->sigma[2]);
			b->s_per_call = moved(a->s_per_call, -z * a->sigma[3]);
		}
	out->mem_bw_Bps = moved(in->mem_bw_Bps, z * in->mem_sigma_Bps);
	for (i = 0; i < in->n_levels; i++)
		out->level_Bps[i] = moved(in->level_Bps[i],
					  z * in->level_sigma_Bps[i]);
	out->intra.beta_s_per_byte = moved(in->intra.beta_s_per_byte,
					   -z * in->intra.sigma_beta);
	out->inter.beta_s_per_byte = moved(in->inter.beta_s_per_byte,
					   -z * in->inter.sigma_beta);
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
		any |= out->calib.kernel[MODEL_KERNEL_GEMM][p].fit.id != 0;
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
		const struct hw_calib_kernel *g =
			&out->calib.kernel[MODEL_KERNEL_GEMM][p];

		if (!g->fit.id)
			continue;
		/* the fitted FLOP rate is the best the GEMMs reach: it stands
		 * for the peak, the roofline for the efficiency */
		pk->matrix_flops = 1.0 / g->s_per_flop;
		pk->vector_flops = 1.0 / g->s_per_flop;
		pk->eff_gemm = pk->eff_conv = pk->eff_conv3x3 = 1.0;
		pk->eff_conv1x1 = pk->eff_conv1x1s = 1.0;
		snprintf(pk->source, sizeof(pk->source), "fit #%lld",
			 (long long)g->fit.id);
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

int hw_system_open(struct hw_catalog *cat, struct db *db, const char *spec,
		   struct hw_system *sys, struct hw_calib *calib,
		   struct hw_local *local, struct dlsim_err *err)
{
	struct dlsim_err quiet = { 0, "" };
	int rc;

	if (strcmp(spec, "local") == 0) {
		if (!db)
			return dlsim_err_set(err, DLSIM_ENOTFOUND, "no "
					     "calibration for 'local': run "
					     "'dlsim calibrate run' and "
					     "'dlsim calibrate fit --hw "
					     "local' first");
		if ((rc = hw_local_system(db, local, err)))
			return rc;
		*sys = local->sys;
		return DLSIM_OK;
	}
	if ((rc = hw_system_resolve(cat, spec, sys, err)) || !db)
		return rc;
	rc = hw_calib_load_system(db, sys, calib, &quiet);
	if (rc == DLSIM_OK)
		sys->calib = calib;
	else if (rc != DLSIM_ENOTFOUND)
		return dlsim_err_set(err, rc, "%s", quiet.msg);
	return DLSIM_OK;
}
