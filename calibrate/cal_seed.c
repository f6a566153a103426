/*
 * cal_seed.c -- seeding a database with the calibration data dlsim
 * ships (data/calibration/, compiled in by tools/embed.sh as
 * cal_seed_files[]), so that a first-time user gets calibrated kernels
 * on every GPU DeepBench measured that the catalog has (V100, P100, T4,
 * M40, Titan X Maxwell and Pascal, Titan Xp, GTX 1080 Ti), on the Xeon
 * Phi 7250 and on the H100 (dlsim's own runs), and calibrated A100 and
 * V100 collectives, without measuring anything.
 *
 * HOW IT WORKS
 * Every shipped file becomes runs of tool "seed:<file name>", one per
 * catalog hardware the file describes (and, for the vTrain curves, per
 * GPU count), status "done", source the file's own source column:
 *   deepbench_*.csv      the DeepBench importer (cal_csv.c); its
 *                        samples are split by their device= tag:
 *                        the kernels to their catalog device (the
 *                        table below: NVIDIA V100 -> v100, ...), the
 *                        all-reduce ones to their machine;
 *   vtrain_allreduce.csv vTrain's nccl-tests LUTs as a CSV (gpu,
 *                        num_gpus, size_bytes, count, type, time_oop_ns,
 *                        busbw_oop_GBps, time_ip_ns, busbw_ip_GBps,
 *                        source); the small adapter below makes each row
 *                        two allreduce samples "bytes= ranks= op=sum
 *                        inplace=0|1 dtype=fp32" in s, as cal_nccl.c
 *                        would have from all_reduce_perf's own output.
 *                        A100 -> dgx-a100, V100 -> dgx1 (the nodes they
 *                        measured), one run per GPU count (ranks).
 *   h100_*               dlsim's own H100 runs in the generic formats
 *                        (own_files below): one run each, all h100's.
 * Then cal_fit_hw fits every hardware that was seeded.
 *
 * Seeding is idempotent: a run whose tool and hardware are already in
 * the runs table is not stored again, so a second call adds nothing (not
 * even fits), and a database seeded by an older dlsim gains only the
 * hardware its files have added since.  Every file is parsed whole
 * before the database is touched: damage anywhere stores nothing.
 *
 * LIMITATIONS
 * - Each run is its own transaction (db_run_insert): a database failure
 *   part-way (a full disk) keeps the runs before it, and a later seed
 *   skips the (tool, hardware) pairs that have a run.
 * - The vTrain busbw columns are derived from the times and not kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate/cal.h"
#include "core/core.h"
#include "hw/hw.h"
#include "core/banned.h"

/* build/gen/seed_builtin.c (tools/embed.sh). */
extern const struct hw_builtin_file cal_seed_files[];

#define SEED_MAX_RUNS 64
#define SEED_CMDLINE "dlsim calibrate seed"

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

/*
 * A DeepBench hardware column, its device= tag, the catalog device its
 * kernels are for, and the name its all-reduce runs are stored under: a
 * collective measures a machine, not a chip, so it goes to the catalog
 * node of the machine's shape where that is known (a Xeon Phi 7250 is
 * one per node, on Omni-Path: stampede2-knl), else to a name of its own
 * that no system resolves to (DeepBench's P100 boxes, PCIe and IB FDR,
 * ranks per node not stated), kept for `calibrate show`.
 */
static const struct {
	const char *column;     /* the hardware column, as in the file */
	const char *tag;        /* device= value (cal_params_str) */
	const char *hw;
	const char *allreduce_hw;  /* NULL: no all-reduce rows shipped */
} devices[] = {
	{ "NVIDIA V100", "NVIDIA_V100", "v100", "v100" },
	{ "NVIDIA Tesla P100", "NVIDIA_Tesla_P100", "p100",
	  "deepbench-p100-ib" },
	{ "Intel(R) Xeon Phi(TM)\xc2\xa0" "7250F",
	  "Intel(R)_Xeon_Phi(TM)_7250F", "phi-7250", "stampede2-knl" },
	{ "Nvidia Tesla M40", "Nvidia_Tesla_M40", "m40", NULL },
	{ "NVIDIA T4", "NVIDIA_T4", "t4", NULL },
	{ "Nvidia TitanX", "Nvidia_TitanX", "titan-x-maxwell", NULL },
	{ "Nvidia TitanX Pascal", "Nvidia_TitanX_Pascal", "titan-x-pascal",
	  NULL },
	{ "NVIDIA GTX TitanXp", "NVIDIA_GTX_TitanXp", "titan-xp", NULL },
	{ "NVIDIA GTX 1080 Ti", "NVIDIA_GTX_1080_Ti", "gtx-1080-ti", NULL },
};

