/*
 * test_validate_text.c -- dlsim validate's sets read from CSV text
 * (cal_val_run_text): how a row of DeepLearningExamples' BERT becomes a
 * prediction (accumulation, the 2022 code's binned phase 2 and the
 * histogram behind it), a Transformer's or GNMT's row in tokens/s, and
 * the damaged ImageNet records and kernel rows a set skips with their
 * reason, and which MLPerf rows ran NVIDIA's convolution fusion; and a
 * set's figures (median, P90, bias, worst rows, skips) from rows whose
 * values are written out.  The shipped record and the other sets'
 * mappings are test_validate.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "validate_util.h"
#include "calibrate/cal.h"
#include "dlsim.h"

static const struct cal_val_set_def *set_def(const char *name)
{
	int i;

	for (i = 0; i < cal_val_n_sets; i++)
		if (strcmp(cal_val_sets[i].name, name) == 0)
			return &cal_val_sets[i];
	ck_abort_msg("no set '%s'", name);
	return NULL;
}

/* Run set name over the CSV text (len bytes) with catalog cat, no
 * calibration; out's rows are the caller's to free. */
static void run_set_text(const char *name, const char *text, size_t len,
			 struct hw_catalog *cat, struct cal_val_set *out)
{
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(cal_val_run_text(set_def(name), "t.csv", text, len,
				       cat, NULL, out, &err) == DLSIM_OK,
		      "%s: %s", name, err.msg);
}

/* A row of the figures test: its measured and predicted values read
 * from its columns, so that every error is known beforehand. */
static int row_as_written(const struct cal_vctx *v, struct cal_vrow *r)
{
	snprintf(r->what, sizeof(r->what), "%s", cal_val_col(v, "what"));
	r->measured = cal_val_num(v, "measured");
	r->predicted = cal_val_num(v, "predicted");
	return 0;
}

static const struct cal_val_set_def as_written = {
	"written", "w.csv", "rows as written", "s", row_as_written, 0, NULL
};

/*
 * A set's figures, from ten rows whose errors (predicted / measured - 1)
 * are, in file order, +0.30 +0.01 +0.90 -0.02 -0.40 +0.05 +0.50 -0.10
 * -0.20 +0.15 (h's -0.40 is 120 / 200 - 1; measured / predicted - 1
 * would be +0.67):
 *   |error| sorted  .01 .02 .05 .10 .15 | .20 .30 .40 .50 .90
 *   median          (0.15 + 0.20) / 2 = 0.175
 *   P90             nearest rank, the ceil(0.9 x 10) = 9th: 0.50
 *                   (interpolated it would be 0.54, the largest 0.90)
 *   signed sorted   -.40 -.20 -.10 -.02 +.01 | +.05 +.15 +.30 +.50 +.90
 *   bias            (0.01 + 0.05) / 2 = 0.03 (the mean would be 0.119)
 *   worst five      i +0.90, j +0.50, h -0.40, c +0.30, g -0.20
 * h's line repeated is one transcription, read once; a blank line is
 * nothing; a row with no measured value and one predicted 0 are skipped
 * with those reasons.  Three rows, an odd count: +0.10 -0.20 +0.30 give
 * median 0.20, P90 the 3rd of 3 (0.30), bias +0.10.  No row compared:
 * every figure NAN, not a perfect 0.
 */
