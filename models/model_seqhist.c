/*
 * model_seqhist.c -- sequences of many lengths: a histogram of a data
 * set's sequence lengths, cut into the bins a length-bucketing loader
 * batches from, and a zoo model rebuilt at each bin's length.
 *
 * WHY
 * A language model trained on real text does not see sequences of its
 * maximum length: BERT's Wikipedia phase 2 at 512 tokens is half padding
 * (Krell et al., arXiv:2107.02027), and loaders that batch sequences of a
 * length together (NVIDIA's LDDL, bins of 64 tokens; fairseq's
 * --max-tokens) pad each batch only to its longest sequence.  A step is
 * then not one shape but a mix, which sim_binned.c costs bin by bin; this
 * file says what the mix is.
 *
 * THE HISTOGRAM
 * CSV text whose first line names its columns, the first two "length"
 * and "count" (or "sequences"), then one line a length: the length in
 * tokens (1 .. MODEL_SEQ_MAX_LENGTH) and how many sequences have it (a
 * whole number, 0 or more).  Further columns (a source) are ignored.
 * Bin k of width W holds lengths kW + 1 .. (k + 1)W; a batch drawn from
 * it is padded to the longest length the histogram gives it, the most a
 * loader that pads to the batch's longest sequence pads to (LDDL rounds
 * that up to 8 tokens, which a bin of 64 already is).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/model.h"
#include "core/core.h"
#include "core/banned.h"

/* The longest line read; a longer one is refused, not cut. */
#define LINE_LEN 512
/* The longest key=value pair of a model string kept (model_spec.c's). */
#define PAIR_MAX 64

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* The next line of text[*at, size) into buf, without its '\n' (and a
 * '\r' before it); -1 when it does not fit. */
static int next_line(const char *text, size_t size, size_t *at, char *buf)
{
	const char *end = memchr(text + *at, '\n', size - *at);
	size_t n = end ? (size_t)(end - (text + *at)) : size - *at;

	if (n >= LINE_LEN)
		return -1;
	memcpy(buf, text + *at, n);
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	*at += (end ? (size_t)(end - (text + *at)) : size - *at) + 1;
	return 0;
}

/* The header's first two columns: "length" then "count" or
 * "sequences". */
static int header_ok(const char *line)
{
	return strncmp(line, "length,count", 12) == 0 ?
	       line[12] == '\0' || line[12] == ',' :
	       strncmp(line, "length,sequences", 16) == 0 &&
	       (line[16] == '\0' || line[16] == ',');
}

/* "LENGTH,COUNT[,...]" into *len and *count; -1 when it is not a
 * length of 1 .. MODEL_SEQ_MAX_LENGTH and a count of 0 .. 2^53 written
 * in digits alone. */
