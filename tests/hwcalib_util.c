/*
 * hwcalib_util.c -- the calibration tests' shared fixtures
 * (hwcalib_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "hwcalib_util.h"

void tmpdb_open(struct tmpdb *t)
{
	struct dlsim_err err = { 0, "" };

	snprintf(t->dir, sizeof(t->dir), "/tmp/dlsim-hwcalib-XXXXXX");
	ck_assert(mkdtemp(t->dir) != NULL);
	snprintf(t->path, sizeof(t->path), "%s/cal.db", t->dir);
	ck_assert_msg(db_open(t->path, &t->db, &err) == DLSIM_OK, "%s",
		      err.msg);
}

void tmpdb_seed_cli(struct tmpdb *t, struct run *r)
{
	char args[256];

	tmpdb_open(t);
	db_close(t->db);
	t->db = NULL;
	snprintf(args, sizeof(args), "calibrate seed --db %s", t->path);
	run(r, args);
	ck_assert_msg(r->status == 0, "%s", r->err);
}

void tmpdb_close(struct tmpdb *t)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal",
					   NULL };
	char p[160];
	int i;

	db_close(t->db);
	t->db = NULL;
	for (i = 0; ext[i]; i++) {
		snprintf(p, sizeof(p), "%s%s", t->path, ext[i]);
		unlink(p);
	}
	/* the folder a default database is made in (XDG_DATA_HOME/dlsim) */
	snprintf(p, sizeof(p), "%s/dlsim", t->dir);
	rmdir(p);
	rmdir(t->dir);
}

int64_t put_fit(struct db *db, const char *hw, const char *kind,
		const char *params, const char *cov, double created_s)
{
	struct dlsim_err err = { 0, "" };
	struct db_fit f;

	memset(&f, 0, sizeof(f));
	snprintf(f.hw, sizeof(f.hw), "%s", hw);
	snprintf(f.kind, sizeof(f.kind), "%s", kind);
	f.params_json = params;
	f.covariance_json = cov;
	f.residual_rms = 0.01;
	f.n_samples = 20;
	f.sample_run_ids = "[]";
	f.created_s = created_s;
	ck_assert_msg(db_fit_insert(db, &f, &err) == DLSIM_OK, "%s", err.msg);
	return f.id;
}

/* The fits of the file comment, for hw. */
void put_fits(struct db *db, const char *hw)
{
	put_fit(db, hw, "gemm:fp32", "{\"benchmark\": \"gemm\", \"group\": "
		"\"dtype=fp32\", \"flops_max\": 1e11, \"flops_half\": 1e8}",
		"[[1e18, 0], [0, 1]]", 1000.0);
	put_fit(db, hw, "gemm:fp32", "{\"benchmark\": \"gemm\", \"group\": "
		"\"dtype=fp32\", \"flops_max\": 2e11, \"flops_half\": 5e8}",
		"[[4e18, 0], [0, 1]]", 2000.0);
	put_fit(db, hw, "gemm:fp32", "{\"benchmark\": \"gemm\", \"group\": "
		"\"dtype=fp32 threads=1\", \"flops_max\": 1.5e11, "
		"\"flops_half\": 5e8}", "[[4e18, 0], [0, 1]]", 2000.0);
	put_fit(db, hw, "conv3x3:fp32", "{\"benchmark\": \"conv\", "
		"\"group\": \"dtype=fp32 class=3x3s1\", \"fixed_s\": 1e-5, "
		"\"s_per_flop\": 1e-11, \"s_per_byte\": 1e-10, "
		"\"flops_per_s\": 1e11}",
		"[[1e-14, 0, 0], [0, 1e-26, 0], [0, 0, 1e-24]]", 2000.0);
	put_fit(db, hw, "bwcurve:triad", "{\"benchmark\": \"stream\", "
		"\"group\": \"kernel=triad\", \"levels\": [{\"bytes_lo\": "
		"4096, \"bytes_hi\": 32768, \"Bps\": 4e11, \"sigma_Bps\": 4e9, "
		"\"n\": 4, \"rel_rms\": 0.01}, {\"bytes_lo\": 65536, "
		"\"bytes_hi\": 1e9, \"Bps\": 2e10, \"sigma_Bps\": 1e8, "
		"\"n\": 10, \"rel_rms\": 0.01}]}", "[[1.6e19, 0], [0, 1e16]]",
		2000.0);
	put_fit(db, hw, "stream:triad", "{\"benchmark\": \"stream\", "
		"\"group\": \"kernel=triad\", \"bw_Bps\": 2e10, "
		"\"from_bytes\": 1e8}", "[[1e16]]", 2000.0);
	put_fit(db, hw, "stream:copy", "{\"benchmark\": \"stream\", "
		"\"group\": \"kernel=copy\", \"bw_Bps\": 3e10, "
		"\"from_bytes\": 1e8}", "[[1e16]]", 3000.0);
	put_fit(db, hw, "alphabeta:allreduce:4", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=4\", \"segments\": ["
		"{\"x_lo\": 8, \"x_hi\": 65536, \"alpha_s\": 1e-5, "
		"\"beta_s_per_byte\": 1e-9, \"n\": 5, \"rel_rms\": 0.01}, "
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 6e-5, "
		"\"beta_s_per_byte\": 3e-10, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 1e-20]], [[1e-12, 0], [0, 9e-24]]]",
		2000.0);
}

