/*
 * cal_validate_heldout.c -- the kernel sets judged out of sample: each of
 * DeepBench's GEMM and convolution rows predicted by rooflines fitted
 * without it.
 *
 * WHY
 * deepbench_gemm and deepbench_conv are the data the shipped calibration
 * is fitted on, so their figures are in-sample: a model with more
 * parameters always looks better there.  Their held-out twins
 * (deepbench_gemm_heldout, deepbench_conv_heldout) split the rows in two
 * folds, fit on one, predict the other, and report every row once: a
 * two-fold cross-validation, the figure to judge a kernel model by.
 *
 * THE RULE, FIXED BEFORE LOOKING AT ANY ERROR
 * A row's fold is the low bit of the 64-bit FNV-1a hash of its line (the
 * text as the file holds it, without its line end).  The hash, not the
 * row's place in the file, decides, because data/calibration/ and
 * data/validation/ hold the same rows in another order.  Fold k's
 * database is seeded (cal_seed_from) with the calibration files'
 * DeepBench GEMM and convolution rows outside fold k, and predicts the
 * rows of fold k.  Everything else (allreduce, vTrain curves) is not
 * seeded: the held-out sets cost kernels alone.
 *
 * LIMITATIONS
 * - Two folds fit each device on half its shapes: a device with few rows
 *   in a class fits that class on fewer points than the shipped seed, so
 *   the held-out figure is a little pessimistic, not optimistic.
 */
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "hw/hw.h"
#include "core/banned.h"

/* build/gen/seed_builtin.c (tools/embed.sh). */
extern const struct hw_builtin_file cal_seed_files[];

int cal_val_fold(const char *line, size_t len)
{
	uint64_t h = 14695981039346656037ULL;   /* FNV-1a offset basis */
	size_t i;

	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	for (i = 0; i < len; i++) {
		h ^= (unsigned char)line[i];
		h *= 1099511628211ULL;             /* FNV-1a prime */
	}
	return (int)(h & 1);
}

static int is_kernel_file(const char *name)
{
	static const char *const kept[] = { "deepbench_gemm.csv",
					    "deepbench_conv.csv" };
	size_t n = strlen(name), i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		size_t k = strlen(kept[i]);

		if (n >= k && strcmp(name + n - k, kept[i]) == 0)
			return 1;
	}
	return 0;
}

/* A copy of text[0, size) with its header and the data lines outside
 * fold k; its length in *len.  NULL when out of memory. */
static char *without_fold(const char *text, size_t size, int k, size_t *len)
{
	char *out = malloc(size + 1);
	size_t pos = 0, at = 0;
	int header = 1;

	if (!out)
		return NULL;
	while (pos < size) {
		const char *nl = memchr(text + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : size;
		size_t n = end - pos;

		if (header || cal_val_fold(text + pos, n) != k) {
			memcpy(out + at, text + pos, n);
			at += n;
		}
		header = 0;
		pos = end;
	}
	out[at] = '\0';
	*len = at;
	return out;
}

int cal_val_seed_fold(struct db *db, int k, struct dlsim_err *err)
{
	struct hw_builtin_file files[8];
	char *text[8];
	const struct hw_builtin_file *f;
	int64_t runs, samples;
	int n = 0, i, rc = DLSIM_OK;

	for (f = cal_seed_files; f->name && n < 7; f++) {
		if (!is_kernel_file(f->name))
			continue;
		text[n] = without_fold(f->data, f->size, k, &files[n].size);
		if (!text[n]) {
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
			break;
		}
		files[n].name = f->name;
		files[n].data = text[n];
		n++;
	}
	files[n].name = NULL;
	files[n].data = NULL;
	files[n].size = 0;
	if (!rc)
		rc = cal_seed_from(db, files, &runs, &samples, err);
	for (i = 0; i < n; i++)
		free(text[i]);
	return rc;
}
