/*
 * core.c -- errors, precisions and the small parsing helpers of core.h.
 *
 * The error model follows the house rules: one status enum for the whole
 * library, a caller-owned buffer of DLSIM_ERR_LEN bytes, and the first
 * failure wins, so that the message the user sees names the root cause
 * rather than the last caller on the way out.
 */
#include "core.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

/* ---------------------------------------------------------------- */
/* Errors                                                            */
/* ---------------------------------------------------------------- */

int dlsim_err_set(struct dlsim_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code != DLSIM_OK)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void dlsim_err_clear(struct dlsim_err *err)
{
	if (!err)
		return;
	err->code = DLSIM_OK;
	err->msg[0] = '\0';
}

const char *dlsim_strerror(int code)
{
	static const char *const text[] = {
		"success", "invalid argument", "not found",
		"value out of range", "out of memory", "input/output error",
		"parse error", "database error"
	};

	if (code < 0 || code >= (int)(sizeof(text) / sizeof(text[0])))
		return "unknown error";
	return text[code];
}

/* ---------------------------------------------------------------- */
/* Version                                                           */
/* ---------------------------------------------------------------- */

/* Written by tools/build_id.sh into build/gen/build_id.c at each make. */
extern const char dlsim_version_string[];

const char *dlsim_version(void)
{
	return dlsim_version_string;
}

/* ---------------------------------------------------------------- */
/* Precisions                                                        */
/* ---------------------------------------------------------------- */

static const char *const precision_names[] = {
	"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", NULL
};

const char *dlsim_precision_name(enum dlsim_precision p)
{
	if ((int)p < 0 || p >= DLSIM_PRECISION_COUNT)
		return NULL;
	return precision_names[p];
}

int dlsim_precision_parse(const char *name, enum dlsim_precision *out,
			  struct dlsim_err *err)
{
	int i = core_name_parse(precision_names, name, "precision", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum dlsim_precision)i;
	return DLSIM_OK;
}

int dlsim_precision_bytes(enum dlsim_precision p)
{
	static const int bytes[DLSIM_PRECISION_COUNT] = { 8, 4, 4, 2, 2, 1, 1 };

	if ((int)p < 0 || p >= DLSIM_PRECISION_COUNT)
		return 0;
	return bytes[p];
}

/* ---------------------------------------------------------------- */
/* Strings and name tables                                           */
/* ---------------------------------------------------------------- */

int core_strlcpy(char *dst, const char *src, size_t n)
{
	size_t len;

	if (n == 0)
		return 1;
	if (!src)
		src = "";
	len = strlen(src);
	if (len >= n) {
		memcpy(dst, src, n - 1);
		dst[n - 1] = '\0';
		return 1;
	}
	memcpy(dst, src, len + 1);
	return 0;
}

int core_name_index(const char *const *table, const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = 0; table[i]; i++)
		if (strcmp(table[i], name) == 0)
			return i;
	return -1;
}

int core_name_parse(const char *const *table, const char *name,
		    const char *what, struct dlsim_err *err)
{
	int i = core_name_index(table, name);
	char list[160];

	if (i < 0) {
		core_name_list(table, list, sizeof(list));
		dlsim_err_set(err, DLSIM_ENOTFOUND,
			      "unknown %s '%s' (expected %s)", what,
			      name ? name : "", list);
	}
	return i;
}

int core_is_yaml_path(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && (strchr(s, '/') ||
		     (n > 5 && strcmp(s + n - 5, ".yaml") == 0) ||
		     (n > 4 && strcmp(s + n - 4, ".yml") == 0));
}

void core_name_list(const char *const *table, char *buf, size_t n)
{
	size_t used = 0;
	int i;

	if (n == 0)
		return;
	buf[0] = '\0';
	for (i = 0; table[i] && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s",
				 i ? ", " : "", table[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* ---------------------------------------------------------------- */
/* Numbers                                                           */
/* ---------------------------------------------------------------- */

int core_parse_count(const char *s, int64_t max, int64_t *out,
		     struct dlsim_err *err, const char *what)
{
	char *end = NULL;
	long long v;

	if (!s || !*s)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a positive integer (got '')",
				     what);
	if (*s < '0' || *s > '9')
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a positive integer (got '%s')",
				     what, s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a positive integer (got '%s')",
				     what, s);
	if (errno == ERANGE || v > max)
		return dlsim_err_set(err, DLSIM_ERANGE,
				     "%s is too large (got '%s', at most %lld)",
				     what, s, (long long)max);
	if (v <= 0)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a positive integer (got '%s')",
				     what, s);
	*out = (int64_t)v;
	return DLSIM_OK;
}

