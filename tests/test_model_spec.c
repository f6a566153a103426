/*
 * test_model_spec.c -- the NAME:key=value model strings (models/
 * model_spec.c): good strings build what their keys say, every bad one
 * is refused naming the key and the string, and the presets are in the
 * zoo and on the command line.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "model_util.h"
#include "models/model.h"

START_TEST(spec_good_strings)
{
	const char *spec = "gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100";
	struct model *m = model_util_build(spec);

	/* 2 x (12 x 64^2 + 13 x 64) + 100 x 64 + 32 x 64 + 128 =
	 * 99,968 + 6,400 + 2,048 + 128 = 108,544 */
	ck_assert_int_eq(m->params, 108544);
	ck_assert_str_eq(m->name, spec);
	ck_assert_int_eq(m->default_batch, 1);
	ck_assert_int_eq(m->dataset_size, 0);
	model_free(m);
	/* keys in any order, overriding a preset's */
	ck_assert_int_eq(model_util_params("gpt:vocab=100,seq=32,heads=4,hidden=64,"
				   "layers=2"), 108544);
	ck_assert_int_eq(model_util_params("gpt3-175b:seq=1024"),
			 174604259328LL - 1024LL * 12288);
	m = model_util_build("bert-large:seq=512");
	ck_assert_int_eq(m->tf.seq, 512);
	ck_assert_int_eq(m->params, 335174458);
	model_free(m);
	/* kv_heads 8 of 128 in place of 32: 32 x 2 x 4096 x 3072 fewer */
	ck_assert_int_eq(model_util_params("llama2-7b:kv_heads=8"),
			 6738415616LL - 32LL * 2 * 4096 * 3072);
	/* torchvision: resnet50 25,557,032; wide_resnet50_2 68,883,240 */
	ck_assert_int_eq(model_util_params("resnet:depth=50"), 25557032);
	ck_assert_int_eq(model_util_params("resnet:depth=50"), model_util_params("resnet50"));
	ck_assert_int_eq(model_util_params("resnet:depth=50,width=2"), 68883240);
	ck_assert_int_eq(model_util_params("resnet:depth=18"), 11689512);
	/* v1=1 moves the first three strided bottlenecks' stride to their
	 * first 1x1, run then at 28^2, 14^2 and 7^2 positions instead of
	 * 56^2, 28^2, 14^2: 3 x (56^2 - 28^2) x 256 x 128 = 231,211,008
	 * fewer MACs at every depth, the same parameters */
	ck_assert_int_eq(model_util_params("resnet:depth=50,v1=1"), 25557032);
	{
		static const char *const d[][2] = {
			{ "resnet:depth=50,v1=1", "resnet50" },
			{ "resnet:depth=152,v1=1", "resnet152" },
		};
		int i;

		for (i = 0; i < 2; i++) {
			struct model *a = model_util_build(d[i][0]);
			struct model *c = model_util_build(d[i][1]);

			ck_assert_double_eq(model_forward_macs(c) -
					    model_forward_macs(a),
					    231211008.0);
			ck_assert(strstr(a->source, "first 1x1") != NULL);
			model_free(a);
			model_free(c);
		}
	}
	m = model_util_build("resnet:depth=152");
	ck_assert_int_eq(m->dataset_size, 1281167);
	model_free(m);
	/* SSD300 trains on COCO 2017's 118,287 images less the 1,021
	 * without annotations, 65 epochs (DeepLearningExamples' README) */
	m = model_util_build("ssd300");
	ck_assert_int_eq(m->dataset_size, 118287 - 1021);
	ck_assert_int_eq(m->epochs, 65);
	ck_assert_str_eq(m->dataset, "COCO 2017");
	model_free(m);
}
END_TEST

