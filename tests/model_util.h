/*
 * model_util.h -- helpers of the model test suites (model_util.c).  Costs
 * are taken for a batch of MODEL_UTIL_BATCH at MODEL_UTIL_ACT bytes per
 * activation and MODEL_UTIL_WEIGHT per weight, the values the suites'
 * hand-worked figures assume.
 */
#ifndef DLSIM_TESTS_MODEL_UTIL_H
#define DLSIM_TESTS_MODEL_UTIL_H

#include "dlsim.h"

#define MODEL_UTIL_BATCH 2
#define MODEL_UTIL_ACT 4
#define MODEL_UTIL_WEIGHT 4

/* The zoo model spec (a name or NAME:key=value,...), or the test fails. */
struct model *model_util_build(const char *spec);

/* model_zoo_build(spec) fails with code, in one line naming spec and
 * holding want. */
void model_util_build_fails(const char *spec, int code, const char *want);

/* The parameters of model spec (built and freed). */
int64_t model_util_params(const char *spec);

/* m's layer called name, or the test fails. */
const struct model_layer *model_util_layer(const struct model *m,
					  const char *name);

/* Pass p of l costs exactly these (hand-worked) figures. */
void model_util_expect(const struct model_layer *l, enum model_pass p,
		       double flops, double bytes, double work,
		       double depth);

/* A builder of a model "t" over one (c, h, w) sample at batch
 * MODEL_UTIL_BATCH; its finish, which must succeed; a shape's three
 * sizes. */
struct model_builder;
void model_util_start(struct model_builder *b, int64_t c, int64_t h,
		      int64_t w);
struct model *model_util_finish(struct model_builder *b);
void model_util_assert_shape(struct model_shape s, int64_t c, int64_t h,
			     int64_t w);

#endif /* DLSIM_TESTS_MODEL_UTIL_H */
