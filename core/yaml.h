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
 * A document parsed once, for many line lookups in a row (the catalog
 * records the line of every entry).  core_yaml_doc_open() returns NULL if
 * the text does not parse or memory runs out.
 */
struct core_yaml_doc;

struct core_yaml_doc *core_yaml_doc_open(const char *text, size_t len);

/*
 * The line (1-based) of the first mapping or sequence nested more than
 * CORE_YAML_MAX_DEPTH deep in YAML text; 0 when none is, or when the text
 * does not parse (the loader then says why).  libyaml scans nested flow
 * collections in time quadratic in their depth (a 250 KB line of 50,000
 * "{a: " took 17 s), and no dlsim file nests more than a handful of
 * levels, so the loaders refuse a deeper one before loading it.  This
 * pass stops at that collection: it costs as many levels as it allows.
 */
#define CORE_YAML_MAX_DEPTH 32

int core_yaml_too_deep(const char *text, size_t len);
int core_yaml_doc_line(struct core_yaml_doc *doc, const char *path);
void core_yaml_doc_close(struct core_yaml_doc *doc);

/*
 * libcyaml reads the first document of a YAML stream and stops: anything
 * after a "---" that begins a second one (a garbled line, a second
 * system:) was dropped unread.  Returns the line (1-based) where a second
 * document starts, or where text that cannot start one follows the
 * first's end ("..."); 0 when the text holds one, or does not parse
 * before the first one ends (the loader then says why).  It reads the
 * whole text, so on a user's file it comes after core_yaml_too_deep.
 */
int core_yaml_second_document(const char *text, size_t len);

/*
 * libcyaml 1.3 reads a number by its leading digits: "2abc" loads as 2,
 * "1e3" as an integer 1, "4.9" as 4.  So before trusting what it loaded,
 * every scalar under a key named in int_keys must be a whole decimal
 * integer and every scalar under a key in num_keys a finite number, both
 * read to their end (core_parse_*).  Both lists are NULL-terminated.
 * Returns 0 if all are well formed; else the line of the first bad one,
 * with its key and text copied into key and text (truncated to n).
 */
int core_yaml_check_numbers(struct core_yaml_doc *doc,
			    const char *const *int_keys,
			    const char *const *num_keys, char *key,
			    char *text, size_t n);

/*
 * libcyaml 1.3 reads a boolean as false only when its text is one of a
 * few spellings ("false", "no", "off", "0", ...) and as true otherwise:
 * "nonsense", "", "~" and "2" all loaded as true.  So every scalar under
 * a key named in bool_keys (NULL-terminated) must be a YAML 1.2 boolean,
 * true, True, TRUE, false, False or FALSE, the spellings libcyaml reads
 * the way YAML means them.  Returns 0 if all are; else the line of the
 * first that is not, with its key and text copied into key and text
 * (truncated to n).
 */
int core_yaml_check_bools(struct core_yaml_doc *doc,
			  const char *const *bool_keys, char *key,
			  char *text, size_t n);

/*
 * libcyaml loads a YAML null under a string key as its text: `name: ~`
 * named a model "~", `inputs: [null]` looked for a layer "null".  No key
 * of dlsim's files takes a null, so every mapping value and sequence
 * item written as a plain (unquoted) null, ~, null, Null, NULL or
 * nothing, is refused; a quoted "~" is a string and stays one.  Returns
 * 0 if there is none; else the line of the first, with the key it is
 * under and its text copied into key and text (truncated to n), and
 * *item set to 1 if it is an item of a sequence under that key, else 0.
 */
int core_yaml_check_nulls(struct core_yaml_doc *doc, char *key, char *text,
			  size_t n, int *item);

/*
 * Collects libcyaml's log: the first message and the line of the innermost
 * backtrace entry.  Set cfg.log_fn = core_yaml_log and cfg.log_ctx to a
 * struct core_yaml_log.
 */
#define CORE_YAML_BACKTRACE 16

struct core_yaml_log {
	char first[200];             /* the first error message */
	int done;                    /* a second error began: stop */
	int n;                       /* backtrace entries kept */
	int line[CORE_YAML_BACKTRACE];          /* innermost first */
	int field[CORE_YAML_BACKTRACE];         /* 1: "in mapping field" */
};

/*
 * The line to report for what the log holds.  libcyaml's own lines point
 * near the fault, not at it: for an unexpected key, at the key before it;
 * for a missing key, at the last field of the mapping that lacks it.  So:
 * an unexpected key is looked up by name at or after that line; a missing
 * key is reported where its mapping starts (the next entry out, or the
 * document); libyaml's own errors ("libyaml: ...") where libyaml stops;
 * anything else at the innermost line.
 */
int core_yaml_log_line(const struct core_yaml_log *log, const char *text,
		       size_t len);

void core_yaml_log(cyaml_log_t level, void *ctx, const char *fmt,
		   va_list args);

/* A libcyaml config that logs into log. */
void core_yaml_config(cyaml_config_t *cfg, struct core_yaml_log *log);

#endif /* DLSIM_CORE_YAML_H */
