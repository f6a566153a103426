/*
 * test_cli_seqlen.c -- `dlsim predict --seq-lengths`: a step over the
 * bins of a histogram of sequence lengths, in every format, and the input
 * it refuses (cli/cmd_predict.c, reports/report_binned.c); `dlsim plan
 * --seq-lengths`, strategies ranked by that mix (cli/cmd_plan.c), and
 * `dlsim scale --seq-lengths`, a sweep of it (cli/cmd_scale.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "hwcalib_util.h"

#define GPT "gpt:layers=2,hidden=256,heads=4,vocab=1000,seq=2048"
#define SMALL "--seq-lengths tests/data/seqlen/small.csv --seq-bin 128"

/* The step `predict` gives GPT at seq tokens, batch 8 on two V100s. */
static double step_at(int seq)
{
	char args[256];
	struct run r;

	snprintf(args, sizeof(args), "predict gpt:layers=2,hidden=256,"
		 "heads=4,vocab=1000,seq=%d --hw v100x2 --batch 8 "
		 "--uncalibrated --format json", seq);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	return json_number(r.out, "step_time_s");
}

/*
 * small.csv: three sequences of 100 tokens and one of 300, in bins of
 * 128: bins padded to 100 and 300, shares 3/4 and 1/4, so the step is
 * 0.75 t(100) + 0.25 t(300) of the steps `predict` gives at those
 * lengths; samples/s is the global batch (16) over it, tokens/s that
 * times the mean length (150); the histogram with one length, 100, is
 * the step at 100 itself.
 */
START_TEST(cli_seq_lengths_mix_the_bins)
{
	double t100 = step_at(100), t300 = step_at(300), step;
	struct run r;

	step = 0.75 * t100 + 0.25 * t300;
	run(&r, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated "
	    SMALL " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert_rel(json_number(r.out, "step_time_s"), step, 1e-12);
	ck_assert_rel(json_number(r.out, "samples_per_s"), 16.0 / step,
		      1e-12);
	ck_assert_rel(json_number(r.out, "tokens_per_s"), 16.0 / step *
		      150.0, 1e-12);
	ck_assert(json_number(r.out, "mean_padded") == 150.0);
	ck_assert(json_number(r.out, "bin_tokens") == 128.0);
	ck_assert(json_has(r.out, "bins") && json_has(r.out, "fits"));
	run(&r, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated "
	    "--seq-lengths tests/data/seqlen/one.csv --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s"), t100, 1e-12);
	/* the table names the mix and each bin; CSV a row a bin */
	run(&r, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated "
	    SMALL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "sequences of many lengths"));
	/* each bin holds one length, so nothing is padded: 0.75 x 100 +
	 * 0.25 x 300 = 150 tokens computed a sequence */
	ck_assert_ptr_nonnull(strstr(r.out, "\nbins            2 of 128 "
				     "tokens, each batch padded to its bin's "
				     "longest: 150.0 tokens a sequence "
				     "computed, 0.0% padding"));
	ck_assert_ptr_nonnull(strstr(r.out, "\n1           100   75.00% "));
	ck_assert_ptr_nonnull(strstr(r.out, "\n2           300   25.00% "));
	run(&r, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated "
	    SMALL " --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "bin,padded_tokens,share,"
				     "step_time_s\n1,100,0.75,"));
	ck_assert_ptr_nonnull(strstr(r.out, "\n2,300,0.25,"));
}
END_TEST

/* The strategy's step at seq tokens: GPT with tp x dp over two V100s. */
static double strategy_step_at(int seq, int tp)
{
	char args[256];
	struct run r;

	snprintf(args, sizeof(args), "predict gpt:layers=2,hidden=256,"
		 "heads=4,vocab=1000,seq=%d --hw v100x2 --tp %d --dp %d "
		 "--micro-batch 8 --global-batch %d --uncalibrated --format "
		 "json", seq, tp, 2 / tp, 8 * (2 / tp));
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	return json_number(r.out, "step_time_s");
}

/* With a strategy each bin is that strategy's step: one bin of 100
 * tokens gives the step of --tp 2 at 100 tokens, which is not the
 * data-parallel one. */
