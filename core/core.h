/*
 * core.h -- small helpers every module of libdlsim shares: bounded string
 * copy, name tables, and checked numeric parsing.  Nothing here knows
 * about models, hardware or simulation.
 */
#ifndef DLSIM_CORE_CORE_H
#define DLSIM_CORE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "dlsim.h"

/* Copy src into dst of size n, always terminated; returns 1 if cut. */
int core_strlcpy(char *dst, const char *src, size_t n);

/*
 * Look name up in a NULL-terminated table of names; returns its index,
 * or -1.  Vocabulary lookups (precision, format, algorithm) all go
 * through this, never through chains of strcmp.
 */
int core_name_index(const char *const *table, const char *name);

/*
 * Look name up in table; on failure set "unknown WHAT 'NAME' (expected
 * a, b, c)" with DLSIM_ENOTFOUND.  Returns the index or -1.
 */
int core_name_parse(const char *const *table, const char *name,
		    const char *what, struct dlsim_err *err);

/* 1 if s names a YAML file: ends in .yaml or .yml, or holds a '/'. */
int core_is_yaml_path(const char *s);

/* Write the table's names as "a, b, c" into buf (for error messages). */
void core_name_list(const char *const *table, char *buf, size_t n);

/*
 * Parse a whole string as a positive 64-bit integer no larger than max.
 * Rejects "", "0", "-3", "12abc", "1e99" and overflow.
 */
int core_parse_count(const char *s, int64_t max, int64_t *out,
		     struct dlsim_err *err, const char *what);

/* Parse a whole string as a finite double written in decimal
 * ("1.5e-3", ".5", "-2"); hexadecimal ("0x10"), blanks around it, "inf"
 * and "nan" are refused.  what names it in errors. */
int core_parse_double(const char *s, double *out, struct dlsim_err *err,
		      const char *what);

/* 3 when text[0, len) starts with a UTF-8 byte-order mark (EF BB BF,
 * which spreadsheets write at the head of a CSV file), else 0: the bytes
 * a reader skips so that the mark is not read as part of the first
 * field. */
size_t core_utf8_bom(const char *text, size_t len);

/*
 * Read a whole file (at most 64 MiB) into a NUL-terminated heap buffer
 * the caller frees; errors name the path.
 */
int core_read_file(const char *path, char **text, size_t *len,
		   struct dlsim_err *err);

/* ceil(log2(x)) for finite x >= 1; 0 for x <= 1, infinity and NaN (as
 * the frexp() version did under glibc, whose exponent of an infinity is
 * 0). */
double core_ceil_log2(double x);

#endif /* DLSIM_CORE_CORE_H */
