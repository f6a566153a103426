/*
 * db.h -- the measurement store as the rest of db/ sees it: the handle,
 * the error and transaction helpers every write goes through (db.c), and
 * the schema's migration table (db_schema.c).  Only dlsim.h is API; the
 * tests reach the migration mechanism through here.
 */
#ifndef DLSIM_DB_DB_H
#define DLSIM_DB_DB_H

#include <string.h>

#include <sqlite3.h>

#include "dlsim.h"

/* The handle behind the opaque struct db of dlsim.h. */
struct db {
	sqlite3 *h;
	char path[DB_PATH_LEN];
	int version;            /* user_version after opening */
	int readonly;           /* db_open_readonly: never writes */
};

/* A read-only handle on a file without dlsim's tables (user_version 0:
 * an empty file, or another program's database): every reader finds no
 * rows, without asking SQLite for tables that are not there. */
static inline int db_no_tables(const struct db *db)
{
	return db->readonly && db->version == 0;
}

/* ---- Errors ---- */

/* Set DLSIM_EDB "PATH: what: SQLite's message" and return DLSIM_EDB. */
int db_fail(struct db *db, const char *what, struct dlsim_err *err);

/* ---- Statements and transactions ---- */

/* Prepare sql (one statement, no values in its text); DLSIM_EDB naming
 * what on failure, *st then NULL. */
int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st,
	       const char *what, struct dlsim_err *err);

/* Run SQL text that takes no parameters (schema, PRAGMA, BEGIN). */
int db_exec(struct db *db, const char *sql, const char *what,
	    struct dlsim_err *err);

/* BEGIN IMMEDIATE: take the write lock now, waiting up to the busy
 * timeout, so that a transaction never fails half-way on a lock. */
int db_begin(struct db *db, const char *what, struct dlsim_err *err);

/* COMMIT; on failure roll back and return DLSIM_EDB. */
int db_commit(struct db *db, const char *what, struct dlsim_err *err);

/* ROLLBACK if a transaction is open (never fails: SQLite rolls back by
 * itself when it cannot). */
void db_rollback(struct db *db);

/* Bind a char array field: its text up to the first NUL or the end of
 * the array, whichever comes first (SQLITE_STATIC: the field outlives
 * the statement's step). */
#define db_bind_field(st, i, field) \
	sqlite3_bind_text((st), (i), (field), \
			  (int)strnlen((field), sizeof(field)), SQLITE_STATIC)

/* Copy column i of the current row into a char array field. */
void db_column_field(sqlite3_stmt *st, int i, char *dst, size_t n);

/* ---- Schema (db_schema.c) ---- */

/*
 * One step of the schema: the SQL that takes a file from version - 1 to
 * version.  A new version is one more entry at the end of the table in
 * db_schema.c, and DB_SCHEMA_VERSION in dlsim.h moves to it; entries
 * already released never change.
 */
struct db_migration {
	int version;
	const char *what;       /* for messages: "hosts, runs, samples..." */
	const char *sql;        /* statements; no values, no transaction */
};

/* The table of this build: versions 1..*n in order. */
const struct db_migration *db_schema_migrations(int *n);

/*
 * Bring the open file up to the last version of m[0..n-1] (versions 1..n
 * in order; anything else is an internal DLSIM_EINVAL): each pending
 * step in its own BEGIN IMMEDIATE transaction that re-reads user_version
 * first, so that two processes opening one new file migrate it once.  A
 * file newer than m[n-1] is refused with "created by a newer dlsim".  On
 * failure the step that failed leaves nothing behind and earlier steps
 * stay committed.  Sets db->version.
 */
int db_migrate(struct db *db, const struct db_migration *m, int n,
	       struct dlsim_err *err);

/*
 * db_open (readonly 0) and db_open_readonly (1) with the migration table
 * m[0..n-1] in place of this build's, so that the tests can open a file
 * as a later build would.  Read-only: a file at version 0 opens with no
 * tables (db_no_tables), one at a version from 1 to n - 1 is refused as
 * older ("reading does not upgrade it"), one above n as newer.
 */
int db_open_schema(const char *path, int readonly,
		   const struct db_migration *m, int n, struct db **out,
		   struct dlsim_err *err);

/* PRAGMA user_version (negative only in a file changed outside dlsim),
 * or INT_MIN if it cannot be read. */
int db_user_version(struct db *db);

/* Read the file's version into *version (may be NULL): DLSIM_EDB if it
 * cannot be read (not a database) or is above known ("created by a
 * newer dlsim"). */
int db_schema_check(struct db *db, int known, int *version,
		    struct dlsim_err *err);

#endif /* DLSIM_DB_DB_H */
