/*
 * test_calrnn.c -- recurrent kernels as calibration data: the counts a
 * DeepBench recurrent pass is fitted with (cal_rnn_pass_cost, by hand),
 * the roofline's per-call term (cal_fit_roofline with calls), each
 * cell's fit ("rnn_lstm:<dtype>", ...) stored from imported samples and
 * read back, the order a cell takes fits in (its own, every cell's
 * "rnn:<dtype>", the GEMM's), and the simulator's recurrent pass with
 * and without such a fit.
 *
 * The synthetic recurrent kernel: t = 40 us + calls x 15 us + F / 2e13
 * + Q / 4e11 (a cost per call, one per dependent step's kernel, as a
 * cuDNN RNN's steps pay), +-1% noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "hwcalib_util.h"
#include "dlsim.h"
#include "calibrate/cal.h"
#include "models/model.h"
#include "sim/sim.h"

#define T_ONCE 40e-6
#define T_CALL 15e-6
#define RATE 2e13
#define BW 4e11

static double synthetic(double F, double Q, double L, unsigned long *st)
{
	return (T_ONCE + L * T_CALL + F / RATE + Q / BW) *
	       (1.0 + 0.02 * calib_noise(st));
}

/* ---------------------------------------------------------------- */
/* Counts                                                            */
/* ---------------------------------------------------------------- */

/*
 * A vanilla RNN (G = 1) of H = 3 over T = 3 steps, batch n = 2, 1-wide
 * input, two bias vectors, fp32: s = n T = 6 cell evaluations.
 *   fwd: MACs n T H (I + H) = 2 x 3 x 3 x 4 = 72, FLOPs 144 + the
 *   element-wise 6 x 3 x 8 = 144: 288.  Bytes 4 x (x 6 + y 18 + s H
 *   (3G + 2) = 90) = 456, weights 4 x (G H I 3 + T G H H 27 + 2 G H 6)
 *   = 144: 600.  Less the input GEMM, which DeepBench skips: 2 s G H I
 *   = 36 FLOPs, bytes 4 x (x 6 + the pre-activations s G H 18) + 4 x
 *   weight_ih 3 = 108, one call: 252 FLOPs, 492 bytes, calls 2T = 6
 *   (each step's GEMM and element-wise).
 *   bwd (data): FLOPs 144 + 6 x 3 x 3 = 198; bytes 4 x (6 + 18 + s H
 *   (3G + 1) = 72) = 384 + 144 = 528; less the same input GEMM (dx =
 *   W_ih^T dgates): 162 FLOPs, 420 bytes, calls 6.
 *   The weight gradient is one GEMM (class GEMM, one call).
 */
START_TEST(rnn_pass_cost_by_hand)
{
	struct model_pass_cost c;

	ck_assert_int_eq(cal_rnn_pass_cost(MODEL_RNN, 3, 2, 3, MODEL_PASS_FWD,
					   4, &c), 0);
	ck_assert(c.flops == 252.0 && c.bytes == 492.0 && c.launches == 6.0);
	ck_assert(c.gemm_flops == 0.0 && c.gemm_bytes == 0.0);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_RNN_TANH);
	ck_assert_int_eq(cal_rnn_pass_cost(MODEL_RNN, 3, 2, 3,
					   MODEL_PASS_BWD_DATA, 4, &c), 0);
	ck_assert(c.flops == 162.0 && c.bytes == 420.0 && c.launches == 6.0);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_RNN_TANH);
	ck_assert_int_eq(cal_rnn_pass_cost(MODEL_RNN, 3, 2, 3,
					   MODEL_PASS_BWD_WEIGHT, 4, &c), 0);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_GEMM);
	/* dw: MACs s H (I + H) = 6 x 3 x 4 = 72, 144 FLOPs, + the two
	 * bias gradients' sums s H = 18: 162 FLOPs; bytes 4 x (x 6 + the
	 * gates and states read, s H x 2 = 36) + 4 x the 18 parameters
	 * (3 x (1 + 3) + 2 x 3) = 168 + 72 = 240 (test_model_rnn.c's
	 * vanilla_rnn_counts_by_hand with I = 1); no input GEMM to take
	 * out; one kernel (launches 0 or 1: one) */
	ck_assert(c.flops == 162.0 && c.bytes == 240.0);
	ck_assert(c.gemm_flops == 0.0 && c.gemm_bytes == 0.0);
	ck_assert(c.launches <= 1.0);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The fit                                                           */
