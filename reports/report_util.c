/*
 * report_util.c -- number and string formatting shared by every report.
 */
#include "reports/report.h"

#include <math.h>
#include <time.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

static const char *const format_names[] = { "table", "csv", "json", NULL };

const char *report_format_name(enum report_format f)
{
	if ((int)f < 0 || f >= REPORT_FORMAT_COUNT)
		return NULL;
	return format_names[f];
}

int report_format_parse(const char *name, enum report_format *out,
			struct dlsim_err *err)
{
	int i = core_name_parse(format_names, name, "format", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum report_format)i;
	return DLSIM_OK;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_sequence(const unsigned char *s)
{
	int n, i;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte's range rules out overlongs and surrogates */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A string from a file or the database may hold any bytes; JSON must
 * be UTF-8, so a byte that starts no well-formed sequence is written
 * as U+FFFD, the replacement character. */
void report_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (p && *p) {
		int n = utf8_sequence(p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(p, 1, (size_t)n, f);
		p += n > 0 ? n : 1;
	}
	fputc('"', f);
}

void report_json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

const char *report_bytes(double bytes, char *buf, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB" };
	int i = 0;

	while (fabs(bytes) >= 1024.0 && i < 6) {
		bytes /= 1024.0;
		i++;
	}
	snprintf(buf, n, i ? "%.2f %s" : "%.0f %s", bytes, unit[i]);
	return buf;
}

const char *report_utc(double t_s, char *buf, size_t n)
{
	time_t t = (time_t)t_s;
	struct tm tm;

	if (t_s <= 0 || !gmtime_r(&t, &tm) ||
	    !strftime(buf, n, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, n, "-");
	return buf;
}

const char *report_age(double s, char *buf, size_t n)
{
	if (s < 0.0)
		s = 0.0;
	if (s < 120.0)
		snprintf(buf, n, "%.0f s", s);
	else if (s < 7200.0)
		snprintf(buf, n, "%.0f min", s / 60.0);
	else if (s < 172800.0)
		snprintf(buf, n, "%.0f h", s / 3600.0);
	else
		snprintf(buf, n, "%.0f d", s / 86400.0);
	return buf;
}

const char *report_seconds(double s, char *buf, size_t n)
{
	if (s >= 1e5)
		snprintf(buf, n, "%.4g s", s);  /* not 20 digits of it */
	else if (s >= 1.0 || s == 0.0)
		snprintf(buf, n, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, n, "%.3f ms", s * 1e3);
	else
		snprintf(buf, n, "%.3f us", s * 1e6);
	return buf;
}

const char *report_rate(double x, char *buf, size_t n)
{
	snprintf(buf, n, x >= 0.1 || x == 0.0 ? "%.1f" : "%.3g", x);
	return buf;
}

void report_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int report_check(FILE *f, struct dlsim_err *err)
{
	if (ferror(f))
		return dlsim_err_set(err, DLSIM_EIO, "write error");
	return DLSIM_OK;
}