START_TEST(spec_errors_name_the_key_and_string)
{
	model_util_build_fails("resnet:depth=34,v1=1", DLSIM_EINVAL,
			       "key 'v1' needs depth 50, 101 or 152");
	model_util_build_fails("resnet:depth=50,v1=2", DLSIM_ERANGE,
			       "'v1'");
	model_util_build_fails("gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100,"
		    "depth=3", DLSIM_EINVAL, "unknown key 'depth' (takes "
		    "layers, hidden, heads, seq, vocab, ffn, kv_heads, unfused, "
		    "eager_gelu)");
	model_util_build_fails("gpt:layers=2,hidden=64,heads=4,seq=32", DLSIM_EINVAL,
		    "missing key 'vocab'");
	model_util_build_fails("gpt", DLSIM_EINVAL, "missing key 'layers'");
	model_util_build_fails("gpt:layers=two,hidden=64,heads=4,seq=32,vocab=100",
		    DLSIM_EINVAL, "key 'layers' must be a positive integer "
		    "(got 'two')");
	model_util_build_fails("gpt:layers=2abc,hidden=64", DLSIM_EINVAL,
		    "key 'layers' must be a positive integer (got '2abc')");
	model_util_build_fails("gpt:layers=1e3", DLSIM_EINVAL, "(got '1e3')");
	model_util_build_fails("gpt:layers=-1", DLSIM_EINVAL, "(got '-1')");
	model_util_build_fails("gpt:layers=0", DLSIM_EINVAL, "(got '0')");
	model_util_build_fails("gpt:layers=", DLSIM_EINVAL, "(got '')");
	model_util_build_fails("gpt:layers=5000,hidden=64,heads=4,seq=32,vocab=100",
		    DLSIM_ERANGE, "key 'layers' is too large (got '5000', at "
		    "most 1024)");
	model_util_build_fails("gpt:layers=99999999999999999999", DLSIM_ERANGE,
		    "key 'layers' is too large");
	model_util_build_fails("gpt:layers=2,layers=3", DLSIM_EINVAL,
		    "key 'layers' given twice");
	model_util_build_fails("gpt:layers", DLSIM_EINVAL,
		    "expected key=value (got 'layers')");
	model_util_build_fails("gpt:layers=2,,hidden=3", DLSIM_EINVAL,
		    "expected key=value (got '')");
	model_util_build_fails("gpt:layers=2,hidden=64,heads=5,seq=32,vocab=100",
		    DLSIM_EINVAL, "hidden 64 is not a multiple of heads 5");
	model_util_build_fails("llama2-7b:kv_heads=5", DLSIM_EINVAL,
		    "heads 32 is not a multiple of kv_heads 5");
	model_util_build_fails("gpt3-175b:seq=2048,seq=4", DLSIM_EINVAL,
		    "key 'seq' given twice");
	model_util_build_fails("resnet:depth=42", DLSIM_ERANGE, "key 'depth' must be "
		    "18, 34, 50, 101 or 152 (got 42)");
	model_util_build_fails("resnet:depth=18,width=2", DLSIM_EINVAL, "key 'width' "
		    "needs depth 50");
	model_util_build_fails("resnet:width=2", DLSIM_EINVAL, "missing key 'depth'");
	model_util_build_fails("vgg16:depth=3", DLSIM_EINVAL, "'vgg16' takes no keys");
	model_util_build_fails("gpt4:layers=2", DLSIM_ENOTFOUND, "unknown model");
	/* a family is not a zoo name of its own */
	ck_assert_ptr_null(model_zoo_summary("gpt"));
}
END_TEST

/* The presets are in the zoo's list, built by `dlsim models show` and
 * `dlsim predict` like any name. */
START_TEST(presets_in_the_zoo_and_the_cli)
{
	const char *const *n = model_zoo_names();
	struct run r;
	int i, found = 0;

	for (i = 0; n[i]; i++)
		found += strcmp(n[i], "llama3-405b") == 0 ||
			 strcmp(n[i], "transformer-base") == 0;
	ck_assert_int_eq(found, 2);
	run(&r, "models show gpt:layers=2,hidden=64,heads=4,seq=32,"
	    "vocab=100 --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_number(r.out, "params") == 108544.0);
	ck_assert_ptr_nonnull(strstr(r.out, "\"attention\""));
	run(&r, "predict gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100 "
	    "--hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "step time"));
	run(&r, "predict gpt:layers=2,hidden=64,heads=5,seq=32,vocab=100 "
	    "--hw v100");
	assert_one_error(&r, 2, "hidden 64 is not a multiple of heads 5");
}
END_TEST

Suite *suite_model_spec(void)
{
	Suite *s = suite_create("model_spec");
	TCase *tc = tcase_create("spec");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, spec_good_strings);
	tcase_add_test(tc, spec_errors_name_the_key_and_string);
	tcase_add_test(tc, presets_in_the_zoo_and_the_cli);
	suite_add_tcase(s, tc);
	return s;
}