START_TEST(cli_seq_lengths_take_a_strategy)
{
	double tp2 = strategy_step_at(100, 2);
	struct run r;

	ck_assert(fabs(tp2 - strategy_step_at(100, 1)) > 1e-6 * tp2);
	run(&r, "predict " GPT " --hw v100x2 --tp 2 --dp 1 --micro-batch 8 "
	    "--global-batch 8 --uncalibrated --seq-lengths "
	    "tests/data/seqlen/one.csv --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "global_batch") == 8.0);
	ck_assert_rel(json_number(r.out, "step_time_s"), tp2, 1e-12);
}
END_TEST

/* A histogram saved by a spreadsheet starts with a UTF-8 byte-order
 * mark: the same bins as small.csv without it (it was refused with
 * "expected a header 'length,count' (got 'length,count')"). */
START_TEST(cli_seq_lengths_skip_a_byte_order_mark)
{
	char dir[] = "/tmp/dlsim-seqbom-XXXXXX", path[64], args[512];
	struct run plain, bom;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/bom.csv", dir);
	ck_assert((f = fopen(path, "w")) != NULL);
	ck_assert(fputs("\xef\xbb\xbflength,count,note\r\n100,3,a\r\n"
			"300,1,b\r\n", f) >= 0);
	ck_assert(fclose(f) == 0);
	run(&plain, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated "
	    SMALL " --format json");
	ck_assert_msg(plain.status == 0, "%s", plain.err);
	snprintf(args, sizeof(args), "predict " GPT " --hw v100x2 --batch 8 "
		 "--uncalibrated --seq-lengths %s --seq-bin 128 --format "
		 "json", path);
	run(&bom, args);
	ck_assert_msg(bom.status == 0, "%s", bom.err);
	ck_assert_str_eq(bom.err, "");
	ck_assert(json_number(bom.out, "step_time_s") ==
		  json_number(plain.out, "step_time_s"));
	ck_assert(json_number(bom.out, "mean_padded") == 150.0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Each refusal is one line on stderr and nothing on stdout: exit 2 for
 * the command line's mistakes, 1 for a file that cannot be read or is
 * damaged. */
START_TEST(cli_seq_lengths_refuse_bad_input)
{
	struct run r;

	run(&r, "predict " GPT " --hw v100 --seq-bin 64");
	assert_one_error(&r, 2, "--seq-bin needs --seq-lengths");
	run(&r, "predict " GPT " --hw v100 " SMALL " --layers");
	assert_one_error(&r, 2, "--layers is not available with "
			 "--seq-lengths");
	run(&r, "predict " GPT " --hw v100 " SMALL " --record");
	assert_one_error(&r, 2, "--record is not available with "
			 "--seq-lengths");
	run(&r, "predict " GPT " --hw v100 --seq-lengths "
	    "tests/data/seqlen/no-such.csv");
	assert_one_error(&r, 1, "tests/data/seqlen/no-such.csv");
	run(&r, "predict " GPT " --hw v100 --seq-lengths "
	    "tests/data/seqlen/bad-length.csv");
	assert_one_error(&r, 1, "tests/data/seqlen/bad-length.csv:3: "
			 "expected LENGTH,COUNT");
	run(&r, "predict " GPT " --hw v100 " SMALL " --seq-bin 0");
	assert_one_error(&r, 2, "--seq-bin must be a positive integer (got "
			 "'0')");
	run(&r, "predict resnet50 --hw v100 " SMALL);
	assert_one_error(&r, 2, "model 'resnet50' has no seq key");
	run(&r, "predict configs/models/cifar-resnet8.yaml --hw v100 " SMALL);
	assert_one_error(&r, 2, "a YAML model has one length");
}
END_TEST

/*
 * `dlsim plan --seq-lengths`: with one length (one.csv, 100 tokens) the
 * plan at that length, best for best; with small.csv the mix's figures
 * in the JSON (two bins of 128 tokens, the longest 300, 150 tokens a
 * sample, 150 padded: each bin's one length) and a table line saying how
 * strategies were ranked.  predict --strategy auto over the same bins
 * costs plan's best and names it.
 */
START_TEST(cli_plan_takes_seq_lengths)
{
	struct run r;
	double best;

	run(&r, "plan gpt:layers=2,hidden=256,heads=4,vocab=1000,seq=100 "
	    "--hw v100x2 --global-batch 16 --uncalibrated --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	best = json_number(r.out, "step_time_s");
	ck_assert(best > 0.0);
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --uncalibrated "
	    "--seq-lengths tests/data/seqlen/one.csv --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s"), best, 1e-12);
	ck_assert(json_number(r.out, "bin_count") == 1.0);
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --uncalibrated "
	    SMALL " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "bin_count") == 2.0);
	ck_assert(json_number(r.out, "bin_tokens") == 128.0);
	ck_assert(json_number(r.out, "longest") == 300.0);
	ck_assert(json_number(r.out, "mean_length") == 150.0);
	ck_assert(json_number(r.out, "mean_padded") == 150.0);
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --uncalibrated "
	    SMALL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "sequences       2 length bins "
				     "of 128 tokens, the longest 300"));
	/* predict --strategy auto over the bins: plan's best, named */
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --uncalibrated "
	    SMALL " --format json");
	best = json_number(r.out, "step_time_s");
	run(&r, "predict " GPT " --hw v100x2 --strategy auto --global-batch "
	    "16 --uncalibrated " SMALL " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s"), best, 1e-12);
	ck_assert_ptr_nonnull(strstr(r.out, "\"strategy\": {\"tp\": "));
	run(&r, "predict " GPT " --hw v100x2 --strategy auto --global-batch "
	    "16 --uncalibrated " SMALL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\nstrategy        tp "));
	/* the model is tried at the bins before a line is printed (JSON's
	 * head among them) */
	run(&r, "plan gnmt --hw v100x2 --global-batch 16 " SMALL);
	assert_one_error(&r, 2, "model 'gnmt' is not a transformer");
	run(&r, "plan configs/models/cifar-resnet8.yaml --hw v100x2 "
	    "--global-batch 16 --format json " SMALL);
	assert_one_error(&r, 2, "a YAML model has one length");
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --seq-bin 64");
	assert_one_error(&r, 2, "--seq-bin needs --seq-lengths");
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --seq-lengths "
	    "tests/data/seqlen/no-such.csv");
	assert_one_error(&r, 1, "tests/data/seqlen/no-such.csv");
	run(&r, "plan " GPT " --hw v100x2 --global-batch 16 --seq-lengths "
	    "tests/data/seqlen/bad-length.csv");
	assert_one_error(&r, 1, "tests/data/seqlen/bad-length.csv:3: "
			 "expected LENGTH,COUNT");
}
END_TEST

