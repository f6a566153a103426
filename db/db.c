/*
 * db.c -- the measurement store's handle: where the file lives, opening
 * it for many writers at once, the error and transaction helpers every
 * other db_ file uses, and the whole-file operations (info, vacuum).
 *
 * HOW IT WORKS
 * The file is opened read-write (created if missing), then configured
 * as SQLite documents for concurrent writers: a busy timeout, so a
 * writer that finds the file locked waits (sqlite3_busy_timeout) instead
 * of failing at once; the WAL journal, so readers never block the writer
 * nor the writer the readers; foreign keys on, which SQLite leaves off
 * by default and must be set per connection.  Then the schema is brought
 * up to date (db_schema.c).
 *
 * A command that only reads opens the file read-only instead
 * (db_open_readonly: SQLITE_OPEN_READONLY, the busy timeout and
 * nothing else), so that reading never creates, changes or migrates a
 * file: not the schema, not the journal mode, not a row (a write through
 * it fails with SQLite's "attempt to write a readonly database").  A
 * file without dlsim's tables (user_version 0: an empty file, which
 * SQLite reads as an empty database, or another program's) is read as
 * holding no rows: db_info and every reader of db_runs.c and
 * db_results.c find none (db_no_tables).  A file of an
 * older schema is refused, naming the command that upgrades it: the
 * readers' SQL is this version's, and what an older layout lacks cannot
 * be guessed.
 *
 * INVARIANTS
 * 1. Every write is one BEGIN IMMEDIATE ... COMMIT; any failure inside
 *    rolls back, so a failed call leaves the file as it was.  IMMEDIATE
 *    takes the write lock up front: a transaction that has started
 *    writing can no longer fail for want of the lock (in WAL mode a
 *    deferred one can, with SQLITE_BUSY_SNAPSHOT, after its first read).
 * 2. Values reach SQL only as bound parameters; SQL text is constant
 *    (the one exception, the schema version in a PRAGMA, is a number
 *    from the compiled-in migration table).
 * 3. Every failure is DLSIM_EDB with "PATH: what: SQLite's message".
 * 4. Nothing is global: all state is in struct db, one per connection.
 *
 * LIMITATIONS
 * WAL needs shared memory between the processes on one machine: a file
 * on a network file system may be corrupted by writers on two machines
 * (SQLite's "WAL does not work over a network filesystem").  Where WAL
 * cannot be had (a read-only directory) the file is used with its
 * rollback journal, still safely, with readers and the writer excluding
 * each other.  A read-only connection to a WAL file still needs its
 * -wal and -shm files, and creates them beside it when they are missing
 * (an empty -wal, a -shm index; the file itself is untouched); as it
 * may not checkpoint, it leaves them there for the next writer to
 * remove.
 */
#include "db/db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Errors, statements, transactions                                  */
/* ---------------------------------------------------------------- */

int db_fail(struct db *db, const char *what, struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_EDB, "%s: %s: %s", db->path, what,
			     db->h ? sqlite3_errmsg(db->h) : "out of memory");
}

int db_prepare(struct db *db, const char *sql, sqlite3_stmt **st,
	       const char *what, struct dlsim_err *err)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return db_fail(db, what, err);
	}
	return DLSIM_OK;
}

int db_exec(struct db *db, const char *sql, const char *what,
	    struct dlsim_err *err)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, what, err);
	return DLSIM_OK;
}

int db_begin(struct db *db, const char *what, struct dlsim_err *err)
{
	return db_exec(db, "BEGIN IMMEDIATE", what, err);
}

int db_commit(struct db *db, const char *what, struct dlsim_err *err)
{
	if (sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int rc = db_fail(db, what, err);

		db_rollback(db);
		return rc;
	}
	return DLSIM_OK;
}

void db_rollback(struct db *db)
{
	/* After some errors (SQLITE_FULL, SQLITE_IOERR, ...) SQLite has
	 * rolled back already; autocommit mode then says so. */
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

void db_column_field(sqlite3_stmt *st, int i, char *dst, size_t n)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	core_strlcpy(dst, t ? (const char *)t : "", n);
}

/* ---------------------------------------------------------------- */
/* Where the file lives                                              */
/* ---------------------------------------------------------------- */

/* mkdir -p dir, each new directory 0700; dir is changed and restored. */
static int mkdir_p(char *dir, struct dlsim_err *err)
{
	char *p;

	for (p = dir + 1; ; p++) {
		char c = *p;
		struct stat sb;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			int e = errno;

			dlsim_err_set(err, DLSIM_EIO, "%s: cannot create the "
				      "database directory: %s", dir,
				      strerror(e));
			*p = c;
			return DLSIM_EIO;
		}
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			dlsim_err_set(err, DLSIM_EIO, "%s: not a directory",
				      dir);
			*p = c;
			return DLSIM_EIO;
		}
		*p = c;
		if (c == '\0')
			return DLSIM_OK;
	}
}

