/*
 * test_hwcalib.c -- a system's calibration (hw/hw_calib.c) and what the
 * simulator makes of it: synthetic fits stored with db_fit_insert in a
 * temporary database are read back as worked out by hand, change the
 * roofline's rates and the intra-node collective's alpha and beta
 * exactly, and give a prediction an interval that brackets it; without a
 * calibration nothing changes.  test_hwcalib_cli.c takes the same fits
 * through the command line.
 *
 * The fits, by hand:
 *   gemm:fp32    in the form the first calibration release stored:
 *                flops_max R = 2e11 FLOP/s (variance 4e18: sigma 2e9),
 *                flops_half h = 5e8 FLOPs (variance 1), read as the
 *                roofline it is: fixed h / R = 2.5 ms, s_per_flop 1 / R
 *                = 5e-12 (sigma 2e9 / R^2 = 5e-14), no byte term; sigma
 *                of fixed sqrt(1 / R^2 + h^2 4e18 / R^4) = 2.5e-5 s.  An
 *                older one (1e11) is ignored, and so is one stored at the
 *                same time for fewer threads (1.5e11): the fastest of one
 *                fit's rooflines wins.
 *   conv3x3:fp32 fixed 1e-5 s, s_per_flop 1e-11, s_per_byte 1e-10
 *                (sigmas 1e-7, 1e-13, 1e-12).
 *   bwcurve:triad two levels, 4e11 B/s for 4 KiB .. 32 KiB and 2e10 B/s
 *                from 64 KiB: the boundary is sqrt(32768 x 65536) =
 *                46341 bytes.
 *   stream:triad 2e10 B/s (variance 1e16: sigma 1e8); a newer
 *                stream:copy (3e10) is not taken: triad wins.
 *   alphabeta:allreduce:4, largest segment t = 6e-5 s + 3e-10 s/B n
 *                (variance of beta 9e-24: sigma 3e-12), so the ring step
 *                has alpha = 6e-5 / (2 x 3) = 1e-5 s and beta =
 *                3e-10 x 4 / 6 = 2e-10 s/B (sigma 2e-12 s/B).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "hwcalib_util.h"
#include "db_util.h"
#include "dlsim.h"
#include "sim/sim.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

struct rig {
	struct hw_device dev;
	struct hw_link intra;
	struct hw_node node;
	struct hw_system sys;
};

/* A device of 1e12 FLOP/s and 1e11 B/s, four to a node on 1 GB/s links
 * of 1 us. */
static void rig_init(struct rig *r)
{
	struct hw_peak *p;
	int i;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev.name, sizeof(r->dev.name), "dev");
	p = &r->dev.peak[DLSIM_FP32];
	p->matrix_flops = 1e12;
	p->vector_flops = 1e12;
	p->eff_gemm = p->eff_conv = p->eff_conv3x3 = 1.0;
	p->eff_conv1x1 = p->eff_conv1x1s = 1.0;
	r->dev.mem[0].bandwidth_Bps = 1e11;
	r->dev.mem[0].capacity_bytes = 64.0 * 1073741824.0;
	r->dev.mem_capacity_bytes = r->dev.mem[0].capacity_bytes;
	r->dev.n_mem = 1;
	r->dev.eff_memory = 1.0;
	r->dev.clock_boost_hz = 1e9;
	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		r->dev.calib_flop_scale[i] = 1.0;   /* as hw_convert sets */
	r->dev.calib_byte_scale = 1.0;
	snprintf(r->node.name, sizeof(r->node.name), "box");
	r->node.devices_per_node = 4;
	r->node.intra_links_per_device = 1;
	r->intra.bandwidth_Bps = 1e9;
	r->intra.latency_s = 1e-6;
	r->sys.device = &r->dev;
	r->sys.node = &r->node;
	r->sys.intra = &r->intra;
	r->sys.devices_per_node = 4;
	r->sys.n_nodes = 1;
	r->sys.n_devices = 4;
	snprintf(r->sys.spec, sizeof(r->sys.spec), "test");
}

/* The rig as two nodes of four joined by nic (10 GB/s, 2 us). */
static void two_nodes(struct rig *r, struct hw_link *nic)
{
	memset(nic, 0, sizeof(*nic));
	nic->bandwidth_Bps = 1e10;
	nic->latency_s = 2e-6;
	r->sys.nic = nic;
	r->sys.n_nodes = 2;
	r->sys.n_devices = 8;
}

/* An allreduce fit at 8 ranks for "box": across its two nodes, largest
 * segment t = 1.4e-4 s + 7e-10 s/B n. */
static void put_inter_fit(struct db *db)
{
	put_fit(db, "box", "alphabeta:allreduce:8", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=8\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 1.4e-4, "
		"\"beta_s_per_byte\": 7e-10, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 1e-22]]]", 2000.0);
}

static void load(struct hw_calib *c)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;

	tmpdb_open(&t);
	put_fits(t.db, "box");
	ck_assert_msg(hw_calib_load(t.db, "box", c, &err) == DLSIM_OK, "%s",
		      err.msg);
	tmpdb_close(&t);
}

