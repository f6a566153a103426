/*
 * cal_validate_heldout.c -- the kernel sets judged out of sample: each of
 * DeepBench's GEMM, convolution and recurrent rows predicted by
 * rooflines fitted without any row of its shape.
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
 * A row's fold is the low bit of the 64-bit FNV-1a hash of its shape:
 * the hardware, precision and dimensions joined by commas (a GEMM's
 * hardware, precision, M, N, K; a convolution's hardware, precision, W,
 * H, C, N, K, filter, pad and stride; a recurrent layer's hardware,
 * precision, cell, hidden, N and steps).  The shape, not the line: DeepBench
 * times many shapes more than once (a GEMM in NN, NT and TN, which the
 * roofline cannot tell apart; a convolution in two applications' tables,
 * often with the same time), and a row must not be predicted from its
 * twin.  Nor the row's place in the file: data/calibration/ and
 * data/validation/ hold the same rows in another order.  Fold k's
 * database is seeded (cal_seed_from) with the calibration files'
 * DeepBench GEMM, convolution and recurrent rows outside fold k, and
 * predicts the rows of fold k.  Everything else (allreduce, vTrain curves) is not
 * seeded: the held-out sets cost kernels alone.
 *
 * LIMITATIONS
 * - Two folds fit each device on half its shapes: a device with few rows
 *   in a class fits that class on fewer points than the shipped seed, so
 *   the held-out figure is a little pessimistic, not optimistic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "hw/hw.h"
#include "core/core.h"
#include "core/banned.h"

/* build/gen/seed_builtin.c (tools/embed.sh). */
extern const struct hw_builtin_file cal_seed_files[];

uint64_t cal_val_fnv1a(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;   /* FNV-1a offset basis */
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;             /* FNV-1a prime */
	}
	return h;
}

/* The columns of a shape: a GEMM file's (it has an M column), else a
 * convolution file's. */
static const char *const gemm_shape[] = { "hardware", "precision", "M",
					  "N", "K", NULL };
static const char *const conv_shape[] = { "hardware", "precision", "W",
					  "H", "C", "N", "K", "S_filter_w",
					  "R_filter_h", "pad_w", "pad_h",
					  "stride_w", "stride_h", NULL };
static const char *const rnn_shape[] = { "hardware", "precision",
					 "rnn_type", "hidden", "N",
					 "timesteps", NULL };

static int column(const char *const *head, int nh, const char *name)
{
	int i;

	for (i = 0; i < nh; i++)
		if (strcmp(head[i], name) == 0)
			return i;
	return -1;
}

size_t cal_val_shape_key(const char *const *head, int nh, char *const *f,
			 int n, char *key, size_t cap)
{
	const char *const *cols = column(head, nh, "M") >= 0 ? gemm_shape :
				  column(head, nh, "rnn_type") >= 0 ?
				  rnn_shape : conv_shape;
	size_t at = 0;
	int i;

	if (cap)
		key[0] = '\0';
	for (i = 0; cols[i] && cap; i++) {
		int c = column(head, nh, cols[i]);
		int w = snprintf(key + at, cap - at, "%s%s", i ? "," : "",
				 c >= 0 && c < n ? f[c] : "");

		if (w < 0 || (size_t)w >= cap - at) {
			key[at] = '\0';
			break;     /* a shape this long: the prefix decides */
		}
		at += (size_t)w;
	}
	return at;
}

int cal_val_fold(const char *const *head, int nh, char *const *f, int n)
{
	char key[512];
	size_t len = cal_val_shape_key(head, nh, f, n, key, sizeof(key));

	return (int)(cal_val_fnv1a(key, len) & 1);
}

static int is_kernel_file(const char *name)
{
	static const char *const kept[] = { "deepbench_gemm.csv",
					    "deepbench_conv.csv",
					    "deepbench_rnn.csv" };
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
	char *out = malloc(size + 1), *line = malloc(size + 1);
	char *head_text = malloc(size + 1);
	char *head[CAL_MAX_FIELDS], *f[CAL_MAX_FIELDS];
	size_t pos = 0, at = 0;
	int nh = 0, header = 1;

	if (!out || !line || !head_text) {
		free(out);
		out = NULL;
		goto done;
	}
	/* a UTF-8 byte-order mark is not part of the first column, as
	 * cal_in_init reads it on the validation side */
	if ((pos = at = core_utf8_bom(text, size)))
		memcpy(out, text, pos);
	while (pos < size) {
		const char *nl = memchr(text + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : size;
		size_t n = end - pos, m = n;
		int keep;

		while (m > 0 && (text[pos + m - 1] == '\n' ||
				 text[pos + m - 1] == '\r'))
			m--;
		if (header) {
			memcpy(head_text, text + pos, m);
			head_text[m] = '\0';
			nh = cal_split_csv(head_text, head, CAL_MAX_FIELDS);
			if (nh < 1 || nh > CAL_MAX_FIELDS)
				nh = 0;     /* no columns: every key empty */
			header = 0;
			keep = 1;
		} else {
			int nf;

			memcpy(line, text + pos, m);
			line[m] = '\0';
			nf = cal_split_csv(line, f, CAL_MAX_FIELDS);
			keep = nf < 1 || nf > CAL_MAX_FIELDS ||
			       cal_val_fold((const char *const *)head, nh, f,
					    nf) != k;
		}
		if (keep) {
			memcpy(out + at, text + pos, n);
			at += n;
		}
		pos = end;
	}
	out[at] = '\0';
	*len = at;
done:
	free(line);
	free(head_text);
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