/* Length of the decimal number at the start of s: [+-] digits [. digits]
 * or [+-] . digits, then [eE [+-] digits]; 0 when there is none. */
static size_t decimal_len(const char *s)
{
	size_t i = 0, digits = 0;

	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;

		if (s[j] == '+' || s[j] == '-')
			j++;
		if (!(s[j] >= '0' && s[j] <= '9'))
			return i;
		while (s[j] >= '0' && s[j] <= '9')
			j++;
		i = j;
	}
	return i;
}

int core_parse_double(const char *s, double *out, struct dlsim_err *err,
		      const char *what)
{
	char *end = NULL;
	double v;

	if (!s || !*s)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a number (got '')", what);
	/* strtod also reads hexadecimal ("0x10" is 16, "0x1p-8" 1/256),
	 * skips leading blanks and takes "inf" and "nan": none is a figure
	 * a measurement or a flag is written in, so the text must be all
	 * decimal before strtod converts it */
	if (decimal_len(s) != strlen(s)) {
		const char *digits = s + (*s == '+' || *s == '-');

		if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
			return dlsim_err_set(err, DLSIM_EINVAL,
					     "%s must be a decimal number, "
					     "not hexadecimal (got '%s')",
					     what, s);
		if (*s == ' ' || *s == '\t' || s[strlen(s) - 1] == ' ' ||
		    s[strlen(s) - 1] == '\t')
			return dlsim_err_set(err, DLSIM_EINVAL,
					     "%s must be a number without "
					     "blanks around it (got '%s')",
					     what, s);
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a finite number (got '%s')",
				     what, s);
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v))
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s must be a finite number (got '%s')",
				     what, s);
	/* strtod's other ERANGE: underflow, a value it cannot hold */
	if (errno == ERANGE)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s is too close to zero for a double "
				     "(got '%s')", what, s);
	*out = v;
	return DLSIM_OK;
}

int dlsim_parse_count(const char *s, int64_t max, int64_t *out,
		      const char *what, struct dlsim_err *err)
{
	return core_parse_count(s, max, out, err, what);
}

int dlsim_parse_number(const char *s, double *out, const char *what,
		       struct dlsim_err *err)
{
	return core_parse_double(s, out, err, what);
}

/*
 * Exact, unlike log2() near powers of two beyond 2^40.  A finite x > 1 is
 * a normal IEEE 754 binary64, 1.f x 2^(E - 1023): its ceil log2 is
 * E - 1023, plus one unless the fraction f is zero.  Read from the bits
 * rather than with frexp(), a libm call: the simulator asks this of
 * every layer's every pass (a reduction's depth), and frexp and its
 * wrapper were 8% of a prediction's instructions.
 */
double core_ceil_log2(double x)
{
	uint64_t bits;
	int e;

	if (!(x > 1.0) || !isfinite(x))
		return 0.0;
	memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ffu) - 1023;
	return (double)(e + ((bits & 0xfffffffffffffull) != 0));
}

/* ---------------------------------------------------------------- */
/* Files                                                             */
/* ---------------------------------------------------------------- */

size_t core_utf8_bom(const char *text, size_t len)
{
	return len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

int core_read_file(const char *path, char **text, size_t *len,
		 struct dlsim_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	*text = NULL;
	*len = 0;
	if (!f)
		return dlsim_err_set(err, DLSIM_EIO, "%s: %s", path,
				     strerror(errno));
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *p;

			if (cap > ((size_t)64 << 20)) {
				fclose(f);
				free(buf);
				return dlsim_err_set(err, DLSIM_ENOMEM,
						     "%s: larger than 64 MiB",
						     path);
			}
			p = realloc(buf, cap = cap * 2 + 8192);
			if (!p) {
				fclose(f);
				free(buf);
				return dlsim_err_set(err, DLSIM_ENOMEM,
						     "%s: out of memory", path);
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return dlsim_err_set(err, DLSIM_EIO, "%s: %s", path,
				     strerror(errno ? errno : EIO));
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return DLSIM_OK;
}
