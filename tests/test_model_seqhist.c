/*
 * test_model_seqhist.c -- sequences of many lengths: a histogram read into
 * bins (models/model_seqhist.c), a zoo model rebuilt at a length, and the
 * step mixed over the bins (sim/sim_binned.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"

/* Lengths 3 (2 sequences), 5 (1), 64 (1) in bins of 4: bin 0 holds the
 * two of 3, padded to 3 (its longest, not its top, 4); bin 1 the 5,
 * padded to 5; bin 15 the 64.  Bins 2-14 are empty and left out.  Mean
 * length (2 x 3 + 5 + 64) / 4 = 18.75; mean padded 0.5 x 3 + 0.25 x 5 +
 * 0.25 x 64 = 18.75 too (every bin's longest is its only length). */
START_TEST(seq_bins_keep_each_bins_longest)
{
	static const char text[] = "length,count,source\n3,2,a\n5,1,a\n"
				   "7,0,a\n\n64,1,a\n";
	struct model_seq_bins b;
	struct dlsim_err err = { 0, "" };

	ck_assert_int_eq(model_seq_bins_read(text, sizeof(text) - 1, "h.csv",
					     4, &b, &err), DLSIM_OK);
	ck_assert_int_eq(b.n, 3);
	ck_assert_int_eq(b.width, 4);
	ck_assert_int_eq(b.padded[0], 3);
	ck_assert_int_eq(b.padded[1], 5);
	ck_assert_int_eq(b.padded[2], 64);
	ck_assert_rel(b.share[0], 0.5, 1e-15);
	ck_assert_rel(b.share[1], 0.25, 1e-15);
	ck_assert_rel(b.share[2], 0.25, 1e-15);
	ck_assert(b.sequences == 4.0);
	ck_assert_rel(b.mean_length, 18.75, 1e-15);
	ck_assert_rel(b.mean_padded, 18.75, 1e-15);
	ck_assert_int_eq(b.longest, 64);
	/* one bin of 64: every sequence padded to 64 */
	ck_assert_int_eq(model_seq_bins_read(text, sizeof(text) - 1, "h.csv",
					     64, &b, &err), DLSIM_OK);
	ck_assert_int_eq(b.n, 1);
	ck_assert_int_eq(b.padded[0], 64);
	ck_assert_rel(b.mean_padded, 64.0, 1e-15);
	/* "sequences" may name the count; CRLF lines */
	{
		static const char crlf[] = "length,sequences\r\n8,3\r\n";

		ck_assert_int_eq(model_seq_bins_read(crlf, sizeof(crlf) - 1,
						     "h.csv", 8, &b, &err),
				 DLSIM_OK);
		ck_assert_int_eq(b.padded[0], 8);
	}
	/* a UTF-8 byte-order mark before the header is skipped, as the
	 * other CSV readers skip it: it was read into the header, refused
	 * as "expected a header 'length,count' (got 'length,count')" */
	{
		static const char bom[] = "\xef\xbb\xbflength,count\r\n"
					  "8,3\r\n";

		memset(&b, 0, sizeof(b));
		ck_assert_msg(model_seq_bins_read(bom, sizeof(bom) - 1,
						  "h.csv", 8, &b, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert_int_eq(b.n, 1);
		ck_assert_int_eq(b.padded[0], 8);
		ck_assert(b.sequences == 3.0);
	}
	/* lengths no sequence has do not count, even past 256 bins */
	ck_assert_int_eq(model_seq_bins_read("length,count\n8,3\n9000,0",
					     23, "h.csv", 8, &b, &err),
			 DLSIM_OK);
	ck_assert_int_eq(b.n, 1);
}
END_TEST

/* Each damaged histogram is refused with one line naming the file and
 * the line. */
START_TEST(seq_bins_refuse_damaged_text)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "len,count\n5,1\n", "h.csv:1: expected a header" },
		{ "length,counts\n5,1\n", "h.csv:1: expected a header" },
		{ "length,count\n0,1\n", "h.csv:2: expected LENGTH,COUNT" },
		{ "length,count\n16777217,1\n", "h.csv:2:" },
		{ "length,count\n5,-1\n", "h.csv:2:" },
		{ "length,count\n5,1.5\n", "h.csv:2:" },
		{ "length,count\n5\n", "h.csv:2:" },
		{ "length,count\n5,\n", "h.csv:2:" },
		{ "length,count\nabc,1\n", "h.csv:2:" },
		{ "length,count\n5,99999999999999999\n", "h.csv:2:" },
		/* 2^54 + 1: whole, but above the limit the message states */
		{ "length,count\n5,18014398509481985\n", "a whole count of 0 "
		  "to 2^53 (got '5,18014398509481985')" },
		{ "length,count\n5,1.5\n", "(got '5,1.5')" },
		{ "length,count\n5,0\n", "h.csv: no sequence counted" },
		{ "length,count\n", "h.csv: no sequence counted" },
		{ "", "h.csv: empty (expected a header" },
		{ "\xef\xbb\xbf", "h.csv: empty (expected a header" },
		/* a mark anywhere else is text */
		{ "length,count\n\xef\xbb\xbf" "5,1\n", "h.csv:2: expected "
		  "LENGTH,COUNT" },
		{ "\xef\xbb\xbf\xef\xbb\xbflength,count\n5,1\n", "h.csv:1: "
		  "expected a header" },
		{ "length,count\n1,1\n2000,1\n", "h.csv:3: a length of 2000 "
		  "makes more than 256 bins" },
	};
	struct model_seq_bins b;
	char long_line[700];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dlsim_err err = { 0, "" };

		ck_assert_msg(model_seq_bins_read(bad[i].text,
						  strlen(bad[i].text), "h.csv",
						  4, &b, &err) != DLSIM_OK,
			      "accepted: %s", bad[i].text);
		ck_assert_msg(strstr(err.msg, bad[i].want) != NULL,
			      "%s: '%s' lacks '%s'", bad[i].text, err.msg,
			      bad[i].want);
		ck_assert(b.n == 0);
	}
	{
		struct dlsim_err err = { 0, "" };

		memset(long_line, '1', sizeof(long_line));
		memcpy(long_line, "length,count\n", 13);
		ck_assert(model_seq_bins_read(long_line, sizeof(long_line),
					      "h.csv", 4, &b, &err) ==
			  DLSIM_EPARSE);
		ck_assert_ptr_nonnull(strstr(err.msg, "h.csv:2: line longer"));
	}
	{
		/* a NUL inside a line; a 511-byte line ending in CRLF is
		 * read, one of 512 bytes is not */
		static const char nul[] = "length,count\n5,1\0junk\n";
		struct dlsim_err e1 = { 0, "" }, e2 = { 0, "" };
		char crlf[13 + 511 + 2];

		ck_assert(model_seq_bins_read(nul, sizeof(nul) - 1, "h.csv", 4,
					      &b, &e1) == DLSIM_EPARSE);
		ck_assert_ptr_nonnull(strstr(e1.msg, "h.csv:2:"));
		memcpy(crlf, "length,count\n", 13);
		memset(crlf + 13, ' ', 511);
		memcpy(crlf + 13, "5,1,", 4);
		memcpy(crlf + 13 + 511, "\r\n", 2);
		ck_assert_int_eq(model_seq_bins_read(crlf, sizeof(crlf),
						     "h.csv", 4, &b, &e2),
				 DLSIM_OK);
		crlf[13 + 511] = ' ';
		ck_assert(model_seq_bins_read(crlf, sizeof(crlf) - 1, "h.csv",
					      4, &b, &e2) == DLSIM_EPARSE);
		ck_assert(model_seq_bins_read("length,count\n5,1\n", 17,
					      "h.csv", 0, &b, &e2) ==
			  DLSIM_EINVAL);
	}
}
END_TEST

