/*
 * cal_validate_imagenet.c -- the ImageNet time-to-train records
 * (data/validation/imagenet.csv, the time_to_train rows of the shared
 * collection's published_scaling_results.csv): the wall-clock time a
 * team took to train ResNet-50 or AlexNet for a stated number of epochs
 * on hundreds or thousands of devices, against dlsim's time to train,
 * epochs x ceil(1,281,167 / global batch) steps of the predicted step.
 *
 * WHICH ROWS
 * The rule, fixed before any row was predicted: a row counts when its
 * `verification` column starts with "verified" or "partly verified"
 * (the issue asks for the verified rows) and its metric states the
 * epochs ("time_to_train (90 epochs)": without them no time follows
 * from a step).  The others are skipped with that reason.  Each counted
 * row needs its cluster in the catalog, with the sources there:
 *   Goyal et al. 2017   32 Facebook Big Basin servers of 8 P100 SXM2
 *                       (NVLink hybrid cube mesh), 50 Gbit/s Ethernet:
 *                       node big-basin-p100; fp32 (the file's column).
 *   Akiba et al. 2017   Preferred Networks' MN-1, 128 nodes of 8 P100
 *                       PCIe, two FDR InfiniBand links each: node mn-1.
 *                       The file's precision, "fp32/fp16 mixed (per
 *                       paper)", is read as fp32 arithmetic with fp16
 *                       gradients in the allreduce: an assumption the
 *                       file does not settle (with fp32 gradients the
 *                       prediction is 0.7% slower).
 * Batch per device = global batch / devices, as both papers ran it
 * (32).
 *
 * LIMITATIONS
 * A record's time includes what dlsim does not model: reading and
 * decoding the images, evaluation passes, start-up, and the learning-
 * rate warm-up's extra work if any.  The predicted time is the training
 * steps alone, so the error has a floor of those.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

#define IMAGENET_TRAIN_IMAGES 1281167    /* ILSVRC-2012 training set */

/* The studies whose clusters the catalog holds. */
static const struct {
	const char *study_prefix, *system;
	enum dlsim_precision precision;
	enum sim_compression wire;
} clusters[] = {
	{ "Goyal et al. 2017", "big-basin-p100", DLSIM_FP32, SIM_COMPRESS_NONE },
	{ "Akiba et al. 2017", "mn-1", DLSIM_FP32, SIM_COMPRESS_FP16 },
};

/* The epochs of "time_to_train (90 epochs)"; 0 when not stated. */
static int64_t stated_epochs(const char *metric)
{
	const char *p = strchr(metric, '(');
	char *end;
	long long e;

	if (!p)
		return 0;
	e = strtoll(p + 1, &end, 10);
	return e > 0 && strncmp(end, " epochs)", 8) == 0 ? (int64_t)e : 0;
}

/* The measured time in seconds, NAN when the unit is neither. */
static double measured_s(const struct cal_vctx *v)
{
	const char *unit = cal_val_col(v, "unit");
	double x = cal_val_num(v, "value");

	if (strcmp(unit, "min") == 0)
		return 60.0 * x;
	return strcmp(unit, "s") == 0 ? x : NAN;
}

static int predict_time(const struct cal_vctx *v, const char *zoo,
			const char *spec, int64_t batch, int64_t epochs,
			size_t k, struct cal_vrow *r)
{
	struct sim_train_options t;
	struct sim_train train;
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_options o;
	struct sim_result res;
	int rc;

	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	if (model_zoo_build(zoo, &m, NULL))
		return cal_val_skip(r, "no such model in the zoo");
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = clusters[k].precision;
	o.batch_per_device = batch;
	o.compression = clusters[k].wire;
	sim_train_options_init(&t);
	t.epochs = epochs;
	t.dataset_size = IMAGENET_TRAIN_IMAGES;
	rc = sim_predict(m, &s, &o, &res, NULL);
	if (!rc)
		rc = sim_train_estimate(m, &s, &res, &t, &train, NULL);
	model_free(m);
	if (rc == DLSIM_OK)
		r->predicted = train.time_s;
	sim_result_release(&res);
	return rc ? cal_val_skip(r, "the prediction failed") : 0;
}

int cal_val_row_imagenet(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *study = cal_val_col(v, "study");
	const char *model = cal_val_col(v, "model");
	const char *ver = cal_val_col(v, "verification");
	const char *zoo = strcmp(model, "ResNet-50") == 0 ? "resnet50" :
			  strcmp(model, "AlexNet") == 0 ? "alexnet" : NULL;
	int64_t n = cal_val_int(v, "num_accelerators");
	int64_t gb = cal_val_int(v, "global_batch");
	int64_t epochs = stated_epochs(cal_val_col(v, "metric"));
	char spec[64];
	size_t k;

	for (k = 0; k < sizeof(clusters) / sizeof(clusters[0]) &&
		    strncmp(study, clusters[k].study_prefix,
			    strlen(clusters[k].study_prefix)); k++)
		;
	snprintf(spec, sizeof(spec), "%s x %lld", cal_val_col(v, "accelerator"),
		 (long long)n);
	if (k < sizeof(clusters) / sizeof(clusters[0]) && n % 8 == 0)
		snprintf(spec, sizeof(spec), "%sx%lld", clusters[k].system,
			 (long long)(n / 8));
	snprintf(r->what, sizeof(r->what), "%s: %s on %s, batch %lld, %lld "
		 "epochs", study, model, spec, (long long)gb,
		 (long long)epochs);
	if (strncmp(ver, "verified", 8) && strncmp(ver, "partly verified", 15))
		return cal_val_skip(r, "not verified in the source file");
	if (!epochs)
		return cal_val_skip(r, "epochs not stated");
	if (!zoo)
		return cal_val_skip(r, "model not in the zoo");
	if (n <= 0 || gb <= 0 || gb % n)
		return cal_val_skip(r, "devices and global batch not whole "
				    "numbers, or the batch not a multiple of "
				    "the devices");
	if (k == sizeof(clusters) / sizeof(clusters[0]) || n % 8)
		return cal_val_skip(r, "cluster not in the catalog");
	r->measured = measured_s(v);
	if (!isfinite(r->measured))
		return cal_val_skip(r, "time not a positive number of s or "
				    "min");
	return predict_time(v, zoo, spec, gb / n, epochs, k, r);
}
