/*
 * db_util.h -- helpers of the database test suites (db_util.c).
 */
#ifndef DLSIM_TESTS_DB_UTIL_H
#define DLSIM_TESTS_DB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "dlsim.h"

/* A test's own directory and the database path in it. */
struct tmp {
	char dir[64];
	char path[128];         /* dir/test.db */
};

void tmp_make(struct tmp *t);
void tmp_remove(struct tmp *t);        /* the directory and all in it */
void dir_remove(const char *dir);      /* dir and all in it (a database
					  with its -wal and -shm files) */
struct db *open_ok(const char *path);  /* db_open, asserted */

/* One integer from a query with no parameters (test-only SQL). */
int64_t scalar(struct db *db, const char *sql);

/* A raw connection for hand-made files, without dlsim's schema. */
void raw_exec(const char *path, const char *sql);
int64_t raw_scalar(const char *path, const char *sql);
/* The bytes of a vacuumed, checkpointed dlsim database whose tables
 * each fit their rows in one page: 14 pages (asserted to be of at least
 * 4096 bytes, the default). */
double small_db_bytes(const char *path);
/* The text of the first column of the first row ("" for none or NULL)
 * into buf; asserted to fit in n bytes. */
void raw_text(const char *path, const char *sql, char *buf, size_t n);

/* The whole file into buf (at most n bytes); returns the size. */
size_t read_bytes(const char *path, char *buf, size_t n);

/* A file as it was, to say afterwards that nothing wrote it: its size,
 * its bytes and its modification time, which file_state_take first sets
 * back to 2001 so that a write within the same second still shows. */
struct file_state {
	char path[192];
	long long size;
	long long mtime_s, mtime_ns;
	char *bytes;            /* malloc'd; freed by file_state_same */
};
void file_state_take(struct file_state *s, const char *path);
/* Asserts the file is as taken, byte for byte, and frees s->bytes. */
void file_state_same(struct file_state *s);
/* Make path an empty (0-byte) file, which SQLite reads as an empty
 * database. */
void empty_file(const char *path);
/* Asserts no -wal, -shm or -journal file lies beside path. */
void assert_no_side_files(const char *path);

/* A finished calibrate run of tool on hw started at start_s. */
void make_run(struct db_run *r, const char *tool, const char *hw,
	      double start_s);
/* Sample k of a GEMM sweep: value k + base, unit seconds. */
void make_sample(struct db_sample *s, int k, double base);
/* Such a run with its n samples (n <= 64) stored; its id. */
int64_t insert_run(struct db *db, const char *tool, const char *hw,
		   double start_s, int n, double base);

/* DLSIM_DB, XDG_DATA_HOME and HOME, saved and put back (freed). */
struct saved_env {
	char *v[3];
};
void env_save(struct saved_env *s);
void env_restore(struct saved_env *s);

#endif /* DLSIM_TESTS_DB_UTIL_H */
