/*
 * db_util.c -- helpers of the database test suites (test_db.c,
 * test_db_cli.c): a private directory and database per test, raw SQLite
 * access for hand-made files, runs and samples to store, and the
 * environment the path resolution reads.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "tests.h"
#include "db_util.h"
#include "db/db.h"


void tmp_make(struct tmp *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/dlsim-db-XXXXXX");
	ck_assert(mkdtemp(t->dir) != NULL);
	snprintf(t->path, sizeof(t->path), "%s/test.db", t->dir);
}

/* Remove dir and everything under it (a few levels: the XDG test). */
void dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char p[512];
		struct stat sb;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
			dir_remove(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

void tmp_remove(struct tmp *t)
{
	dir_remove(t->dir);
}

struct db *open_ok(const char *path)
{
	struct dlsim_err err = { 0, "" };
	struct db *db = NULL;

	ck_assert_msg(db_open(path, &db, &err) == DLSIM_OK, "%s", err.msg);
	ck_assert(db != NULL);
	return db;
}

/* One integer from a query with no parameters (test-only SQL). */
int64_t scalar(struct db *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	ck_assert_msg(sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) ==
		      SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db->h));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A raw connection for hand-made files, without dlsim's schema. */
void raw_exec(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	char *msg = NULL;

	ck_assert(sqlite3_open(path, &h) == SQLITE_OK);
	ck_assert_msg(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK,
		      "%s: %s", sql, msg ? msg : "");
	sqlite3_close(h);
}

int64_t raw_scalar(const char *path, const char *sql)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	ck_assert(sqlite3_open(path, &h) == SQLITE_OK);
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

double small_db_bytes(const char *path)
{
	int64_t page = raw_scalar(path, "PRAGMA page_size");

	/* smaller pages would spill the 2.2 KB of schema SQL past
	 * page 1, and the count below would no longer hold */
	ck_assert_msg(page >= 4096, "%s: %lld-byte pages; the count of 14 "
		      "assumes SQLite's default of 4096 or more", path,
		      (long long)page);
	/* page 1 (the schema), then one root page a table (6) and an
	 * index (6 named, and hosts' UNIQUE): 14 */
	return 14.0 * (double)page;
}

void raw_text(const char *path, const char *sql, char *buf, size_t n)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	const unsigned char *t = NULL;

	ck_assert(n > 0);
	buf[0] = '\0';
	ck_assert(sqlite3_open(path, &h) == SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(h));
	if (sqlite3_step(st) == SQLITE_ROW)
		t = sqlite3_column_text(st, 0);
	if (t) {
		ck_assert_msg(strlen((const char *)t) < n, "%s: longer than %zu",
			      sql, n);
		memcpy(buf, t, strlen((const char *)t) + 1);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
}

/* The whole file into buf (at most n bytes); returns the size. */
size_t read_bytes(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	ck_assert(f != NULL);
	got = fread(buf, 1, n, f);
	ck_assert(feof(f));
	fclose(f);
	return got;
}

void file_state_take(struct file_state *s, const char *path)
{
	/* 2001-09-09 01:46:40 UTC, exactly */
	const struct timespec past[2] = { { 1000000000, 0 },
					  { 1000000000, 0 } };
	struct stat sb;

	snprintf(s->path, sizeof(s->path), "%s", path);
	ck_assert_msg(utimensat(AT_FDCWD, path, past, 0) == 0, "%s", path);
	ck_assert_msg(stat(path, &sb) == 0, "%s is missing", path);
	s->size = (long long)sb.st_size;
	s->mtime_s = (long long)sb.st_mtim.tv_sec;
	s->mtime_ns = (long long)sb.st_mtim.tv_nsec;
	s->bytes = malloc((size_t)s->size + 1);
	ck_assert(s->bytes != NULL);
	ck_assert(read_bytes(path, s->bytes, (size_t)s->size + 1) ==
		  (size_t)s->size);
}

void file_state_same(struct file_state *s)
{
	struct stat sb;
	char *now;

	ck_assert_msg(stat(s->path, &sb) == 0, "%s is gone", s->path);
	ck_assert_msg((long long)sb.st_size == s->size, "%s: %lld bytes, "
		      "was %lld", s->path, (long long)sb.st_size, s->size);
	ck_assert_msg((long long)sb.st_mtim.tv_sec == s->mtime_s &&
		      (long long)sb.st_mtim.tv_nsec == s->mtime_ns,
		      "%s was modified", s->path);
	now = malloc((size_t)s->size + 1);
	ck_assert(now != NULL);
	ck_assert(read_bytes(s->path, now, (size_t)s->size + 1) ==
		  (size_t)s->size);
	ck_assert_msg(memcmp(now, s->bytes, (size_t)s->size) == 0,
		      "%s was rewritten", s->path);
	free(now);
	free(s->bytes);
	s->bytes = NULL;
}

void empty_file(const char *path)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot make %s", path);
	ck_assert(fclose(f) == 0);
}

void assert_no_side_files(const char *path)
{
	static const char *const tails[] = { "-wal", "-shm", "-journal" };
	char p[256];
	size_t i;

	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, tails[i]);
		ck_assert_msg(access(p, F_OK) != 0, "%s appeared", p);
	}
}

void make_run(struct db_run *r, const char *tool, const char *hw,
	      double start_s)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->tool, sizeof(r->tool), "%s", tool);
	snprintf(r->hw, sizeof(r->hw), "%s", hw);
	snprintf(r->cmdline, sizeof(r->cmdline), "dlsim calibrate run");
	snprintf(r->status, sizeof(r->status), "done");
	r->start_s = start_s;
	r->end_s = start_s + 60.0;
}

/* Sample k of a GEMM sweep: value k + base, unit seconds. */
void make_sample(struct db_sample *s, int k, double base)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->benchmark, sizeof(s->benchmark), "gemm");
	snprintf(s->params, sizeof(s->params),
		 "m=%d n=%d k=%d dtype=fp32 threads=1", 64 * (k + 1),
		 64 * (k + 1), 64 * (k + 1));
	s->rep = k % 5;
	s->value = base + k;
	snprintf(s->unit, sizeof(s->unit), "s");
}

int64_t insert_run(struct db *db, const char *tool, const char *hw,
		   double start_s, int n, double base)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample s[64];
	struct db_run r;
	int k;

	ck_assert(n <= 64);
	make_run(&r, tool, hw, start_s);
	for (k = 0; k < n; k++)
		make_sample(&s[k], k, base);
	ck_assert_msg(db_run_insert(db, &r, s, n, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert(r.id > 0);
	ck_assert_int_eq(r.n_samples, n);
	return r.id;
}

static const char *const env_names[] = { "DLSIM_DB", "XDG_DATA_HOME",
					 "HOME" };

void env_save(struct saved_env *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		const char *v = getenv(env_names[i]);

		s->v[i] = v ? strdup(v) : NULL;
	}
}

void env_restore(struct saved_env *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (s->v[i])
			setenv(env_names[i], s->v[i], 1);
		else
			unsetenv(env_names[i]);
		free(s->v[i]);
	}
}