/* ---------------------------------------------------------------- */

/*
 * 24 passes of hidden 256 .. 4096, batch 16 .. 128 and 25 .. 1500
 * steps, so that calls, FLOPs and bytes are told apart: all four terms
 * come back within 3 sigma, and the time the fit gives a pass adds the
 * four up.
 */
START_TEST(fit_roofline_recovers_a_per_call_term)
{
	double F[24], Q[24], L[24], t[24];
	struct cal_roof_fit f;
	unsigned long st = 99;
	int i;

	for (i = 0; i < 24; i++) {
		double h = 256.0 * pow(2.0, i % 5), n = 16.0 * (1 << (i % 4));
		double T = i % 3 == 0 ? 25.0 : i % 3 == 1 ? 150.0 : 1500.0;

		F[i] = 2.0 * n * T * 4.0 * h * h;
		Q[i] = 4.0 * T * 4.0 * h * h;
		L[i] = 2.0 * T;
		t[i] = synthetic(F[i], Q[i], L[i], &st);
	}
	ck_assert_int_eq(cal_fit_roofline(F, Q, L, t, 24, CAL_ROOF_SQUARES, &f,
					  NULL),
			 DLSIM_OK);
	ck_assert_uint_eq(f.terms, 15u);
	ck_assert_msg(fabs(f.fixed_s - T_ONCE) <= 3.0 * sqrt(f.cov[0][0]),
		      "fixed = %g +- %g", f.fixed_s, sqrt(f.cov[0][0]));
	ck_assert_msg(fabs(f.s_per_call - T_CALL) <= 3.0 * sqrt(f.cov[3][3]),
		      "s/call = %g +- %g", f.s_per_call, sqrt(f.cov[3][3]));
	ck_assert_msg(fabs(f.s_per_flop - 1.0 / RATE) <=
		      3.0 * sqrt(f.cov[1][1]), "s/flop = %g", f.s_per_flop);
	ck_assert_msg(fabs(f.s_per_byte - 1.0 / BW) <= 3.0 * sqrt(f.cov[2][2]),
		      "s/byte = %g", f.s_per_byte);
	/* the time a fit gives a pass, its four terms set by hand: 40 us
	 * once + 1e12 FLOPs x 1e-12 + 1e9 B x 1e-10 + 100 calls x 15 us =
	 * 4e-5 + 1 + 0.1 + 1.5e-3 = 1.10154 s */
	memset(&f, 0, sizeof(f));
	f.fixed_s = 40e-6;
	f.s_per_flop = 1e-12;
	f.s_per_byte = 1e-10;
	f.s_per_call = 15e-6;
	ck_assert_rel(cal_roof_time(&f, 1e12, 1e9, 100.0), 1.10154, 1e-12);
}
END_TEST

START_TEST(fit_roofline_refuses_fewer_than_one_call)
{
	double F[3] = { 1e9, 2e9, 3e9 }, Q[3] = { 1e6, 2e6, 3e6 };
	double L[3] = { 2.0, 0.5, 8.0 }, t[3] = { 1e-3, 2e-3, 3e-3 };
	struct cal_roof_fit f;
	struct dlsim_err err = { 0, "" };

	ck_assert_int_eq(cal_fit_roofline(F, Q, L, t, 3, CAL_ROOF_SQUARES, &f,
					  &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "point 1") &&
		      strstr(err.msg, "calls at least 1"), "%s", err.msg);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Stored, read back, used                                           */
/* ---------------------------------------------------------------- */

static void rnn_sample(struct db_sample *s, const char *cell, int h,
		       int n, int T, const char *pass, double value)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->benchmark, sizeof(s->benchmark), "rnn");
	snprintf(s->params, sizeof(s->params), "cell=%s hidden=%d n=%d "
		 "timesteps=%d pass=%s dtype=fp32 math=fp32 "
		 "setting=training device=Synth", cell, h, n, T, pass);
	snprintf(s->unit, sizeof(s->unit), "s");
	s->rep = -1;
	s->value = value;
}