/* A zoo model at another length: the seq key replaced or added, the
 * other keys kept; a YAML file and a family without seq refused. */
START_TEST(resolve_seq_replaces_the_length)
{
	struct model *m = NULL;
	struct dlsim_err err = { 0, "" };

	ck_assert_int_eq(model_resolve_seq("bert-large", 64, &m, &err),
			 DLSIM_OK);
	ck_assert_int_eq(m->tf.seq, 64);
	ck_assert_int_eq(m->tf.vocab, 30522);
	ck_assert_str_eq(m->name, "bert-large:seq=64");
	model_free(m);
	ck_assert_int_eq(model_resolve_seq("bert-large:seq=512,vocab=30528,"
					   "unfused=1", 448, &m, &err),
			 DLSIM_OK);
	ck_assert_int_eq(m->tf.seq, 448);
	ck_assert_int_eq(m->tf.vocab, 30528);
	ck_assert_str_eq(m->name, "bert-large:vocab=30528,unfused=1,seq=448");
	model_free(m);
	/* a string as long as predict takes */
	ck_assert_int_eq(model_resolve_seq("gpt:layers=2,hidden=256,heads=4,"
					   "vocab=1000,ffn=1024,kv_heads=4,"
					   "seq=2048", 100, &m, &err),
			 DLSIM_OK);
	ck_assert_int_eq(m->tf.seq, 100);
	ck_assert_int_eq(m->tf.ffn, 1024);
	model_free(m);
	ck_assert(model_resolve_seq("resnet50", 64, &m, &err) != DLSIM_OK);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, "model 'resnet50' has no seq "
				     "key"));
	{
		struct dlsim_err e2 = { 0, "" }, e3 = { 0, "" };

		ck_assert(model_resolve_seq("resnet:depth=50", 64, &m, &e2) !=
			  DLSIM_OK);
		ck_assert_ptr_nonnull(strstr(e2.msg, "'resnet:depth=50' has "
					     "no seq key"));
		ck_assert_int_eq(model_resolve_seq("nets/bert.yaml", 64, &m,
						   &e3), DLSIM_EINVAL);
		ck_assert_ptr_nonnull(strstr(e3.msg, "a YAML model has one "
					     "length"));
	}
	ck_assert_ptr_null(m);
}
END_TEST

