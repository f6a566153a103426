/*
 * cal_run_host.c -- the host a `dlsim calibrate run` measured, stored
 * with its run: name, CPU model (/proc/cpuinfo's first "model name"),
 * cores (from the runner's ops, so tests can fake them), physical
 * memory, kernel (uname) and the BLAS build.  A figure the system does
 * not give is left empty or 0, never guessed.
 */
#include "calibrate/cal_run.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/core.h"
#include "core/banned.h"

static void host_cpu(char *buf, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		core_strlcpy(buf, colon, n);
		break;
	}
	if (f)
		fclose(f);
}

void cal_run_host(const struct cal_run_ops *ops, const char *hw,
		  struct db_host *h)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (gethostname(h->name, sizeof(h->name)) != 0 || !h->name[0])
		core_strlcpy(h->name, "localhost", sizeof(h->name));
	h->name[sizeof(h->name) - 1] = '\0';
	core_strlcpy(h->hw, hw, sizeof(h->hw));
	host_cpu(h->cpu, sizeof(h->cpu));
	h->cores = ops->cores(ops->ctx);
	h->mem_bytes = pages > 0 && psize > 0 ? (double)pages *
		       (double)psize : 0;
	if (uname(&u) == 0) {
		snprintf(h->kernel, sizeof(h->kernel), "%.40s %.60s %.20s",
			 u.sysname, u.release, u.machine);
		if (!h->cpu[0])
			core_strlcpy(h->cpu, u.machine, sizeof(h->cpu));
	}
	snprintf(h->libs, sizeof(h->libs), "%.250s",
		 ops->blas_config(ops->ctx));
}