static int set_path(char *buf, size_t n, const char *path,
		    struct dlsim_err *err)
{
	if (core_strlcpy(buf, path, n)) {
		buf[0] = '\0';
		return dlsim_err_set(err, DLSIM_EIO, "database path too long "
				     "(%zu bytes, at most %zu)", strlen(path),
				     n ? n - 1 : 0);
	}
	return DLSIM_OK;
}

int db_resolve_path(const char *given, char *buf, size_t n,
		    struct dlsim_err *err)
{
	const char *env = getenv("DLSIM_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	char dir[DB_PATH_LEN];
	int len;

	if (n)
		buf[0] = '\0';
	if (given && given[0])
		return set_path(buf, n, given, err);
	if (env && env[0])
		return set_path(buf, n, env, err);
	/* The XDG Base Directory spec: a relative $XDG_DATA_HOME is
	 * invalid and is ignored. */
	if (xdg && xdg[0] == '/')
		len = snprintf(dir, sizeof(dir), "%s/dlsim", xdg);
	else if (home && home[0] == '/')
		len = snprintf(dir, sizeof(dir), "%s/.local/share/dlsim",
			       home);
	else
		return dlsim_err_set(err, DLSIM_EIO, "no database path: give "
				     "--db PATH or set DLSIM_DB (HOME is not "
				     "set)");
	if (len < 0 || (size_t)len + sizeof("/dlsim.db") > sizeof(dir))
		return dlsim_err_set(err, DLSIM_EIO, "database path too "
				     "long");
	if (mkdir_p(dir, err))
		return DLSIM_EIO;
	memcpy(dir + len, "/dlsim.db", sizeof("/dlsim.db"));
	return set_path(buf, n, dir, err);
}

/* ---------------------------------------------------------------- */
/* Opening and closing                                               */
/* ---------------------------------------------------------------- */

/*
 * Switch the file to WAL.  The switch needs the file to itself, and
 * SQLite answers SQLITE_BUSY at once, without the busy handler, when two
 * connections that both read the file both ask (waiting could deadlock):
 * that is two processes opening one new file.  So wait here, as the busy
 * handler would, up to the same timeout.  The mode persists in the file,
 * so once one process has switched, the others' requests are no-ops.  If
 * WAL cannot be had at all the file keeps its rollback journal, which is
 * slower, not less safe.
 */
static int use_wal(struct db *db, struct dlsim_err *err)
{
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	int rc, waited_ms = 0;

	for (;;) {
		rc = sqlite3_exec(db->h, "PRAGMA journal_mode = WAL", NULL,
				  NULL, NULL) & 0xff;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    waited_ms >= DB_BUSY_TIMEOUT_MS)
			break;
		nanosleep(&pause, NULL);
		waited_ms += 10;
	}
	return rc == SQLITE_OK ? DLSIM_OK : db_fail(db, "opening", err);
}

/*
 * The per-connection settings.  The schema version is read before the
 * journal mode is set, because setting it writes the file's header: a
 * file from a newer dlsim (known: the last version this build knows)
 * is refused before anything touches it.
 */
static int configure(struct db *db, int known, struct dlsim_err *err)
{
	int rc;

	if (sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS) != SQLITE_OK)
		return db_fail(db, "setting the busy timeout", err);
	if ((rc = db_exec(db, "PRAGMA foreign_keys = ON", "enabling "
			  "foreign keys", err)) ||
	    (rc = db_schema_check(db, known, NULL, err)))
		return rc;
	return use_wal(db, err);
}

/* A file of an older schema, opened to read: this build's SQL may name
 * what it lacks, and upgrading it is a write. */
static int refuse_older(struct db *db, int found, int known,
			struct dlsim_err *err)
{
	return dlsim_err_set(err, DLSIM_EDB, "%s: schema version %d, older "
			     "than this dlsim's %d, and reading does not "
			     "upgrade it ('dlsim db vacuum --db %s' does)",
			     db->path, found, known, db->path);
}

/* Read-only: the busy timeout (a reader waits out a writer's lock in
 * rollback-journal mode) and the version; nothing that writes. */
static int configure_readonly(struct db *db, int known,
			      struct dlsim_err *err)
{
	int rc, v;