/* ---------------------------------------------------------------- */
/* Loading                                                           */
/* ---------------------------------------------------------------- */

START_TEST(hwcalib_load_takes_newest_fits_as_by_hand)
{
	const struct hw_calib_kernel *g, *k3;
	struct hw_calib c, s;

	load(&c);
	g = &c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32];
	k3 = &c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32];
	ck_assert_int_eq(hw_calib_count(&c), 5);
	ck_assert_rel(g->fixed_s, 2.5e-3, 1e-12);
	ck_assert_rel(g->s_per_flop, 5e-12, 1e-12);
	ck_assert(g->s_per_byte == 0.0 && g->sigma[2] == 0.0);
	ck_assert_rel(g->sigma[1], 5e-14, 1e-12);
	ck_assert_rel(g->sigma[0], 2.5e-5, 1e-6);
	ck_assert_int_eq(g->fit.n_samples, 20);
	ck_assert_str_eq(g->fit.kind, "gemm:fp32");
	ck_assert_int_eq(c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP64].fit.id, 0);
	ck_assert_int_eq(c.kernel[MODEL_KERNEL_CONV][DLSIM_FP32].fit.id, 0);
	ck_assert_str_eq(k3->fit.kind, "conv3x3:fp32");
	ck_assert_rel(k3->fixed_s, 1e-5, 1e-12);
	ck_assert_rel(k3->s_per_byte, 1e-10, 1e-12);
	ck_assert_rel(k3->sigma[1], 1e-13, 1e-9);
	ck_assert_int_eq(c.n_levels, 2);
	ck_assert_rel(c.level_upto_bytes[0], 46340.95, 1e-6);
	ck_assert(isinf(c.level_upto_bytes[1]));
	ck_assert_rel(c.level_Bps[0], 4e11, 1e-12);
	ck_assert_rel(c.level_sigma_Bps[0], 4e9, 1e-9);
	/* 1.96 sigma faster: each term down, each rate up */
	hw_calib_shift(&c, 1.96, &s);
	ck_assert_rel(s.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32].s_per_flop,
		      5e-12 - 1.96 * 5e-14, 1e-9);
	ck_assert_rel(s.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32].fixed_s,
		      1e-5 - 1.96 * 1e-7, 1e-9);
	ck_assert_rel(s.level_Bps[0], 4e11 + 1.96 * 4e9, 1e-9);
	ck_assert_str_eq(c.stream.kind, "stream:triad");
	ck_assert_rel(c.mem_bw_Bps, 2e10, 1e-12);
	ck_assert_rel(c.mem_sigma_Bps, 1e8, 1e-12);
	ck_assert_int_eq(c.n_rings, 1);
	ck_assert_int_eq(c.intra.ranks, 4);
	ck_assert_rel(c.intra.alpha_s, 1e-5, 1e-12);
	ck_assert_rel(c.intra.beta_s_per_byte, 2e-10, 1e-12);
	ck_assert_rel(c.intra.sigma_beta, 2e-12, 1e-9);
	ck_assert_int_eq(c.inter.fit.id, 0);
}
END_TEST

/*
 * A row whose figures a fit cannot have -- a STREAM plateau of 0 B/s or
 * of text, a bandwidth level of 0, an allreduce whose large-message line
 * costs nothing a byte, a convolution roofline with a negative byte term,
 * a first-release GEMM fit whose half-rate FLOPs are negative (a negative
 * fixed time), rooflines finite but outside roof_in_bounds (a FLOP term
 * of 1e300 s, which made a step inf; one of 1e-20 s, 10^20 FLOP/s from
 * one device; a fixed time of two hours; a variance of 1e300; a
 * covariance with too few entries) -- is stored newer than the file comment's fits, so it
 * would win if it were read.  It is not: the loader keeps the older fit
 * (the values above), counts the row as damaged and names it, and
 * calibrate show lists it under what it skipped.  A point-to-point
 * latency line, which nothing costs with, is not judged.
 */
#define ROOF(fixed, flop, byte) "{\"benchmark\": \"conv\", \"group\": " \
	"\"dtype=fp32 class=3x3s1\", \"fixed_s\": " fixed ", " \
	"\"s_per_flop\": " flop ", \"s_per_byte\": " byte "}"
#define ROOF_COV "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]"

