/*
 * yaml.c -- line numbers for YAML errors (see yaml.h).
 */
#include "core/yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Finding a path's line                                             */
/* ---------------------------------------------------------------- */

static yaml_node_t *mapping_get(yaml_document_t *doc, yaml_node_t *map,
				const char *key, size_t klen)
{
	yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE &&
		    k->data.scalar.length == klen &&
		    memcmp(k->data.scalar.value, key, klen) == 0)
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static yaml_node_t *sequence_get(yaml_document_t *doc, yaml_node_t *seq,
				 long idx)
{
	long n = seq->data.sequence.items.top - seq->data.sequence.items.start;

	if (idx < 0 || idx >= n)
		return NULL;
	return yaml_document_get_node(doc,
				      seq->data.sequence.items.start[idx]);
}

struct core_yaml_doc {
	yaml_document_t doc;
};

struct core_yaml_doc *core_yaml_doc_open(const char *text, size_t len)
{
	struct core_yaml_doc *d = malloc(sizeof(*d));
	yaml_parser_t parser;
	int ok;

	if (!d || !yaml_parser_initialize(&parser)) {
		free(d);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	ok = yaml_parser_load(&parser, &d->doc);
	yaml_parser_delete(&parser);
	if (!ok) {
		free(d);
		return NULL;
	}
	return d;
}

int core_yaml_too_deep(const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, line = 0, more = 1;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	while (more && yaml_parser_parse(&parser, &ev)) {
		if (ev.type == YAML_MAPPING_START_EVENT ||
		    ev.type == YAML_SEQUENCE_START_EVENT) {
			if (++depth > CORE_YAML_MAX_DEPTH) {
				line = (int)ev.start_mark.line + 1;
				more = 0;
			}
		} else if (ev.type == YAML_MAPPING_END_EVENT ||
			   ev.type == YAML_SEQUENCE_END_EVENT) {
			depth--;
		} else if (ev.type == YAML_STREAM_END_EVENT) {
			more = 0;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return line;
}

int core_yaml_second_document(const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int docs = 0, ended = 0, line = 0, more = 1;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	/* the second document's start event comes before any of its
	 * content is parsed, so a document that does not parse counts */
	while (more) {
		if (!yaml_parser_parse(&parser, &ev)) {
			/* text after the first document's end ("...") that
			 * is no document: libcyaml's message would give
			 * line 1 */
			if (ended)
				line = (int)parser.problem_mark.line + 1;
			break;
		}
		if (ev.type == YAML_DOCUMENT_START_EVENT && ++docs == 2) {
			line = (int)ev.start_mark.line + 1;
			more = 0;
		} else if (ev.type == YAML_DOCUMENT_END_EVENT) {
			ended = 1;
		} else if (ev.type == YAML_STREAM_END_EVENT) {
			more = 0;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return line;
}

void core_yaml_doc_close(struct core_yaml_doc *d)
{
	if (!d)
		return;
	yaml_document_delete(&d->doc);
	free(d);
}

int core_yaml_doc_line(struct core_yaml_doc *d, const char *path)
{
	yaml_node_t *node;
	int line = 0;

	if (!d)
		return 0;
	node = yaml_document_get_root_node(&d->doc);
	if (node)
		line = (int)node->start_mark.line + 1;
	while (node && path && *path) {
		const char *dot = strchr(path, '.');
		size_t seg = dot ? (size_t)(dot - path) : strlen(path);
		yaml_node_t *next = NULL;

		if (node->type == YAML_MAPPING_NODE)
			next = mapping_get(&d->doc, node, path, seg);
		else if (node->type == YAML_SEQUENCE_NODE)
			next = sequence_get(&d->doc, node,
					    strtol(path, NULL, 10));
		if (!next)
			break;
		node = next;
		line = (int)node->start_mark.line + 1;
		path = dot ? dot + 1 : NULL;
	}
	return line;
}

int core_yaml_line(const char *text, size_t len, const char *path)
{
	struct core_yaml_doc *d = core_yaml_doc_open(text, len);
	int line = core_yaml_doc_line(d, path);

	core_yaml_doc_close(d);
	return line;
}

/* ---------------------------------------------------------------- */
/* Numbers                                                           */
/* ---------------------------------------------------------------- */

static int in_list(const char *const *list, const char *s, size_t len)
{
	for (; list && *list; list++)
		if (strlen(*list) == len && memcmp(*list, s, len) == 0)
			return 1;
	return 0;
}

/* A whole decimal integer, optionally signed (range checks come later);
 * no leading zero, which libcyaml would read as octal ("010" is 8). */
static int is_integer(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s || (s[0] == '0' && s[1]))
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int is_number(const char *s)
{
	char *end;
	double v;

	/* strtod also reads hexadecimal ("0x10"), which no figure uses */
	if (!*s || strpbrk(s, "xX"))
		return 0;
	v = strtod(s, &end);
	return *end == '\0' && isfinite(v);
}

/*
 * The first pair of a scalar key and its value, in any mapping of d,
 * that wrong() finds fault with: wrong returns the node at fault (the
 * value, or an item of it) or NULL.  The key and that node's text go
 * into key and text (n bytes each); the node's line, 1-based, is
 * returned, or 0 when no pair is at fault.  The numbers', booleans' and
 * nulls' checks are this walk with different tests.
 */
static int first_wrong_pair(struct core_yaml_doc *d,
			    const yaml_node_t *(*wrong)(yaml_document_t *doc,
							const yaml_node_t *k,
							const yaml_node_t *v,
							void *ctx),
			    void *ctx, char *key, char *text, size_t n)
{
	yaml_node_t *node;

	if (!d)
		return 0;
	for (node = d->doc.nodes.start; node < d->doc.nodes.top; node++) {
		yaml_node_pair_t *p;

		if (node->type != YAML_MAPPING_NODE)
			continue;
		for (p = node->data.mapping.pairs.start;
		     p < node->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(&d->doc,
								p->key);
			yaml_node_t *v = yaml_document_get_node(&d->doc,
								p->value);
			const yaml_node_t *e;

			if (!k || !v || k->type != YAML_SCALAR_NODE ||
			    !(e = wrong(&d->doc, k, v, ctx)))
				continue;
			snprintf(key, n, "%.*s", (int)k->data.scalar.length,
				 (const char *)k->data.scalar.value);
			if (e->type == YAML_SCALAR_NODE)
				snprintf(text, n, "%.*s",
					 (int)e->data.scalar.length,
					 (const char *)e->data.scalar.value);
			else
				text[0] = '\0';
			return (int)e->start_mark.line + 1;
		}
	}
	return 0;
}

/* The numbers' test: ctx is the integer keys and the number keys. */
static const yaml_node_t *wrong_number(yaml_document_t *doc,
				       const yaml_node_t *k,
				       const yaml_node_t *v, void *ctx)
{
	const char *const *const *keys = ctx;
	const char *ks = (const char *)k->data.scalar.value;
	size_t kl = k->data.scalar.length, vl;
	int isint = in_list(keys[0], ks, kl), isnum = in_list(keys[1], ks, kl);
	char val[64];

	(void)doc;
	if ((!isint && !isnum) || v->type != YAML_SCALAR_NODE)
		return NULL;
	vl = v->data.scalar.length;
	if (vl >= sizeof(val))
		return v;
	snprintf(val, sizeof(val), "%.*s", (int)vl,
		 (const char *)v->data.scalar.value);
	return (isint ? is_integer(val) : is_number(val)) ? NULL : v;
}

int core_yaml_check_numbers(struct core_yaml_doc *d,
			    const char *const *int_keys,
			    const char *const *num_keys, char *key,
			    char *text, size_t n)
{
	const char *const *keys[2];

	keys[0] = int_keys;
	keys[1] = num_keys;
	return first_wrong_pair(d, wrong_number, keys, key, text, n);
}

/* ---------------------------------------------------------------- */
/* Booleans                                                          */
/* ---------------------------------------------------------------- */

/* Whether s (len bytes, not terminated) is a YAML 1.2 core-schema
 * boolean: the only spellings core_yaml_check_bools lets through. */
static int core_yaml_is_bool(const char *s, size_t len)
{
	static const char *const spellings[] = {
		"true", "True", "TRUE", "false", "False", "FALSE", NULL
	};

	return in_list(spellings, s, len);
}

/* The booleans' test: ctx is the boolean keys. */
static const yaml_node_t *wrong_bool(yaml_document_t *doc,
				     const yaml_node_t *k,
				     const yaml_node_t *v, void *ctx)
{
	(void)doc;
	if (v->type != YAML_SCALAR_NODE ||
	    !in_list(ctx, (const char *)k->data.scalar.value,
		     k->data.scalar.length))
		return NULL;
	return core_yaml_is_bool((const char *)v->data.scalar.value,
				 v->data.scalar.length) ? NULL : v;
}

int core_yaml_check_bools(struct core_yaml_doc *d,
			  const char *const *bool_keys, char *key,
			  char *text, size_t n)
{
	/* the walk's context is writable (the nulls' test sets its
	 * flag there); the keys are only read */
	return first_wrong_pair(d, wrong_bool, (void *)bool_keys, key, text,
				n);
}

/* ---------------------------------------------------------------- */
/* Nulls                                                             */
/* ---------------------------------------------------------------- */

/* Whether node is a scalar YAML 1.2 reads as null: plain, and empty or
 * one of its spellings (quoted, it is a string). */
static int core_yaml_is_null(const yaml_node_t *node)
{
	static const char *const spellings[] = {
		"", "~", "null", "Null", "NULL", NULL
	};

	return node && node->type == YAML_SCALAR_NODE &&
	       node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       in_list(spellings, (const char *)node->data.scalar.value,
		       node->data.scalar.length);
}

/* The nulls' test: the value, or an item of a sequence value (*ctx, an
 * int, set to 1 then). */
static const yaml_node_t *wrong_null(yaml_document_t *doc,
				     const yaml_node_t *k,
				     const yaml_node_t *v, void *ctx)
{
	yaml_node_item_t *it;

	(void)k;
	if (core_yaml_is_null(v))
		return v;
	if (v->type != YAML_SEQUENCE_NODE)
		return NULL;
	for (it = v->data.sequence.items.start;
	     it < v->data.sequence.items.top; it++) {
		yaml_node_t *e = yaml_document_get_node(doc, *it);

		if (core_yaml_is_null(e)) {
			*(int *)ctx = 1;
			return e;
		}
	}
	return NULL;
}

int core_yaml_check_nulls(struct core_yaml_doc *d, char *key, char *text,
			  size_t n, int *item)
{
	*item = 0;
	return first_wrong_pair(d, wrong_null, item, key, text, n);
}

/* ---------------------------------------------------------------- */
/* libcyaml's log                                                    */
/* ---------------------------------------------------------------- */

/*
 * libcyaml says "STRING length < 1:" of an empty string ("name:" or
 * name: ""), naming neither the key nor the fault in words; its backtrace
 * names the key.  So at the first backtrace entry that is a mapping
 * field, such a first message becomes "'name' has no value" (or "an item
 * of 'inputs' has no value" when a sequence entry came before it), as
 * core_yaml_check_nulls words a null.  msg is the entry's text.
 */
static void core_yaml_log_empty(struct core_yaml_log *log, const char *msg)
{
	static const char empty[] = "STRING length < 1";
	static const char field[] = "in mapping field '";
	const char *name = strstr(msg, field), *end;
	char key[64];

	if (strncmp(log->first, empty, sizeof(empty) - 1) != 0 || !name)
		return;
	name += sizeof(field) - 1;
	end = strchr(name, '\'');
	if (!end)
		return;
	snprintf(key, sizeof(key), "%.*s", (int)(end - name), name);
	snprintf(log->first, sizeof(log->first), "%s'%s' has no value",
		 log->n > 1 ? "an item of " : "", key);
}

void core_yaml_log(cyaml_log_t level, void *ctx, const char *fmt,
		   va_list args)
{
	struct core_yaml_log *log = ctx;
	char msg[256];
	const char *at;
	size_t n;

	if (!log || level < CYAML_LOG_ERROR)
		return;
	vsnprintf(msg, sizeof(msg), fmt, args);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	at = strstr(msg, "(line: ");
	if (at) {
		/* only the first error's backtrace */
		if (log->n < CORE_YAML_BACKTRACE && log->first[0] &&
		    !log->done) {
			log->line[log->n] = (int)strtol(at + 7, NULL, 10);
			log->field[log->n] = strstr(msg, "in mapping field") !=
					     NULL;
			log->n++;
			core_yaml_log_empty(log, msg);
		}
		return;
	}
	if (strstr(msg, "Backtrace"))
		return;
	if (log->first[0]) {
		log->done = 1;
		return;
	}
	/* "Load: Unexpected key: foo" -> "unexpected key: foo" */
	at = strncmp(msg, "Load: ", 6) == 0 ? msg + 6 : msg;
	core_strlcpy(log->first, at, sizeof(log->first));
	/* "Unexpected key" -> "unexpected key", but "STRING length" stays */
	if (log->first[0] >= 'A' && log->first[0] <= 'Z' &&
	    (log->first[1] < 'A' || log->first[1] > 'Z'))
		log->first[0] = (char)(log->first[0] - 'A' + 'a');
}

/* Line of the first mapping key called `key` at or after line `from`. */
static int key_line(yaml_document_t *doc, const char *key, int from)
{
	yaml_node_t *n;
	size_t klen = strlen(key);
	int best = 0;

	for (n = doc->nodes.start; n < doc->nodes.top; n++) {
		yaml_node_pair_t *p;

		if (n->type != YAML_MAPPING_NODE)
			continue;
		for (p = n->data.mapping.pairs.start;
		     p < n->data.mapping.pairs.top; p++) {
			yaml_node_t *k = yaml_document_get_node(doc, p->key);
			int line;

			if (!k || k->type != YAML_SCALAR_NODE ||
			    k->data.scalar.length != klen ||
			    memcmp(k->data.scalar.value, key, klen) != 0)
				continue;
			line = (int)k->start_mark.line + 1;
			if (line >= from && (!best || line < best))
				best = line;
		}
	}
	return best;
}

/* The line libyaml itself stops at, 0 if the text parses.  A reader
 * error (a control character, bad UTF-8) carries a byte offset and no
 * mark; scanner and parser errors a mark.  libcyaml's backtrace holds the
 * last node it finished instead: line 1 for a reader error, which comes
 * as the first bytes are decoded, and the line before a stray tab. */
static int libyaml_problem_line(const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	size_t off, i;
	int line = 0, more = 1;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	while (more) {
		if (!yaml_parser_parse(&parser, &ev)) {
			if (parser.error == YAML_READER_ERROR) {
				off = parser.problem_offset < len ?
				      parser.problem_offset : len;
				for (line = 1, i = 0; i < off; i++)
					line += text[i] == '\n';
			} else {
				line = (int)parser.problem_mark.line + 1;
			}
			break;
		}
		more = ev.type != YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return line;
}

int core_yaml_log_line(const struct core_yaml_log *log, const char *text,
		       size_t len)
{
	static const char unexpected[] = "unexpected key: ";
	static const char missing[] = "missing required mapping field";
	static const char libyaml[] = "libyaml: ";
	int inner = log->n ? log->line[0] : 1, line = 0;

	if (strncmp(log->first, libyaml, sizeof(libyaml) - 1) == 0) {
		line = libyaml_problem_line(text, len);
		return line ? line : inner;
	}
	if (strncmp(log->first, unexpected, sizeof(unexpected) - 1) == 0) {
		struct core_yaml_doc *d = core_yaml_doc_open(text, len);

		if (d)
			line = key_line(&d->doc, log->first +
					sizeof(unexpected) - 1, inner);
		core_yaml_doc_close(d);
		return line ? line : inner;
	}
	if (strncmp(log->first, missing, sizeof(missing) - 1) == 0 &&
	    log->n && log->field[0]) {
		if (log->n > 1)
			return log->line[1];
		line = core_yaml_line(text, len, "");
		return line ? line : 1;
	}
	return inner;
}

void core_yaml_config(cyaml_config_t *cfg, struct core_yaml_log *log)
{
	memset(cfg, 0, sizeof(*cfg));
	memset(log, 0, sizeof(*log));
	cfg->log_fn = core_yaml_log;
	cfg->log_ctx = log;
	cfg->mem_fn = cyaml_mem;
	cfg->log_level = CYAML_LOG_ERROR;
}