/* The data-parallel step of a small GPT on one V100, batch 8, as
 * sim_predict gives it at seq tokens; *mem its memory. */
static double gpt_step(int64_t seq, double *mem, int64_t *gb)
{
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result r;
	char spec[128];
	double t;

	ck_assert(hw_catalog_load(NULL, &cat, NULL) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100x2", &s, NULL) == DLSIM_OK);
	snprintf(spec, sizeof(spec), "gpt:layers=2,hidden=256,heads=4,"
		 "vocab=1000,seq=%lld", (long long)seq);
	ck_assert(model_zoo_build(spec, &m, NULL) == DLSIM_OK);
	sim_options_init(&o);
	o.batch_per_device = 8;
	ck_assert(sim_predict(m, &s, &o, &r, NULL) == DLSIM_OK);
	t = r.step_time_s;
	*mem = r.memory.total_bytes;
	*gb = r.global_batch;
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
	return t;
}

/*
 * The mixed step: lengths 100 (3 sequences) and 300 (1) in bins of 128:
 * bins padded to 100 and 300, shares 0.75 and 0.25, so the step is
 * 0.75 t(100) + 0.25 t(300), samples/s the global batch (16) over it,
 * tokens/s that times the mean length, (300 + 300) / 4 = 150, padding 0
 * (each bin's one length), and the memory the 300-token bin's.  A model
 * without a seq key fails, the result zeroed.
 */
START_TEST(binned_step_is_the_shares_mean)
{
	static const char text[] = "length,count\n100,3\n300,1\n";
	struct model_seq_bins b;
	struct sim_binned r;
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct sim_options o;
	struct dlsim_err err = { 0, "" };
	double m100, m300, t100, t300, step;
	int64_t gb;

	t100 = gpt_step(100, &m100, &gb);
	t300 = gpt_step(300, &m300, &gb);
	ck_assert_int_eq(gb, 16);
	ck_assert(t300 > t100);
	step = 0.75 * t100 + 0.25 * t300;
	ck_assert_int_eq(model_seq_bins_read(text, sizeof(text) - 1, "h.csv",
					     128, &b, &err), DLSIM_OK);
	ck_assert(hw_catalog_load(NULL, &cat, NULL) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100x2", &s, NULL) == DLSIM_OK);
	sim_options_init(&o);
	o.batch_per_device = 8;
	ck_assert_int_eq(sim_binned_predict("gpt:layers=2,hidden=256,heads=4,"
					    "vocab=1000,seq=2048", &s, &o,
					    NULL, &b, &r, &err), DLSIM_OK);
	ck_assert_int_eq(r.n, 2);
	ck_assert_int_eq(r.padded[0], 100);
	ck_assert_int_eq(r.padded[1], 300);
	ck_assert_rel(r.bin_step_time_s[0], t100, 1e-12);
	ck_assert_rel(r.bin_step_time_s[1], t300, 1e-12);
	ck_assert_rel(r.step_time_s, step, 1e-12);
	ck_assert_int_eq(r.global_batch, 16);
	ck_assert_rel(r.samples_per_s, 16.0 / step, 1e-12);
	ck_assert_rel(r.tokens_per_s, 16.0 / step * 150.0, 1e-12);
	ck_assert_rel(r.mean_padded, 150.0, 1e-12);
	ck_assert(fabs(r.padding) < 1e-15);
	ck_assert_rel(r.memory_bytes, m300, 1e-12);
	ck_assert(r.fits);
	ck_assert(sim_binned_predict("resnet50", &s, &o, NULL, &b, &r,
				     &err) != DLSIM_OK);
	ck_assert(r.n == 0 && r.step_time_s == 0.0);
	hw_catalog_free(cat);
}
END_TEST

/*
 * A plan over lengths (sim_plan_binned) ranks each strategy by its bins'
 * mix.  A histogram of 1 sequence of 90 tokens, 2 of 100 and 1 of 300,
 * in bins of 128: bins padded to 100 and 300, shares 3/4 and 1/4, mean
 * length (90 + 200 + 300) / 4 = 147.5, mean padded 150.  A two-block GPT
 * wide enough (8,192) that on v100x2 at 64 sequences a step more
 * strategies run out of memory at 300 tokens than at 100: the mix keeps
 * the 300-token bin's verdicts (as many fit, as many do not).  Its best
 * is checked against its strategy predicted alone at 100 and at 300
 * tokens (sim_parallel_predict): every time of the step and its FLOPs
 * 0.75 x (100's) + 0.25 x (300's), samples/s 64 over the step, tokens/s
 * that times 147.5 (unpadded, not 150), TFLOP/s the FLOPs over the step
 * and the two devices, memory and fit the 300-token bin's.  A histogram
 * of one length plans as sim_plan at that length, result for result.
 */
START_TEST(binned_plan_ranks_by_the_mix)
{
	static const char text[] = "length,count\n90,1\n100,2\n300,1\n";
	static const char one[] = "length,count\n300,5\n";
	static const char *gpt = "gpt:layers=2,hidden=8192,heads=16,"
				 "vocab=1000,seq=2048";
	struct model_seq_bins b;
	struct sim_plan_options po;
	struct sim_plan_result mix, alone, at100;
	struct sim_par_result r100, r300;
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct model *m = NULL;
	struct dlsim_err err = { 0, "" };
	const struct sim_par_result *best;
	double step;
	int i;

	ck_assert(hw_catalog_load(NULL, &cat, NULL) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100x2", &s, NULL) == DLSIM_OK);
	sim_plan_options_init(&po);
	po.global_batch = 64;
	po.top_k = 1000;
	ck_assert_int_eq(model_seq_bins_read(text, sizeof(text) - 1, "h.csv",
					     128, &b, &err), DLSIM_OK);
	ck_assert_msg(sim_plan_binned(gpt, &b, &s, DLSIM_FP16, SIM_OPT_ADAM,
				      &po, &mix, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(mix.bins, 2);
	ck_assert_int_eq(mix.bin_width, 128);
	ck_assert_int_eq(mix.longest, 300);
	ck_assert_rel(mix.mean_length, 147.5, 1e-15);
	ck_assert_rel(mix.mean_padded, 150.0, 1e-15);
	ck_assert_int_gt(mix.n_top, 1);
	best = &mix.top[0];
	ck_assert_int_eq(model_resolve_seq(gpt, 100, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_FP16, SIM_OPT_ADAM,
					      &best->strategy, &r100, &err),
			 DLSIM_OK);
	ck_assert_int_eq(sim_plan(m, &s, DLSIM_FP16, SIM_OPT_ADAM, &po, &at100,
				  &err), DLSIM_OK);
	model_free(m);
	ck_assert_int_eq(model_resolve_seq(gpt, 300, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_FP16, SIM_OPT_ADAM,
					      &best->strategy, &r300, &err),
			 DLSIM_OK);
	step = 0.75 * r100.step_time_s + 0.25 * r300.step_time_s;
	ck_assert(r300.step_time_s > r100.step_time_s);
	ck_assert(r300.memory.total_bytes > r100.memory.total_bytes);
#define MIXED(f) ck_assert_rel(best->f, 0.75 * r100.f + 0.25 * r300.f, 1e-12)
	MIXED(step_time_s);
	MIXED(stage_fwd_s);
	MIXED(stage_bwd_s);
	MIXED(compute_s);
	MIXED(bubble_s);
	MIXED(tp_comm_s);
	MIXED(pp_comm_s);
	MIXED(dp_comm_s);
	MIXED(optimizer_s);
	MIXED(model_flops);
	MIXED(hw_flops);
#undef MIXED
	ck_assert_rel(best->samples_per_s, 64.0 / step, 1e-12);
	ck_assert_rel(best->tokens_per_s, 64.0 / step * 147.5, 1e-12);
	ck_assert_rel(best->tflops_per_device, best->hw_flops / step / 2.0 /
		      1e12, 1e-12);
	ck_assert_rel(best->memory.total_bytes, r300.memory.total_bytes,
		      1e-12);
	ck_assert_int_eq(best->worst_stage, r300.worst_stage);
	ck_assert_int_eq(best->fits, r300.fits);
	/* ranked by the mix: no later strategy is faster */
	for (i = 1; i < mix.n_top; i++)
		ck_assert(mix.top[i].step_time_s >= best->step_time_s);
	/* fits and does not as the 300-token bin does, not as the 100 */
	ck_assert_int_eq(sim_plan(m, &s, DLSIM_FP16, SIM_OPT_ADAM, &po, &alone,
				  &err), DLSIM_OK);
	ck_assert_int_gt(alone.n_oom, at100.n_oom);
	ck_assert_int_eq(mix.n_oom, alone.n_oom);
	ck_assert_int_eq(mix.n_feasible, alone.n_feasible);
	ck_assert_int_eq(mix.n_evaluated, alone.n_evaluated);
	/* one length: sim_plan's plan at it, result for result */
	sim_plan_release(&mix);
	ck_assert_int_eq(model_seq_bins_read(one, sizeof(one) - 1, "h.csv",
					     128, &b, &err), DLSIM_OK);
	ck_assert_int_eq(sim_plan_binned(gpt, &b, &s, DLSIM_FP16, SIM_OPT_ADAM,
					 &po, &mix, &err), DLSIM_OK);
	ck_assert_int_eq(mix.n_top, alone.n_top);
	for (i = 0; i < mix.n_top; i++) {
		const struct sim_strategy *x = &mix.top[i].strategy;
		const struct sim_strategy *y = &alone.top[i].strategy;

		ck_assert_rel(mix.top[i].step_time_s, alone.top[i].step_time_s,
			      1e-12);
		ck_assert(x->tp == y->tp && x->pp == y->pp && x->dp == y->dp &&
			  x->micro_batch == y->micro_batch &&
			  x->zero == y->zero && x->schedule == y->schedule &&
			  x->chunks == y->chunks &&
			  x->recompute == y->recompute &&
			  x->sequence_parallel == y->sequence_parallel);
		ck_assert_rel(mix.top[i].tokens_per_s,
			      alone.top[i].tokens_per_s, 1e-12);
	}
	/* no seq key: refused, nothing kept */
	sim_plan_release(&mix);
	ck_assert(sim_plan_binned("resnet50", &b, &s, DLSIM_FP16, SIM_OPT_ADAM,
				  &po, &mix, &err) != DLSIM_OK);
	ck_assert(mix.n_top == 0 && mix.top == NULL);
	model_free(m);
	sim_plan_release(&alone);
	sim_plan_release(&at100);
	hw_catalog_free(cat);
}
END_TEST

/*
 * The data-parallel step over bins as one result (sim_binned_result,
 * what dlsim scale sweeps): the histogram of 90, 2 x 100 and 300 tokens
 * in bins of 128 (shares 3/4 and 1/4, mean 147.5) on the two-block GPT,
 * batch 8 on each of two V100s, gradients sent as int8 (kernels of
 * their own).  Against sim_predict at 100 and at 300 tokens: the step,
 * the one-device step, every part of the breakdown and the bytes reduced
 * and moved 0.75 x (100's) + 0.25 x (300's); throughput the global batch
 * (16) over the step, a device's half of it, scaling efficiency the
 * one-device step over the step; memory, fit and buckets the 300-token
 * bin's; no layer table, though one was asked.  The same step
 * sim_binned_predict gives.  A model wide enough that only the 300-token
 * bin runs out of memory: the mix does not fit.  (The step's bounds, and
 * the fits joined over the bins, need a calibration: test_cli_seqlen.c.)
 */
START_TEST(binned_result_mixes_every_time)
{
	static const char text[] = "length,count\n90,1\n100,2\n300,1\n";
	static const char *gpt = "gpt:layers=2,hidden=256,heads=4,"
				 "vocab=1000,seq=2048";
	struct model_seq_bins b;
	struct sim_result mix, r100, r300;
	struct sim_binned sb;
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct sim_options o;
	struct model *m = NULL;
	struct dlsim_err err = { 0, "" };

	ck_assert(hw_catalog_load(NULL, &cat, NULL) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "v100x2", &s, NULL) == DLSIM_OK);
	sim_options_init(&o);
	o.batch_per_device = 8;
	o.compression = SIM_COMPRESS_INT8;   /* kernels of its own */
	o.want_layers = 1;                   /* asked, and not kept */
	ck_assert_int_eq(model_seq_bins_read(text, sizeof(text) - 1, "h.csv",
					     128, &b, &err), DLSIM_OK);
	ck_assert_int_eq(model_resolve_seq(gpt, 100, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_predict(m, &s, &o, &r100, &err), DLSIM_OK);
	model_free(m);
	ck_assert_int_eq(model_resolve_seq(gpt, 300, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_predict(m, &s, &o, &r300, &err), DLSIM_OK);
	model_free(m);
	ck_assert_msg(sim_binned_result(gpt, &s, &o, &b, &mix, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert(r300.step_time_s > r100.step_time_s);
	ck_assert(r300.memory.total_bytes > r100.memory.total_bytes);
#define MIXED(f) ck_assert_rel(mix.f, 0.75 * r100.f + 0.25 * r300.f, 1e-12)
	MIXED(step_time_s);
	MIXED(single_device_step_s);
	MIXED(breakdown.forward_s);
	MIXED(breakdown.backward_s);
	MIXED(breakdown.optimizer_s);
	MIXED(breakdown.comm_s);
	MIXED(breakdown.comm_exposed_s);
	MIXED(breakdown.compress_s);
	MIXED(comm_bytes);
	MIXED(gradient_bytes);
#undef MIXED
	ck_assert(r100.breakdown.comm_s > 0.0);
	ck_assert(r100.breakdown.compress_s > 0.0);
	/* the position table grows with the length, so do the gradients */
	ck_assert(r300.gradient_bytes > r100.gradient_bytes);
	ck_assert_int_eq(mix.n_buckets, r300.n_buckets);
	ck_assert_int_eq(mix.global_batch, 16);
	ck_assert_int_eq(mix.devices, 2);
	ck_assert_rel(mix.throughput, 16.0 / mix.step_time_s, 1e-12);
	ck_assert_rel(mix.throughput_per_device, 8.0 / mix.step_time_s,
		      1e-12);
	ck_assert_rel(mix.scaling_efficiency, mix.single_device_step_s /
		      mix.step_time_s, 1e-12);
	ck_assert_rel(mix.memory.total_bytes, r300.memory.total_bytes, 1e-12);
	ck_assert_int_eq(mix.fits, r300.fits);
	ck_assert_ptr_null(mix.layers);
	ck_assert_int_eq(sim_binned_predict(gpt, &s, &o, NULL, &b, &sb, &err),
			 DLSIM_OK);
	ck_assert_rel(sb.step_time_s, mix.step_time_s, 1e-12);
	sim_result_release(&mix);
	/* 4,096 wide at 128 a device: the 100-token bin fits a V100's
	 * 16 GiB (11.9 GiB), the 300-token one does not (21.9): the mix
	 * does not */
	o.batch_per_device = 128;
	ck_assert_int_eq(sim_binned_result("gpt:layers=2,hidden=4096,"
					    "heads=16,vocab=1000,seq=2048",
					    &s, &o, &b, &mix, &err), DLSIM_OK);
	ck_assert_int_eq(mix.fits, 0);
	ck_assert(mix.memory.total_bytes > mix.memory.capacity_bytes);
	sim_result_release(&mix);
	o.batch_per_device = 8;
	/* no seq key: refused, the result zeroed */
	ck_assert(sim_binned_result("resnet50", &s, &o, &b, &mix, &err) !=
		  DLSIM_OK);
	ck_assert(mix.step_time_s == 0.0 && mix.layers == NULL);
	sim_result_release(&r100);
	sim_result_release(&r300);
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_model_seqhist(void)
{
	Suite *s = suite_create("model_seqhist");
	TCase *c = tcase_create("model_seqhist");

	tcase_add_test(c, seq_bins_keep_each_bins_longest);
	tcase_add_test(c, seq_bins_refuse_damaged_text);
	tcase_add_test(c, resolve_seq_replaces_the_length);
	tcase_add_test(c, binned_step_is_the_shares_mean);
	tcase_add_test(c, binned_plan_ranks_by_the_mix);
	tcase_add_test(c, binned_result_mixes_every_time);
	suite_add_tcase(s, c);
	return s;
}