/* 30 recurrent passes (LSTM and GRU, fwd and bwd) timed by the
 * synthetic kernel, whose counts are the simulator's, and 3 weight
 * gradients, which no recurrent fit takes, on hardware "rnnbox". */
static void store_rnn(struct db *db)
{
	static const char *const cells[] = { "lstm", "gru" };
	struct db_sample s[40];
	unsigned long st = 7;
	int i, n = 0;

	for (i = 0; i < 30; i++) {
		int h = 256 << (i % 4), b = 16 << (i % 3);
		int T = i % 5 < 2 ? 25 : i % 5 < 4 ? 150 : 750;
		enum model_pass p = i % 2 ? MODEL_PASS_BWD_DATA :
			MODEL_PASS_FWD;
		struct model_pass_cost c;

		ck_assert_int_eq(cal_rnn_pass_cost(i % 4 < 2 ? MODEL_LSTM :
						   MODEL_GRU, h, b, T, p, 4,
						   &c), 0);
		rnn_sample(&s[n++], cells[i % 4 < 2 ? 0 : 1], h, b, T,
			   i % 2 ? "bwd" : "fwd",
			   synthetic(c.flops, c.bytes, c.launches, &st));
	}
	for (i = 0; i < 3; i++)
		rnn_sample(&s[n++], "lstm", 512, 32, 25, "bwd_weights", 1e-3);
	put_samples(db, "rnnbox", s, n);
}

/* Each cell's fit is stored, "rnn_lstm:fp32" and "rnn_gru:fp32" (16 and
 * 14 of the 30 passes), with its per-call term, and comes back from the
 * database with it; the weight gradients are passed over, with the
 * reason. */
