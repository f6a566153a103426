/*
 * test_validate_user.c -- `dlsim validate --file` (calibrate/
 * cal_validate_user.c): each row of a user's measurement file is
 * predicted exactly as `dlsim predict` would predict the same options,
 * column by column (metrics, flags, fusions, strategies, the update on
 * the host, the caller's fits).  What a file may not hold, and the file
 * and command around the rows, are test_validate_user_file.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "validate_util.h"
#include "calibrate/cal.h"
#include "dlsim.h"

/* The data-parallel step of model on hw with options o, as predict
 * makes it. */
static void dp_direct(const char *hw, const char *model,
		      const struct sim_options *o, struct sim_result *res)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct model *m = NULL;

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	ck_assert_int_eq(hw_system_resolve(cat, hw, &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_resolve(model, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_predict(m, &s, o, res, &err), DLSIM_OK);
	model_free(m);
	hw_catalog_free(cat);
}

/* The step time of strategy st for model on hw at precision p with
 * Adam, as predict makes it. */
static double parallel_direct(const char *hw, const char *model,
			      enum dlsim_precision p,
			      const struct sim_strategy *st)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct hw_system s;
	struct model *m = NULL;
	struct sim_par_result r;

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	ck_assert_int_eq(hw_system_resolve(cat, hw, &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_resolve(model, &m, &err), DLSIM_OK);
	ck_assert_int_eq(sim_parallel_predict(m, &s, p, SIM_OPT_ADAM, st, &r,
					      &err), DLSIM_OK);
	model_free(m);
	hw_catalog_free(cat);
	return r.step_time_s;
}

/* ResNet-50 on 8 V100 at batch 64 fp32, as `dlsim predict resnet50 --hw
 * v100x8 --batch 64 --precision fp32` makes it. */
static void resnet_direct(struct sim_result *res)
{
	struct sim_options o;

	sim_options_init(&o);
	o.batch_per_device = 64;
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	dp_direct("v100x8", "resnet50", &o, res);
}

/* vTrain's GPT (24 layers, hidden 1024) on 8 A100 with tp 2, pp 2, dp 2,
 * micro-batch 4, global batch 32, full recomputation, 66 us dispatch,
 * fp16 and Adam: what `dlsim predict` gives the same flags. */
static double gpt_direct(void)
{
	struct sim_strategy st;

	sim_strategy_init(&st);
	st.tp = 2;
	st.pp = 2;
	st.dp = 2;
	st.micro_batch = 4;
	st.global_batch = 32;
	st.recompute = SIM_RECOMPUTE_FULL;
	st.dispatch_s = 66e-6;
	return parallel_direct("a100x8", "gpt:layers=24,hidden=1024,heads=16,"
			       "seq=1024,vocab=50257,unfused=1", DLSIM_FP16,
			       &st);
}

/*
 * One data-parallel step read three ways and one hybrid-parallel step.
 * The three metrics of the same ResNet-50 step are tied by hand: the
 * system's samples/s over 8 devices is each device's, and a step of 8 x
 * 64 = 512 samples takes 512 / (samples/s) seconds.  Errors are
 * predicted / measured - 1.
 */
START_TEST(validate_user_rows_are_predicts)
{
	static const char text[] =
		"model,hw,batch,precision,metric,measured,source\n"
		"resnet50,v100x8,64,fp32,samples_per_s,2000,a\n"
		"resnet50,v100x8,64,fp32,samples_per_s_per_device,250,b\n"
		"resnet50,v100x8,64,fp32,step_s,0.256,c\n";
	static const char gpt[] =
		"model,hw,global-batch,precision,tp,pp,micro-batch,recompute,"
		"dispatch-us,metric,measured\n"
		"\"gpt:layers=24,hidden=1024,heads=16,seq=1024,vocab=50257,"
		"unfused=1\",a100x8,32,fp16,2,2,4,full,66,step_s,0.219732754\n";
	struct dlsim_err err = { 0, "" };
	struct cal_val_set out;
	struct sim_result res;
	double t;

	resnet_direct(&res);
	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 3);
	ck_assert_int_eq(out.skipped, 0);
	ck_assert_str_eq(out.name, "mine");
	ck_assert_str_eq(out.unit, "mixed");
	t = out.row[0].predicted;
	ck_assert_rel(t, res.throughput, 1e-12);
	ck_assert_rel(out.row[1].predicted, t / 8.0, 1e-12);
	ck_assert_rel(out.row[2].predicted, 512.0 / t, 1e-12);
	ck_assert_rel(out.row[0].error, t / 2000.0 - 1.0, 1e-12);
	ck_assert_rel(out.row[2].error, 512.0 / t / 0.256 - 1.0, 1e-12);
	ck_assert_str_eq(out.row[0].what,
			 "resnet50 on v100x8 batch 64 fp32 (samples/s)");
	ck_assert_str_eq(out.row[1].source, "b");
	ck_assert_int_eq(out.row[2].line, 2);
	sim_result_release(&res);
	free(out.row);

	memset(&err, 0, sizeof(err));
	ck_assert_msg(val_run_user(gpt, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 1);
	ck_assert_str_eq(out.unit, "s");
	ck_assert_rel(out.row[0].predicted, gpt_direct(), 1e-12);
	ck_assert(strstr(out.row[0].what, "on a100x8 tp 2 pp 2 dp 2 mb 4 gb "
			 "32 fp16 full dispatch 66 us (s)") != NULL);
	free(out.row);
}
END_TEST

/*
 * A flag column of both steps (optimizer-foreach, autocast) is predict's
 * flag: a ResNet-50 row with it at precision cnn is sim_predict's step
 * with the option set (slower than without: more kernels), a GPT row
 * with a strategy at precision gpt sim_parallel_predict's; the word the
 * column adds to a row's description tells the rows apart.
 */
static void flag_column_is_predicts(const char *column, const char *word,
				    const char *cnn, const char *gpt)
{
	struct dlsim_err err = { 0, "" };
	struct cal_val_set out;
	struct sim_options o;
	struct sim_strategy st;
	struct sim_result res;
	char text[512];
	int foreach = strcmp(column, "optimizer-foreach") == 0;

	snprintf(text, sizeof(text), "model,hw,batch,precision,%s,metric,"
		 "measured\nresnet50,v100x8,64,%s,yes,step_s,1\n"
		 "resnet50,v100x8,64,%s,no,step_s,1\n", column, cnn, cnn);
	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 2);
	sim_options_init(&o);
	o.batch_per_device = 64;
	o.precision_auto = 0;
	ck_assert_int_eq(dlsim_precision_parse(cnn, &o.precision, NULL),
			 DLSIM_OK);
	o.optimizer_foreach = foreach;
	o.autocast = !foreach;
	dp_direct("v100x8", "resnet50", &o, &res);
	ck_assert_rel(out.row[0].predicted, res.step_time_s, 1e-12);
	sim_result_release(&res);
	ck_assert(out.row[0].predicted > out.row[1].predicted);
	ck_assert(strstr(out.row[0].what, word) != NULL);
	ck_assert(strstr(out.row[1].what, word) == NULL);
	free(out.row);
	snprintf(text, sizeof(text), "model,hw,global-batch,precision,tp,%s,"
		 "metric,measured\n\"gpt:layers=2,hidden=64,heads=4,seq=32,"
		 "vocab=128\",a100x8,8,%s,2,yes,step_s,1\n", column, gpt);
	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	sim_strategy_init(&st);
	st.tp = 2;
	st.dp = 4;
	st.global_batch = 8;
	st.optimizer_foreach = foreach;
	st.autocast = !foreach;
	ck_assert_int_eq(dlsim_precision_parse(gpt, &o.precision, NULL),
			 DLSIM_OK);
	ck_assert_rel(out.row[0].predicted, parallel_direct("a100x8",
		      "gpt:layers=2,hidden=64,heads=4,seq=32,vocab=128",
		      o.precision, &st), 1e-12);
	free(out.row);
}

