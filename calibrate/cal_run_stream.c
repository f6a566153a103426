/*
 * cal_run_stream.c -- the memory-bandwidth kernels of `dlsim calibrate
 * run`: McCalpin's STREAM copy, scale, add and triad (stream.c 5.10) as
 * plain C loops over doubles, ONE thread (no OpenMP: the samples say
 * threads=1), and the size of the last-level cache the sweep is sized
 * by.
 *
 * The cache is read from sysconf(_SC_LEVEL3_CACHE_SIZE) (glibc reads
 * CPUID), else from the highest index of
 * /sys/devices/system/cpu/cpu0/cache/ that is a data or unified cache;
 * the source is reported with the size.
 *
 * LIMITATIONS: one thread cannot saturate a socket's memory system; the
 * figures are a single core's bandwidth.  On a shared (virtual) machine
 * the L3 reported may be the whole socket's.
 */
#include "calibrate/cal_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "core/banned.h"

#define SCALAR 3.0              /* stream.c's */

static const struct {
	const char *name;
	int arrays;
} kernels[CAL_STREAM_KERNELS] = {
	{ "copy", 2 }, { "scale", 2 }, { "add", 3 }, { "triad", 3 },
};

const char *cal_stream_kernel_name(enum cal_stream_kernel kernel)
{
	return (int)kernel >= 0 && kernel < CAL_STREAM_KERNELS ?
	       kernels[kernel].name : NULL;
}

int cal_stream_kernel_arrays(enum cal_stream_kernel kernel)
{
	return (int)kernel >= 0 && kernel < CAL_STREAM_KERNELS ?
	       kernels[kernel].arrays : 0;
}

void cal_stream_kernel(void *ctx, enum cal_stream_kernel kernel, int64_t n,
		       double *a, double *b, double *c)
{
	int64_t j;

	(void)ctx;
	switch (kernel) {
	case CAL_STREAM_COPY:
		for (j = 0; j < n; j++)
			c[j] = a[j];
		break;
	case CAL_STREAM_SCALE:
		for (j = 0; j < n; j++)
			b[j] = SCALAR * c[j];
		break;
	case CAL_STREAM_ADD:
		for (j = 0; j < n; j++)
			c[j] = a[j] + b[j];
		break;
	case CAL_STREAM_TRIAD:
		for (j = 0; j < n; j++)
			a[j] = b[j] + SCALAR * c[j];
		break;
	default:
		break;
	}
}

/* "32K", "1024K", "8M" as /sys writes a cache size; 0 if not one. */
static int64_t sys_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || v <= 0)
		return 0;
	if (*end == 'K')
		return (int64_t)v << 10;
	if (*end == 'M')
		return (int64_t)v << 20;
	if (*end == 'G')
		return (int64_t)v << 30;
	return (int64_t)v;
}

static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

int64_t cal_stream_llc_bytes(void *ctx, char *src, size_t n)
{
	char path[128], text[64];
	int64_t best = 0;
	int i;

	(void)ctx;
#ifdef _SC_LEVEL3_CACHE_SIZE
	{
		long v = sysconf(_SC_LEVEL3_CACHE_SIZE);

		if (v > 0) {
			core_strlcpy(src, "sysconf(_SC_LEVEL3_CACHE_SIZE)",
				     n);
			return (int64_t)v;
		}
	}
#endif
	core_strlcpy(src, "unknown", n);
	for (i = 0; i < 8; i++) {
		int64_t v;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/"
			 "cache/index%d/type", i);
		read_line(path, text, sizeof(text));
		if (!text[0])
			break;
		if (strcmp(text, "Instruction") == 0)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/"
			 "cache/index%d/size", i);
		read_line(path, text, sizeof(text));
		if ((v = sys_size(text)) > 0) {
			best = v;
			core_strlcpy(src, path, n);
		}
	}
	return best;
}