START_TEST(hwcalib_damaged_rows_are_named_not_taken)
{
	static const struct {
		const char *kind, *params, *cov;
	} bad[] = {
		{ "stream:triad", "{\"benchmark\": \"stream\", \"group\": "
		  "\"kernel=triad\", \"bw_Bps\": 0, \"from_bytes\": 1e8}",
		  "[[1e16]]" },
		{ "stream:triad", "{\"benchmark\": \"stream\", \"group\": "
		  "\"kernel=triad\", \"bw_Bps\": \"20 GB/s\", "
		  "\"from_bytes\": 1e8}", "[[1e16]]" },
		{ "bwcurve:triad", "{\"benchmark\": \"stream\", \"group\": "
		  "\"kernel=triad\", \"levels\": [{\"bytes_lo\": 4096, "
		  "\"bytes_hi\": 32768, \"Bps\": 0, \"n\": 4, "
		  "\"rel_rms\": 0.01}]}", "[[1.6e19]]" },
		{ "alphabeta:allreduce:4", "{\"benchmark\": \"allreduce\", "
		  "\"group\": \"ranks=4\", \"segments\": [{\"x_lo\": 8, "
		  "\"x_hi\": 6.7e7, \"alpha_s\": 1e-5, "
		  "\"beta_s_per_byte\": 0, \"n\": 5, \"rel_rms\": 0.01}]}",
		  "[[[1e-12, 0], [0, 1e-20]]]" },
		{ "conv3x3:fp32", "{\"benchmark\": \"conv\", \"group\": "
		  "\"dtype=fp32 class=3x3s1\", \"fixed_s\": 1e-5, "
		  "\"s_per_flop\": 1e-11, \"s_per_byte\": -1e-10}",
		  "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]" },
		{ "gemm:fp32", "{\"benchmark\": \"gemm\", \"group\": "
		  "\"dtype=fp32\", \"flops_max\": 2e11, \"flops_half\": "
		  "-5e8}", "[[4e18, 0], [0, 1]]" },
		{ "conv3x3:fp32", ROOF("1e-5", "1e300", "1e-10"), ROOF_COV },
		{ "conv3x3:fp32", ROOF("1e-5", "1e-20", "1e-10"), ROOF_COV },
		{ "conv3x3:fp32", ROOF("7200", "1e-11", "1e-10"), ROOF_COV },
		{ "conv3x3:fp32", ROOF("1e-5", "1e-11", "1e-10"),
		  "[[0, 0, 0], [0, 1e300, 0], [0, 0, 0]]" },
		{ "conv3x3:fp32", ROOF("1e-5", "1e-11", "1e-10"), "[[1]]" },
	};
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report rep;
	struct hw_calib c;
	struct tmpdb t;
	char what[64];
	size_t i;
	int64_t id;
	int k, named;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tmpdb_open(&t);
		put_fits(t.db, "box");
		put_fit(t.db, "box", "alphabeta:p2p_latency:2", "{\"benchmark"
			"\": \"p2p_latency\", \"group\": \"ranks=2\", "
			"\"segments\": [{\"x_lo\": 1, \"x_hi\": 8, "
			"\"alpha_s\": -1e-6, \"beta_s_per_byte\": 0, "
			"\"n\": 3, \"rel_rms\": 0.1}]}",
			"[[[0, 0], [0, 0]]]", 4000.0);
		id = put_fit(t.db, "box", bad[i].kind, bad[i].params,
			     bad[i].cov, 5000.0);
		ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert_msg(c.n_unreadable == 1, "case %zu", i);
		ck_assert_int_eq(c.unreadable_id, id);
		ck_assert_str_eq(c.unreadable_kind, bad[i].kind);
		ck_assert_rel(c.mem_bw_Bps, 2e10, 1e-12);
		ck_assert_rel(c.level_Bps[0], 4e11, 1e-12);
		ck_assert_rel(c.intra.beta_s_per_byte, 2e-10, 1e-12);
		ck_assert_rel(c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32]
			      .s_per_byte, 1e-10, 1e-12);
		ck_assert_rel(c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32]
			      .fixed_s, 2.5e-3, 1e-12);
		ck_assert_int_eq(cal_fit_load(t.db, "box", &rep, &err),
				 DLSIM_OK);
		snprintf(what, sizeof(what), "fit %lld (%s)", (long long)id,
			 bad[i].kind);
		for (k = named = 0; k < rep.n_skip; k++)
			named += strcmp(rep.skip[k].what, what) == 0;
		ck_assert_msg(named == 1, "case %zu", i);
		cal_fit_report_release(&rep);
		tmpdb_close(&t);
	}
	/* a good roofline made before 1970 (the insert stamps a time not
	 * above 0 as now, so the row is damaged by hand): its age would
	 * print as 10^30 */
	tmpdb_open(&t);
	id = put_fit(t.db, "box", "conv3x3:fp32", ROOF("1e-5", "1e-11",
		     "1e-10"), ROOF_COV, 5000.0);
	raw_exec(t.path, "UPDATE fits SET created_s = -1");
	ck_assert_int_eq(hw_calib_load(t.db, "box", &c, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_int_eq(hw_calib_count(&c), 0);
	ck_assert_int_eq(c.n_unreadable, 1);
	ck_assert_int_eq(c.unreadable_id, id);
	tmpdb_close(&t);
}
END_TEST

/*
 * An allreduce line fitted to noisy points may cross 0 below the sizes
 * it saw: its latency is taken as 0, not the fit left out.  At 8 ranks
 * t = -5e-5 s + 3e-10 s/B n gives the ring step alpha 0 and beta
 * 3e-10 x 8 / 14 s/B.
 */
START_TEST(hwcalib_allreduce_below_zero_latency_is_taken_as_zero)
{
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct tmpdb t;
	int i, found = 0;

	tmpdb_open(&t);
	put_fits(t.db, "box");
	put_fit(t.db, "box", "alphabeta:allreduce:8", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=8\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": -5e-5, "
		"\"beta_s_per_byte\": 3e-10, \"n\": 6, \"rel_rms\": 0.02}]}",
		"[[[1e-12, 0], [0, 1e-24]]]", 2000.0);
	ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(c.n_unreadable, 0);
	for (i = 0; i < c.n_rings; i++)
		if (c.rings[i].ranks == 8) {
			found = 1;
			ck_assert(c.rings[i].alpha_s == 0.0);
			ck_assert_rel(c.rings[i].beta_s_per_byte,
				      3e-10 * 8.0 / 14.0, 1e-12);
		}
	ck_assert(found);
	tmpdb_close(&t);
}
END_TEST

START_TEST(hwcalib_load_without_fits_is_not_found)
{
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct tmpdb t;

	tmpdb_open(&t);
	put_fits(t.db, "other");
	ck_assert_int_eq(hw_calib_load(t.db, "box", &c, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "'box'") != NULL);
	ck_assert_int_eq(hw_calib_count(&c), 0);
	tmpdb_close(&t);
}
END_TEST

/*
 * A system's kernels come from its device's name, else the same-chip
 * device's, else its node's; its collectives from its node's name, never
 * the same-chip device's (they measured another node).
 */
START_TEST(hwcalib_load_system_merges_device_and_node)
{
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct tmpdb t;
	struct rig r;

	rig_init(&r);
	tmpdb_open(&t);
	put_fits(t.db, "twin");
	ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
			 DLSIM_ENOTFOUND);
	snprintf(r.dev.calib_from, sizeof(r.dev.calib_from), "twin");
	ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_str_eq(c.hw, "twin");
	ck_assert_int_eq(hw_calib_count(&c), 4);
	ck_assert(c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32].fit.id != 0);
	ck_assert(c.stream.id != 0 && c.bwcurve.id != 0);
	ck_assert(c.n_rings == 0 && c.intra.fit.id == 0 &&
		  c.intra.beta_s_per_byte == 0.0);
	/* a twin at other clocks and memory (hw_catalog_check's scales:
	 * FP32 peak half this device's, bandwidth twice): time per FLOP
	 * doubles, time per byte halves, the memory level's bandwidth
	 * doubles and the cache level's halves (caches run at the core
	 * clock), each sigma with its figure; the fixed time stays */
	{
		struct hw_calib same = c;
		const struct hw_calib_kernel *k3 =
			&c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32],
			*s3 = &same.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32];

		ck_assert(s3->s_per_flop == 1e-11 && s3->s_per_byte == 1e-10 &&
			  same.n_levels == 2 && same.level_Bps[0] == 4e11 &&
			  same.level_Bps[1] == 2e10 && same.mem_bw_Bps > 0.0);
		r.dev.calib_flop_scale[DLSIM_FP32] = 2.0;
		r.dev.calib_byte_scale = 0.5;
		ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
				 DLSIM_OK);
		ck_assert_rel(k3->s_per_flop, 2e-11, 1e-12);
		ck_assert_rel(k3->sigma[1], 2.0 * s3->sigma[1], 1e-12);
		ck_assert_rel(k3->s_per_byte, 5e-11, 1e-12);
		ck_assert_rel(k3->sigma[2], 0.5 * s3->sigma[2], 1e-12);
		ck_assert_rel(k3->fixed_s, 1e-5, 1e-12);
		ck_assert_rel(c.mem_bw_Bps, 2.0 * same.mem_bw_Bps, 1e-12);
		ck_assert_rel(c.level_Bps[1], 4e10, 1e-12);
		ck_assert_rel(c.level_Bps[0], 2e11, 1e-12);
		ck_assert_rel(c.level_sigma_Bps[0], 2e9, 1e-9);
	}
	/* the node's collectives join the twin's kernels */
	put_fits(t.db, "box");
	ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
			 DLSIM_OK);
	ck_assert_str_eq(c.hw, "twin");
	ck_assert_int_eq(hw_calib_count(&c), 5);
	ck_assert_int_eq(c.intra.ranks, 4);
	ck_assert_rel(c.intra.beta_s_per_byte, 2e-10, 1e-12);
	/* the device's own kernels come first, and unscaled (the scales
	 * above still set) */
	put_fits(t.db, "dev");
	ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
			 DLSIM_OK);
	ck_assert_str_eq(c.hw, "dev");
	ck_assert_rel(c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32].s_per_flop,
		      1e-11, 1e-12);
	ck_assert_rel(c.level_Bps[0], 4e11, 1e-12);
	tmpdb_close(&t);
}
END_TEST