START_TEST(validate_user_optimizer_foreach)
{
	flag_column_is_predicts("optimizer-foreach", " foreach", "fp32",
				"fp16");
}
END_TEST

START_TEST(validate_user_autocast)
{
	flag_column_is_predicts("autocast", " autocast", "fp16", "bf16");
}
END_TEST

/*
 * fuse-conv-bn yes is predict's --fuse-conv-bn, which implies the
 * element-wise fusion: the row is the prediction with both set, and
 * shorter than the row with fuse-elementwise alone.
 */
START_TEST(validate_user_fuse_conv_bn)
{
	static const char text[] =
		"model,hw,batch,precision,fuse-elementwise,fuse-conv-bn,"
		"metric,measured\n"
		"resnet50,a100,256,fp16,no,yes,step_s,0.1\n"
		"resnet50,a100,256,fp16,yes,no,step_s,0.1\n";
	struct dlsim_err err = { 0, "" };
	struct cal_val_set out;
	struct sim_options o;
	struct sim_result res;

	sim_options_init(&o);
	o.batch_per_device = 256;
	o.precision_auto = 0;
	o.precision = DLSIM_FP16;
	o.fuse_elementwise = 1;
	o.fuse_conv_bn = 1;
	dp_direct("a100", "resnet50", &o, &res);
	ck_assert_int_eq(res.conv_bn_pairs, 32);
	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 2);
	ck_assert_rel(out.row[0].predicted, res.step_time_s, 1e-12);
	ck_assert(out.row[0].predicted < out.row[1].predicted);
	ck_assert_str_eq(out.row[0].what, "resnet50 on a100 batch 256 fp16 "
			 "fused into convolutions (s)");
	sim_result_release(&res);
	free(out.row);
}
END_TEST

