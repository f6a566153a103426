/*
 * bench_predict.c -- predictions per second from an in-process loop: the
 * model and system are resolved once, then sim_predict() runs over and
 * over, as a strategy search would call it.  Prints one line.
 *
 *   build/bench_predict [MODEL] [HW] [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dlsim.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *model = argc > 1 ? argv[1] : "resnet50";
	const char *hw = argc > 2 ? argv[2] : "v100x64";
	double seconds = argc > 3 ? strtod(argv[3], NULL) : 2.0;
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct model *m = NULL;
	struct hw_system sys;
	struct sim_options o;
	struct sim_result r;
	double t0, t, sink = 0.0;
	long n = 0;

	if (hw_catalog_load(NULL, &cat, &err) ||
	    model_resolve(model, &m, &err) ||
	    hw_system_resolve(cat, hw, &sys, &err)) {
		fprintf(stderr, "bench_predict: %s\n", err.msg);
		return 1;
	}
	sim_options_init(&o);
	t0 = now();
	do {
		int i;

		for (i = 0; i < 100; i++, n++) {
			o.batch_per_device = 32 + (n & 63);
			if (sim_predict(m, &sys, &o, &r, &err)) {
				fprintf(stderr, "bench_predict: %s\n", err.msg);
				return 1;
			}
			sink += r.step_time_s;
		}
		t = now() - t0;
	} while (t < seconds);
	printf("in-process: %ld predictions of %s on %s in %.2f s: "
	       "%.0f predictions/s (%.1f us each; checksum %.3g)\n", n, model,
	       hw, t, (double)n / t, 1e6 * t / (double)n, sink);
	model_free(m);
	hw_catalog_free(cat);
	return 0;
}