/*
 * An allreduce fit at 8 ranks on nodes of 4 spans two nodes: largest
 * segment t = 1.4e-4 + 7e-10 n, so the ring step is alpha = 1.4e-4 /
 * (2 x 7) = 1e-5 s and beta = 7e-10 x 8 / 14 = 4e-10 s/B.  A flat ring
 * over the 8 devices of two such nodes gives the fit back: 2 x 7 x (1e-5
 * + n / 8 x 4e-10) = 1.4e-4 + 7e-10 n, 840 us at n = 1e6.  Across nodes
 * each of the 4 devices of a node runs its own ring at once and gets a
 * quarter of what the measured ring got: beta 1.6e-9.  So the
 * hierarchical ring is cheaper: inside (reduce-scatter and allgather over
 * 4 on the intra fit) 2 x 3 x (1e-5 + n/4 x 2e-10) = 360 us, across (2
 * nodes, n/4 each) 2 x 1 x (1e-5 + n/8 x 1.6e-9) = 420 us: 780 us.
 */
/* An allreduce fit at 4 ranks, t = alpha + 3e-10 s/B n, under hw. */
static void put_ring4(struct db *db, const char *hw, const char *alpha)
{
	char params[512];

	snprintf(params, sizeof(params), "{\"benchmark\": \"allreduce\", "
		 "\"group\": \"ranks=4\", \"segments\": [{\"x_lo\": "
		 "65536, \"x_hi\": 6.7e7, \"alpha_s\": %s, "
		 "\"beta_s_per_byte\": 3e-10, \"n\": 5, \"rel_rms\": "
		 "0.01}]}", alpha);
	put_fit(db, hw, "alphabeta:allreduce:4", params,
		"[[[1e-12, 0], [0, 9e-24]]]", 2000.0);
}

