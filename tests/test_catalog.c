/*
 * test_catalog.c -- the shipped hardware catalog (configs/hw, compiled
 * into the library): it loads, it holds every device the foundation issue
 * names, every device and node resolves, every figure has a source, and a
 * few figures equal their datasheets.  Also $DLSIM_PATH directories.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "dlsim.h"

static struct hw_catalog *shipped(void)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK, "%s",
		      err.msg);
	return cat;
}

/* The device names issue 2 asks for, with these exact spellings. */
static const char *const required[] = {
	"xeon-x5690", "xeon-e5-2690", "xeon-e5-2699v3", "xeon-e5-2630v3",
	"xeon-8160", "xeon-8180", "xeon-9282", "xeon-8380", "xeon-8480",
	"epyc-7742", "epyc-9654", "phi-7120", "phi-7250", "phi-7290",
	"phi-7295", "m2090", "k40", "k80", "m40", "p40", "p100", "p100-pcie",
	"v100", "v100-sxm2-32gb", "v100-sxm3-32gb", "v100-pcie", "t4", "a10g",
	"a30", "a40", "a100", "a100-sxm4-40gb", "a100-pcie-40gb",
	"a100-pcie-80gb", "l4", "l40", "l40s", "h100", "h100-pcie", "h200",
	"b200", "gb200", "rtx4090", "rtx-a5000", "mi250x", "mi300x", "gaudi2",
	"gaudi3", "tpu-v2", "tpu-v3", "tpu-v4", "tpu-v5e", "tpu-v5p",
	"tpu-v6e", NULL
};

START_TEST(catalog_has_every_required_device)
{
	struct hw_catalog *cat = shipped();
	int i;

	for (i = 0; required[i]; i++)
		ck_assert_msg(hw_device_find(cat, required[i]) != NULL,
			      "no device '%s'", required[i]);
	hw_catalog_free(cat);
}
END_TEST

/* Every figure carries a source, and every device can train at the
 * precision auto picks. */
START_TEST(catalog_every_figure_has_a_source)
{
	struct hw_catalog *cat = shipped();
	int i, p;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		ck_assert_msg(d->source[0] && d->launch_source[0] &&
			      d->eff_memory_source[0] && d->mem[0].source[0],
			      "%s lacks a source", d->name);
		for (p = 0; p < DLSIM_PRECISION_COUNT; p++)
			if (d->peak[p].matrix_flops > 0.0)
				ck_assert_msg(d->peak[p].source[0] &&
					      d->peak[p].eff_source[0],
					      "%s %s lacks a source", d->name,
					      dlsim_precision_name(p));
		ck_assert(hw_device_supports(d,
					     hw_device_auto_precision(d)));
	}
	for (i = 0; i < hw_catalog_n_links(cat); i++)
		ck_assert(hw_catalog_link(cat, i)->source[0]);
	for (i = 0; i < hw_catalog_n_nodes(cat); i++)
		ck_assert(hw_catalog_node(cat, i)->source[0]);
	hw_catalog_free(cat);
}
END_TEST

/* Every device resolves alone and filling two of its nodes (when its
 * node has a network), and every node resolves; sizes multiply out. */
START_TEST(catalog_every_device_and_node_resolves)
{
	struct hw_catalog *cat = shipped();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;
	char spec[96];
	int i;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);
		const struct hw_node *n = hw_node_find(cat, d->node);

		ck_assert_msg(hw_system_resolve(cat, d->name, &s, &err) == 0,
			      "%s: %s", d->name, err.msg);
		ck_assert_int_eq(s.n_devices, 1);
		if (!n->nic_link[0])
			continue;
		snprintf(spec, sizeof(spec), "%sx%lld", d->name,
			 (long long)(2 * n->devices_per_node));
		ck_assert_msg(hw_system_resolve(cat, spec, &s, &err) == 0,
			      "%s: %s", spec, err.msg);
		ck_assert_int_eq(s.n_nodes, 2);
		ck_assert(s.nic != NULL);
	}
	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);

		ck_assert_msg(hw_system_resolve(cat, n->name, &s, &err) == 0,
			      "%s: %s", n->name, err.msg);
		ck_assert_int_eq(s.n_devices, n->devices_per_node);
	}
	hw_catalog_free(cat);
}
END_TEST

/* The shorthands the issue and README use. */
START_TEST(catalog_issue_examples_resolve)
{
	static const struct { const char *spec, *device; int64_t dev, nodes;
	} ex[] = {
		{ "v100x64", "v100", 64, 8 },     /* 8 DGX-1 */
		{ "dgx1x8", "v100", 64, 8 },
		{ "dgx-a100x4", "a100", 32, 4 },
		{ "dgx-h100x16", "h100", 128, 16 },
		{ "tpu-v3x256", "tpu-v3", 256, 64 },
		{ "phi-7250x4", "phi-7250", 4, 4 }, /* one KNL per node */
		{ "summit", "v100", 6, 1 },
		{ "stampede2-knl", "phi-7250", 1, 1 },
	};
	struct hw_catalog *cat = shipped();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		ck_assert_msg(hw_system_resolve(cat, ex[i].spec, &s, &err) ==
			      0, "%s: %s", ex[i].spec, err.msg);
		ck_assert_str_eq(s.device->name, ex[i].device);
		ck_assert_int_eq(s.n_devices, ex[i].dev);
		ck_assert_int_eq(s.n_nodes, ex[i].nodes);
	}
	/* v100x64: NVLink inside the DGX-1, EDR InfiniBand between */
	ck_assert_int_eq(hw_system_resolve(cat, "v100x64", &s, &err), 0);
	ck_assert_str_eq(s.node->name, "dgx1");
	ck_assert(strstr(s.intra->name, "nvlink") != NULL);
	ck_assert(strstr(s.nic->name, "edr") != NULL);
	hw_catalog_free(cat);
}
END_TEST

