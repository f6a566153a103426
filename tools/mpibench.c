/*
 * mpibench.c -- dlsim-mpibench, the MPI half of `dlsim calibrate run`:
 * point-to-point latency and bandwidth and MPI_Allreduce between two
 * ranks, in the manner of the OSU micro-benchmarks (osu_latency, osu_bw,
 * osu_allreduce), printing one line per repetition for dlsim to read.
 *
 *   mpirun -np 2 dlsim-mpibench [--only p2p,allreduce] [--max-bytes N]
 *          [--reps R] [--iters-bytes B] [--max-iters I]
 *
 * Sizes are 8, 16, ... up to N bytes (default 64 MiB).  A repetition of
 * one size is a timed loop of iters = B / size iterations, at least 2
 * and at most I (defaults 64 MiB and 1000), after one untimed loop of
 * the same length as warm-up; R repetitions (default 5, at most 16).
 *
 *   p2p_latency  half the round trip of a blocking send/recv ping-pong,
 *                s (osu_latency)
 *   p2p_bw       rank 0 posts a window of 64 non-blocking sends (16 from
 *                1 MiB), rank 1 receives them and answers 4 bytes; the
 *                bytes of the window over its time, B/s (osu_bw)
 *   allreduce    MPI_Allreduce of size / 4 floats with MPI_SUM, the
 *                slowest rank's mean time per call, s (osu_allreduce)
 *
 * Output, on stdout of rank 0, flushed per line:
 *
 *   sample BENCHMARK REP VALUE UNIT PARAMS
 *
 * with PARAMS in the OSU importer's convention (calibrate/cal_osu.c):
 * "bytes=N ranks=2 dtype=int8" for p2p (MPI_CHAR), "bytes=N ranks=2
 * op=sum inplace=0 dtype=fp32" for allreduce.  Errors go to stderr and
 * exit non-zero.
 *
 * LIMITATIONS: exactly two ranks; the window sends share one buffer, as
 * osu_bw's do.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPS 16
#define WINDOW 64

struct args {
	int p2p, allreduce;
	long long max_bytes, iters_bytes, max_iters;
	int reps;
};

static int parse_count(const char *s, long long *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s || *end || v <= 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	long long v;
	int i;

	a->p2p = a->allreduce = 1;
	a->max_bytes = (long long)64 << 20;
	a->iters_bytes = (long long)64 << 20;
	a->max_iters = 1000;
	a->reps = 5;
	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] :
						NULL;

		if (!val)
			return -1;
		i++;
		if (strcmp(o, "--only") == 0) {
			a->p2p = strstr(val, "p2p") != NULL;
			a->allreduce = strstr(val, "allreduce") != NULL;
		} else if (parse_count(val, &v) != 0) {
			return -1;
		} else if (strcmp(o, "--max-bytes") == 0) {
			a->max_bytes = v;
		} else if (strcmp(o, "--reps") == 0 && v <= MAX_REPS) {
			a->reps = (int)v;
		} else if (strcmp(o, "--iters-bytes") == 0) {
			a->iters_bytes = v;
		} else if (strcmp(o, "--max-iters") == 0) {
			a->max_iters = v;
		} else {
			return -1;
		}
	}
	return a->max_bytes < 8 ? -1 : 0;
}

static long long iters_of(const struct args *a, long long bytes)
{
	long long n = a->iters_bytes / bytes;

	return n < 2 ? 2 : n > a->max_iters ? a->max_iters : n;
}

/* One loop of iters ping-pongs; the time of one way, on rank 0. */
static double latency(int rank, char *buf, long long bytes, long long iters)
{
	double t0;
	long long i;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < iters; i++) {
		if (rank == 0) {
			MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 1,
				 MPI_COMM_WORLD);
			MPI_Recv(buf, (int)bytes, MPI_CHAR, 1, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 1,
				 MPI_COMM_WORLD);
		}
	}
	return (MPI_Wtime() - t0) / (2.0 * (double)iters);
}

