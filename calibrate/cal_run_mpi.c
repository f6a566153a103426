/*
 * cal_run_mpi.c -- the MPI side of `dlsim calibrate run`: launching
 * `mpirun ... dlsim-mpibench` (tools/mpibench.c) with its output on a
 * pipe, and reading the lines it prints.
 *
 * HOW IT WORKS: fork, then in the child stdout and stderr go to the pipe
 * and execvp runs argv; the parent reads line by line and hands each to
 * the caller, which stops the program (SIGTERM) by returning non-zero.
 * OpenMPI refuses to run as root unless OMPI_ALLOW_RUN_AS_ROOT=1 and
 * OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set: the child sets them only
 * when the effective user is root, and never in dlsim's own environment.
 *
 * LIMITATIONS: lines longer than 1 KiB are cut (a sample line is far
 * shorter); the program's exit status is all that says it failed, with
 * its last line that was not a sample as the reason.
 */
#include "calibrate/cal_run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "core/banned.h"

#define LINE_MAX_BYTES 1024

/* ---------------------------------------------------------------- */
/* Finding and running the program                                   */
/* ---------------------------------------------------------------- */

int cal_mpi_find_program(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH"), *p;

	buf[0] = '\0';
	if (!name || !name[0])
		return 0;
	if (strchr(name, '/')) {
		if (access(name, X_OK) != 0)
			return 0;
		return !core_strlcpy(buf, name, n);
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; ) {
		size_t len = strcspn(p, ":");

		if (len > 0 && (size_t)snprintf(buf, n, "%.*s/%s", (int)len,
						p, name) < n &&
		    access(buf, X_OK) == 0)
			return 1;
		p += len;
		if (*p == ':')
			p++;
	}
	buf[0] = '\0';
	return 0;
}

static void child(int fd, char *const argv[])
{
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	if (geteuid() == 0) {
		setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
		setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int cal_mpi_spawn(void *ctx, char *const argv[],
		  int (*line)(void *lctx, const char *text), void *lctx,
		  struct dlsim_err *err)
{
	char buf[LINE_MAX_BYTES], last[160] = "";
	int fds[2], st = 0, stopped = 0, is_sample;
	struct db_sample s;
	pid_t pid;
	FILE *f;

	(void)ctx;
	if (pipe(fds) != 0)
		return dlsim_err_set(err, DLSIM_EIO, "%s: cannot make a pipe: "
				     "%s", argv[0], strerror(errno));
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return dlsim_err_set(err, DLSIM_EIO, "%s: cannot fork: %s",
				     argv[0], strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], argv);
	}
	close(fds[1]);
	if (!(f = fdopen(fds[0], "r"))) {
		close(fds[0]);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		return dlsim_err_set(err, DLSIM_ENOMEM, "%s: fdopen failed",
				     argv[0]);
	}
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\r\n")] = '\0';
		if (stopped)
			continue;
		if (cal_mpi_parse_line(buf, &s, &is_sample, NULL) == DLSIM_OK &&
		    !is_sample && buf[0])
			core_strlcpy(last, buf, sizeof(last));
		if (line(lctx, buf)) {
			stopped = 1;
			kill(pid, SIGTERM);
		}
	}
	fclose(f);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (stopped)
		return DLSIM_OK;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return dlsim_err_set(err, DLSIM_EIO, "%s exited with status "
				     "%d%s%s", argv[0],
				     WIFEXITED(st) ? WEXITSTATUS(st) :
				     128 + WTERMSIG(st), last[0] ? ": " : "",
				     last);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Reading a line                                                    */
/* ---------------------------------------------------------------- */

int cal_mpi_parse_line(const char *text, struct db_sample *s,
		       int *is_sample, struct dlsim_err *err)
{
	char bench[32], unit[8], rest[LINE_MAX_BYTES];
	long long rep;
	double value;
	int used = 0;

	*is_sample = 0;
	memset(s, 0, sizeof(*s));
	if (strncmp(text, "sample ", 7) != 0)
		return DLSIM_OK;
	if (sscanf(text + 7, "%31s %lld %lf %7s %n", bench, &rep, &value,
		   unit, &used) != 4 || used == 0)
		return dlsim_err_set(err, DLSIM_EPARSE, "dlsim-mpibench: "
				     "damaged line '%.120s'", text);
	core_strlcpy(rest, text + 7 + used, sizeof(rest));
	rest[strcspn(rest, "\r\n")] = '\0';
	if (!isfinite(value) || value <= 0 || rep < -1 || !rest[0] ||
	    strlen(rest) >= sizeof(s->params) || (strcmp(unit, "s") != 0 &&
						 strcmp(unit, "B/s") != 0))
		return dlsim_err_set(err, DLSIM_EPARSE, "dlsim-mpibench: "
				     "damaged line '%.120s'", text);
	core_strlcpy(s->benchmark, bench, sizeof(s->benchmark));
	core_strlcpy(s->params, rest, sizeof(s->params));
	core_strlcpy(s->unit, unit, sizeof(s->unit));
	s->rep = rep;
	s->value = value;
	*is_sample = 1;
	return DLSIM_OK;
}
