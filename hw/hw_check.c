/*
 * hw_check.c -- the checks every number and name of a catalog file
 * passes as hw_convert.c converts it, the one-line message that names
 * the file, the line and the key when one fails, and the table-driven
 * check-and-scale of an entry's plain numbers (hw_convert_nums) that
 * every kind of entry shares.
 *
 * HOW IT WORKS
 * A value is found again in the parsed document the caller keeps by its
 * dotted path ("devices.3.memory.0.bandwidth_GBps"), so a message gives
 * the line it was written on; a compiled-in file, read without one, has
 * its entries' lines read off the text (item_line: block style only).  The allowed ranges are one table, so the
 * words of a message are written down once: positive, not negative, a
 * fraction in (0, 1], a Winograd efficiency in (0, 4], at least 1, a rate
 * of at least HW_MIN_RATE, and nothing above HW_MAX_RAW in its written
 * unit; a fraction or Winograd efficiency below HW_MIN_EFF, and a clock
 * other than 0 below HW_MIN_CLOCK_MHZ, is implausibly small.
 */
#include "hw/hw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Checks                                                            */
/* ---------------------------------------------------------------- */

/* Skip blanks; the column of the line's first other character. */
static size_t indent_of(const char *t, size_t at, size_t end)
{
	size_t i = at;

	while (i < end && t[i] == ' ')
		i++;
	return i - at;
}

/*
 * The line of path "KEY.N", the N-th item of the block sequence under
 * the top-level key KEY, read off the text without a parse: a line at
 * column 0 that is no item opens a key, and the items are the lines
 * whose first character is a "- " at the column the key's first item
 * has.  This reads the compiled-in files, written so (their entries'
 * lines match a libyaml document's: test_catalog_files.c), where
 * hw_catalog.c reads no document; 0 for a path not of that form or not
 * found.  A later item of the key last asked resumes at the cursor, so
 * a file's entries, asked in order, cost one read of it a top-level key.
 * Block style only: a flow sequence, a quoted key or a multi-line string
 * back at column 0 gives 0 (none is in configs/hw; the tests compare
 * every compiled-in entry's line with libyaml's).
 */
static int item_line(const char *t, size_t len, const char *path,
		     struct hw_item_cursor *k)
{
	const char *dot = strchr(path, '.');
	size_t klen = dot ? (size_t)(dot - path) : 0, i, eol, c;
	long want;
	int in_key, item;
	char *end;

	if (!dot || !klen || klen >= sizeof(k->key))
		return 0;
	want = strtol(dot + 1, &end, 10);
	if (*end || end == dot + 1 || want < 0)
		return 0;
	in_key = strncmp(k->key, path, klen) == 0 && k->key[klen] == '\0' &&
		 want > k->seen;
	if (!in_key) {
		memset(k, 0, sizeof(*k));
		k->seen = -1;
	}
	for (i = k->at; i < len; i = eol + 1) {
		for (eol = i; eol < len && t[eol] != '\n'; eol++)
			;
		k->line++;
		c = indent_of(t, i, eol);
		/* a CRLF line's end, and blank lines, are no key */
		if (i + c == eol || t[i + c] == '#' ||
		    (t[i + c] == '\r' && i + c + 1 == eol))
			continue;
		item = t[i + c] == '-' && (i + c + 1 == eol ||
					   t[i + c + 1] == ' ' ||
					   t[i + c + 1] == '\r');
		if (c == 0 && !item) {
			in_key = eol - i > klen &&
				 strncmp(t + i, path, klen) == 0 &&
				 t[i + klen] == ':';
			if (in_key)
				memcpy(k->key, path, klen);
			k->key[in_key ? klen : 0] = '\0';
			k->seen = -1;
		} else if (in_key && item && (k->seen < 0 || c == k->col)) {
			k->col = c;
			if (++k->seen == want) {
				k->at = eol + 1;
				return k->line;
			}
		}
	}
	memset(k, 0, sizeof(*k));
	k->seen = -1;
	return 0;
}

int hw_line_of(struct hw_reader *r, const char *path)
{
	if (r->doc || !r->text)
		return core_yaml_doc_line(r->doc, path);
	return item_line(r->text, r->len, path, &r->cursor);
}

/* "FILE:LINE: 'key' what (got text)" */
static int bad_value_text(struct hw_reader *r, const char *path,
			  const char *what, const char *got)
{
	const char *key = strrchr(path, '.');

	return dlsim_err_set(r->err, DLSIM_EPARSE,
			     "%s:%d: '%s' %s (got %s)", r->name,
			     hw_line_of(r, path), key ? key + 1 : path, what,
			     got);
}