/* vTrain's gpu column and the catalog node its curves measured (shared/
 * reference/measured-data.md, section 9: an NVSwitch A100 node, a DGX-1
 * class hybrid cube mesh of V100s). */
static const struct {
	const char *gpu, *hw;
} gpus[] = { { "A100", "dgx-a100" }, { "V100", "dgx1" } };

/*
 * Files measured on one catalog device, in a format of the importers
 * (cal_import.c): every sample is that device's.  The H100 files are
 * dlsim's own runs (tools/gpu/measure_graphs.py and measure.py, whose
 * raw output with the machine's description is data/measurements/h100/):
 * kernels timed as CUDA graph replays, so device time alone, and the
 * STREAM plateau at 2 GiB arrays (the smaller arrays' times are one
 * kernel launch each and stay in data/measurements/).
 */
#define H100_RUN(script) "dlsim tools/gpu/" script " on an H100 SXM5 " \
	"80GB HBM3 (driver 580.159.04, PyTorch 2.11.0+cu130, cuDNN 9.19), " \
	"2026-11-27; raw output and machine: data/measurements/h100/"
static const struct {
	const char *file;
	enum cal_format format;
	const char *hw;
	const char *source;
} own_files[] = {
	{ "h100_gemm.csv", CAL_GEMM_CSV, "h100",
	  H100_RUN("measure_graphs.py") },
	{ "h100_conv.csv", CAL_CONV_CSV, "h100",
	  H100_RUN("measure_graphs.py") },
	{ "h100_stream.txt", CAL_STREAM, "h100", H100_RUN("measure.py") },
};

static const char *const seed_hw[] = { "v100", "p100", "phi-7250",
				       "m40", "t4", "titan-x-maxwell",
				       "titan-x-pascal", "titan-xp",
				       "gtx-1080-ti", "dgx-a100", "dgx1",
				       "stampede2-knl", "deepbench-p100-ib",
				       "h100", NULL };

static const char vtrain_header[] = "gpu,num_gpus,size_bytes,count,type,"
	"time_oop_ns,busbw_oop_GBps,time_ip_ns,busbw_ip_GBps,source";

/* A run being put together before anything is written. */
struct pending {
	struct db_run run;
	int64_t ranks;          /* vTrain: the GPU count; 0 otherwise */
	struct db_sample *v;    /* owned */
	int64_t n, cap;
};

