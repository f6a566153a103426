/*
 * cli_util.c -- running the real dlsim binary from a test, and a small
 * strict JSON reader to check its output (shared by the CLI suites).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"

/* ---------------------------------------------------------------- */
/* Running the binary                                                */
/* ---------------------------------------------------------------- */


void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got = 0;

	if (f) {
		got = fread(buf, 1, n - 1, f);
		fclose(f);
	}
	buf[got] = '\0';
}

/* Run "dlsim ARGS" through the shell, stdout to `to` (NULL: captured);
 * ARGS is trusted test text. */
void run_to(struct run *r, const char *args, const char *to)
{
	const char *bin = getenv("DLSIM_BIN");
	char dir[] = "/tmp/dlsim-cli-XXXXXX", cmd[2048], o[64], e[64];
	int st;

	ck_assert_msg(bin != NULL, "DLSIM_BIN is not set (run via make check)");
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(o, sizeof(o), "%s/out", dir);
	snprintf(e, sizeof(e), "%s/err", dir);
	snprintf(cmd, sizeof(cmd), "%s %s >%s 2>%s </dev/null", bin, args,
		 to ? to : o, e);
	st = system(cmd);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	slurp(o, r->out, sizeof(r->out));
	slurp(e, r->err, sizeof(r->err));
	unlink(o);
	unlink(e);
	rmdir(dir);
}

void run(struct run *r, const char *args)
{
	run_to(r, args, NULL);
}

/* One line on stderr, starting "dlsim: " and holding `needle`. */
void assert_one_error(const struct run *r, int status,
			     const char *needle)
{
	const char *nl = strchr(r->err, '\n');

	ck_assert_msg(r->status == status, "exit %d, expected %d; stderr: %s",
		      r->status, status, r->err);
	ck_assert_msg(strncmp(r->err, "dlsim: ", 7) == 0, "stderr: %s",
		      r->err);
	ck_assert_msg(nl && nl[1] == '\0', "not one line: %s", r->err);
	ck_assert_msg(strstr(r->err, needle) != NULL,
		      "'%s' not in stderr: %s", needle, r->err);
	ck_assert_msg(r->out[0] == '\0', "stdout not empty: %s", r->out);
}

/* ---------------------------------------------------------------- */
/* A strict JSON reader, enough to check our own output              */
/* ---------------------------------------------------------------- */

static const char *ws(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

static const char *json_value(const char *p);

static const char *json_string(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p == '"' ? p + 1 : NULL;
}

static const char *json_container(const char *p, char close, int keyed)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			if (!(p = json_string(ws(p))))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(p)))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	char *end;

	p = ws(p);
	if (*p == '{')
		return json_container(p, '}', 1);
	if (*p == '[')
		return json_container(p, ']', 0);
	if (*p == '"')
		return json_string(p);
	if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
		return p + 4;
	if (strncmp(p, "false", 5) == 0)
		return p + 5;
	strtod(p, &end);
	return end == p ? NULL : end;
}

int json_valid(const char *doc)
{
	const char *end = json_value(doc);

	return end && *ws(end) == '\0';
}

/* The number after the first "key": (our output has unique keys). */
double json_number(const char *doc, const char *key)
{
	char pat[80];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(doc, pat);
	ck_assert_msg(p != NULL, "key %s missing", key);
	return strtod(p + strlen(pat), NULL);
}

int json_has(const char *doc, const char *key)
{
	char pat[80];

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	return strstr(doc, pat) != NULL;
}