/*
 * A flag column set to "no" is the option not given: sequence-parallel
 * "no" keeps a transformer's row data-parallel (as predict without
 * --sequence-parallel).  A repeated row is a repeated measurement, kept:
 * the same prediction against 1 s and 2 s gives errors p - 1 and p/2 - 1.
 */
START_TEST(validate_user_no_flags_and_repeats)
{
	static const char text[] =
		"model,hw,batch,precision,sequence-parallel,no-overlap,metric,"
		"measured\n"
		"\"gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100\",a100x8,4,"
		"fp16,no,no,step_s,1\n"
		"\"gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100\",a100x8,4,"
		"fp16,,,step_s,1\n"
		"\"gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100\",a100x8,4,"
		"fp16,,,step_s,2\n";
	struct dlsim_err err = { 0, "" };
	struct cal_val_set out;
	double p;

	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 3);
	p = out.row[0].predicted;
	ck_assert(strstr(out.row[0].what, "on a100x8 batch 4 fp16 (s)") !=
		  NULL);
	ck_assert_rel(out.row[1].predicted, p, 1e-12);
	ck_assert_rel(out.row[1].error, p - 1.0, 1e-12);
	ck_assert_rel(out.row[2].error, p / 2.0 - 1.0, 1e-12);
	free(out.row);
}
END_TEST

/*
 * A row is predicted with the caller's fits, as predict with that
 * database: ResNet-50 on one P100 at batch 64 fp32 with the shipped
 * calibration seeded is what sim_predict gives the system hw_system_open
 * resolves from the same database, and not the catalog's figure (the
 * seeded P100 convolution fits are DeepBench's, faster than its class).
 */
