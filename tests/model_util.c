/*
 * model_util.c -- helpers the model test suites share: build a zoo model
 * or fail to, find a layer, and compare a pass's costs with hand-worked
 * values (model_util.h).
 */
#include <string.h>

#include "tests.h"
#include "model_util.h"
#include "models/model.h"

struct model *model_util_build(const char *spec)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_msg(model_zoo_build(spec, &m, &err) == DLSIM_OK, "%s: %s",
		      spec, err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

void model_util_build_fails(const char *spec, int code, const char *want)
{
	struct dlsim_err err = { 0 };
	struct model *m = (struct model *)&err;

	ck_assert_int_eq(model_zoo_build(spec, &m, &err), code);
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(err.msg, spec) && strstr(err.msg, want) &&
		      !strchr(err.msg, '\n'), "%s: '%s' lacks '%s'", spec,
		      err.msg, want);
}

const struct model_layer *model_util_layer(const struct model *m,
					  const char *name)
{
	int i;

	for (i = 0; i < m->n_layers; i++)
		if (strcmp(m->layers[i].name, name) == 0)
			return &m->layers[i];
	ck_abort_msg("%s has no layer '%s'", m->name, name);
	return NULL;
}

void model_util_expect(const struct model_layer *l, enum model_pass p,
		       double flops, double bytes, double work,
		       double depth)
{
	struct model_pass_cost c;

	model_layer_cost(l, p, MODEL_UTIL_BATCH, MODEL_UTIL_ACT,
			 MODEL_UTIL_WEIGHT, &c);
	ck_assert_msg(c.flops == flops && c.bytes == bytes &&
		      c.work == work && c.depth == depth,
		      "%s %s: %.17g %.17g %.17g %.17g, expected %.17g %.17g "
		      "%.17g %.17g", l->name, model_pass_name(p), c.flops,
		      c.bytes, c.work, c.depth, flops, bytes, work, depth);
}

int64_t model_util_params(const char *spec)
{
	struct model *m = model_util_build(spec);
	int64_t n = m->params;

	model_free(m);
	return n;
}

void model_util_start(struct model_builder *b, int64_t c, int64_t h,
		      int64_t w)
{
	struct model_shape in = { c, h, w };

	model_builder_init(b, "t", in, MODEL_UTIL_BATCH, "model_util.c");
	ck_assert_int_eq(b->err.code, DLSIM_OK);
}

struct model *model_util_finish(struct model_builder *b)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_msg(model_builder_finish(b, &m, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

void model_util_assert_shape(struct model_shape s, int64_t c, int64_t h,
			     int64_t w)
{
	ck_assert_int_eq(s.c, c);
	ck_assert_int_eq(s.h, h);
	ck_assert_int_eq(s.w, w);
}