/*
 * A node without collective fits of its own takes its calibration_from
 * node's (the same node type, measured under another name) that are at
 * most one node wide: the ring of the file comment's allreduce:4 fit
 * stored under "twinbox", not its 8-rank fit (across nodes: another
 * network), also when the node has kernel fits of its own; its own
 * collective fits, once stored, come first.
 */
START_TEST(hwcalib_node_takes_its_calibration_from)
{
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct tmpdb t;
	struct rig r;

	rig_init(&r);
	tmpdb_open(&t);
	put_ring4(t.db, "twinbox", "6e-5");
	put_fit(t.db, "twinbox", "alphabeta:allreduce:8", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=8\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 1e-4, "
		"\"beta_s_per_byte\": 1e-9, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 9e-24]]]", 2000.0);
	ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
			 DLSIM_ENOTFOUND);
	snprintf(r.node.calib_from, sizeof(r.node.calib_from), "twinbox");
	put_fit(t.db, "box", "gemm:fp32", "{\"benchmark\": \"gemm\", "
		"\"group\": \"dtype=fp32\", \"flops_max\": 1e11, "
		"\"flops_half\": 1e8}", "[[1e18, 0], [0, 1]]", 1000.0);
	ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(c.n_rings, 1);
	ck_assert_int_eq(c.intra.ranks, 4);
	ck_assert_rel(c.intra.alpha_s, 1e-5, 1e-12);
	ck_assert_rel(c.intra.beta_s_per_byte, 2e-10, 1e-12);
	/* the node's own allreduce fit wins: alpha 6e-5 / 6 -> 1.2e-4 / 6 */
	put_ring4(t.db, "box", "1.2e-4");
	ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
			 DLSIM_OK);
	ck_assert_rel(c.intra.alpha_s, 2e-5, 1e-12);
	tmpdb_close(&t);
}
END_TEST

START_TEST(hwcalib_inter_node_ring_from_a_fit_across_nodes)
{
	struct dlsim_err err = { 0, "" };
	struct hw_link nic;
	struct hw_calib c;
	struct tmpdb t;
	struct sim_topo topo;
	struct rig r;
	double t_ar;
	int hier = 0;

	rig_init(&r);
	two_nodes(&r, &nic);
	tmpdb_open(&t);
	put_fits(t.db, "box");
	put_inter_fit(t.db);
	ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
		      DLSIM_OK, "%s", err.msg);
	tmpdb_close(&t);
	ck_assert_int_eq(c.n_rings, 2);
	ck_assert_int_eq(c.intra.ranks, 4);
	ck_assert_int_eq(c.inter.ranks, 8);
	ck_assert_rel(c.inter.alpha_s, 1e-5, 1e-12);
	ck_assert_rel(c.inter.beta_s_per_byte, 4e-10, 1e-12);
	r.sys.calib = &c;
	sim_topology(&r.sys, &topo);
	ck_assert_rel(topo.flat.ring.L_s, 1e-5, 1e-12);
	ck_assert_rel(topo.flat.ring.G_s_per_byte, 4e-10, 1e-12);
	ck_assert_rel(topo.inter.ring.G_s_per_byte, 1.6e-9, 1e-12);
	t_ar = sim_allreduce_time(&r.sys, 1e6, SIM_ALGO_RING, NULL, &hier);
	ck_assert_rel(t_ar, 7.8e-4, 1e-9);
	ck_assert_int_eq(hier, 1);
}
END_TEST

