/*
 * cal_json.c -- a small strict JSON reader (RFC 8259) for the files the
 * importers take, today nccl-tests' -J output.
 *
 * HOW IT WORKS: one recursive-descent pass over the text builds an array
 * of values; the members of an object or array form a linked list
 * (child, next) of indexes into that array, so the array may grow while
 * parsing without invalidating anything.  Strings are unescaped in place
 * (an escape is never shorter than what it stands for), so the
 * document borrows the text and copies nothing.  Every value keeps the
 * line it starts on for "path:line: what" messages.
 *
 * LIMITATIONS: nesting deeper than 64 and documents of more than 2^22
 * values are refused (nccl-tests writes depth 4 and a few thousand
 * values).  An object naming a key twice is refused: RFC 8259 leaves
 * which one counts to the reader, and {"time": 24.31, "time": -5} has no
 * meaning a measurement can take.  A "\u0000" escape is refused, since
 * strings are NUL-terminated.
 */
#include "calibrate/cal.h"
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

#define JSON_MAX_DEPTH 64
#define JSON_MAX_VALUES ((int64_t)1 << 22)

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

struct parser {
	struct cal_in *in;
	struct cal_json_doc *doc;
	char *p;                /* the next byte to read */
	int64_t line;
	struct dlsim_err *err;
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int fail(struct parser *ps, const char *what)
{
	return cal_fail_at(ps->in, ps->line, ps->err, "malformed JSON: %s",
			   what);
}

static void skip_space(struct parser *ps)
{
	for (;; ps->p++) {
		if (*ps->p == '\n')
			ps->line++;
		else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r')
			return;
	}
}

/* A new value at the current line; its index, or -1 on failure. */
static int64_t new_value(struct parser *ps, enum cal_json_type type)
{
	struct cal_json_doc *d = ps->doc;
	struct cal_json *v;

	if (d->n == JSON_MAX_VALUES) {
		dlsim_err_set(ps->err, DLSIM_ENOMEM, "%s:%lld: more than "
			      "%lld JSON values", ps->in->path,
			      (long long)ps->line, (long long)JSON_MAX_VALUES);
		return -1;
	}
	if (d->n == d->cap) {
		int64_t cap = d->cap ? d->cap * 2 : 64;
		struct cal_json *a = realloc(d->v, (size_t)cap * sizeof(*a));

		if (!a) {
			dlsim_err_set(ps->err, DLSIM_ENOMEM, "%s: out of "
				      "memory reading JSON", ps->in->path);
			return -1;
		}
		d->v = a;
		d->cap = cap;
	}
	v = &d->v[d->n];
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->line = ps->line;
	v->child = v->next = -1;
	return d->n++;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Write code point u as UTF-8 at *w. */
static void put_utf8(char **w, unsigned u)
{
	char *o = *w;

	if (u < 0x80) {
		*o++ = (char)u;
	} else if (u < 0x800) {
		*o++ = (char)(0xc0 | (u >> 6));
		*o++ = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		*o++ = (char)(0xe0 | (u >> 12));
		*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
		*o++ = (char)(0x80 | (u & 0x3f));
	} else {
		*o++ = (char)(0xf0 | (u >> 18));
		*o++ = (char)(0x80 | ((u >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((u >> 6) & 0x3f));
		*o++ = (char)(0x80 | (u & 0x3f));
	}
	*w = o;
}

/* A \uXXXX escape (and its low surrogate) at r, just after the 'u'. */
static int unicode_escape(struct parser *ps, char **r, char **w)
{
	unsigned u, lo;

	if (hex4(*r, &u))
		return fail(ps, "bad \\u escape");
	*r += 4;
	if (u >= 0xd800 && u < 0xdc00) {
		if ((*r)[0] != '\\' || (*r)[1] != 'u' || hex4(*r + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "unpaired surrogate in \\u escape");
		*r += 6;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	} else if (u >= 0xdc00 && u < 0xe000) {
		return fail(ps, "unpaired surrogate in \\u escape");
	}
	if (u == 0)
		return fail(ps, "\\u0000 in a string");
	put_utf8(w, u);
	return DLSIM_OK;
}

/* The string at ps->p (on its '"'), unescaped in place into *out. */
static int string(struct parser *ps, const char **out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char *r = ps->p + 1, *w = r, *start = r;

	for (;;) {
		unsigned char c = (unsigned char)*r;
		const char *e;

		if (c == '"')
			break;
		if (c == '\0')
			return fail(ps, "unterminated string");
		if (c < 0x20)
			return fail(ps, "control character in a string");
		if (c != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		if (*r == 'u') {
			r++;
			if (unicode_escape(ps, &r, &w))
				return DLSIM_EPARSE;
			continue;
		}
		e = *r ? strchr(from, *r) : NULL;
		if (!e)
			return fail(ps, "bad escape in a string");
		*w++ = to[e - from];
		r++;
	}
	ps->p = r + 1;
	*w = '\0';
	*out = start;
	return DLSIM_OK;
}

/* The number at ps->p, checked against the JSON grammar. */
static int number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char *end;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return fail(ps, "bad number");
	if (*s == '.') {
		if (!(*++s >= '0' && *s <= '9'))
			return fail(ps, "bad number");
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return fail(ps, "bad number");
		while (*s >= '0' && *s <= '9')
			s++;
	}
	*out = strtod(ps->p, &end);
	if (end != s || !isfinite(*out))
		return fail(ps, "number out of range");
	ps->p = end;
	return DLSIM_OK;
}

static int value(struct parser *ps, int depth, int64_t *out);

/* Members of an array (keys 0) or object (keys 1), after the bracket. */
static int members(struct parser *ps, int depth, int64_t parent, int keys)
{
	char close = keys ? '}' : ']';
	int64_t last = -1, idx;
	const char *key = NULL;
	int rc;

	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		return DLSIM_OK;
	}
	for (;;) {
		skip_space(ps);
		if (keys) {
			if (*ps->p != '"')
				return fail(ps, "expected a member name");
			if (string(ps, &key))
				return DLSIM_EPARSE;
			skip_space(ps);
			if (*ps->p++ != ':')
				return fail(ps, "expected ':'");
		}
		rc = value(ps, depth + 1, &idx);
		if (rc)
			return rc;
		ps->doc->v[idx].key = key;
		if (last < 0)
			ps->doc->v[parent].child = idx;
		else
			ps->doc->v[last].next = idx;
		last = idx;
		skip_space(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p++ != close)
			return fail(ps, keys ? "expected ',' or '}'" :
				    "expected ',' or ']'");
		return DLSIM_OK;
	}
}

static int literal(struct parser *ps, const char *word,
		   enum cal_json_type type, int64_t *out)
{
	size_t n = strlen(word);

	if (strncmp(ps->p, word, n) != 0)
		return fail(ps, "unexpected character");
	ps->p += n;
	*out = new_value(ps, type);
	return *out < 0 ? DLSIM_ENOMEM : DLSIM_OK;
}

static int value(struct parser *ps, int depth, int64_t *out)
{
	int64_t idx;
	const char *s;
	double num = 0.0;
	int rc;

	if (depth > JSON_MAX_DEPTH)
		return fail(ps, "nested deeper than 64");
	skip_space(ps);
	switch (*ps->p) {
	case '{':
	case '[':
		idx = new_value(ps, *ps->p == '{' ? CAL_JSON_OBJECT :
				CAL_JSON_ARRAY);
		if (idx < 0)
			return DLSIM_ENOMEM;
		rc = members(ps, depth, idx, *ps->p++ == '{');
		break;
	case '"':
		idx = new_value(ps, CAL_JSON_STRING);
		if (idx < 0)
			return DLSIM_ENOMEM;
		rc = string(ps, &s);
		ps->doc->v[idx].str = s;
		break;
	case 't':
		return literal(ps, "true", CAL_JSON_TRUE, out);
	case 'f':
		return literal(ps, "false", CAL_JSON_FALSE, out);
	case 'n':
		return literal(ps, "null", CAL_JSON_NULL, out);
	case '\0':
		return fail(ps, "unexpected end of the file");
	default:
		if (*ps->p != '-' && !(*ps->p >= '0' && *ps->p <= '9'))
			return fail(ps, "unexpected character");
		idx = new_value(ps, CAL_JSON_NUMBER);
		if (idx < 0)
			return DLSIM_ENOMEM;
		rc = number(ps, &num);
		ps->doc->v[idx].num = num;
		break;
	}
	*out = idx;
	return rc;
}

/* Members by key, then in document order (their place in the array). */
static int member_cmp(const void *a, const void *b)
{
	const struct cal_json *const *x = a, *const *y = b;
	int c = strcmp((*x)->key, (*y)->key);

	return c ? c : (*x > *y) - (*x < *y);
}

/* Control bytes and bytes above ASCII of buf made '?': keys are the
 * file's text, unescaped, a message is one line, and a cut key may end
 * in part of a UTF-8 sequence. */
static void printable(char *buf)
{
	for (; *buf; buf++)
		if ((unsigned char)*buf < 0x20 || (unsigned char)*buf >= 0x7f)
			*buf = '?';
}

/* src into dst of n bytes, ending in "..." where it is cut, so that a
 * cut name is not taken for the whole. */
static void copy_marked(char *dst, size_t n, const char *src)
{
	if (core_strlcpy(dst, src, n) && n > 4)
		memcpy(dst + n - 4, "...", 4);
}

/* Where value k is, "results[0].out_of_place" ("the top level" for the
 * root), into buf: nccl-tests writes its whole document on one line, so
 * the line alone does not find it.  parent[] holds each value's. */
static void place_of(const struct cal_json_doc *d, const int64_t *parent,
		     int64_t k, char *buf, size_t n)
{
	int64_t chain[JSON_MAX_DEPTH + 2];
	size_t used = 0;
	int depth = 0, i;

	for (; k > 0 && depth < JSON_MAX_DEPTH + 2; k = parent[k])
		chain[depth++] = k;
	buf[0] = '\0';
	if (!depth)
		snprintf(buf, n, "the top level");
	for (i = depth - 1; i >= 0 && used < n; i--) {
		const struct cal_json *v = &d->v[chain[i]];
		int64_t at = 0, c;
		int w;

		if (d->v[parent[chain[i]]].type == CAL_JSON_OBJECT) {
			char name[44];

			copy_marked(name, sizeof(name), v->key);
			w = snprintf(buf + used, n - used, "%s%s",
				     used ? "." : "", name);
		} else {
			for (c = d->v[parent[chain[i]]].child; c != chain[i];
			     c = d->v[c].next)
				at++;
			w = snprintf(buf + used, n - used, "[%lld]",
				     (long long)at);
		}
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Refuse the first object of the document holding a key twice, at the
 * line of its second use.  Each object's members are sorted apart, so
 * the check is O(n log n) over the document, not quadratic in a wide
 * object. */
static int unique_keys(struct parser *ps)
{
	struct cal_json_doc *d = ps->doc;
	const struct cal_json **m;
	int64_t *parent, i, k, n;
	int rc = DLSIM_OK;

	m = malloc((size_t)d->n * sizeof(*m));
	parent = malloc((size_t)d->n * sizeof(*parent));
	if (!m || !parent) {
		free(m);
		free(parent);
		return dlsim_err_set(ps->err, DLSIM_ENOMEM, "%s: out of "
				     "memory reading JSON", ps->in->path);
	}
	parent[0] = -1;
	for (i = 0; i < d->n; i++)
		for (k = d->v[i].child; k >= 0; k = d->v[k].next)
			parent[k] = i;
	for (i = 0; i < d->n && !rc; i++) {
		if (d->v[i].type != CAL_JSON_OBJECT)
			continue;
		for (n = 0, k = d->v[i].child; k >= 0; k = d->v[k].next)
			m[n++] = &d->v[k];
		if (n < 2)
			continue;
		qsort(m, (size_t)n, sizeof(*m), member_cmp);
		for (k = 1; k < n && !rc; k++) {
			char place[160], key[48];

			if (strcmp(m[k - 1]->key, m[k]->key) != 0)
				continue;
			place_of(d, parent, i, place, sizeof(place));
			copy_marked(key, sizeof(key), m[k]->key);
			printable(place);
			printable(key);
			rc = cal_fail_at(ps->in, m[k]->line, ps->err,
					 "malformed JSON: the key '%s' "
					 "appears twice in %s", key, place);
		}
	}
	free(m);
	free(parent);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_json_parse(struct cal_in *in, struct cal_json_doc *doc,
		   struct dlsim_err *err)
{
	struct parser ps;
	int64_t root;
	int rc;

	doc->v = NULL;
	doc->n = doc->cap = 0;
	ps.in = in;
	ps.doc = doc;
	ps.p = in->text + in->pos;
	ps.line = 1;
	ps.err = err;
	rc = value(&ps, 0, &root);
	if (!rc) {
		skip_space(&ps);
		if (*ps.p != '\0')
			rc = fail(&ps, "text after the document");
	}
	if (!rc)
		rc = unique_keys(&ps);
	in->line = ps.line;
	in->pos = in->len;
	if (rc) {
		cal_json_release(doc);
		return rc;
	}
	return DLSIM_OK;
}

void cal_json_release(struct cal_json_doc *doc)
{
	free(doc->v);
	doc->v = NULL;
	doc->n = doc->cap = 0;
}

const struct cal_json *cal_json_get(const struct cal_json_doc *doc,
				    const struct cal_json *obj,
				    const char *key)
{
	const struct cal_json *m;

	if (!obj || obj->type != CAL_JSON_OBJECT)
		return NULL;
	for (m = cal_json_first(doc, obj); m; m = cal_json_next(doc, m))
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

const struct cal_json *cal_json_first(const struct cal_json_doc *doc,
				      const struct cal_json *v)
{
	return v && v->child >= 0 ? &doc->v[v->child] : NULL;
}

const struct cal_json *cal_json_next(const struct cal_json_doc *doc,
				     const struct cal_json *v)
{
	return v && v->next >= 0 ? &doc->v[v->next] : NULL;
}