/* One loop of iters windows; bytes per second, on rank 0. */
static double bandwidth(int rank, char *buf, long long bytes,
			long long iters)
{
	MPI_Request req[WINDOW];
	int window = bytes >= (1 << 20) ? 16 : WINDOW, w;
	char ack[4] = { 0 };
	long long i;
	double t0;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < iters; i++) {
		for (w = 0; w < window; w++) {
			if (rank == 0)
				MPI_Isend(buf, (int)bytes, MPI_CHAR, 1, 2,
					  MPI_COMM_WORLD, &req[w]);
			else
				MPI_Irecv(buf, (int)bytes, MPI_CHAR, 0, 2,
					  MPI_COMM_WORLD, &req[w]);
		}
		MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
		if (rank == 0)
			MPI_Recv(ack, 4, MPI_CHAR, 1, 3, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		else
			MPI_Send(ack, 4, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
	}
	return (double)bytes * window * (double)iters / (MPI_Wtime() - t0);
}

/* One loop of iters allreduces; the slowest rank's time per call. */
static double allreduce(float *s, float *r, long long bytes,
			long long iters)
{
	double t0, t, worst;
	long long i;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < iters; i++)
		MPI_Allreduce(s, r, (int)(bytes / 4), MPI_FLOAT, MPI_SUM,
			      MPI_COMM_WORLD);
	t = (MPI_Wtime() - t0) / (double)iters;
	MPI_Reduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	return worst;
}

int main(int argc, char **argv)
{
	struct args a;
	int rank = 0, size = 0, rep;
	long long bytes;
	char *buf;
	float *fs, *fr;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parse_args(argc, argv, &a) != 0 || size != 2) {
		if (rank == 0)
			fprintf(stderr, "dlsim-mpibench: %s\n", size != 2 ?
				"needs exactly 2 ranks (mpirun -np 2)" :
				"usage: dlsim-mpibench [--only p2p,allreduce]"
				" [--max-bytes N] [--reps R] [--iters-bytes B]"
				" [--max-iters I]");
		MPI_Finalize();
		return 2;
	}
	buf = malloc((size_t)a.max_bytes);
	fs = malloc((size_t)a.max_bytes);
	fr = malloc((size_t)a.max_bytes);
	if (!buf || !fs || !fr) {
		fprintf(stderr, "dlsim-mpibench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(buf, 1, (size_t)a.max_bytes);
	for (bytes = 0; bytes < a.max_bytes / 4; bytes++)
		fs[bytes] = fr[bytes] = 1.0f;
	for (bytes = 8; a.p2p && bytes <= a.max_bytes; bytes *= 2) {
		long long it = iters_of(&a, bytes);

		latency(rank, buf, bytes, it);
		for (rep = 0; rep < a.reps; rep++) {
			double t = latency(rank, buf, bytes, it);

			if (rank == 0)
				printf("sample p2p_latency %d %.9g s bytes=%lld "
				       "ranks=2 dtype=int8\n", rep, t, bytes);
			fflush(stdout);
		}
	}
	for (bytes = 8; a.p2p && bytes <= a.max_bytes; bytes *= 2) {
		long long it = iters_of(&a, bytes * WINDOW) > 2 ?
			       iters_of(&a, bytes * WINDOW) : 2;

		bandwidth(rank, buf, bytes, it);
		for (rep = 0; rep < a.reps; rep++) {
			double bw = bandwidth(rank, buf, bytes, it);

			if (rank == 0)
				printf("sample p2p_bw %d %.9g B/s bytes=%lld "
				       "ranks=2 dtype=int8\n", rep, bw, bytes);
			fflush(stdout);
		}
	}
	for (bytes = 8; a.allreduce && bytes <= a.max_bytes; bytes *= 2) {
		long long it = iters_of(&a, bytes);

		allreduce(fs, fr, bytes, it);
		for (rep = 0; rep < a.reps; rep++) {
			double t = allreduce(fs, fr, bytes, it);

			if (rank == 0)
				printf("sample allreduce %d %.9g s bytes=%lld "
				       "ranks=2 op=sum inplace=0 dtype=fp32\n",
				       rep, t, bytes);
			fflush(stdout);
		}
	}
	free(buf);
	free(fs);
	free(fr);
	MPI_Finalize();
	return 0;
}