/*
 * Fits across nodes at 16 and 32 ranks (one device a node, as DeepBench's
 * Xeon Phi runs): a system of n devices takes the fit nearest n, |log(r /
 * n)|: 16 for 8, 12 and 16 (log 4/3 < log 8/3), 32 for 24 and 64; the
 * largest was taken for every n before.  The 16-rank segment t = 3e-4 +
 * 3e-9 m gives a ring step of 3e-4 / 30 = 1e-5 s.
 */
START_TEST(hwcalib_inter_fit_nearest_the_ranks)
{
	static const struct {
		int64_t n, want;
	} cases[] = { { 8, 16 }, { 12, 16 }, { 16, 16 }, { 24, 32 },
		      { 64, 32 } };
	struct dlsim_err err = { 0, "" };
	struct hw_link nic;
	struct hw_calib c;
	struct tmpdb t;
	struct rig r;
	size_t i;

	rig_init(&r);
	memset(&nic, 0, sizeof(nic));
	nic.bandwidth_Bps = 1e10;
	nic.latency_s = 2e-6;
	r.sys.nic = &nic;
	r.sys.devices_per_node = 1;
	tmpdb_open(&t);
	put_fit(t.db, "box", "alphabeta:allreduce:16", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=16\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 3e-4, "
		"\"beta_s_per_byte\": 3e-9, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 1e-22]]]", 2000.0);
	put_fit(t.db, "box", "alphabeta:allreduce:32", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=32\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 6.2e-4, "
		"\"beta_s_per_byte\": 4e-9, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 1e-22]]]", 2000.0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r.sys.n_devices = r.sys.n_nodes = cases[i].n;
		ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert_int_eq(c.inter.ranks, cases[i].want);
		if (cases[i].want == 16)
			ck_assert_rel(c.inter.alpha_s, 1e-5, 1e-12);
	}
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The simulator                                                     */
/* ---------------------------------------------------------------- */

/*
 * A conv pass of 1e9 FLOPs and 1e3 bytes has no conv fit of its own, so
 * the GEMM roofline: 2.5e-3 + 1e9 x 5e-12 = 7.5 ms calibrated, 1e9 /
 * 1e12 = 1 ms from the datasheet.  A 3x3 conv pass of 1e9 FLOPs and 1e6
 * bytes: 1e-5 + 1e-2 + 1e-4 = 10.11 ms.  A memory-bound vector pass of
 * 1e9 bytes: 1e9 / 2e10 = 50 ms against 10 ms; one of 2e4 bytes fits the
 * first cache level: 2e4 / 4e11 = 50 ns against 2e4 / 1e11 = 200 ns.
 * A recurrent GEMM pass of 10 dependent steps (1e9 FLOPs, 1e3 bytes)
 * pays 10 launches of 5 us: 1 ms + 50 us; calibrated, 10 fixed costs:
 * 10 x 2.5e-3 + 1e9 x 5e-12 = 30 ms.
 */
START_TEST(hwcalib_roofline_uses_curve_and_plateau)
{
	struct model_pass_cost conv = { 1e9, 1e3, 0.0, 0.0,
					MODEL_KERNEL_CONV, 0.0, 0 };
	struct model_pass_cost c3 = { 1e9, 1e6, 0.0, 0.0,
				      MODEL_KERNEL_CONV3X3, 0.0, 0 };
	struct model_pass_cost vec = { 1e3, 1e9, 0.0, 0.0,
				       MODEL_KERNEL_VECTOR, 0.0, 0 };
	struct model_pass_cost small = { 1.0, 2e4, 0.0, 0.0,
					 MODEL_KERNEL_VECTOR, 0.0, 0 };
	struct model_pass_cost rnn = { 1e9, 1e3, 0.0, 0.0,
				       MODEL_KERNEL_GEMM, 10.0, 0 };
	struct hw_calib c;
	struct sim_roof roof;
	struct rig r;
	enum sim_bound b;

	rig_init(&r);
	load(&c);
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &conv, &b), 1e-3, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &vec, &b), 1e-2, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &small, &b), 2e-7, 1e-9);
	r.dev.launch_overhead_s = 5e-6;
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &rnn, &b), 1.05e-3, 1e-9);
	r.dev.launch_overhead_s = 0.0;
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
	ck_assert_rel(sim_pass_time(&roof, &rnn, &b), 3e-2, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &conv, &b), 7.5e-3, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_COMPUTE);
	ck_assert_rel(sim_pass_time(&roof, &c3, &b), 1.011e-2, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_COMPUTE);
	ck_assert_rel(sim_pass_time(&roof, &vec, &b), 5e-2, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_MEMORY);
	ck_assert_rel(sim_pass_time(&roof, &small, &b), 5e-8, 1e-9);
}
END_TEST