/*
 * Datasheet figures, dense (sparse figures are never the default):
 * V100-SXM2-16GB: 15.7 TF fp32, 125 TF tensor, 900 GB/s, 16 GB (NVIDIA
 * V100 datasheet, 2017).  A100-SXM4-80GB: 156 TF tf32, 312 TF bf16,
 * 2,039 GB/s, 80 GB (A100 datasheet, 2021).  H100-SXM5: 989.4 TF bf16
 * dense (1,979 with sparsity), 3.35 TB/s (H100 datasheet, 2023).
 * P100-SXM2: 10.6 TF fp32, 21.2 TF fp16, 732 GB/s (P100 datasheet, 2016).
 */
START_TEST(catalog_matches_datasheets)
{
	struct hw_catalog *cat = shipped();
	const struct hw_device *v = hw_device_find(cat, "v100");
	const struct hw_device *a = hw_device_find(cat, "a100");
	const struct hw_device *h = hw_device_find(cat, "h100");
	const struct hw_device *p = hw_device_find(cat, "p100");

	ck_assert(v->peak[DLSIM_FP32].matrix_flops == 15.7e12);
	ck_assert(v->peak[DLSIM_FP16].matrix_flops == 125e12);
	ck_assert(v->mem[0].bandwidth_Bps == 900e9);
	ck_assert(v->mem[0].capacity_bytes == 16.0 * 1073741824.0);
	ck_assert(!hw_device_supports(v, DLSIM_BF16));
	ck_assert_int_eq(hw_device_auto_precision(v), DLSIM_FP16);
	ck_assert(a->peak[DLSIM_TF32].matrix_flops == 156e12);
	ck_assert(a->peak[DLSIM_BF16].matrix_flops == 312e12);
	ck_assert(a->mem[0].bandwidth_Bps == 2039e9);
	ck_assert(a->mem[0].capacity_bytes == 80.0 * 1073741824.0);
	ck_assert_int_eq(hw_device_auto_precision(a), DLSIM_BF16);
	ck_assert_rel(h->peak[DLSIM_BF16].matrix_flops, 989.4e12, 1e-3);
	ck_assert(h->peak[DLSIM_BF16].sparse_flops >
		  1.9 * h->peak[DLSIM_BF16].matrix_flops);
	ck_assert(h->mem[0].bandwidth_Bps == 3350e9);
	ck_assert(p->peak[DLSIM_FP32].matrix_flops == 10.6e12);
	ck_assert(p->peak[DLSIM_FP16].matrix_flops == 21.2e12);
	ck_assert(p->mem[0].bandwidth_Bps == 732e9);
	ck_assert(hw_device_find(cat, "v100-sxm2-16gb") == v);  /* alias */
	hw_catalog_free(cat);
}
END_TEST

/* $DLSIM_PATH: a directory's files join the catalog; a clash with a
 * built-in name is refused, naming both places. */
START_TEST(catalog_dlsim_path_adds_and_refuses_clashes)
{
	char dir[] = "/tmp/dlsim-path-XXXXXX", file[96];
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0, "" };
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/mine.yaml", dir);
	f = fopen(file, "w");
	ck_assert(f != NULL);
	fputs("links:\n  - name: my-link\n    kind: ethernet\n"
	      "    bandwidth_GBps: 1.25\n    latency_us: 50\n"
	      "    source: \"10 GbE, our lab\"\n", f);
	fclose(f);
	ck_assert_msg(hw_catalog_load(dir, &cat, &err) == 0, "%s", err.msg);
	ck_assert(hw_link_find(cat, "my-link") != NULL);
	hw_catalog_free(cat);
	f = fopen(file, "w");
	ck_assert(f != NULL);
	fputs("links:\n  - name: nvlink2\n    kind: nvlink\n"
	      "    bandwidth_GBps: 50\n    latency_us: 1\n"
	      "    source: \"mine\"\n", f);
	fclose(f);
	ck_assert_int_eq(hw_catalog_load(dir, &cat, &err), DLSIM_EPARSE);
	ck_assert(cat == NULL);
	ck_assert_msg(strstr(err.msg, "mine.yaml:2") &&
		      strstr(err.msg, "configs/hw/links.yaml"), "%s", err.msg);
	unlink(file);
	rmdir(dir);
	dlsim_err_clear(&err);
	ck_assert_int_eq(hw_catalog_load("/nonexistent-dlsim-dir", &cat,
					 &err), DLSIM_EIO);
	ck_assert(strstr(err.msg, "/nonexistent-dlsim-dir") != NULL);
}
END_TEST

Suite *suite_catalog(void)
{
	Suite *s = suite_create("catalog");
	TCase *c = tcase_create("catalog");

	tcase_add_test(c, catalog_has_every_required_device);
	tcase_add_test(c, catalog_every_figure_has_a_source);
	tcase_add_test(c, catalog_every_device_and_node_resolves);
	tcase_add_test(c, catalog_issue_examples_resolve);
	tcase_add_test(c, catalog_matches_datasheets);
	tcase_add_test(c, catalog_dlsim_path_adds_and_refuses_clashes);
	suite_add_tcase(s, c);
	return s;
}
