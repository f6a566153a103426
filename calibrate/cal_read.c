/*
 * cal_read.c -- the toolkit every importer parses with: a line reader
 * over a whole file, failures placed as "path:line: what", checked
 * numbers, the params string builder, and the growing sample list.
 *
 * The list has a hard cap (CAL_MAX_SAMPLES, 10^7): an import is held in
 * memory whole before its one transaction, so the cap is what bounds
 * that memory, and a file past it is refused with a message rather than
 * cut short (curl's dynbuf: a maximum size, and a clean failure).
 *
 * LIMITATIONS: text is bytes.  Values are copied as they are, except
 * that params values are forced into single words (cal_params_str).
 */
#include "calibrate/cal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Lines                                                             */
/* ---------------------------------------------------------------- */

void cal_in_init(struct cal_in *in, const char *path, char *text,
		 size_t len)
{
	in->path = path;
	in->text = text;
	in->len = len;
	in->pos = 0;
	in->line = 0;
	in->where[0] = '\0';
	in->pos = core_utf8_bom(text, len);
}

char *cal_in_next(struct cal_in *in)
{
	char *start, *nl;
	size_t end;

	if (in->pos >= in->len)
		return NULL;
	start = in->text + in->pos;
	nl = memchr(start, '\n', in->len - in->pos);
	end = nl ? (size_t)(nl - in->text) : in->len;
	in->pos = nl ? end + 1 : in->len;
	in->text[end] = '\0';
	if (end > 0 && in->text + end > start && in->text[end - 1] == '\r')
		in->text[end - 1] = '\0';
	in->line++;
	return start;
}

static int vfail(const struct cal_in *in, int64_t line,
		 struct dlsim_err *err, const char *fmt, va_list ap)
{
	char what[DLSIM_ERR_LEN];

	vsnprintf(what, sizeof(what), fmt, ap);
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%lld: %s%s%s", in->path,
			     (long long)(line > 0 ? line : 1), in->where,
			     in->where[0] ? ": " : "", what);
}

int cal_fail(const struct cal_in *in, struct dlsim_err *err,
	     const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(in, in->line, err, fmt, ap);
	va_end(ap);
	return rc;
}