/*
 * A 1x1 stride-1 convolution pass (1e9 FLOPs, 1e6 bytes) on the "box"
 * fits takes, by hand:
 * - with no conv fit of either kind, the GEMM roofline: 2.5e-3 + 1e9 x
 *   5e-12 = 7.5 ms (no byte term);
 * - with a conv:fp32 fit (fixed 2e-5, 2e-11 s/FLOP, 1e-10 s/B), that
 *   one, which a calibration made before the 1x1 class fitted them in:
 *   2e-5 + 2e-2 + 1e-4 = 20.12 ms;
 * - with a conv1x1:fp32 fit (3e-5, 3e-11, 3e-10) as well, its own:
 *   3e-5 + 3e-2 + 3e-4 = 30.33 ms, while a conv of another class keeps
 *   20.12 ms, and so does a strided 1x1 one, whose class (conv1x1s) has
 *   no fit here: it takes the convolution fit, not the 1x1 one.
 * Element-wise work and a precision with no fit at all have none.
 */
START_TEST(hwcalib_conv1x1_falls_back_to_conv_then_gemm)
{
	static const double want[3] = { 7.5e-3, 20.12e-3, 30.33e-3 };
	struct model_pass_cost one = { 1e9, 1e6, 0.0, 0.0,
				       MODEL_KERNEL_CONV1X1, 0.0, 0 };
	struct model_pass_cost other = one, strided = one;
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct sim_roof roof;
	struct tmpdb t;
	struct rig r;
	enum sim_bound b;
	int i;

	rig_init(&r);
	other.kernel = MODEL_KERNEL_CONV;
	strided.kernel = MODEL_KERNEL_CONV1X1_STRIDED;
	tmpdb_open(&t);
	put_fits(t.db, "box");
	for (i = 0; i < 3; i++) {
		if (i == 1)
			put_fit(t.db, "box", "conv:fp32", "{\"benchmark\": "
				"\"conv\", \"group\": \"dtype=fp32 "
				"class=other\", \"fixed_s\": 2e-5, "
				"\"s_per_flop\": 2e-11, \"s_per_byte\": "
				"1e-10, \"flops_per_s\": 5e10}",
				"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
		if (i == 2)
			put_fit(t.db, "box", "conv1x1:fp32", "{\"benchmark\": "
				"\"conv\", \"group\": \"dtype=fp32 "
				"class=1x1s1\", \"fixed_s\": 3e-5, "
				"\"s_per_flop\": 3e-11, \"s_per_byte\": "
				"3e-10, \"flops_per_s\": 3.3e10}",
				"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
		ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV1X1,
					   DLSIM_FP32) ==
			  &c.kernel[i == 0 ? MODEL_KERNEL_GEMM : i == 1 ?
				    MODEL_KERNEL_CONV :
				    MODEL_KERNEL_CONV1X1][DLSIM_FP32]);
		sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
		ck_assert_rel(sim_pass_time(&roof, &one, &b), want[i], 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &other, &b),
			      want[i == 0 ? 0 : 1], 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &strided, &b),
			      want[i == 0 ? 0 : 1], 1e-9);
	}
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV1X1][DLSIM_FP32].fit.kind,
			 "conv1x1:fp32");
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_VECTOR, DLSIM_FP32) ==
		  NULL);
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV1X1, DLSIM_FP16) ==
		  NULL);
	/* only the 1x1 classes take the convolution fit: a 3x3 stride-1
	 * pass without its own takes the GEMM's */
	memset(&c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32], 0,
	       sizeof(c.kernel[0][0]));
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV3X3, DLSIM_FP32) ==
		  &c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32]);
	tmpdb_close(&t);
}
END_TEST

/* Ring allreduce over the 4 ranks the fit measured gives the fit back:
 * 2 x 3 x (1e-5 + n / 4 x 2e-10) = 6e-5 + 3e-10 n; n = 1e6 B: 360 us.
 * Uncalibrated: 6 x (1e-6 + 2.5e5 / 1e9) = 1.506 ms. */
START_TEST(hwcalib_collective_uses_fitted_alpha_beta)
{
	struct hw_calib c;
	struct rig r;

	rig_init(&r);
	load(&c);
	ck_assert_rel(sim_allreduce_time(&r.sys, 1e6, SIM_ALGO_RING, NULL,
					 NULL), 1.506e-3, 1e-9);
	r.sys.calib = &c;
	ck_assert_rel(sim_allreduce_time(&r.sys, 1e6, SIM_ALGO_RING, NULL,
					 NULL), 3.6e-4, 1e-9);
}
END_TEST

/*
 * A prediction that uses every kind of fit lists each once: ResNet-50
 * runs all five matrix classes (fc a GEMM, the 7x7/2 stem a plain
 * convolution, 3x3/1, 1x1/1 and the 1x1/2 shortcuts), each with a fit of
 * its own here, and on two nodes of four its gradients cross the
 * intra-node ring (allreduce:4) and the inter-node one (allreduce:8),
 * besides the triad plateau and curve: nine fits, SIM_CALIB_USED.
 */