START_TEST(cal_fit_rnn_is_stored_and_read_back)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *f;
	struct tmpdb t;
	int i, passed = 0;

	tmpdb_open(&t);
	store_rnn(t.db);
	ck_assert_msg(cal_fit_hw(t.db, "rnnbox", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_fit, 2);
	ck_assert(fit_find(&r, "rnn_gru:fp32") != NULL);
	ck_assert_int_eq(fit_find(&r, "rnn_gru:fp32")->n_samples, 14);
	f = fit_find(&r, "rnn_lstm:fp32");
	ck_assert(f != NULL && cal_fitted_has_calls(f));
	ck_assert_str_eq(f->group, "dtype=fp32 math=fp32 setting=training "
			 "device=Synth class=lstm");
	ck_assert_int_eq(f->n_samples, 16);
	ck_assert_msg(fabs(f->roof.s_per_call - T_CALL) <=
		      3.0 * sqrt(f->roof.cov[3][3]), "s/call = %g +- %g",
		      f->roof.s_per_call, sqrt(f->roof.cov[3][3]));
	/* no once-a-pass term (cal_fitmodels.c) */
	ck_assert(f->roof.fixed_s == 0.0 && !(f->roof.terms & 1u));
	for (i = 0; i < r.n_skip; i++)
		passed |= strstr(r.skip[i].what, "rnn (3 samples)") &&
			  strstr(r.skip[i].why, "one GEMM");
	ck_assert(passed);
	cal_fit_report_release(&r);
	ck_assert_int_eq(cal_fit_load(t.db, "rnnbox", &r, &err), DLSIM_OK);
	f = fit_find(&r, "rnn_lstm:fp32");
	ck_assert(f != NULL && f->model == CAL_MODEL_ROOFLINE);
	ck_assert_msg(fabs(f->roof.s_per_call - T_CALL) <=
		      3.0 * sqrt(f->roof.cov[3][3]), "read back: %g",
		      f->roof.s_per_call);
	ck_assert(f->roof.terms & 8u);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

/*
 * The simulator's recurrent pass of 6 calls, 252 FLOPs and 492 bytes:
 * with a recurrent fit (fixed 40 us once, 15 us a call, 1e-12 s a FLOP,
 * 1e-10 s a byte) 40 + 90 + 0.000252 + 0.0492 us; with only a GEMM fit
 * (fixed 5 us, measured on single calls) its fixed cost each call: 30 +
 * the same rate terms.
 */
START_TEST(sim_recurrent_pass_pays_per_call)
{
	struct model_pass_cost c;
	struct hw_calib cal;
	struct hw_device d;
	struct sim_roof r;
	struct hw_calib_kernel *g = &cal.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32];
	struct hw_calib_kernel *k =
		&cal.kernel[MODEL_KERNEL_RECURRENT][DLSIM_FP32];
	enum sim_bound b;

	memset(&cal, 0, sizeof(cal));
	memset(&d, 0, sizeof(d));
	d.peak[DLSIM_FP32].matrix_flops = 1e13;
	d.peak[DLSIM_FP32].eff_gemm = 0.5;
	d.mem[0].bandwidth_Bps = 1e12;
	d.eff_memory = 1.0;
	ck_assert_int_eq(cal_rnn_pass_cost(MODEL_RNN, 3, 2, 3, MODEL_PASS_FWD,
					   4, &c), 0);
	g->fixed_s = 5e-6;
	g->s_per_flop = 1e-12;
	g->s_per_byte = 1e-10;
	g->fit.id = 1;
	sim_roof_init(&r, &d, DLSIM_FP32, &cal);
	ck_assert_double_eq_tol(sim_pass_time(&r, &c, &b),
				6.0 * 5e-6 + 252e-12 + 492e-10, 1e-15);
	k->fixed_s = 40e-6;
	k->s_per_call = 15e-6;
	k->s_per_flop = 1e-12;
	k->s_per_byte = 1e-10;
	k->per_call = 1;
	k->fit.id = 2;
	sim_roof_init(&r, &d, DLSIM_FP32, &cal);
	ck_assert_double_eq_tol(sim_pass_time(&r, &c, &b),
				40e-6 + 6.0 * 15e-6 + 252e-12 + 492e-10,
				1e-15);
	ck_assert_int_eq(b, SIM_BOUND_LATENCY);
	/* a layer's pass with its input GEMM (model_pass_cost.gemm_flops):
	 * the GEMM by the GEMM fit, 5e-6 + 200e-12 + 100e-10, one of the 7
	 * launches; the recurrence by its own, 40e-6 + 6 x 15e-6 + (1000 -
	 * 200) e-12 + (500 - 100) e-10 */
	memset(&c, 0, sizeof(c));
	c.flops = 1000.0;
	c.bytes = 500.0;
	c.kernel = MODEL_KERNEL_RNN_TANH;
	c.launches = 7.0;
	c.gemm_flops = 200.0;
	c.gemm_bytes = 100.0;
	c.gemm_kernel = MODEL_KERNEL_GEMM;
	ck_assert_double_eq_tol(sim_pass_time(&r, &c, &b),
				5e-6 + 200e-12 + 100e-10 + 40e-6 +
				6.0 * 15e-6 + 800e-12 + 400e-10, 1e-15);
}
END_TEST

/* An LSTM of 256 over 25 steps, batch 16, and nothing else. */
static struct model *lstm_only(void)
{
	struct model_builder b;
	struct model_shape in = { 1, 25, 1 };
	struct model *m = NULL;

	model_builder_init(&b, "lstm-only", in, 16, "test");
	ck_assert_int_ge(model_add_rnn(&b, MODEL_LSTM, MODEL_IN, "rnn", 256,
				       0, 1), 0);
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	return m;
}

#define GEMM_FIT "{\"benchmark\": \"gemm\", \"group\": \"dtype=fp32\", " \
	"\"fixed_s\": 5e-6, \"s_per_flop\": 1e-13, \"s_per_byte\": 1e-12, " \
	"\"flops_per_s\": 1e13}"
#define COV3 "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]"
#define COV4 "[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]"

/* v100 with the fits stored in a new database: its calibration into
 * *cal (the caller's system points at it). */
static void load_v100(const char *rnn_params, struct hw_system *s,
		      struct hw_calib *cal, struct hw_catalog **cat)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;

	ck_assert(hw_catalog_load(NULL, cat, &err) == DLSIM_OK);
	ck_assert(hw_system_resolve(*cat, "v100", s, NULL) == DLSIM_OK);
	tmpdb_open(&t);
	put_fit(t.db, "v100", "gemm:fp32", GEMM_FIT, COV3, 2000.0);
	if (rnn_params)
		put_fit(t.db, "v100", "rnn:fp32", rnn_params, COV4, 2000.0);
	ck_assert_msg(hw_calib_load_system(t.db, s, cal, &err) == DLSIM_OK,
		      "%s", err.msg);
	tmpdb_close(&t);
	s->calib = cal;
}