/*
 * predict --seq-lengths with the update on the host says so (the table's
 * update line, JSON's update_on_host), and each bin's step carries the
 * host's trip: the mix is slower than on the device.  So does it the
 * fusion (fused_edges, conv_bn_pairs).
 */
START_TEST(cli_seq_lengths_say_their_options)
{
	struct run r;
	double dev;

	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "\"update_on_host\": false"));
	dev = json_number(r.out, "step_time_s");
	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --update-on host --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert_ptr_nonnull(strstr(r.out, "\"update_on_host\": true"));
	ck_assert(json_number(r.out, "step_time_s") > dev);
	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --update-on host");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "update          on the host "
				     "CPUs"));
	/* and the fusion: each of the two blocks keeps its two dropout ->
	 * add edges on chip */
	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --fuse-elementwise --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "fused_edges") == 4.0);
	ck_assert(json_number(r.out, "conv_bn_pairs") == 0.0);
	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --fuse-elementwise");
	ck_assert_ptr_nonnull(strstr(r.out, "fusion          4 element-wise "
				     "edges kept on chip"));
}
END_TEST

/*
 * `dlsim scale --seq-lengths`: each point the data-parallel step over
 * the bins, the one predict --seq-lengths gives on that system (small.
 * csv on one and two V100s, batch 8 a device), and the histogram in the
 * JSON and the table.
 */