struct seed {
	struct pending p[SEED_MAX_RUNS];
	int n;
	double start_s;
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (double)time(NULL);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void seed_release(struct seed *sd)
{
	for (int i = 0; i < sd->n; i++)
		free(sd->p[i].v);
	sd->n = 0;
}

/* The pending run of tool for hw (and ranks), made if new. */
static struct pending *pending_for(struct seed *sd, const char *tool,
				   const char *hw, int64_t ranks,
				   const char *source, struct dlsim_err *err)
{
	struct pending *p;

	for (int i = 0; i < sd->n; i++) {
		p = &sd->p[i];
		if (!strcmp(p->run.tool, tool) && !strcmp(p->run.hw, hw) &&
		    p->ranks == ranks)
			return p;
	}
	if (sd->n == SEED_MAX_RUNS) {
		dlsim_err_set(err, DLSIM_ENOMEM, "seed: more than %d runs",
			      SEED_MAX_RUNS);
		return NULL;
	}
	p = &sd->p[sd->n++];
	memset(p, 0, sizeof(*p));
	core_strlcpy(p->run.tool, tool, sizeof(p->run.tool));
	core_strlcpy(p->run.cmdline, SEED_CMDLINE, sizeof(p->run.cmdline));
	core_strlcpy(p->run.version, dlsim_version(), sizeof(p->run.version));
	core_strlcpy(p->run.status, "done", sizeof(p->run.status));
	core_strlcpy(p->run.hw, hw, sizeof(p->run.hw));
	core_strlcpy(p->run.source, source, sizeof(p->run.source));
	p->run.start_s = sd->start_s;
	p->ranks = ranks;
	return p;
}

static int pending_add(struct pending *p, const struct db_sample *s,
		       struct dlsim_err *err)
{
	if (p->n == p->cap) {
		int64_t cap = p->cap ? 2 * p->cap : 256;
		struct db_sample *v = realloc(p->v, (size_t)cap * sizeof(*v));

		if (!v)
			return dlsim_err_set(err, DLSIM_ENOMEM, "seed: out of "
					     "memory");
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = *s;
	return DLSIM_OK;
}

/* The source column of the first row of text that starts with column:
 * the text after the row's last comma. */
static void deepbench_source(const char *text, const char *column,
			     char *buf, size_t n)
{
	size_t cl = strlen(column);
	const char *line = text, *end, *comma;

	buf[0] = '\0';
	while (*line) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, column, cl) && line[cl] == ',') {
			for (comma = end; comma > line && comma[-1] != ',';)
				comma--;
			while (end > comma && end[-1] == '\r')
				end--;
			if ((size_t)(end - comma) >= n)
				end = comma + n - 1;
			memcpy(buf, comma, (size_t)(end - comma));
			buf[end - comma] = '\0';
			return;
		}
		line = *end ? end + 1 : end;
	}
}

/* Split DeepBench samples by device into runs of tool. */
static int seed_deepbench(struct seed *sd, const char *tool,
			  const struct hw_builtin_file *f,
			  const struct db_sample *s, int64_t n,
			  struct dlsim_err *err)
{
	char source[256];
	struct pending *p;
	const char *tag, *hw;
	size_t d;

	for (int64_t i = 0; i < n; i++) {
		tag = strstr(s[i].params, "device=");
		tag = tag ? tag + 7 : "";
		for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++)
			if (!strcmp(tag, devices[d].tag))
				break;
		if (d == sizeof(devices) / sizeof(devices[0]))
			return dlsim_err_set(err, DLSIM_EPARSE, "%s: device "
					     "'%s' is no catalog hardware",
					     f->name, tag);
		hw = strcmp(s[i].benchmark, "allreduce") ? devices[d].hw :
		     devices[d].allreduce_hw;
		if (!hw)
			return dlsim_err_set(err, DLSIM_EPARSE, "%s: %s "
					     "all-reduce rows: no machine known "
					     "to store them under", f->name,
					     devices[d].column);
		deepbench_source(f->data, devices[d].column, source,
				 sizeof(source));
		p = pending_for(sd, tool, hw, 0, source, err);
		if (!p || pending_add(p, &s[i], err))
			return err->code;
	}
	return DLSIM_OK;
}