/*
 * A cell's own fit wins over every cell's (the pooled "rnn:" fit earlier
 * versions stored), which a cell without one of its own takes, and
 * without either a cell takes the GEMM fit: LSTM its own, GRU the
 * pooled, and, with no pooled fit, GRU the GEMM's.
 */
START_TEST(cell_fit_then_pooled_then_gemm)
{
	static const char lstm[] = "{\"benchmark\": \"rnn\", \"group\": "
		"\"dtype=fp32 class=lstm\", \"fixed_s\": 5e-5, "
		"\"s_per_flop\": 2e-13, \"s_per_byte\": 0, "
		"\"s_per_call\": 7e-6}";
	static const char pooled[] = "{\"benchmark\": \"rnn\", \"group\": "
		"\"dtype=fp32\", \"fixed_s\": 4e-5, \"s_per_flop\": 1e-13, "
		"\"s_per_byte\": 0, \"s_per_call\": 5e-6}";
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct tmpdb t;
	int pass;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100", &s, NULL) == DLSIM_OK);
	for (pass = 0; pass < 2; pass++) {
		tmpdb_open(&t);
		put_fit(t.db, "v100", "gemm:fp32", GEMM_FIT, COV3, 2000.0);
		put_fit(t.db, "v100", "rnn_lstm:fp32", lstm, COV4, 2000.0);
		if (pass == 0)
			put_fit(t.db, "v100", "rnn:fp32", pooled, COV4,
				2000.0);
		ck_assert_msg(hw_calib_load_system(t.db, &s, &cal, &err) ==
			      DLSIM_OK, "%s", err.msg);
		tmpdb_close(&t);
		ck_assert(sim_calib_kernel(&cal, MODEL_KERNEL_LSTM,
					   DLSIM_FP32)->s_per_call == 7e-6);
		ck_assert_str_eq(sim_calib_kernel(&cal, MODEL_KERNEL_GRU,
						  DLSIM_FP32)->fit.kind,
				 pass == 0 ? "rnn:fp32" : "gemm:fp32");
		ck_assert_str_eq(sim_calib_kernel(&cal, MODEL_KERNEL_RNN_TANH,
						  DLSIM_FP32)->fit.kind,
				 pass == 0 ? "rnn:fp32" : "gemm:fp32");
	}
	hw_catalog_free(cat);
}
END_TEST

/* A model whose only matrix layer is recurrent runs both fits: its
 * forward and backward-data passes the recurrent one, its weight
 * gradient the GEMM one; the prediction names them both. */
