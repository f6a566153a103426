/*
 * test_hwcalib.c -- a system's calibration (hw/hw_calib.c) as it is
 * read: synthetic fits stored with db_fit_insert in a temporary database
 * are read back as worked out by hand, damaged rows are named and left
 * out, and a system merges its device's and node's fits.
 * test_hwcalib_sim.c runs the simulator on the same fits (they change
 * the roofline's rates and the intra-node collective's alpha and beta
 * exactly, and give a prediction an interval that brackets it; without a
 * calibration nothing changes); test_hwcalib_cli.c takes them through
 * the command line.
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
 *                from 64 KiB (sigmas 4e9, 1e8): the boundary is sqrt(32768 x 65536) =
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
/* Loading                                                           */
/* ---------------------------------------------------------------- */

START_TEST(hwcalib_load_takes_newest_fits_as_by_hand)
{
	const struct hw_calib_kernel *g, *k3;
	struct hw_calib c, s;

	calib_load(&c);
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
	struct calib_rig r;

	calib_rig_init(&r);
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
	 * clock), each sigma with its figure; the fixed time stays.  By
	 * hand from the file comment: conv3x3 2e-11 s/FLOP (sigma 2e-13),
	 * 5e-11 s/B (sigma 5e-13); the triad plateau 4e10 B/s (sigma
	 * 2e8); the levels 2e11 (sigma 2e9) and 4e10 B/s (sigma 2e8) */
	{
		struct hw_calib same = c;
		const struct hw_calib_kernel *k3 =
			&c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32],
			*s3 = &same.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32];

		ck_assert(s3->s_per_flop == 1e-11 && s3->s_per_byte == 1e-10 &&
			  same.n_levels == 2 && same.level_Bps[0] == 4e11 &&
			  same.level_Bps[1] == 2e10 && same.mem_bw_Bps == 2e10);
		r.dev.calib_flop_scale[DLSIM_FP32] = 2.0;
		r.dev.calib_byte_scale = 0.5;
		ck_assert_int_eq(hw_calib_load_system(t.db, &r.sys, &c, &err),
				 DLSIM_OK);
		ck_assert_rel(k3->s_per_flop, 2e-11, 1e-12);
		ck_assert_rel(k3->sigma[1], 2e-13, 1e-9);
		ck_assert_rel(k3->s_per_byte, 5e-11, 1e-12);
		ck_assert_rel(k3->sigma[2], 5e-13, 1e-9);
		ck_assert_rel(k3->fixed_s, 1e-5, 1e-12);
		ck_assert_rel(c.mem_bw_Bps, 4e10, 1e-12);
		ck_assert_rel(c.mem_sigma_Bps, 2e8, 1e-9);
		ck_assert_rel(c.level_Bps[1], 4e10, 1e-12);
		ck_assert_rel(c.level_sigma_Bps[1], 2e8, 1e-9);
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
	struct calib_rig r;

	calib_rig_init(&r);
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
	struct calib_rig r;
	double t_ar;
	int hier = 0;

	calib_rig_init(&r);
	calib_rig_two_nodes(&r, &nic);
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
	struct calib_rig r;
	size_t i;

	calib_rig_init(&r);
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
	suite_add_tcase(s, tc);
	return s;
}