int hw_bad_value(struct hw_reader *r, const char *path,
		 const char *what, double got)
{
	char text[32];

	snprintf(text, sizeof(text), "%g", got);
	return bad_value_text(r, path, what, text);
}

static const struct {
	double lo, hi;
	int lo_open;                 /* 1: lo itself is refused */
	const char *what;
} ranges[] = {
	[HW_POSITIVE] = { 0.0, HW_MAX_RAW, 1, "must be positive" },
	[HW_NON_NEGATIVE] = { 0.0, HW_MAX_RAW, 0, "must not be negative" },
	[HW_FRACTION] = { 0.0, 1.0, 1, "must be in (0, 1]" },
	/* Winograd F(4x4,3x3) does 4x fewer multiplies: the most a 3x3
	 * efficiency over the direct count can be */
	[HW_WINOGRAD] = { 0.0, 4.0, 1, "must be in (0, 4]" },
	[HW_AT_LEAST_ONE] = { 1.0, HW_MAX_RAW, 0, "must be at least 1" },
	[HW_RATE] = { 0.0, HW_MAX_RAW, 1, "must be positive" },
	[HW_CLOCK] = { 0.0, HW_MAX_RAW, 0, "must not be negative" },
};

int hw_check_range(struct hw_reader *r, const char *path, double v,
		   enum hw_range k)
{
	if (!isfinite(v) || v < ranges[k].lo ||
	    (ranges[k].lo_open && v == ranges[k].lo) ||
	    (v > ranges[k].hi && ranges[k].hi < HW_MAX_RAW))
		return hw_bad_value(r, path, ranges[k].what, v);
	if ((k == HW_RATE && v < HW_MIN_RATE) ||
	    ((k == HW_FRACTION || k == HW_WINOGRAD) && v < HW_MIN_EFF) ||
	    (k == HW_CLOCK && v > 0.0 && v < HW_MIN_CLOCK_MHZ))
		return hw_bad_value(r, path, "is implausibly small", v);
	if (v > ranges[k].hi)
		return hw_bad_value(r, path, "is implausibly large", v);
	return DLSIM_OK;
}

/* An integer in lo..hi; hi = HW_MAX_RAW is the plausibility bound. */
int hw_check_int(struct hw_reader *r, const char *path, int64_t v,
		 int64_t lo, int64_t hi)
{
	char what[64], got[24];

	if (v >= lo && v <= hi)
		return DLSIM_OK;
	if (hi != (int64_t)HW_MAX_RAW)
		snprintf(what, sizeof(what), "must be in %lld..%lld",
			 (long long)lo, (long long)hi);
	else if (v > hi)
		snprintf(what, sizeof(what), "is implausibly large");
	else
		snprintf(what, sizeof(what), "must %s",
			 lo > 0 ? "be positive" : "not be negative");
	/* every digit: %g would print 4294967296 as 4.29497e+09 */
	snprintf(got, sizeof(got), "%lld", (long long)v);
	return bad_value_text(r, path, what, got);
}

/* Check every number of table t in raw (at path prefix) and store it,
 * scaled, in si. */
int hw_convert_nums(struct hw_reader *r, const char *prefix,
		    const struct hw_num *t, size_t n, const void *raw,
		    void *si)
{
	char p[128];
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		double v = *(const double *)((const char *)raw + t[i].raw);
		double *out = (double *)(void *)((char *)si + t[i].si);

		snprintf(p, sizeof(p), "%s.%s", prefix, t[i].key);
		if ((rc = hw_check_range(r, p, v, t[i].range)))
			return rc;
		*out = v * t[i].scale;
		/* HW_MAX_RAW keeps this finite; the check keeps it so if a
		 * scale ever grows */
		if (!isfinite(*out))
			return hw_bad_value(r, p, "is out of range", v);
	}
	return DLSIM_OK;
}

/* Spelt out rather than islower(): the rule is ASCII whatever the
 * locale, since the names are looked up byte for byte. */
const char *hw_name_bad_byte(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') &&
		    *s != '-' && *s != '_' && *s != '.')
			return s;
	return NULL;
}

int hw_valid_name(struct hw_reader *r, const char *path, const char *s)
{
	if (hw_name_bad_byte(s))
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: name '%s' may hold only "
				     "a-z, 0-9, '-', '_' and '.'",
				     r->name, hw_line_of(r, path), s);
	return DLSIM_OK;
}

int hw_check_aliases(struct hw_reader *r, const char *list, unsigned d,
		     char **aliases, unsigned count)
{
	char p[96];
	unsigned i;
	int rc;

	for (i = 0; i < count; i++) {
		snprintf(p, sizeof(p), "%s.%u.aliases.%u", list, d, i);
		if ((rc = hw_valid_name(r, p, aliases[i])))
			return rc;
	}
	return DLSIM_OK;
}