/* One vTrain row: two samples (out of place, in place). */
static int vtrain_row(struct seed *sd, const char *tool, struct cal_in *in,
		      char **f, struct dlsim_err *err)
{
	struct db_sample s;
	struct cal_params cp;
	struct pending *p;
	int64_t ranks, bytes;
	double t[2];
	size_t g;

	for (g = 0; g < sizeof(gpus) / sizeof(gpus[0]); g++)
		if (!strcmp(f[0], gpus[g].gpu))
			break;
	if (g == sizeof(gpus) / sizeof(gpus[0]))
		return cal_fail(in, err, "gpu '%s' is not A100 or V100", f[0]);
	if (strcmp(f[4], "float"))
		return cal_fail(in, err, "type '%s' is not float", f[4]);
	if (cal_count(in, f[1], "num_gpus", 1 << 20, &ranks, err) ||
	    cal_count(in, f[2], "size_bytes", (int64_t)1 << 50, &bytes,
		      err) ||
	    cal_positive(in, f[5], "time_oop_ns", &t[0], err) ||
	    cal_positive(in, f[7], "time_ip_ns", &t[1], err))
		return err->code;
	p = pending_for(sd, tool, gpus[g].hw, ranks, f[9], err);
	if (!p)
		return err->code;
	for (int ip = 0; ip < 2; ip++) {
		memset(&s, 0, sizeof(s));
		cal_params_init(&cp);
		cal_params_int(&cp, "bytes", bytes);
		cal_params_int(&cp, "ranks", ranks);
		cal_params_str(&cp, "op", "sum");
		cal_params_int(&cp, "inplace", ip);
		cal_params_str(&cp, "dtype", "fp32");
		core_strlcpy(s.benchmark, "allreduce", sizeof(s.benchmark));
		core_strlcpy(s.params, cp.s, sizeof(s.params));
		core_strlcpy(s.unit, "s", sizeof(s.unit));
		s.rep = -1;
		s.value = t[ip] * 1e-9;
		if (pending_add(p, &s, err))
			return err->code;
	}
	return DLSIM_OK;
}

/* The vTrain adapter: text (modified in place) into runs of tool. */
static int seed_vtrain(struct seed *sd, const char *tool, const char *path,
		       char *text, size_t len, struct dlsim_err *err)
{
	struct cal_in in;
	char *line, *f[11], *c;
	int nf, rows = 0;

	cal_in_init(&in, path, text, len);
	line = cal_in_next(&in);
	if (!line || strcmp(line, vtrain_header))
		return cal_fail_at(&in, 1, err, "not vTrain's all-reduce "
				   "table (header '%s')", vtrain_header);
	while ((line = cal_in_next(&in))) {
		if (cal_blank(line))
			continue;
		for (nf = 0, c = line; nf < 11; nf++) {
			f[nf] = c;
			c = strchr(c, ',');
			if (!c) {
				nf++;
				break;
			}
			*c++ = '\0';
		}
		if (nf != 10)
			return cal_fail(&in, err, "%d fields, not 10", nf);
		if (vtrain_row(sd, tool, &in, f, err))
			return err->code;
		rows++;
	}
	if (!rows)
		return cal_fail(&in, err, "no measurements in the file");
	return DLSIM_OK;
}

/* A file of own_files: one run of tool for its device. */
static int seed_own(struct seed *sd, const char *tool, int i,
		    const struct hw_builtin_file *f, char *text,
		    struct dlsim_err *err)
{
	struct db_sample *s = NULL;
	struct pending *p;
	int64_t n = 0;
	int rc;

	rc = cal_parse_text(own_files[i].format, f->name, text, f->size,
			    CAL_MAX_SAMPLES, &s, &n, err);
	p = rc ? NULL : pending_for(sd, tool, own_files[i].hw, 0,
				    own_files[i].source, err);
	for (int64_t j = 0; p && j < n && !rc; j++)
		rc = pending_add(p, &s[j], err);
	free(s);
	return rc ? rc : p ? DLSIM_OK : err->code;
}

/* Parse one file into sd (its runs, tool "seed:<name>"). */
static int seed_parse(struct seed *sd, const struct hw_builtin_file *f,
		      struct dlsim_err *err)
{
	struct db_sample *s = NULL;
	char tool[32], *text;
	int64_t n = 0;
	int rc, own;

	snprintf(tool, sizeof(tool), "seed:%s", base_name(f->name));
	text = malloc(f->size + 1);
	if (!text)
		return dlsim_err_set(err, DLSIM_ENOMEM, "seed: out of memory");
	memcpy(text, f->data, f->size);
	text[f->size] = '\0';
	for (own = 0; own < (int)(sizeof(own_files) / sizeof(own_files[0]));
	     own++)
		if (!strcmp(base_name(f->name), own_files[own].file))
			break;
	if (own < (int)(sizeof(own_files) / sizeof(own_files[0]))) {
		rc = seed_own(sd, tool, own, f, text, err);
	} else if (!strncmp(base_name(f->name), "vtrain_", 7)) {
		rc = seed_vtrain(sd, tool, f->name, text, f->size, err);
	} else {
		rc = cal_parse_text(CAL_DEEPBENCH, f->name, text, f->size,
				    CAL_MAX_SAMPLES, &s, &n, err);
		if (!rc)
			rc = seed_deepbench(sd, tool, f, s, n, err);
		free(s);
	}
	free(text);
	return rc;
}

