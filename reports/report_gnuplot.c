/*
 * report_gnuplot.c -- plots by gnuplot, run as a program.
 *
 * Every plot is three files side by side: IMAGE (.png or .svg), its data
 * (.dat) and its script (.gp), so a user can restyle the script and run
 * `gnuplot NAME.gp` again.  The data and script are written first; if
 * gnuplot is not installed the caller is told so and still has both.
 * gnuplot runs with no shell in between (posix_spawnp), with its output
 * discarded, and its exit status is checked.
 */
#define _GNU_SOURCE  /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "core/banned.h"

extern char **environ;

void report_gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else
			fputc(c < 0x20 ? ' ' : c, f);
	}
	fputc('"', f);
}

const char *report_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* PATH without its extension into buf, plus ext. */
static int sibling(const char *image, const char *ext, char *buf, size_t n)
{
	const char *dot = strrchr(image, '.');
	const char *slash = strrchr(image, '/');
	size_t stem = dot && (!slash || dot > slash) ?
		      (size_t)(dot - image) : strlen(image);
	int w = snprintf(buf, n, "%.*s%s", (int)stem, image, ext);

	return w < 0 || (size_t)w >= n;
}

int report_plot_terminal(const char *image, const char **terminal,
			 struct dlsim_err *err)
{
	size_t n = strlen(image);

	if (n > 4 && strcmp(image + n - 4, ".png") == 0)
		*terminal = "pngcairo size 1200,800 font ',11'";
	else if (n > 4 && strcmp(image + n - 4, ".svg") == 0)
		*terminal = "svg size 1200,800 dynamic font 'sans,11'";
	else
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "plot file '%s' must end in .png or .svg",
				     image);
	return DLSIM_OK;
}

int report_plot_check(const char *image, struct dlsim_err *err)
{
	const char *terminal;

	return report_plot_terminal(image, &terminal, err);
}

static int write_file(const char *path, const char *text,
		      struct dlsim_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return dlsim_err_set(err, DLSIM_EIO, "%s: %s", path,
				     strerror(errno));
	fputs(text, f);
	if (ferror(f) | fclose(f))
		return dlsim_err_set(err, DLSIM_EIO, "%s: write error", path);
	return DLSIM_OK;
}

static int waitpid_failed(int status)
{
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* Run gnuplot SCRIPT; 1 ran and succeeded, 0 not installed. */
static int run_gnuplot(const char *script, const char *image,
		       struct dlsim_err *err)
{
	char *argv[] = { "gnuplot", (char *)report_basename(script), NULL };
	char dir[1024];
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status;

	/* scripts name their files relative to their own directory, so
	 * `cd DIR && gnuplot NAME.gp` redraws them from anywhere */
	snprintf(dir, sizeof(dir), "%.*s",
		 (int)(report_basename(script) - script), script);
	posix_spawn_file_actions_init(&fa);
	if (dir[0])
		posix_spawn_file_actions_addchdir_np(&fa, dir);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT)
		return 0;
	if (rc != 0) {
		dlsim_err_set(err, DLSIM_EIO, "cannot run gnuplot: %s",
			      strerror(rc));
		return -1;
	}
	if (waitpid(pid, &status, 0) < 0)
		status = -1;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 0;   /* exec failed in the child (some spawn paths,
			       e.g. under valgrind, report it so) */
	if (status == -1 || waitpid_failed(status)) {
		dlsim_err_set(err, DLSIM_EIO, "gnuplot failed on %s (making "
			      "%s)", script, image);
		return -1;
	}
	return 1;
}

int report_gnuplot(const char *image, const char *data, const char *script,
		   int *ran, struct dlsim_err *err)
{
	char dat[1024], gp[1024];
	int rc;

	*ran = 0;
	if (sibling(image, ".dat", dat, sizeof(dat)) ||
	    sibling(image, ".gp", gp, sizeof(gp)))
		return dlsim_err_set(err, DLSIM_EINVAL, "plot path too long");
	if ((rc = write_file(dat, data, err)) ||
	    (rc = write_file(gp, script, err)))
		return rc;
	rc = run_gnuplot(gp, image, err);
	if (rc < 0)
		return DLSIM_EIO;
	*ran = rc;
	return DLSIM_OK;
}

int report_plot_paths(const char *image, char *dat, char *gp, size_t n,
		      struct dlsim_err *err)
{
	if (sibling(image, ".dat", dat, n) || sibling(image, ".gp", gp, n))
		return dlsim_err_set(err, DLSIM_EINVAL, "plot path too long");
	return DLSIM_OK;
}

/* One text of a figure into a new heap string (*out, freed by the
 * caller; NULL on failure). */
static int render(char **out, const char *image, const char *terminal,
		  const struct report_plot *p, const struct report_figure *fig,
		  int script, struct dlsim_err *err)
{
	size_t len = 0;
	FILE *f = open_memstream(out, &len);

	*out = NULL;
	if (!f)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (script)
		fig->script(f, image, terminal, p, fig->ctx);
	else
		fig->data(f, fig->ctx);
	if (ferror(f) | fclose(f)) {
		free(*out);
		*out = NULL;
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	return DLSIM_OK;
}

int report_draw(const char *image, const struct report_figure *fig,
		struct report_plot *out, struct dlsim_err *err)
{
	const char *terminal;
	char *data = NULL, *script = NULL;
	int rc;

	if ((rc = report_plot_terminal(image, &terminal, err)) ||
	    (rc = report_plot_paths(image, out->dat, out->gp,
				    sizeof(out->dat), err)))
		return rc;
	if (!(rc = render(&data, image, terminal, out, fig, 0, err)) &&
	    !(rc = render(&script, image, terminal, out, fig, 1, err)))
		rc = report_gnuplot(image, data, script, &out->drawn, err);
	free(data);
	free(script);
	return rc;
}