	if (sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS) != SQLITE_OK)
		return db_fail(db, "setting the busy timeout", err);
	if ((rc = db_schema_check(db, known, &v, err)))
		return rc;
	if (v != 0 && v < known)
		return refuse_older(db, v, known, err);
	db->version = v;
	return DLSIM_OK;
}

int db_open_schema(const char *path, int readonly,
		   const struct db_migration *m, int n, struct db **out,
		   struct dlsim_err *err)
{
	struct db *db;
	int rc;

	*out = NULL;
	if (!path || !path[0])
		return dlsim_err_set(err, DLSIM_EDB, "no database path");
	db = calloc(1, sizeof(*db));
	if (!db)
		return dlsim_err_set(err, DLSIM_ENOMEM, "%s: out of memory",
				     path);
	if (core_strlcpy(db->path, path, sizeof(db->path))) {
		free(db);
		return dlsim_err_set(err, DLSIM_EDB, "database path too "
				     "long (%zu bytes)", strlen(path));
	}
	db->readonly = readonly;
	/* sqlite3_open_v2 returns a handle even when it fails, so that
	 * its message can be read; it must still be closed. */
	if (sqlite3_open_v2(path, &db->h, readonly ? SQLITE_OPEN_READONLY :
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		rc = db_fail(db, "opening", err);
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	if (readonly)
		rc = configure_readonly(db, n, err);
	else if (!(rc = configure(db, n, err)))
		rc = db_migrate(db, m, n, err);
	if (rc)
		goto fail;
	*out = db;
	return DLSIM_OK;
fail:
	db_close(db);
	return rc;
}

int db_open(const char *path, struct db **out, struct dlsim_err *err)
{
	int n;
	const struct db_migration *m = db_schema_migrations(&n);

	return db_open_schema(path, 0, m, n, out, err);
}

int db_open_readonly(const char *path, struct db **out,
		     struct dlsim_err *err)
{
	int n;
	const struct db_migration *m = db_schema_migrations(&n);

	return db_open_schema(path, 1, m, n, out, err);
}

void db_close(struct db *db)
{
	if (!db)
		return;
	/* sqlite3_close_v2 defers the close until every statement is
	 * finalized; none should be left, and a forgotten one must not
	 * leak the handle. */
	sqlite3_close_v2(db->h);
	free(db);
}

int db_schema_version(struct db *db)
{
	return db ? db->version : 0;
}

const char *db_path(const struct db *db)
{
	return db ? db->path : "";
}

/* ---------------------------------------------------------------- */
/* Whole-file operations                                             */
/* ---------------------------------------------------------------- */

int db_info(struct db *db, struct db_info *out, struct dlsim_err *err)
{
	static const char sql[] =
		"SELECT (SELECT count(*) FROM hosts),"
		" (SELECT count(*) FROM runs),"
		" (SELECT count(*) FROM samples),"
		" (SELECT count(*) FROM fits),"
		" (SELECT count(*) FROM predictions),"
		" (SELECT count(*) FROM measurements),"
		" (SELECT page_count * page_size FROM pragma_page_count(),"
		"  pragma_page_size())";
	/* no dlsim tables: the size alone, the counts 0 */
	static const char size_only[] =
		"SELECT 0, 0, 0, 0, 0, 0, page_count * page_size"
		" FROM pragma_page_count(), pragma_page_size()";
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = db_prepare(db, db_no_tables(db) ? size_only : sql, &st,
			     "counting rows", err)))
		return rc;
	if (sqlite3_step(st) != SQLITE_ROW) {
		rc = db_fail(db, "counting rows", err);
		sqlite3_finalize(st);
		return rc;
	}
	core_strlcpy(out->path, db->path, sizeof(out->path));
	out->schema_version = db->version;
	out->hosts = sqlite3_column_int64(st, 0);
	out->runs = sqlite3_column_int64(st, 1);
	out->samples = sqlite3_column_int64(st, 2);
	out->fits = sqlite3_column_int64(st, 3);
	out->predictions = sqlite3_column_int64(st, 4);
	out->measurements = sqlite3_column_int64(st, 5);
	out->file_bytes = sqlite3_column_double(st, 6);
	sqlite3_finalize(st);
	return DLSIM_OK;
}

int db_vacuum(struct db *db, struct dlsim_err *err)
{
	int rc;

	/* VACUUM rewrites the file through the WAL; the checkpoint then
	 * copies it back and truncates the WAL, so the file shrinks now. */
	if ((rc = db_exec(db, "VACUUM", "vacuum", err)))
		return rc;
	return db_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", "vacuum",
		       err);
}