START_TEST(validate_figures_from_written_rows)
{
	static const char ten[] = "what,measured,predicted\n"
		"c,100,130\na,100,101\ni,100,190\nb,100,98\nh,200,120\n"
		"h,200,120\nd,100,105\nj,100,150\ne,100,90\n\ng,100,80\n"
		"f,100,115\nm,,100\np,100,0\n";
	static const char three[] = "what,measured,predicted\n"
		"x,100,110\ny,100,80\nz,100,130\n";
	static const char none[] = "what,measured,predicted\nm,,100\n";
	static const char *const worst[] = { "i", "j", "h", "c", "g" };
	static const double worst_error[] = { 0.90, 0.50, -0.40, 0.30, -0.20 };
	struct dlsim_err err = { 0, "" };
	static struct cal_val_set out;
	int k;

	ck_assert_msg(cal_val_run_text(&as_written, "w.csv", ten,
				       sizeof(ten) - 1, NULL, NULL, &out,
				       &err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(out.rows, 10);
	ck_assert_rel(out.median_abs_error, 0.175, 1e-12);
	ck_assert_rel(out.p90_abs_error, 0.50, 1e-12);
	ck_assert_rel(out.median_signed_error, 0.03, 1e-12);
	ck_assert_str_eq(out.row[4].what, "h");
	ck_assert_rel(out.row[4].error, -0.40, 1e-12);
	ck_assert_str_eq(out.row[5].what, "d");
	ck_assert_int_eq(out.n_worst, 5);
	for (k = 0; k < 5; k++) {
		ck_assert_str_eq(out.worst[k].what, worst[k]);
		ck_assert_rel(out.worst[k].error, worst_error[k], 1e-12);
	}
	ck_assert_int_eq(out.skipped, 2);
	ck_assert_int_eq(out.n_reasons, 2);
	ck_assert_str_eq(out.reason[0].why, "no measured value");
	ck_assert_int_eq(out.reason[0].n, 1);
	ck_assert_str_eq(out.reason[1].why, "no prediction");
	ck_assert_int_eq(out.reason[1].n, 1);
	free(out.row);

	ck_assert(cal_val_run_text(&as_written, "w.csv", three,
				   sizeof(three) - 1, NULL, NULL, &out,
				   &err) == DLSIM_OK);
	ck_assert_int_eq(out.rows, 3);
	ck_assert_rel(out.median_abs_error, 0.20, 1e-12);
	ck_assert_rel(out.p90_abs_error, 0.30, 1e-12);
	ck_assert_rel(out.median_signed_error, 0.10, 1e-12);
	free(out.row);

	ck_assert(cal_val_run_text(&as_written, "w.csv", none,
				   sizeof(none) - 1, NULL, NULL, &out,
				   &err) == DLSIM_OK);
	ck_assert_int_eq(out.rows, 0);
	ck_assert_int_eq(out.skipped, 1);
	ck_assert(isnan(out.median_abs_error) && isnan(out.p90_abs_error) &&
		  isnan(out.median_signed_error));
	ck_assert_int_eq(out.n_worst, 0);
	free(out.row);
}
END_TEST

/*
 * MLPerf's ResNet-50 rows, fused as their code says (cal_validate_mlperf.c,
 * mlperf_conv_bn): MXNet at 204 or more images a GPU (408, and 204 at
 * the bound; not 203), PaddlePaddle's ResNetUnit, and below 204 only the
 * v0.6 runs whose configs name resnet-v1b-normconv-fl (dgx1_n130 at 52
 * a GPU; not another system at 52); TensorFlow not, nor MXNet on a TPU
 * (predicted, with element-wise fusion alone).  Each row is predict's
 * throughput of one device with --fuse-elementwise, and --fuse-conv-bn
 * where fused.
 */
START_TEST(validate_mlperf_fuses_conv_bn_as_the_code_says)
{
#define MLP_HEAD "round,submitter,system,benchmark,division," \
	"availability,accelerator,accel_memory,nodes,accel_per_node," \
	"total_accelerators,host_cpu,accel_interconnect,host_networking," \
	"framework,global_batch_size,runs_in_repo,runs_parsed," \
	"runs_missing_blob,runs_not_converged,time_to_train_min_olympic," \
	"min_run_min,max_run_min,throughput_unit,samples_to_target_median," \
	"avg_throughput_run,avg_throughput_per_accel,steady_throughput," \
	"steady_throughput_per_accel,step_time_median_s,duplicate_of_round," \
	"source,notes\n"
#define MLP_ROW(sys, acc, fw, gb) "v1.0,s," sys ",resnet,closed," \
	"available," acc ",,1,8,8,c,i,h," fw "," gb \
	",,,,,,,,images,,,,,2000,,,s,n\n"
#define A100 "NVIDIA A100-SXM4-80GB"
#define V100 "Tesla V100-SXM2-16GB"
	static const char rows[] = MLP_HEAD
		MLP_ROW("x", A100, "MXNet NVIDIA Release 21.05", "3264")
		MLP_ROW("x", A100, "MXNet NVIDIA Release 21.05", "1632")
		MLP_ROW("x", A100, "MXNet NVIDIA Release 21.05", "1624")
		MLP_ROW("x", A100, "PaddlePaddle (branch: develop)", "3264")
		MLP_ROW("dgx1_n130_ngc19.05_mxnet", V100,
			"MXNet NVIDIA Release 19.05", "416")
		MLP_ROW("x", V100, "MXNet NVIDIA Release 19.05", "416")
		MLP_ROW("x", A100, "TensorFlow 2.5", "3264")
		MLP_ROW("x", "TPU v3", "MXNet", "2048");
	static const struct {
		const char *spec;
		int64_t gb;
		int conv_bn;
	} want[] = {
		{ "a100x8", 3264, 1 }, { "a100x8", 1632, 1 },
		{ "a100x8", 1624, 0 }, { "a100x8", 3264, 1 },
		{ "v100x8", 416, 1 }, { "v100x8", 416, 0 },
		{ "a100x8", 3264, 0 }, { "tpu-v3x8", 2048, 0 },
	};
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	struct model *m = NULL;
	size_t i;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("mlperf", rows, sizeof(rows) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 8);
	ck_assert(model_resolve("resnet50", &m, NULL) == DLSIM_OK);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sim_options o;
		struct sim_result res;
		struct hw_system s;

		ck_assert(hw_system_resolve(cat, want[i].spec, &s, NULL) ==
			  DLSIM_OK);
		sim_options_init(&o);
		o.global_batch = want[i].gb;
		o.fuse_elementwise = 1;
		o.fuse_conv_bn = want[i].conv_bn;
		ck_assert(sim_predict(m, &s, &o, &res, NULL) == DLSIM_OK);
		ck_assert_int_eq(res.conv_bn_pairs, want[i].conv_bn ? 32 : 0);
		ck_assert_msg(fabs(out.row[i].predicted /
				   res.throughput_per_device - 1.0) < 1e-12,
			      "row %zu", i);
		ck_assert(out.row[i].measured == 2000.0);
		sim_result_release(&res);
	}
	ck_assert(out.row[0].predicted > out.row[6].predicted);
	model_free(m);
	free(out.row);
	hw_catalog_free(cat);
#undef V100
#undef A100
#undef MLP_ROW
#undef MLP_HEAD
}
END_TEST

/*
 * Damaged ImageNet records are skipped with their reason, never divided
 * by a device count read as 0: devices or batch missing or not dividing,
 * a time with no value or in hours, a cluster of 250 devices (not whole
 * nodes of 8) and a study whose cluster the catalog lacks.  The good
 * row is the file's Goyal row: 60 min, and 90 epochs of ceil(1,281,167
 * / 8,192) = 157 steps of ResNet-50 on big-basin-p100x32 at 8,192 /
 * 256 = 32 a device, fp32, the catalog's figures (no database).
 */
START_TEST(validate_imagenet_skips_damaged_records)
{
#define IN_HEAD "study,model,params_B,hardware,accelerator," \
	"num_accelerators,interconnect,framework,precision,global_batch," \
	"parallelism,metric,value,unit,derived,source,verification\n"
#define IN_ROW(study, n, gb, value, unit) study ",ResNet-50,,h,P100," n \
	",i,f,fp32," gb ",dp,time_to_train (90 epochs)," value "," unit \
	",d,s,verified\n"
	static const char text[] = IN_HEAD
		IN_ROW("Goyal et al. 2017 (1 hour)", "256", "8192", "60", "min")
		IN_ROW("Goyal et al. 2017 (1 hour)", "", "8192", "60", "min")
		IN_ROW("Goyal et al. 2017 (1 hour)", "256", "8000", "60", "min")
		IN_ROW("Goyal et al. 2017 (1 hour)", "256", "8192", "", "min")
		IN_ROW("Goyal et al. 2017 (1 hour)", "256", "8192", "1", "h")
		IN_ROW("Goyal et al. 2017 (1 hour)", "250", "8000", "60", "min")
		IN_ROW("Somebody et al. 2020", "256", "8192", "60", "min");
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("imagenet", text, sizeof(text) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 1);
	ck_assert(out.row[0].measured == 3600.0);
	ck_assert(hw_system_resolve(cat, "big-basin-p100x32", &s, NULL) ==
		  DLSIM_OK);
	ck_assert(model_zoo_build("resnet50", &m, NULL) == DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.batch_per_device = 32;
	ck_assert(sim_predict(m, &s, &o, &res, NULL) == DLSIM_OK);
	ck_assert_rel(out.row[0].predicted, 90.0 * 157.0 * res.step_time_s,
		      1e-9);
	sim_result_release(&res);
	model_free(m);
	ck_assert_int_eq(out.skipped, 6);
	ck_assert(val_has_reason(&out, "devices and global batch", 2));
	ck_assert(val_has_reason(&out, "time not a positive number", 2));
	ck_assert(val_has_reason(&out, "cluster not in the catalog", 2));
	free(out.row);
	hw_catalog_free(cat);
#undef IN_HEAD
#undef IN_ROW
}
END_TEST

/* NVIDIA's BERT-Large at seq tokens, data parallel on one GPU of system s
 * at micro-batch mb of global batch gb, fp16 with apex's FusedLAMB, as
 * dle_bert predicts a row: its step time, s. */
static double bert_step_time(const struct hw_system *s, int seq, int64_t mb,
			     int64_t gb)
{
	struct model *m = NULL;
	struct sim_strategy st;
	struct sim_par_result res;
	char spec[64];

	snprintf(spec, sizeof(spec), "bert-large:seq=%d,vocab=30528,unfused=1",
		 seq);
	ck_assert(model_resolve(spec, &m, NULL) == DLSIM_OK);
	sim_strategy_init(&st);
	st.dp = 1;
	st.micro_batch = mb;
	st.global_batch = gb;
	ck_assert(sim_parallel_predict(m, s, DLSIM_FP16, SIM_OPT_LAMB, &st,
				       &res, NULL) == DLSIM_OK);
	model_free(m);
	return res.step_time_s;
}

/* The header of the DeepLearningExamples files (dle_bert.csv,
 * dle_transformer.csv, dle_gnmt.csv, dle_ssd.csv). */
#define DLE_HEAD "framework,model_dir,hardware_section,subsection,gpu_type," \
	"nodes,gpus,batch_per_gpu,seq_len,grad_accum,xla,variant,precision," \
	"metric,value,unit,reported_scaling,column,first_seen_date," \
	"last_seen_date,source\n"

/*
 * DeepLearningExamples' BERT rows: "A and B" accumulation steps are the
 * fp32/TF32 and the mixed-precision runs' (the README's micro-batches:
 * 65536 / 8192 = 8 at fp32, 65536 / 4096 = 16 mixed, global 65536 on one
 * GPU); no accumulation: the batch is the micro-batch (16 x 4 GPUs = 64).
 * Damaged rows are skipped with their reason: an accumulation that is
 * not a number or does not divide the batch, a precision or a GPU not
 * mapped.
 */
START_TEST(validate_bert_rows_map_accumulation)
{
#define BERT_ROW(gpu, n, b, s, acc, p) "PyTorch,LanguageModeling/BERT,h," \
	"Pre-training," gpu ",," n "," b "," s "," acc ",,," p \
	",throughput,100,sequences/s,1,c,d,d,t\n"
	static const char good[] = DLE_HEAD
		BERT_ROW("V100-16GB", "1", "65536", "128", "8192 and 4096", "fp32")
		BERT_ROW("V100-16GB", "1", "65536", "128", "8192 and 4096", "mixed")
		BERT_ROW("V100-16GB", "4", "16", "128", "", "mixed")
		BERT_ROW("V100-16GB", "1", "65536", "128", "x and y", "mixed")
		BERT_ROW("V100-16GB", "1", "100", "128", "3", "mixed")
		BERT_ROW("V100-16GB", "1", "16", "128", "", "fp8")
		BERT_ROW("P100", "1", "16", "128", "", "fp32");
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("dle_bert", good, sizeof(good) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 3);
	ck_assert_str_eq(out.row[0].what, "bert-large seq 128 on V100-16GB "
			 "x1 mb 8 gb 65536 fp32");
	ck_assert_str_eq(out.row[1].what, "bert-large seq 128 on V100-16GB "
			 "x1 mb 16 gb 65536 mixed");
	ck_assert_str_eq(out.row[2].what, "bert-large seq 128 on V100-16GB "
			 "x4 mb 16 gb 64 mixed");
	/* the second: BERT-Large at seq 128, unfused attention, data
	 * parallel on one V100 at micro-batch 16 of 65536, fp16 with apex's
	 * FusedLAMB: the same call made here */
	{
		struct hw_system s;

		ck_assert(hw_system_resolve(cat, "v100x1", &s, NULL) ==
			  DLSIM_OK);
		ck_assert_rel(out.row[1].predicted, 65536.0 /
			      bert_step_time(&s, 128, 16, 65536), 1e-12);
	}
	ck_assert_int_eq(out.skipped, 4);
	ck_assert(val_has_reason(&out, "accumulation not usable", 2));
	ck_assert(val_has_reason(&out, "precision not fp32", 1));
	ck_assert(val_has_reason(&out, "GPU not mapped", 1));
	free(out.row);
	hw_catalog_free(cat);
#undef BERT_ROW
}
END_TEST

/*
 * The 2022 README's phase 2 ran binned (its changelog: LDDL, bins of 64
 * tokens): a 512-token row first published in 2022 is the mean of the
 * steps at 64, 128, ... 512 tokens weighted by the bins' shares of the
 * Wikipedia histogram, summed by hand from its counts (16,279,552
 * sequences: 2,863,079 of 1-64 tokens, 3,150,804, 1,855,542, 1,349,565,
 * 1,050,206, 859,509, 722,518 and 4,428,329 of 449-512).  The same row
 * published in 2021, and a 2022 row at 128 tokens (phase 1), are not.
 */
START_TEST(validate_bert_bins_the_2022_phase_2)
{
#define BERT_ROW(s, first) "PyTorch,LanguageModeling/BERT,h,Pre-training," \
	"A100-80GB,,1,4096," s ",256 and 128,,,mixed,throughput,210," \
	"sequences/s,1,c," first ",2022-04-01,t\n"
	static const char rows[] = DLE_HEAD
		BERT_ROW("512", "2022-03-02")
		BERT_ROW("512", "2021-11-06")
		BERT_ROW("128", "2022-03-02")
		BERT_ROW("512", "2022-03-02x");
	static const double count[8] = {
		2863079, 3150804, 1855542, 1349565, 1050206, 859509, 722518,
		4428329 };
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	static struct model_seq_bins bins;
	double share[8], t[8 + 1], mix = 0.0;
	struct hw_system s;
	size_t size;
	const char *text = cal_val_builtin("wikipedia_seq512_histogram.csv",
					   &size);
	int k;

	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(model_seq_bins_read(text, size, "h.csv", 64, &bins,
					     &err), DLSIM_OK);
	ck_assert_int_eq(bins.n, 8);
	ck_assert(bins.sequences == 16279552.0);
	for (k = 0; k < 8; k++) {
		share[k] = bins.share[k];
		ck_assert_int_eq(bins.padded[k], 64 * (k + 1));
		ck_assert_rel(share[k], count[k] / 16279552.0, 1e-12);
	}
	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	ck_assert(hw_system_resolve(cat, "a100x1", &s, NULL) == DLSIM_OK);
	/* t[k]: micro-batch 32 of 4096, fp16, FusedLAMB, at 64 (k + 1)
	 * tokens; t[8] the 128-token step */
	for (k = 0; k <= 8; k++) {
		t[k] = bert_step_time(&s, k < 8 ? 64 * (k + 1) : 128, 32,
				      4096);
		if (k < 8)
			mix += share[k] * t[k];
	}
	run_set_text("dle_bert", rows, sizeof(rows) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 4);
	ck_assert_rel(out.row[0].predicted, 4096.0 / mix, 1e-12);
	ck_assert_rel(out.row[1].predicted, 4096.0 / t[7], 1e-12);
	ck_assert_rel(out.row[2].predicted, 4096.0 / t[8], 1e-12);
	ck_assert_rel(out.row[3].predicted, 4096.0 / t[7], 1e-12);
	/* more than half of phase 2's tokens were padding: binned, the
	 * step is well under the 512-token one's */
	ck_assert(out.row[0].predicted > 1.5 * out.row[1].predicted);
	free(out.row);
	hw_catalog_free(cat);
#undef BERT_ROW
}
END_TEST

/*
 * Damaged kernel rows are skipped with their reason, not predicted from
 * a dimension read as 0; a row repeated whole is read once.  One good
 * V100 GEMM row and one good convolution row survive in each; of the
 * recurrent rows, the two LSTMs (the second with its weight gradient
 * timed) and the vanilla RNN, not a kind dlsim has no layer for nor the
 * GRU without a backward time.
 */
START_TEST(validate_skips_damaged_kernel_rows)
{
	static const char gemm[] =
		"hardware,setting,sheet,precision,application,M,N,K,transA,"
		"transB,time_ms,tflops,flops_unit,source\n"
		"NVIDIA V100,training,s,Float,,1760,128,1760,N,N,"
		"0.1,1,TFLOPS,t\n"
		"NVIDIA V100,training,s,Float,,1760,128,1760,N,N,"
		"0.1,1,TFLOPS,t\n"
		"NVIDIA V100,training,s,Float,,1760,,1760,N,N,"
		"0.1,1,TFLOPS,t\n"
		"NVIDIA V100,training,s,Float,,1760,x,1760,N,N,"
		"0.1,1,TFLOPS,t\n";
	static const char conv[] =
		"hardware,setting,sheet,precision,application,W,H,C,N,K,"
		"S_filter_w,R_filter_h,pad_w,pad_h,stride_w,stride_h,fwd_ms,"
		"bwd_inputs_ms,bwd_params_ms,total_ms,fwd_algo,source\n"
		"NVIDIA V100,training,s,Float,,56,56,64,16,64,3,3,1,1,"
		"1,1,0.5,0.5,0.5,1.5,a,t\n"
		"NVIDIA V100,training,s,Float,,56,56,64,16,64,3,3,,1,"
		"1,1,0.5,0.5,0.5,1.5,a,t\n"
		"NVIDIA V100,training,s,Float,,56,56,64,16,64,3,3,1,1,"
		"0,1,0.5,0.5,0.5,1.5,a,t\n"
		"NVIDIA V100,training,s,Float,,4,4,64,16,64,9,9,0,0,"
		"1,1,0.5,0.5,0.5,1.5,a,t\n";
	static const char rnn[] =
		"hardware,setting,sheet,precision,application,rnn_type,hidden,"
		"N,timesteps,fwd_ms,bwd_ms,bwd_weights_ms,total_ms,fwd_tflops,"
		"source\n"
		"NVIDIA V100,training,s,Float,,LSTM,512,16,25,1,1,,,1,t\n"
		"NVIDIA V100,training,s,Float,,LSTM,512,16,25,1,1,0.5,,1,t\n"
		"NVIDIA V100,training,s,Float,,Vanilla,512,16,25,1,1,,,1,t\n"
		"NVIDIA V100,training,s,Float,,Jordan,512,16,25,1,1,,,1,t\n"
		"NVIDIA V100,training,s,Float,,GRU,512,16,25,1,,,,1,t\n";
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("deepbench_gemm", gemm, sizeof(gemm) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 1);
	ck_assert_int_eq(out.skipped, 2);
	ck_assert(val_has_reason(&out, "M, N or K missing", 2));
	free(out.row);
	run_set_text("deepbench_conv", conv, sizeof(conv) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 1);
	ck_assert_int_eq(out.skipped, 3);
	ck_assert(val_has_reason(&out, "stride or pad missing", 2));
	ck_assert(val_has_reason(&out, "a filter larger than its input", 1));
	free(out.row);
	run_set_text("deepbench_rnn", rnn, sizeof(rnn) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 3);
	ck_assert_int_eq(out.skipped, 2);
	ck_assert(val_has_reason(&out, "not an LSTM, GRU or vanilla RNN", 1));
	ck_assert(val_has_reason(&out, "not timed", 1));
	/* the weight gradient is added on both sides only where timed */
	ck_assert(fabs(out.row[0].measured - 2.0e-3) < 1e-15);
	ck_assert(fabs(out.row[1].measured - 2.5e-3) < 1e-15);
	ck_assert(out.row[1].predicted > out.row[0].predicted);
	free(out.row);
	hw_catalog_free(cat);
}
END_TEST

/*
 * DeepLearningExamples' Transformer rows: "A/B" tokens a GPU are the
 * mixed-precision runs' A and the FP32 or TF32 runs' B (the README:
 * FP32 at 2,560 where mixed runs 5,120), one number both; a batch of T
 * tokens is T / 32 sentence pairs of 32 tokens, and the prediction in
 * tokens/s is the pairs a second times 32: 5,120 mixed on 8 V100s is
 * data parallel at micro-batch 160, global 1,280.  Tokens that are not a
 * whole number of sentences or not a number, a GPU or a precision not
 * mapped, are skipped with their reason.
 */
START_TEST(validate_transformer_rows_map_tokens)
{
#define NMT_ROW(gpu, n, b, p) "PyTorch,Translation/Transformer,h,s," gpu \
	",," n "," b ",,,,," p ",throughput,100,tokens/s,1,c,d,d,t\n"
	static const char rows[] = DLE_HEAD
		NMT_ROW("V100-16GB", "8", "5120/2560", "mixed")
		NMT_ROW("V100-16GB", "8", "5120/2560", "fp32")
		NMT_ROW("A100-40GB", "1", "10240", "tf32")
		NMT_ROW("V100-16GB", "1", "5000", "fp32")
		NMT_ROW("V100-16GB", "1", "x/y", "fp32")
		NMT_ROW("V100-16GB", "1", "2560", "fp8")
		NMT_ROW("P100", "1", "2560", "fp32");
	static const struct {
		const char *spec;
		enum dlsim_precision p;
		int64_t mb, gpus;
	} want[] = {
		{ "v100x8", DLSIM_FP16, 160, 8 },
		{ "v100x8", DLSIM_FP32, 80, 8 },
		{ "a100-sxm4-40gbx1", DLSIM_TF32, 320, 1 },
	};
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	struct model *m = NULL;
	size_t i;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("dle_transformer", rows, sizeof(rows) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 3);
	ck_assert_str_eq(out.row[0].what, "transformer-big on V100-16GB x8 "
			 "5120 tokens a GPU mixed");
	ck_assert_str_eq(out.row[1].what, "transformer-big on V100-16GB x8 "
			 "2560 tokens a GPU fp32");
	ck_assert(model_resolve("transformer-big:seq=32,vocab=33712,"
				"unfused=1", &m, NULL) == DLSIM_OK);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sim_strategy st;
		struct sim_par_result res;
		struct hw_system s;

		ck_assert(hw_system_resolve(cat, want[i].spec, &s, NULL) ==
			  DLSIM_OK);
		sim_strategy_init(&st);
		st.dp = want[i].gpus;
		st.micro_batch = want[i].mb;
		st.global_batch = want[i].mb * want[i].gpus;
		ck_assert(sim_parallel_predict(m, &s, want[i].p, SIM_OPT_ADAM,
					       &st, &res, NULL) == DLSIM_OK);
		ck_assert_rel(out.row[i].predicted, res.samples_per_s * 32.0,
			      1e-12);
		ck_assert(out.row[i].measured == 100.0);
	}
	ck_assert_int_eq(out.skipped, 4);
	ck_assert(val_has_reason(&out, "tokens per GPU not usable", 2));
	ck_assert(val_has_reason(&out, "precision not fp32", 1));
	ck_assert(val_has_reason(&out, "GPU not mapped", 1));
	model_free(m);
	free(out.row);
	hw_catalog_free(cat);
#undef NMT_ROW
}
END_TEST

/*
 * DeepLearningExamples' GNMT rows: a batch of sentences a GPU, in pairs
 * of 32 tokens, and the trainer's Tok/s counting source and target: the
 * prediction is the pairs a second times 64 (4 V100s, 128 pairs each,
 * fp16, Adam).  The 2018 rows (no GPU, no batch), a TF32 row and one
 * without its batch are skipped with their reason.
 */
START_TEST(validate_gnmt_rows_map_sentences)
{
#define GNMT_ROW(gpu, n, b, p) "PyTorch,Translation/GNMT,h,s," gpu ",," n \
	"," b ",,,,," p ",throughput,100,tokens/s,1,c,d,d,t\n"
	static const char rows[] = DLE_HEAD
		GNMT_ROW("V100-16GB", "4", "128", "mixed")
		GNMT_ROW("", "1", "", "mixed")
		GNMT_ROW("V100-16GB", "1", "128", "tf32")
		GNMT_ROW("V100-16GB", "1", "", "fp32");
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("dle_gnmt", rows, sizeof(rows) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 1);
	ck_assert_str_eq(out.row[0].what, "gnmt on V100-16GB x4 batch 128 "
			 "mixed");
	ck_assert(hw_system_resolve(cat, "v100x4", &s, NULL) == DLSIM_OK);
	ck_assert(model_resolve("gnmt:seq=32", &m, NULL) == DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP16;
	o.batch_per_device = 128;
	o.optimizer = SIM_OPT_ADAM;
	ck_assert(sim_predict(m, &s, &o, &res, NULL) == DLSIM_OK);
	ck_assert_rel(out.row[0].predicted, res.throughput * 64.0, 1e-12);
	ck_assert_int_eq(out.skipped, 3);
	ck_assert(val_has_reason(&out, "GPU not mapped", 1));
	ck_assert(val_has_reason(&out, "precision not fp32 or mixed", 1));
	ck_assert(val_has_reason(&out, "GPUs or batch not usable", 1));
	sim_result_release(&res);
	model_free(m);
	free(out.row);
	hw_catalog_free(cat);
#undef GNMT_ROW
}
END_TEST

/*
 * DeepLearningExamples' SSD rows: images/s over the row's GPUs of the
 * zoo's ssd300, data parallel, SGD with momentum (main.py), at the row's
 * batch and precision (8 V100s in fp16; one 80 GB A100 in TF32).  The
 * TensorFlow rows (SSD320 v1.2, another network), the March 2019 rows
 * that state no GPU, a GPU the catalog lacks, an fp8 row and one without
 * its batch are skipped with their reason.
 */
START_TEST(validate_ssd_rows_map_images)
{
#define SSD_ROW(fw, gpu, n, b, p) fw ",Detection/SSD,h,s," gpu ",," n "," \
	b ",,,,," p ",throughput,100,img/s,1,c,d,d,t\n"
	static const char rows[] = DLE_HEAD
		SSD_ROW("PyTorch", "V100-16GB", "8", "32", "mixed")
		SSD_ROW("PyTorch", "A100-80GB", "1", "128", "tf32")
		SSD_ROW("TensorFlow", "V100-16GB", "8", "32", "mixed")
		SSD_ROW("PyTorch", "", "1", "32", "fp32")
		SSD_ROW("PyTorch", "P100", "1", "32", "fp32")
		SSD_ROW("PyTorch", "V100-16GB", "1", "32", "fp8")
		SSD_ROW("PyTorch", "V100-16GB", "1", "", "fp32");
	static const struct {
		const char *spec;
		enum dlsim_precision p;
		int64_t batch;
	} want[] = {
		{ "v100x8", DLSIM_FP16, 32 },
		{ "a100x1", DLSIM_TF32, 128 },
	};
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	static struct cal_val_set out;
	struct model *m = NULL;
	size_t i;

	ck_assert(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK);
	run_set_text("dle_ssd", rows, sizeof(rows) - 1, cat, &out);
	ck_assert_int_eq(out.rows, 2);
	ck_assert_str_eq(out.row[0].what, "ssd300 on V100-16GB x8 batch 32 "
			 "mixed");
	ck_assert_str_eq(out.row[1].what, "ssd300 on A100-80GB x1 batch 128 "
			 "tf32");
	ck_assert(model_zoo_build("ssd300", &m, NULL) == DLSIM_OK);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sim_options o;
		struct sim_result res;
		struct hw_system s;

		ck_assert(hw_system_resolve(cat, want[i].spec, &s, NULL) ==
			  DLSIM_OK);
		sim_options_init(&o);
		o.precision_auto = 0;
		o.precision = want[i].p;
		o.batch_per_device = want[i].batch;
		o.optimizer = SIM_OPT_MOMENTUM;
		ck_assert(sim_predict(m, &s, &o, &res, NULL) == DLSIM_OK);
		ck_assert_rel(out.row[i].predicted, res.throughput, 1e-12);
		ck_assert(out.row[i].measured == 100.0);
		sim_result_release(&res);
	}
	ck_assert_int_eq(out.skipped, 5);
	ck_assert(val_has_reason(&out, "(TensorFlow) is not in the zoo", 1));
	ck_assert(val_has_reason(&out, "no GPU stated", 1));
	ck_assert(val_has_reason(&out, "GPU not mapped", 1));
	ck_assert(val_has_reason(&out, "precision not fp32", 1));
	ck_assert(val_has_reason(&out, "GPUs or batch not usable", 1));
	model_free(m);
	free(out.row);
	hw_catalog_free(cat);
#undef SSD_ROW
}
END_TEST

#undef DLE_HEAD

Suite *suite_validate_text(void)
{
	Suite *s = suite_create("validate_text");
	TCase *c = tcase_create("validate_text");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, validate_figures_from_written_rows);
	tcase_add_test(c, validate_imagenet_skips_damaged_records);
	tcase_add_test(c, validate_mlperf_fuses_conv_bn_as_the_code_says);
	tcase_add_test(c, validate_skips_damaged_kernel_rows);
	tcase_add_test(c, validate_bert_rows_map_accumulation);
	tcase_add_test(c, validate_bert_bins_the_2022_phase_2);
	tcase_add_test(c, validate_transformer_rows_map_tokens);
	tcase_add_test(c, validate_gnmt_rows_map_sentences);
	tcase_add_test(c, validate_ssd_rows_map_images);
	suite_add_tcase(s, c);
	return s;
}