int cal_fail_at(const struct cal_in *in, int64_t line,
		struct dlsim_err *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(in, line, err, fmt, ap);
	va_end(ap);
	return rc;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

int cal_blank(const char *s)
{
	while (is_blank(*s))
		s++;
	return *s == '\0';
}

int cal_line_is_row(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		s++;
	if (*s == '.')
		s++;
	return *s >= '0' && *s <= '9';
}

int cal_split_blanks(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		tok[n++] = s;
		while (*s && !is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* ---------------------------------------------------------------- */
/* Numbers                                                           */
/* ---------------------------------------------------------------- */

/* Re-place a core_parse_* message at the line last read. */
static int placed(const struct cal_in *in, const struct dlsim_err *local,
		  struct dlsim_err *err)
{
	return cal_fail(in, err, "%s", local->msg);
}

int cal_uint(const struct cal_in *in, const char *s, const char *what,
	     int64_t max, int64_t *out, struct dlsim_err *err)
{
	struct dlsim_err local = { 0, "" };

	if (s[0] == '0' && s[1] == '\0') {
		*out = 0;
		return DLSIM_OK;
	}
	if (core_parse_count(s, max, out, &local, what))
		return cal_fail(in, err, "'%s' must be a whole number 0..%lld "
				"(got '%s')", what, (long long)max, s);
	return DLSIM_OK;
}

int cal_count(const struct cal_in *in, const char *s, const char *what,
	      int64_t max, int64_t *out, struct dlsim_err *err)
{
	struct dlsim_err local = { 0, "" };
	char name[64];

	snprintf(name, sizeof(name), "'%s'", what);
	if (core_parse_count(s, max, out, &local, name))
		return placed(in, &local, err);
	return DLSIM_OK;
}

int cal_positive(const struct cal_in *in, const char *s, const char *what,
		 double *out, struct dlsim_err *err)
{
	struct dlsim_err local = { 0, "" };
	char name[64];
	double v;

	snprintf(name, sizeof(name), "'%s'", what);
	if (core_parse_double(s, &v, &local, name))
		return placed(in, &local, err);
	if (!(v > 0.0))
		return cal_fail(in, err, "'%s' must be positive (got '%s')",
				what, s);
	*out = v;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Parameters                                                        */
/* ---------------------------------------------------------------- */

void cal_params_init(struct cal_params *p)
{
	p->s[0] = '\0';
	p->n = 0;
	p->cut = 0;
}

static void put(struct cal_params *p, char c)
{
	if (p->n + 1 >= sizeof(p->s)) {
		p->cut = 1;
		return;
	}
	p->s[p->n++] = c;
	p->s[p->n] = '\0';
}

static void put_key(struct cal_params *p, const char *key)
{
	if (p->n)
		put(p, ' ');
	while (*key)
		put(p, *key++);
	put(p, '=');
}

void cal_params_int(struct cal_params *p, const char *key, int64_t v)
{
	char num[24];
	const char *c = num;

	snprintf(num, sizeof(num), "%lld", (long long)v);
	put_key(p, key);
	while (*c)
		put(p, *c++);
}

void cal_params_str(struct cal_params *p, const char *key, const char *v)
{
	const unsigned char *c = (const unsigned char *)v;

	put_key(p, key);
	while (*c) {
		if (c[0] == 0xc2 && c[1] == 0xa0) {     /* no-break space */
			put(p, '_');
			c += 2;
			continue;
		}
		put(p, (*c <= ' ' || *c == '=' || *c == 0x7f) ? '_' :
		       (char)*c);
		c++;
	}
}

/* ---------------------------------------------------------------- */
/* Samples                                                           */
/* ---------------------------------------------------------------- */

void cal_samples_init(struct cal_samples *s, int64_t max)
{
	s->v = NULL;
	s->n = s->cap = 0;
	s->max = max;
}

void cal_samples_release(struct cal_samples *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static int grow(struct cal_samples *s, const struct cal_in *in,
		struct dlsim_err *err)
{
	int64_t cap = s->cap ? s->cap * 2 : 256;
	struct db_sample *v;

	if (cap > s->max)
		cap = s->max;
	v = realloc(s->v, (size_t)cap * sizeof(*v));
	if (!v)
		return dlsim_err_set(err, DLSIM_ENOMEM, "%s:%lld: out of "
				     "memory at %lld samples", in->path,
				     (long long)in->line, (long long)s->n);
	s->v = v;
	s->cap = cap;
	return DLSIM_OK;
}

/*
 * A figure like 1e308 us is finite, and a fit would take it; it is a
 * broken file, so the import says so, and the fit passes over such a
 * sample when a database was edited by hand (cal_points.c).
 */
int cal_implausible(double value, const char *unit)
{
	if (strcmp(unit, "s") == 0)
		return value > CAL_MAX_TIME_S ||
		       (value > 0.0 && value < CAL_MIN_TIME_S);
	if (strcmp(unit, "B/s") == 0)
		return value > CAL_MAX_RATE_BPS;
	return 0;
}

int cal_sample_add(struct cal_samples *s, const struct cal_in *in,
		   const char *benchmark, const struct cal_params *p,
		   double value, const char *unit, struct dlsim_err *err)
{
	struct db_sample *x;

	if (p->cut)
		return cal_fail(in, err, "the parameters of this row do not "
				"fit in %d characters",
				(int)sizeof(p->s) - 1);
	if (!isfinite(value) || (value != 0.0 && fabs(value) < DBL_MIN))
		return cal_fail(in, err, "the value %s once converted to %s",
				isfinite(value) ? "underflows" : "overflows",
				unit);
	if (cal_implausible(value, unit))
		return cal_fail(in, err, "%g %s is implausibly %s for one "
				"sample (%s)", value, unit,
				value < 1.0 ? "small" : "large",
				strcmp(unit, "B/s") == 0 ? "above 1e15 B/s" :
				value < 1.0 ? "below a nanosecond" :
				"above a day, 86400 s");
	if (s->n >= s->max)
		return dlsim_err_set(err, DLSIM_ENOMEM, "%s:%lld: more than "
				     "%lld samples in one import; split the "
				     "file", in->path, (long long)in->line,
				     (long long)s->max);
	if (s->n == s->cap && grow(s, in, err))
		return DLSIM_ENOMEM;
	x = &s->v[s->n++];
	memset(x, 0, sizeof(*x));
	core_strlcpy(x->benchmark, benchmark, sizeof(x->benchmark));
	core_strlcpy(x->params, p->s, sizeof(x->params));
	core_strlcpy(x->unit, unit, sizeof(x->unit));
	x->rep = -1;
	x->value = value;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Vocabularies                                                      */
/* ---------------------------------------------------------------- */

const struct cal_dtype *cal_dtype_find(const struct cal_dtype *table,
				       const char *tool)
{
	for (; table->tool; table++)
		if (strcmp(table->tool, tool) == 0)
			return table;
	return NULL;
}
