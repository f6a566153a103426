/*
 * yaml.c -- line numbers for YAML errors (see yaml.h).
 */
#include "core/yaml.h"

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

int core_yaml_line(const char *text, size_t len, const char *path)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *node;
	int line = 0;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return 0;
	}
	node = yaml_document_get_root_node(&doc);
	if (node)
		line = (int)node->start_mark.line + 1;
	while (node && path && *path) {
		const char *dot = strchr(path, '.');
		size_t seg = dot ? (size_t)(dot - path) : strlen(path);
		yaml_node_t *next = NULL;

		if (node->type == YAML_MAPPING_NODE)
			next = mapping_get(&doc, node, path, seg);
		else if (node->type == YAML_SEQUENCE_NODE)
			next = sequence_get(&doc, node, strtol(path, NULL, 10));
		if (!next)
			break;
		node = next;
		line = (int)node->start_mark.line + 1;
		path = dot ? dot + 1 : NULL;
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return line;
}

/* ---------------------------------------------------------------- */
/* libcyaml's log                                                    */
/* ---------------------------------------------------------------- */

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
	/* The innermost backtrace entry comes first: keep its line. */
	at = strstr(msg, "(line: ");
	if (at) {
		if (!log->have_line) {
			log->line = (int)strtol(at + 7, NULL, 10);
			log->have_line = 1;
		}
		return;
	}
	if (strstr(msg, "Backtrace") || log->first[0])
		return;
	/* "Load: Unexpected key: foo" -> "unexpected key: foo" */
	at = strncmp(msg, "Load: ", 6) == 0 ? msg + 6 : msg;
	core_strlcpy(log->first, at, sizeof(log->first));
	if (log->first[0] >= 'A' && log->first[0] <= 'Z')
		log->first[0] = (char)(log->first[0] - 'A' + 'a');
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
