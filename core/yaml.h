/*
 * yaml.h -- what libcyaml does not give us: the line of a value found
 * wrong after loading, and the first line of libcyaml's own complaints.
 *
 * libcyaml checks the schema (types, unknown and missing keys, enum
 * values) and logs a backtrace with line numbers.  Range checks (a
 * negative bandwidth) happen after loading, on plain C structs that no
 * longer know their lines; core_yaml_line() finds the line again by
 * walking a libyaml document along a dotted path such as
 * "devices.3.memory.0.bandwidth_GBps".
 */
#ifndef DLSIM_CORE_YAML_H
#define DLSIM_CORE_YAML_H

#include <stdarg.h>
#include <stddef.h>

#include <cyaml/cyaml.h>

/*
 * Line (1-based) of the value at `path` in YAML text, or of the deepest
 * node of the path that exists; 0 if the text does not parse.
 */
int core_yaml_line(const char *text, size_t len, const char *path);

/*
 * Collects libcyaml's log: the first message and the line of the innermost
 * backtrace entry.  Set cfg.log_fn = core_yaml_log and cfg.log_ctx to a
 * struct core_yaml_log.
 */
struct core_yaml_log {
	char first[200];
	int line;
	int have_line;
};

void core_yaml_log(cyaml_log_t level, void *ctx, const char *fmt,
		   va_list args);

/* A libcyaml config that logs into log. */
void core_yaml_config(cyaml_config_t *cfg, struct core_yaml_log *log);

#endif /* DLSIM_CORE_YAML_H */
