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
 * CSV text (a UTF-8 byte-order mark before it is skipped) whose first
 * line names its columns, the first two "length"
 * and "count" (or "sequences"), then one line a length: the length in
 * tokens (1 .. MODEL_SEQ_MAX_LENGTH) and how many sequences have it (a
 * whole number, 0 to 2^53).  Further columns (a source) are ignored, as
 * are blank lines and lengths no sequence has.
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

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* The next line of text[*at, size) into buf, without its '\n' (and a
 * '\r' before it); -1 when it is longer than LINE_LEN - 1 bytes or holds
 * a NUL. */
static int next_line(const char *text, size_t size, size_t *at, char *buf)
{
	const char *start = text + *at;
	const char *end = memchr(start, '\n', size - *at);
	size_t n = end ? (size_t)(end - start) : size - *at;

	*at += n + 1;
	if (n && start[n - 1] == '\r')
		n--;
	if (n >= LINE_LEN || memchr(start, '\0', n))
		return -1;
	memcpy(buf, start, n);
	buf[n] = '\0';
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
 * in digits alone.  line is left as it was. */
static int data_line(const char *line, int64_t *len, int64_t *count)
{
	char copy[LINE_LEN], *comma, *rest, *end;
	struct dlsim_err quiet = { 0, "" };
	long long c;
	size_t n;

	core_strlcpy(copy, line, sizeof(copy));
	if (!(comma = strchr(copy, ',')))
		return -1;
	*comma = '\0';
	rest = comma + 1;
	if ((end = strchr(rest, ',')))
		*end = '\0';
	n = strlen(rest);
	if (core_parse_count(copy, MODEL_SEQ_MAX_LENGTH, len, &quiet,
			     "length") || n == 0 || n > 16 ||
	    strspn(rest, "0123456789") != n)
		return -1;
	c = strtoll(rest, NULL, 10);
	if (c > ((long long)1 << 53))
		return -1;
	*count = (int64_t)c;
	return 0;
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
	/* a spreadsheet's byte-order mark, as the other CSV readers skip
	 * it; otherwise it is read into the header, which then is not
	 * 'length,count' though it prints as such */
	size_t at = core_utf8_bom(text, size);
	int64_t longest[MODEL_SEQ_MAX_BINS], len, c;
	double tokens = 0.0, padded = 0.0;
	int lineno = 0, k, nbins = 0;

	memset(out, 0, sizeof(*out));
	if (!(width >= 1 && width <= MODEL_SEQ_MAX_LENGTH))
		return dlsim_err_set(err, DLSIM_EINVAL, "%s: a bin of %lld "
				     "tokens (1 to %lld)", name,
				     (long long)width,
				     (long long)MODEL_SEQ_MAX_LENGTH);
	memset(longest, 0, sizeof(longest));
	memset(count, 0, sizeof(count));
	while (at < size) {
		lineno++;
		if (next_line(text, size, &at, line))
			return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: line "
					     "longer than %d bytes or holding "
					     "a NUL", name, lineno,
					     LINE_LEN - 1);
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
			return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: "
					     "expected LENGTH,COUNT, a length "
					     "of 1 to %lld tokens and a whole "
					     "count of 0 to 2^53 (got "
					     "'%.60s')", name, lineno,
					     (long long)MODEL_SEQ_MAX_LENGTH,
					     line);
		if (c == 0)
			continue;
		k = (int)((len - 1) / width);
		if (k >= MODEL_SEQ_MAX_BINS)
			return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: a "
					     "length of %lld makes more than "
					     "%d bins of %lld tokens (a wider "
					     "bin)", name, lineno,
					     (long long)len,
					     MODEL_SEQ_MAX_BINS,
					     (long long)width);
		if (len > longest[k])
			longest[k] = len;
		count[k] += (double)c;
		out->sequences += (double)c;
		tokens += (double)c * (double)len;
		if (k + 1 > nbins)
			nbins = k + 1;
	}
	if (lineno == 0)
		return dlsim_err_set(err, DLSIM_EPARSE, "%s: empty (expected "
				     "a header 'length,count')", name);
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
	const char *colon = strchr(arg, ':'), *p;
	size_t cap = strlen(arg) + 32, used;
	struct dlsim_err mine = { 0, "" };
	char *spec;
	int rc;

	*out = NULL;
	if (core_is_yaml_path(arg))
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': sequences "
				     "of many lengths need a zoo model with "
				     "a seq key (a YAML model has one "
				     "length)", arg);
	if (!(spec = malloc(cap)))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	/* the name, then its keys but seq, then seq=N: at most the
	 * argument, a ':' or ',', "seq=" and 19 digits */
	used = colon ? (size_t)(colon - arg) : strlen(arg);
	memcpy(spec, arg, used);
	spec[used] = '\0';
	for (p = colon; p && *p; ) {
		const char *end = strchr(p + 1, ',');
		size_t n = end ? (size_t)(end - (p + 1)) : strlen(p + 1);

		if (n > 0 && strncmp(p + 1, "seq=", 4) != 0) {
			spec[used++] = strchr(spec, ':') ? ',' : ':';
			memcpy(spec + used, p + 1, n);
			spec[used += n] = '\0';
		}
		p = end;
	}
	snprintf(spec + used, cap - used, "%cseq=%lld",
		 strchr(spec, ':') ? ',' : ':', (long long)seq);
	rc = model_zoo_build(spec, out, &mine);
	free(spec);
	/* model_spec.c's words for a key the model does not take: name the
	 * string the user gave, not the one built here */
	if (rc && (strstr(mine.msg, "unknown key 'seq'") ||
		   strstr(mine.msg, "takes no keys")))
		return dlsim_err_set(err, rc, "model '%s' has no seq key: "
				     "sequences of many lengths need a zoo "
				     "model with one (gpt, bert, t5, "
				     "transformer, llama, gnmt, "
				     "deepspeech2)", arg);
	if (rc)
		dlsim_err_set(err, mine.code, "%s", mine.msg);
	return rc;
}