static int data_line(char *line, int64_t *len, double *count)
{
	char *comma = strchr(line, ','), *rest, *end;
	struct dlsim_err quiet = { 0, "" };
	size_t n;

	if (!comma)
		return -1;
	*comma = '\0';
	rest = comma + 1;
	if ((end = strchr(rest, ',')))
		*end = '\0';
	n = strlen(rest);
	if (core_parse_count(line, MODEL_SEQ_MAX_LENGTH, len, &quiet,
			     "length") || n == 0 || n > 16 ||
	    strspn(rest, "0123456789") != n)
		return -1;
	*count = strtod(rest, NULL);
	return *count <= 9007199254740992.0 ? 0 : -1;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_seq_bins_read(const char *text, size_t size, const char *name,
			int64_t width, struct model_seq_bins *out,
			struct dlsim_err *err)
{
	double count[MODEL_SEQ_MAX_BINS];
	char line[LINE_LEN];
	size_t at = 0;
	int64_t longest[MODEL_SEQ_MAX_BINS], len;
	double c, tokens = 0.0, padded = 0.0;
	int lineno = 0, k, nbins;

	memset(out, 0, sizeof(*out));
	if (!(width >= 1 && width <= MODEL_SEQ_MAX_LENGTH))
		return dlsim_err_set(err, DLSIM_EINVAL, "%s: a bin of %lld "
				     "tokens (1 to %lld)", name,
				     (long long)width,
				     (long long)MODEL_SEQ_MAX_LENGTH);
	memset(longest, 0, sizeof(longest));
	memset(count, 0, sizeof(count));
	nbins = 0;
	while (at < size) {
		lineno++;
		if (next_line(text, size, &at, line))
			return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: line "
					     "longer than %d bytes", name,
					     lineno, LINE_LEN - 1);
		if (lineno == 1) {
			if (!header_ok(line))
				return dlsim_err_set(err, DLSIM_EPARSE,
						     "%s:1: expected a header "
						     "'length,count' (got "
						     "'%.60s')", name, line);
			continue;
		}
		if (!line[0])
			continue;
		if (data_line(line, &len, &c))
			return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: expected "
					     "LENGTH,COUNT with a length of 1 "
					     "to %lld tokens and a whole count "
					     "(got '%.60s')", name, lineno,
					     (long long)MODEL_SEQ_MAX_LENGTH,
					     line);
		k = (int)((len - 1) / width);
		if (k >= MODEL_SEQ_MAX_BINS)
			return dlsim_err_set(err, DLSIM_ERANGE, "%s:%d: a length "
					     "of %lld makes more than %d bins "
					     "of %lld tokens (a wider bin)",
					     name, lineno, (long long)len,
					     MODEL_SEQ_MAX_BINS,
					     (long long)width);
		if (c > 0.0 && len > longest[k])
			longest[k] = len;
		count[k] += c;
		out->sequences += c;
		tokens += c * (double)len;
		if (k + 1 > nbins)
			nbins = k + 1;
	}
	if (!(out->sequences > 0.0))
		return dlsim_err_set(err, DLSIM_EPARSE, "%s: no sequence "
				     "counted", name);
	out->width = width;
	for (k = 0; k < nbins; k++) {
		if (!(count[k] > 0.0))
			continue;
		out->padded[out->n] = longest[k];
		out->share[out->n] = count[k] / out->sequences;
		padded += out->share[out->n] * (double)longest[k];
		if (longest[k] > out->longest)
			out->longest = longest[k];
		out->n++;
	}
	out->mean_length = tokens / out->sequences;
	out->mean_padded = padded;
	return DLSIM_OK;
}

int model_resolve_seq(const char *arg, int64_t seq, struct model **out,
		      struct dlsim_err *err)
{
	char spec[MODEL_NAME_LEN + 32], pair[PAIR_MAX];
	const char *colon = strchr(arg, ':'), *p;
	size_t used;

	*out = NULL;
	if (core_is_yaml_path(arg))
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': sequences "
				     "of many lengths need a zoo model with "
				     "a seq key (a YAML model has one "
				     "length)", arg);
	if (strlen(arg) >= MODEL_NAME_LEN)
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': name too "
				     "long", arg);
	/* the name, then its keys but seq, then seq=N */
	used = colon ? (size_t)(colon - arg) : strlen(arg);
	memcpy(spec, arg, used);
	spec[used] = '\0';
	for (p = colon; p && *p; ) {
		const char *end = strchr(p + 1, ',');
		size_t n = end ? (size_t)(end - (p + 1)) : strlen(p + 1);

		if (n >= sizeof(pair))
			return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': "
					     "key=value pair too long", arg);
		memcpy(pair, p + 1, n);
		pair[n] = '\0';
		if (strncmp(pair, "seq=", 4) != 0 && n > 0)
			used += (size_t)snprintf(spec + used,
						 sizeof(spec) - used, "%c%s",
						 strchr(spec, ':') ? ',' : ':',
						 pair);
		p = end;
	}
	snprintf(spec + used, sizeof(spec) - used, "%cseq=%lld",
		 strchr(spec, ':') ? ',' : ':', (long long)seq);
	return model_zoo_build(spec, out, err);
}