START_TEST(prediction_names_the_recurrent_and_the_gemm_fit)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;
	struct hw_calib cal;
	struct model *m = lstm_only();
	int i, gemm = 0, rnn = 0;

	load_v100("{\"benchmark\": \"rnn\", \"group\": \"dtype=fp32\", "
		  "\"fixed_s\": 4e-5, \"s_per_flop\": 1e-13, \"s_per_byte\": "
		  "1e-12, \"s_per_call\": 1.5e-5, \"flops_per_s\": 1e13}", &s,
		  &cal, &cat);
	ck_assert_int_eq(cal.kernel[MODEL_KERNEL_RECURRENT][DLSIM_FP32]
			 .per_call, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_msg(sim_predict(m, &s, &o, &res, &err) == DLSIM_OK, "%s",
		      err.msg);
	for (i = 0; i < res.n_calib_used; i++) {
		gemm += strcmp(res.calib_used[i].kind, "gemm:fp32") == 0;
		rnn += strcmp(res.calib_used[i].kind, "rnn:fp32") == 0;
	}
	ck_assert(gemm == 1 && rnn == 1);
	sim_result_release(&res);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * In 16 bits a layer on a 1-wide input (I = 1: 2 bytes, off 16-byte
 * rows) runs its input GEMM in the unaligned class: the prediction names
 * that fit too, besides the cell's (forward, backward-data) and the
 * GEMM's (the weight gradient).
 */
START_TEST(prediction_names_the_input_gemm_fit)
{
	static const char *const kinds[] = { "gemm:fp16",
					     "gemm_unaligned:fp16",
					     "rnn_lstm:fp16" };
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;
	struct hw_calib cal;
	struct model *m = lstm_only();
	struct tmpdb t;
	size_t k;
	int i, seen;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100", &s, NULL) == DLSIM_OK);
	tmpdb_open(&t);
	put_fit(t.db, "v100", "gemm:fp16", GEMM_FIT, COV3, 2000.0);
	put_fit(t.db, "v100", "gemm_unaligned:fp16", GEMM_FIT, COV3, 2000.0);
	put_fit(t.db, "v100", "rnn_lstm:fp16", "{\"benchmark\": \"rnn\", "
		"\"group\": \"dtype=fp16 class=lstm\", \"fixed_s\": 0, "
		"\"s_per_flop\": 1e-14, \"s_per_byte\": 1e-12, "
		"\"s_per_call\": 1.5e-5}", COV4, 2000.0);
	ck_assert_msg(hw_calib_load_system(t.db, &s, &cal, &err) == DLSIM_OK,
		      "%s", err.msg);
	tmpdb_close(&t);
	s.calib = &cal;
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP16;
	ck_assert_msg(sim_predict(m, &s, &o, &res, &err) == DLSIM_OK, "%s",
		      err.msg);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (i = 0, seen = 0; i < res.n_calib_used; i++)
			seen += strcmp(res.calib_used[i].kind, kinds[k]) == 0;
		ck_assert_msg(seen == 1, "%s named %d times", kinds[k], seen);
	}
	sim_result_release(&res);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/* A recurrent fit whose per-call term is missing, not a number or
 * negative is not used (the GEMM fit costs the passes, its fixed cost
 * per call); a GEMM fit needs none. */
START_TEST(recurrent_fit_without_a_valid_per_call_term_is_not_used)
{
	static const char *const bad[] = {
		"{\"benchmark\": \"rnn\", \"group\": \"dtype=fp32\", "
		"\"fixed_s\": 4e-5, \"s_per_flop\": 1e-13, \"s_per_byte\": "
		"1e-12}",
		"{\"benchmark\": \"rnn\", \"group\": \"dtype=fp32\", "
		"\"fixed_s\": 4e-5, \"s_per_flop\": 1e-13, \"s_per_byte\": "
		"1e-12, \"s_per_call\": \"15 us\"}",
		"{\"benchmark\": \"rnn\", \"group\": \"dtype=fp32\", "
		"\"fixed_s\": 4e-5, \"s_per_flop\": 1e-13, \"s_per_byte\": "
		"1e-12, \"s_per_call\": -1.5e-5}",
	};
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct hw_calib cal;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load_v100(bad[i], &s, &cal, &cat);
		ck_assert_msg(cal.kernel[MODEL_KERNEL_RECURRENT][DLSIM_FP32]
			      .fit.id == 0, "case %zu", i);
		/* counted as damaged, for the command line to name */
		ck_assert_int_eq(cal.n_unreadable, 1);
		ck_assert_str_eq(cal.unreadable_kind, "rnn:fp32");
		ck_assert(cal.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32].fit.id);
		ck_assert(sim_calib_kernel(&cal, MODEL_KERNEL_RECURRENT,
					   DLSIM_FP32) ==
			  &cal.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32]);
		hw_catalog_free(cat);
	}
}
END_TEST

Suite *suite_calrnn(void)
{
	Suite *s = suite_create("calrnn");
	TCase *c = tcase_create("calrnn");

	tcase_add_test(c, rnn_pass_cost_by_hand);
	tcase_add_test(c, fit_roofline_recovers_a_per_call_term);
	tcase_add_test(c, fit_roofline_refuses_fewer_than_one_call);
	tcase_add_test(c, cal_fit_rnn_is_stored_and_read_back);
	tcase_add_test(c, sim_recurrent_pass_pays_per_call);
	tcase_add_test(c, prediction_names_the_recurrent_and_the_gemm_fit);
tcase_add_test(c, prediction_names_the_input_gemm_fit);
	tcase_add_test(c, cell_fit_then_pooled_then_gemm);
	tcase_add_test(c, recurrent_fit_without_a_valid_per_call_term_is_not_used);
	suite_add_tcase(s, c);
	return s;
}