START_TEST(hwcalib_prediction_lists_every_fit_it_used)
{
	static const char *const kinds[] = { "conv:fp32", "conv1x1:fp32",
					     "conv1x1s:fp32" };
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_link nic;
	struct hw_calib c;
	struct tmpdb t;
	struct rig r;
	char params[256];
	int i, j;

	rig_init(&r);
	two_nodes(&r, &nic);
	tmpdb_open(&t);
	put_fits(t.db, "box");
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "{\"benchmark\": \"conv\", "
			 "\"group\": \"dtype=fp32 class=%s\", \"fixed_s\": "
			 "1e-5, \"s_per_flop\": 1e-11, \"s_per_byte\": "
			 "1e-10, \"flops_per_s\": 1e11}",
			 i == 0 ? "other" : i == 1 ? "1x1s1" : "1x1strided");
		put_fit(t.db, "box", kinds[i], params,
			"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
	}
	put_inter_fit(t.db);
	ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
		      DLSIM_OK, "%s", err.msg);
	tmpdb_close(&t);
	r.sys.calib = &c;
	ck_assert_int_eq(model_zoo_build("resnet50", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &res, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV1X1_STRIDED][DLSIM_FP32]
			 .fit.kind, "conv1x1s:fp32");
	ck_assert_int_eq(res.n_calib_used, 9);
	/* a kernel class each but the vector one (9, the pooled recurrent
	 * one and the three cells' included, which ResNet-50 does not use)
	 * and four more */
	ck_assert_int_eq(SIM_CALIB_USED, 13);
	for (i = 0; i < res.n_calib_used; i++)
		for (j = 0; j < i; j++)
			ck_assert(res.calib_used[i].id !=
				  res.calib_used[j].id);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

START_TEST(hwcalib_interval_brackets_the_prediction)
{
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result plain, cal;
	struct hw_calib c;
	struct rig r;

	rig_init(&r);
	load(&c);
	ck_assert_int_eq(model_zoo_build("resnet18", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &plain, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_int_eq(plain.calibrated, 0);
	ck_assert(plain.step_time_s_low == plain.step_time_s);
	ck_assert(plain.step_time_s_high == plain.step_time_s);
	r.sys.calib = &c;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &cal, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_int_eq(cal.calibrated, 1);
	/* all five used, once each: fp32 GEMM (also for the convolutions
	 * that are not 3x3 stride 1), conv3x3, triad plateau and curve, and
	 * four devices in a node */
	ck_assert_int_eq(cal.n_calib_used, 5);
	ck_assert_str_eq(cal.calib_used[0].kind, "gemm:fp32");
	ck_assert_int_eq(cal.calib_used[0].id,
			 c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32].fit.id);
	ck_assert_str_eq(cal.calib_used[1].kind, "conv3x3:fp32");
	ck_assert_str_eq(cal.calib_used[2].kind, "stream:triad");
	ck_assert_str_eq(cal.calib_used[3].kind, "bwcurve:triad");
	ck_assert_str_eq(cal.calib_used[4].kind, "alphabeta:allreduce:4");
	ck_assert_int_eq(cal.calib_used[4].n_samples, 20);
	ck_assert(cal.step_time_s != plain.step_time_s);
	ck_assert(cal.step_time_s_low < cal.step_time_s);
	ck_assert(cal.step_time_s < cal.step_time_s_high);
	sim_result_release(&plain);
	sim_result_release(&cal);
	model_free(m);
}
END_TEST

Suite *suite_hwcalib(void)
{
	Suite *s = suite_create("hwcalib");
	TCase *tc = tcase_create("hwcalib");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, hwcalib_load_takes_newest_fits_as_by_hand);
	tcase_add_test(tc, hwcalib_load_without_fits_is_not_found);
	tcase_add_test(tc, hwcalib_damaged_rows_are_named_not_taken);
	tcase_add_test(tc, hwcalib_allreduce_below_zero_latency_is_taken_as_zero);
	tcase_add_test(tc, hwcalib_load_system_merges_device_and_node);
	tcase_add_test(tc, hwcalib_node_takes_its_calibration_from);
	tcase_add_test(tc, hwcalib_inter_node_ring_from_a_fit_across_nodes);
	tcase_add_test(tc, hwcalib_inter_fit_nearest_the_ranks);
	tcase_add_test(tc, hwcalib_roofline_uses_curve_and_plateau);
	tcase_add_test(tc, hwcalib_conv1x1_falls_back_to_conv_then_gemm);
	tcase_add_test(tc, hwcalib_collective_uses_fitted_alpha_beta);
	tcase_add_test(tc, hwcalib_interval_brackets_the_prediction);
	tcase_add_test(tc, hwcalib_prediction_lists_every_fit_it_used);
	suite_add_tcase(s, tc);
	return s;
}
