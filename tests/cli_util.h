/*
 * cli_util.h -- helpers of the CLI test suites (cli_util.c).
 */
#ifndef DLSIM_TESTS_CLI_UTIL_H
#define DLSIM_TESTS_CLI_UTIL_H

#include <stddef.h>

struct run {
	int status;
	char out[65536];
	char err[4096];
};

/* Read a file into buf (empty if it cannot be read). */
void slurp(const char *path, char *buf, size_t n);

/* Run "$DLSIM_BIN ARGS" through the shell; stdout to `to` (NULL: kept in
 * r->out), stderr in r->err, the exit status in r->status. */
void run_to(struct run *r, const char *args, const char *to);
void run(struct run *r, const char *args);

/* One line on stderr, starting "dlsim: " and holding needle; stdout empty
 * and the exit status as given. */
void assert_one_error(const struct run *r, int status, const char *needle);

/* The whole document is valid JSON. */
int json_valid(const char *doc);

/* The number after the first "key": in doc. */
double json_number(const char *doc, const char *key);

/* doc has "key": somewhere. */
int json_has(const char *doc, const char *key);

#endif /* DLSIM_TESTS_CLI_UTIL_H */