struct tool_find {
	const char *tool, *hw;
	int found;
};

static int find_tool(void *ctx, const struct db_run *r)
{
	struct tool_find *c = ctx;

	if (strcmp(r->tool, c->tool) || strcmp(r->hw, c->hw))
		return 0;
	c->found = 1;
	return 1;
}

/* 1 if a run of tool for hw is stored, 0 if not, -1 on error. */
static int tool_seeded(struct db *db, const char *tool, const char *hw,
		       struct dlsim_err *err)
{
	struct tool_find c = { tool, hw, 0 };

	if (db_each_run(db, find_tool, &c, err))
		return -1;
	return c.found;
}

/* Drop the pending runs whose (tool, hardware) the database already
 * holds: a shipped file that gained a device seeds that device alone. */
static int seed_drop_stored(struct db *db, struct seed *sd,
			    struct dlsim_err *err)
{
	int i, j = 0, k = 0;

	/* on an error the runs not yet looked at are kept, so that every
	 * run still in sd owns its samples once (seed_release frees them) */
	for (i = 0; i < sd->n; i++) {
		if (k >= 0)
			k = tool_seeded(db, sd->p[i].run.tool, sd->p[i].run.hw,
					err);
		if (k > 0) {
			free(sd->p[i].v);
			continue;
		}
		sd->p[j++] = sd->p[i];
	}
	sd->n = j;
	if (k < 0)
		return err->code;
	return DLSIM_OK;
}

/* Fit each hardware the runs of sd describe. */
static int seed_fit(struct db *db, const struct seed *sd,
		    struct dlsim_err *err)
{
	struct cal_fit_report r;
	int rc, done;

	for (int i = 0; i < sd->n; i++) {
		done = 0;
		for (int j = 0; j < i && !done; j++)
			done = !strcmp(sd->p[j].run.hw, sd->p[i].run.hw);
		if (done)
			continue;
		rc = cal_fit_hw(db, sd->p[i].run.hw, &r, err);
		cal_fit_report_release(&r);
		if (rc)
			return rc;
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cal_seed_from(struct db *db, const struct hw_builtin_file *files,
		  int64_t *runs, int64_t *samples, struct dlsim_err *err)
{
	struct seed *sd;
	int rc = DLSIM_OK;

	*runs = 0;
	*samples = 0;
	if (!db || !files)
		return dlsim_err_set(err, DLSIM_EINVAL, "cal_seed: no "
				     "database or files");
	sd = calloc(1, sizeof(*sd));
	if (!sd)
		return dlsim_err_set(err, DLSIM_ENOMEM, "seed: out of memory");
	sd->start_s = now_s();
	for (const struct hw_builtin_file *f = files; f->name && !rc; f++)
		rc = seed_parse(sd, f, err);
	if (!rc)
		rc = seed_drop_stored(db, sd, err);
	for (int i = 0; i < sd->n && !rc; i++) {
		sd->p[i].run.end_s = now_s();
		rc = db_run_insert(db, &sd->p[i].run, sd->p[i].v, sd->p[i].n,
				   err);
		if (!rc) {
			*runs += 1;
			*samples += sd->p[i].n;
		}
	}
	if (!rc)
		rc = seed_fit(db, sd, err);
	seed_release(sd);
	free(sd);
	return rc;
}

int cal_seed(struct db *db, int64_t *runs, int64_t *samples,
	     struct dlsim_err *err)
{
	return cal_seed_from(db, cal_seed_files, runs, samples, err);
}

const char *cal_seed_hw(int i)
{
	if (i < 0 || i >= (int)(sizeof(seed_hw) / sizeof(seed_hw[0])))
		return NULL;
	return seed_hw[i];
}