START_TEST(validate_user_uses_the_callers_fits)
{
	static const char text[] = "model,hw,batch,precision,metric,measured\n"
				   "resnet50,p100,64,fp32,samples_per_s,219\n";
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct db *db = NULL;
	struct cal_val_set out, bare;
	struct hw_system s;
	struct hw_calib cal;
	struct hw_local local;
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	int64_t runs, samples;

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, &err), DLSIM_OK);
	ck_assert_int_eq(db_open(":memory:", &db, &err), DLSIM_OK);
	ck_assert_int_eq(cal_seed(db, &runs, &samples, &err), DLSIM_OK);
	ck_assert_msg(cal_val_run_text(&val_user_def, "t.csv", text,
				       strlen(text), cat, db, &out, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(hw_system_open(cat, db, "p100", &s, &cal, &local,
					&err), DLSIM_OK);
	ck_assert(s.calib != NULL);
	ck_assert_int_eq(model_resolve("resnet50", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.batch_per_device = 64;
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_int_eq(sim_predict(m, &s, &o, &res, &err), DLSIM_OK);
	ck_assert_rel(out.row[0].predicted, res.throughput, 1e-12);
	ck_assert_msg(val_run_user(text, &bare, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert(fabs(bare.row[0].predicted / out.row[0].predicted - 1.0) >
		  0.05);
	sim_result_release(&res);
	model_free(m);
	free(out.row);
	free(bare.row);
	db_close(db);
	hw_catalog_free(cat);
}
END_TEST

/*
 * The remaining options of predict as columns: ZeRO and an interleaved
 * schedule (two chunks, predict's default) on a strategy, and the
 * allreduce, its buckets and the gradients' compression on a
 * data-parallel step, each the step sim_parallel_predict or sim_predict
 * gives the same inputs.
 */
START_TEST(validate_user_takes_the_other_options)
{
	static const char text[] =
		"model,hw,global-batch,batch,precision,tp,pp,zero,schedule,"
		"allreduce,bucket-mb,compression,topk-ratio,metric,measured\n"
		"gpt3-175b,a100x1024,1536,,bf16,8,16,1,interleaved,,,,,step_s,"
		"20\n"
		"vgg16,v100x64,,32,fp32,,,,,ring,50,topk,0.02,step_s,0.5\n";
	static const char host[] =
		"model,hw,batch,precision,optimizer,update-on,metric,measured\n"
		"inception_v3,p100x8,64,fp32,sgd,host,samples_per_s,1131\n"
		"inception_v3,p100x8,64,fp32,sgd,device,samples_per_s,1131\n";
	struct dlsim_err err = { 0, "" };
	struct sim_strategy st;
	struct sim_options o;
	struct sim_result res;
	struct cal_val_set out;

	ck_assert_msg(val_run_user(text, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(out.rows, 2);
	sim_strategy_init(&st);
	st.tp = 8;
	st.pp = 16;
	st.dp = 8;
	st.global_batch = 1536;
	st.zero = 1;
	st.schedule = SIM_SCHED_INTERLEAVED;
	st.chunks = 2;
	ck_assert_rel(out.row[0].predicted, parallel_direct(
			      "a100x1024", "gpt3-175b", DLSIM_BF16, &st), 1e-12);
	ck_assert(strstr(out.row[0].what, "zero 1 interleaved x2 (s)"));
	sim_options_init(&o);
	o.batch_per_device = 32;
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.allreduce = SIM_ALGO_RING;
	o.bucket_bytes = 50.0 * 1048576.0;
	o.compression = SIM_COMPRESS_TOPK;
	o.topk_ratio = 0.02;
	dp_direct("v100x64", "vgg16", &o, &res);
	ck_assert_rel(out.row[1].predicted, res.step_time_s, 1e-12);
	ck_assert(strstr(out.row[1].what, "ring bucket 50 MiB topk 0.02 "
			 "gradients (s)"));
	sim_result_release(&res);
	free(out.row);
	/* update-on host is the parameter server on the host; device, the
	 * default */
	ck_assert_msg(val_run_user(host, &out, &err) == DLSIM_OK, "%s",
		      err.msg);
	sim_options_init(&o);
	o.batch_per_device = 64;
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.optimizer = SIM_OPT_SGD;
	o.update_on_host = 1;
	dp_direct("p100x8", "inception_v3", &o, &res);
	ck_assert_rel(out.row[0].predicted, res.throughput, 1e-12);
	ck_assert(strstr(out.row[0].what, " update on host"));
	ck_assert(!strstr(out.row[1].what, "update on host"));
	ck_assert(out.row[1].predicted > out.row[0].predicted * 1.05);
	sim_result_release(&res);
	free(out.row);
	/* with a strategy, ZeRO-Offload */
	ck_assert_msg(val_run_user("model,hw,global-batch,precision,tp,zero,"
				   "update-on,metric,measured\n"
				   "gpt3-175b,a100x1024,1536,bf16,8,1,host,"
				   "step_s,20\n", &out, &err) == DLSIM_OK,
		      "%s", err.msg);
	sim_strategy_init(&st);
	st.tp = 8;
	st.dp = 128;
	st.global_batch = 1536;
	st.zero = 1;
	st.update_on_host = 1;
	ck_assert_rel(out.row[0].predicted, parallel_direct(
			      "a100x1024", "gpt3-175b", DLSIM_BF16, &st), 1e-12);
	free(out.row);
}
END_TEST

Suite *suite_validate_user(void)
{
	Suite *s = suite_create("validate_user");
	TCase *c = tcase_create("core");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, validate_user_rows_are_predicts);
	tcase_add_test(c, validate_user_optimizer_foreach);
	tcase_add_test(c, validate_user_autocast);
	tcase_add_test(c, validate_user_fuse_conv_bn);
	tcase_add_test(c, validate_user_no_flags_and_repeats);
	tcase_add_test(c, validate_user_uses_the_callers_fits);
	tcase_add_test(c, validate_user_takes_the_other_options);
	suite_add_tcase(s, c);
	return s;
}