void put_samples(struct db *db, const char *hw, struct db_sample *s, int n)
{
	struct dlsim_err err = { 0, "" };
	struct db_run run;

	memset(&run, 0, sizeof(run));
	snprintf(run.tool, sizeof(run.tool), "test");
	snprintf(run.hw, sizeof(run.hw), "%s", hw);
	ck_assert_msg(db_run_insert(db, &run, s, n, &err) == DLSIM_OK, "%s",
		      err.msg);
}

double calib_noise(unsigned long *state)
{
	*state = (*state * 48271UL) % 2147483647UL;
	return (double)*state / 2147483647.0 - 0.5;
}

void calib_sample(struct db_sample *s, const char *bench,
		  const char *params, double value, const char *unit)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->benchmark, sizeof(s->benchmark), "%s", bench);
	snprintf(s->params, sizeof(s->params), "%s", params);
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	s->rep = -1;
	s->value = value;
}

const struct cal_fitted *fit_find(const struct cal_fit_report *r,
				  const char *kind)
{
	int i;

	for (i = 0; i < r->n_fit; i++)
		if (strcmp(r->fit[i].kind, kind) == 0)
			return &r->fit[i];
	return NULL;
}

/* ---------------------------------------------------------------- */
/* A rig of one made-up device, and the fits for its node "box"      */
/* ---------------------------------------------------------------- */

/* A device of 1e12 FLOP/s and 1e11 B/s, four to a node on 1 GB/s links
 * of 1 us. */
void calib_rig_init(struct calib_rig *r)
{
	struct hw_peak *p;
	int i;

	memset(r, 0, sizeof(*r));
	snprintf(r->dev.name, sizeof(r->dev.name), "dev");
	p = &r->dev.peak[DLSIM_FP32];
	p->matrix_flops = 1e12;
	p->vector_flops = 1e12;
	p->eff_gemm = p->eff_conv = p->eff_conv3x3 = 1.0;
	p->eff_conv1x1 = p->eff_conv1x1s = 1.0;
	r->dev.mem[0].bandwidth_Bps = 1e11;
	r->dev.mem[0].capacity_bytes = 64.0 * 1073741824.0;
	r->dev.mem_capacity_bytes = r->dev.mem[0].capacity_bytes;
	r->dev.n_mem = 1;
	r->dev.eff_memory = 1.0;
	r->dev.clock_boost_hz = 1e9;
	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		r->dev.calib_flop_scale[i] = 1.0;   /* as hw_convert sets */
	r->dev.calib_byte_scale = 1.0;
	snprintf(r->node.name, sizeof(r->node.name), "box");
	r->node.devices_per_node = 4;
	r->node.intra_links_per_device = 1;
	r->intra.bandwidth_Bps = 1e9;
	r->intra.latency_s = 1e-6;
	r->sys.device = &r->dev;
	r->sys.node = &r->node;
	r->sys.intra = &r->intra;
	r->sys.devices_per_node = 4;
	r->sys.n_nodes = 1;
	r->sys.n_devices = 4;
	snprintf(r->sys.spec, sizeof(r->sys.spec), "test");
}

/* The rig as two nodes of four joined by nic (10 GB/s, 2 us). */
void calib_rig_two_nodes(struct calib_rig *r, struct hw_link *nic)
{
	memset(nic, 0, sizeof(*nic));
	nic->bandwidth_Bps = 1e10;
	nic->latency_s = 2e-6;
	r->sys.nic = nic;
	r->sys.n_nodes = 2;
	r->sys.n_devices = 8;
}

/* An allreduce fit at 8 ranks for "box": across its two nodes, largest
 * segment t = 1.4e-4 s + 7e-10 s/B n. */
void put_inter_fit(struct db *db)
{
	put_fit(db, "box", "alphabeta:allreduce:8", "{\"benchmark\": "
		"\"allreduce\", \"group\": \"ranks=8\", \"segments\": ["
		"{\"x_lo\": 65536, \"x_hi\": 6.7e7, \"alpha_s\": 1.4e-4, "
		"\"beta_s_per_byte\": 7e-10, \"n\": 5, \"rel_rms\": 0.01}]}",
		"[[[1e-12, 0], [0, 1e-22]]]", 2000.0);
}

/* The head comment's fits, stored for "box" and loaded into *c. */
void calib_load(struct hw_calib *c)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;

	tmpdb_open(&t);
	put_fits(t.db, "box");
	ck_assert_msg(hw_calib_load(t.db, "box", c, &err) == DLSIM_OK, "%s",
		      err.msg);
	tmpdb_close(&t);
}