START_TEST(cli_scale_takes_seq_lengths)
{
	struct run r;
	double one, two;

	run(&r, "predict " GPT " --hw v100 --batch 8 --uncalibrated " SMALL
	    " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	one = json_number(r.out, "step_time_s");
	run(&r, "predict " GPT " --hw v100x2 --batch 8 --uncalibrated " SMALL
	    " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	two = json_number(r.out, "step_time_s");
	ck_assert(two > one);
	run(&r, "scale " GPT " --hw v100 --devices 2 --batch 8 "
	    "--uncalibrated " SMALL " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	/* scale prints 9 digits */
	ck_assert_rel(json_number(r.out, "step_time_s"), two, 1e-8);
	ck_assert(json_number(r.out, "bin_tokens") == 128.0);
	ck_assert(json_number(r.out, "mean_length") == 150.0);
	run(&r, "scale " GPT " --hw v100 --devices 1,2 --batch 8 "
	    "--uncalibrated " SMALL " --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s"), one, 1e-8);
	run(&r, "scale " GPT " --hw v100 --devices 1,2 --batch 8 "
	    "--uncalibrated " SMALL);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "sequences: 2 length bins of "
				     "128 tokens, the longest 300"));
	/* CSV: no fusion, the update on the device, 2 bins, then fits */
	run(&r, "scale " GPT " --hw v100 --devices 1,2 --batch 8 "
	    "--uncalibrated " SMALL " --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, ",fused_edges,conv_bn_pairs,"
				     "update_on_host,seq_bins,fits,"));
	ck_assert_ptr_nonnull(strstr(r.out, ",0,0,0,2,true,,\n"));
	/* and the options carried through the bins: each of the two blocks
	 * keeps its two dropout -> add edges on chip (4), the update on the
	 * host */
	run(&r, "scale " GPT " --hw v100 --devices 1,2 --batch 8 "
	    "--uncalibrated " SMALL " --update-on host --fuse-elementwise "
	    "--format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, ",v100x2,2,1,8,16,"));
	ck_assert_ptr_nonnull(strstr(r.out, ",4,0,1,2,true,,\n"));
	run(&r, "scale " GPT " --hw v100 --seq-bin 64");
	assert_one_error(&r, 2, "--seq-bin needs --seq-lengths");
	run(&r, "scale resnet50 --hw v100 " SMALL);
	assert_one_error(&r, 2, "model 'resnet50' has no seq key");
}
END_TEST

/*
 * scale --seq-lengths on fitted figures (the shipped seed): fits.csv
 * holds one sequence of 64 tokens and one of 97, in bins of 64, on the
 * small GPT at batch 1 on a V100 in fp16.  At 97 tokens its GEMMs' rows
 * (97 a sequence) are off 16 bytes and take the unaligned fit, at 64
 * they do not: the point names both fits, and its step's bounds are the
 * halves of predict's bounds at each length.
 */
START_TEST(cli_scale_seq_lengths_on_fits)
{
	struct tmpdb t;
	struct run r;
	char args[512];
	double lo[2], hi[2];
	int i, len[2] = { 64, 97 };

	tmpdb_seed_cli(&t, &r);
	for (i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "predict gpt:layers=2,hidden=256,"
			 "heads=4,vocab=1000,seq=%d --hw v100 --batch 1 "
			 "--precision fp16 --db %s --format json", len[i],
			 t.path);
		run(&r, args);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_msg(!strstr(r.out, "gemm_unaligned:fp16") == (i == 0),
			      "%s", r.out);
		lo[i] = json_number(r.out, "step_time_s_low");
		hi[i] = json_number(r.out, "step_time_s_high");
		ck_assert(lo[i] > 0.0 && hi[i] > lo[i]);
	}
	snprintf(args, sizeof(args), "scale " GPT " --hw v100 --devices 1 "
		 "--batch 1 --precision fp16 --db %s --seq-lengths "
		 "tests/data/seqlen/fits.csv --seq-bin 64 --format json",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s_low"),
		      0.5 * lo[0] + 0.5 * lo[1], 1e-8);
	ck_assert_rel(json_number(r.out, "step_time_s_high"),
		      0.5 * hi[0] + 0.5 * hi[1], 1e-8);
	ck_assert_ptr_nonnull(strstr(r.out, "\"calibrated\": true"));
	snprintf(args, sizeof(args), "scale " GPT " --hw v100 --devices 1 "
		 "--batch 1 --precision fp16 --db %s --seq-lengths "
		 "tests/data/seqlen/fits.csv --seq-bin 64", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "gemm:fp16 fit") &&
		      strstr(r.out, "gemm_unaligned:fp16 fit"), "%s", r.out);
	tmpdb_close(&t);
}
END_TEST

Suite *suite_cli_seqlen(void)
{
	Suite *s = suite_create("cli_seqlen");
	TCase *c = tcase_create("cli_seqlen");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cli_seq_lengths_mix_the_bins);
	tcase_add_test(c, cli_seq_lengths_take_a_strategy);
	tcase_add_test(c, cli_seq_lengths_skip_a_byte_order_mark);
	tcase_add_test(c, cli_seq_lengths_refuse_bad_input);
	tcase_add_test(c, cli_plan_takes_seq_lengths);
	tcase_add_test(c, cli_scale_takes_seq_lengths);
	tcase_add_test(c, cli_seq_lengths_say_their_options);
	tcase_add_test(c, cli_scale_seq_lengths_on_fits);
	suite_add_tcase(s, c);
	return s;
}
