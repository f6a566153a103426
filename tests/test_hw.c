/*
 * test_hw.c -- reading catalog files (hw/hw_schema.c, hw/hw_convert.c,
 * hw/hw_catalog.c) and resolving --hw strings into systems
 * (hw/hw_system.c).  --hw files, the rollback of a failed one, and
 * entries that stay put as the catalog grows are in test_catalog.c.
 *
 * Every test builds its own catalog from tests/data/hw/good/catalog.yaml,
 * a small made-up catalog (one GPU "tgpu" packed four to a node "dgxa"
 * with NVLink-like "tlink" and two InfiniBand-like "tnic"; one CPU
 * "xeon-x8" alone in a node "ws1" with no network link), so that nothing
 * here depends on the shipped catalog.  Error fixtures in tests/data/hw/
 * hold one mistake each, named in their first line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "core/core.h"
#include "hw/hw.h"

#define DIR "tests/data/hw/"
#define CATALOG DIR "good/catalog.yaml"

static struct hw_catalog *new_catalog(void)
{
	struct dlsim_err err = { 0 };
	struct hw_catalog *cat = NULL;

	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	ck_assert_ptr_nonnull(cat);
	ck_assert_msg(hw_catalog_add_file(cat, CATALOG, &err) == DLSIM_OK,
		      "%s", err.msg);
	return cat;
}

static const struct hw_device *device(const struct hw_catalog *cat,
				      const char *name)
{
	const struct hw_device *d = hw_device_find(cat, name);

	ck_assert_msg(d != NULL, "no device '%s'", name);
	return d;
}

/* ---------------------------------------------------------------- */
/* Reading and units                                                 */
/* ---------------------------------------------------------------- */

/*
 * The file's units become SI: TFLOP/s x 1e12, GB/s x 1e9 (decimal, per
 * direction), GiB x 2^30, MiB x 2^20, us x 1e-6, MHz x 1e6
 * (configs/hw/README.md).
 */
START_TEST(units_convert_to_si)
{
	struct hw_catalog *cat = new_catalog();
	const struct hw_device *d = device(cat, "tgpu");
	const struct hw_device *cpu = device(cat, "xeon-x8");

	ck_assert_int_eq(d->kind, HW_GPU);
	ck_assert_str_eq(d->vendor, "Testco");
	ck_assert_str_eq(d->model, "Testco TG-1 SXM 32GB");
	ck_assert_int_eq(d->units, 100);
	/* 40 and 20 TFLOP/s; fp16 sparse 640 TFLOP/s */
	ck_assert(d->peak[DLSIM_FP32].matrix_flops == 4e13);
	ck_assert(d->peak[DLSIM_FP32].vector_flops == 2e13);
	ck_assert(d->peak[DLSIM_FP16].matrix_flops == 3.2e14);
	ck_assert(d->peak[DLSIM_FP16].sparse_flops == 6.4e14);
	ck_assert(d->peak[DLSIM_FP32].sparse_flops == 0.0);
	ck_assert(d->peak[DLSIM_FP32].eff_gemm == 0.8);
	ck_assert(d->peak[DLSIM_FP32].eff_conv == 0.6);
	/* 3x3 efficiencies over the direct count may exceed 1 */
	ck_assert(d->peak[DLSIM_FP32].eff_conv3x3 == 0.95);
	ck_assert(d->peak[DLSIM_FP16].eff_conv3x3 == 1.4);
	/* the 1x1 classes as given, or eff_conv's figure where not */
	ck_assert(d->peak[DLSIM_FP32].eff_conv1x1 == 0.45);
	ck_assert(d->peak[DLSIM_FP32].eff_conv1x1s == 0.3);
	ck_assert(d->peak[DLSIM_FP16].eff_conv1x1 == 0.5);
	ck_assert(d->peak[DLSIM_FP16].eff_conv1x1s == 0.5);
	ck_assert_str_eq(d->peak[DLSIM_FP32].source,
			 "made up for tests: TG-1 datasheet, Table 1");
	/* 32 GiB = 32 * 1,073,741,824 = 34,359,738,368 bytes; 2000 GB/s */
	ck_assert_int_eq(d->n_mem, 1);
	ck_assert_str_eq(d->mem[0].type, "HBM3");
	ck_assert(d->mem[0].capacity_bytes == 34359738368.0);
	ck_assert(d->mem[0].bandwidth_Bps == 2e12);
	ck_assert(d->eff_memory == 0.85);
	/* 1500 and 1200 MHz; 4 us; 40 MiB = 41,943,040 bytes */
	ck_assert(d->clock_boost_hz == 1.5e9);
	ck_assert(d->clock_base_hz == 1.2e9);
	ck_assert(d->clock_avx512_hz == 0.0);
	ck_assert_rel(d->launch_overhead_s, 4e-6, 1e-12);
	ck_assert(d->llc_bytes == 41943040.0);
	ck_assert(d->tdp_w == 400.0);
	ck_assert(d->price_usd == 10000.0);
	ck_assert_str_eq(d->node, "dgxa");
	ck_assert_str_eq(d->file, CATALOG);
	ck_assert_int_eq(d->line, 6);         /* "- name: tgpu" */
	/* the CPU: 1.8432 TFLOP/s, 1800 MHz AVX-512, 128 GiB at 100 GB/s */
	ck_assert_int_eq(cpu->kind, HW_CPU);
	ck_assert_rel(cpu->peak[DLSIM_FP32].matrix_flops, 1.8432e12, 1e-12);
	ck_assert(cpu->clock_avx512_hz == 1.8e9);
	ck_assert(cpu->mem[0].capacity_bytes == 137438953472.0);
	ck_assert(cpu->mem[0].bandwidth_Bps == 1e11);
	ck_assert_rel(cpu->launch_overhead_s, 1e-5, 1e-12);
	ck_assert(cpu->price_usd == 0.0);     /* absent: none published */
	ck_assert_int_eq(cpu->line, 65);
	hw_catalog_free(cat);
}
END_TEST

START_TEST(links_networks_and_nodes_are_read)
{
	struct hw_catalog *cat = new_catalog();
	const struct hw_link *l = hw_link_find(cat, "tlink");
	const struct hw_network *nw = hw_network_find(cat, "tfat");
	const struct hw_node *n = hw_node_find(cat, "dgxa");
	const struct hw_node *ws = hw_node_find(cat, "ws1");

	/* 50 GB/s, 1.5 us; 25 GB/s, 2 us */
	ck_assert_ptr_nonnull(l);
	ck_assert_str_eq(l->kind, "nvlink");
	ck_assert(l->bandwidth_Bps == 5e10);
	ck_assert_rel(l->latency_s, 1.5e-6, 1e-12);
	ck_assert_int_eq(l->line, 96);
	l = hw_link_find(cat, "tnic");
	ck_assert_ptr_nonnull(l);
	ck_assert(l->bandwidth_Bps == 2.5e10);
	ck_assert_rel(l->latency_s, 2e-6, 1e-12);

	ck_assert_ptr_nonnull(nw);
	ck_assert_int_eq(nw->topology, HW_TOPO_FAT_TREE);
	ck_assert(nw->oversubscription == 2.0);
	ck_assert_int_eq(nw->line, 107);

	ck_assert_ptr_nonnull(n);
	ck_assert_str_eq(n->device, "tgpu");
	ck_assert_int_eq(n->devices_per_node, 4);
	ck_assert_str_eq(n->intra_link, "tlink");
	ck_assert_int_eq(n->intra_links_per_device, 3);
	ck_assert_int_eq(n->intra_topology, HW_TOPO_ALL_TO_ALL);
	ck_assert_str_eq(n->nic_link, "tnic");
	ck_assert_int_eq(n->nics_per_node, 2);
	ck_assert_str_eq(n->network, "tfat");
	ck_assert_int_eq(n->line, 114);

	ck_assert_ptr_nonnull(ws);
	ck_assert_int_eq(ws->devices_per_node, 1);
	ck_assert_int_eq(ws->intra_topology, HW_TOPO_SINGLE);
	ck_assert_str_eq(ws->intra_link, "");
	ck_assert_str_eq(ws->nic_link, "");
	ck_assert_str_eq(ws->network, "");
	hw_catalog_free(cat);
}
END_TEST

START_TEST(lookups_by_name_and_alias)
{
	struct hw_catalog *cat = new_catalog();
	const struct hw_device *d = device(cat, "tgpu");

	ck_assert_ptr_eq(hw_device_find(cat, "tgpu-sxm"), d);
	ck_assert_ptr_eq(hw_device_find(cat, "test-gpu"), d);
	ck_assert_int_eq(d->n_aliases, 2);
	ck_assert_ptr_eq(hw_node_find(cat, "dgx-a"), hw_node_find(cat, "dgxa"));
	ck_assert_ptr_null(hw_device_find(cat, "TGPU"));
	ck_assert_ptr_null(hw_device_find(cat, "nosuch"));
	ck_assert_ptr_null(hw_device_find(cat, NULL));
	/* each kind is looked up in its own list */
	ck_assert_ptr_null(hw_device_find(cat, "dgxa"));
	ck_assert_ptr_null(hw_node_find(cat, "tgpu"));
	ck_assert_ptr_null(hw_link_find(cat, "tfat"));
	ck_assert_ptr_null(hw_network_find(cat, "tlink"));
	/* counts and load order */
	ck_assert_int_eq(hw_catalog_n_devices(cat), 2);
	ck_assert_int_eq(hw_catalog_n_links(cat), 2);
	ck_assert_int_eq(hw_catalog_n_nodes(cat), 2);
	ck_assert_int_eq(hw_catalog_n_networks(cat), 1);
	ck_assert_ptr_eq(hw_catalog_network(cat, 0),
			 hw_network_find(cat, "tfat"));
	ck_assert_ptr_null(hw_catalog_network(cat, 1));
	ck_assert_ptr_null(hw_catalog_network(cat, -1));
	ck_assert_ptr_eq(hw_catalog_device(cat, 0), d);
	ck_assert_str_eq(hw_catalog_device(cat, 1)->name, "xeon-x8");
	ck_assert_str_eq(hw_catalog_link(cat, 1)->name, "tnic");
	ck_assert_str_eq(hw_catalog_node(cat, 1)->name, "ws1");
	ck_assert_ptr_null(hw_catalog_device(cat, 2));
	ck_assert_ptr_null(hw_catalog_device(cat, -1));
	ck_assert_ptr_null(hw_catalog_link(cat, 2));
	ck_assert_ptr_null(hw_catalog_node(cat, 2));
	hw_catalog_free(cat);
}
END_TEST

START_TEST(kind_and_topology_names)
{
	ck_assert_str_eq(hw_device_kind_name(HW_CPU), "cpu");
	ck_assert_str_eq(hw_device_kind_name(HW_GPU), "gpu");
	ck_assert_str_eq(hw_device_kind_name(HW_ACCEL), "accel");
	ck_assert_ptr_null(hw_device_kind_name(HW_DEVICE_KIND_COUNT));
	ck_assert_str_eq(hw_topology_name(HW_TOPO_HYBRID_CUBE_MESH),
			 "hybrid-cube-mesh");
	ck_assert_str_eq(hw_topology_name(HW_TOPO_DRAGONFLY), "dragonfly");
	ck_assert_ptr_null(hw_topology_name(HW_TOPOLOGY_COUNT));
}
END_TEST

/* ---------------------------------------------------------------- */
/* Precisions on a device                                            */
/* ---------------------------------------------------------------- */

START_TEST(device_supports_exactly_its_listed_precisions)
{
	struct hw_catalog *cat = new_catalog();
	const struct hw_device *d = device(cat, "tgpu");
	const struct hw_device *cpu = device(cat, "xeon-x8");

	/* tgpu lists fp32, fp16, bf16 and fp64 */
	ck_assert_int_eq(hw_device_supports(d, DLSIM_FP32), 1);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_FP16), 1);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_BF16), 1);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_FP64), 1);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_TF32), 0);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_FP8), 0);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_INT8), 0);
	ck_assert_int_eq(hw_device_supports(d, DLSIM_PRECISION_COUNT), 0);
	ck_assert_int_eq(hw_device_supports(d, (enum dlsim_precision)-1), 0);
	/* the CPU lists fp32 alone */
	ck_assert_int_eq(hw_device_supports(cpu, DLSIM_FP32), 1);
	ck_assert_int_eq(hw_device_supports(cpu, DLSIM_FP16), 0);
	ck_assert_int_eq(hw_device_supports(cpu, DLSIM_BF16), 0);
	/* tgpu: bf16 320 > fp32 40 TFLOP/s; the CPU has only fp32 */
	ck_assert_int_eq(hw_device_auto_precision(d), DLSIM_BF16);
	ck_assert_int_eq(hw_device_auto_precision(cpu), DLSIM_FP32);
	hw_catalog_free(cat);
}
END_TEST

/* dlsim.h: "bf16 where its matrix units run bf16 faster than fp32, else
 * fp16 where fp16 runs faster than fp32, else fp32". */
START_TEST(auto_precision_prefers_bf16_then_fp16_then_fp32)
{
	static const struct {
		double fp32, fp16, bf16;
		enum dlsim_precision want;
	} cases[] = {
		/* V100-like: fp16 tensor cores, no bf16 */
		{ 15.7e12, 125e12, 0, DLSIM_FP16 },
		/* A100-like: bf16 = fp16, both faster than fp32 */
		{ 19.5e12, 312e12, 312e12, DLSIM_BF16 },
		/* bf16 faster than fp32 wins even where fp16 is faster */
		{ 10e12, 80e12, 40e12, DLSIM_BF16 },
		/* bf16 at the fp32 rate is no gain: fp16 next */
		{ 10e12, 20e12, 10e12, DLSIM_FP16 },
		/* neither faster (GP104-like slow fp16): fp32 */
		{ 8e12, 0.13e12, 0, DLSIM_FP32 },
		{ 8e12, 8e12, 8e12, DLSIM_FP32 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hw_device d;

		memset(&d, 0, sizeof(d));
		d.peak[DLSIM_FP32].matrix_flops = cases[i].fp32;
		d.peak[DLSIM_FP16].matrix_flops = cases[i].fp16;
		d.peak[DLSIM_BF16].matrix_flops = cases[i].bf16;
		ck_assert_msg(hw_device_auto_precision(&d) == cases[i].want,
			      "case %zu: %s, expected %s", i,
			      dlsim_precision_name(
				      hw_device_auto_precision(&d)),
			      dlsim_precision_name(cases[i].want));
	}
}
END_TEST

/* ---------------------------------------------------------------- */
/* Errors in catalog files                                           */
/* ---------------------------------------------------------------- */

/* Each fixture, the line of its mistake and a word the message holds. */
static const struct {
	const char *file;
	int line;
	const char *needle;
} bad[] = {
	/* "bandwidth_GBps: -16" */
	{ "neg_bandwidth", 5, "bandwidth_GBps" },
	/* "eff_gemm: 1.5" */
	{ "eff_high", 18, "eff_gemm" },
	/* "- precision: fp12" */
	{ "bad_precision", 23, "fp12" },
	/* "colour: green" is line 7; line 6 above it is fine */
	{ "unknown_key", 7, "colour" },
	/* the entry that lacks latency_us starts at "- name: halflink" */
	{ "missing_key", 8, "latency_us" },
	/* the second "- precision: fp32" */
	{ "dup_precision", 31, "fp32" },
	/* "- name: Fast-Link" */
	{ "bad_name", 3, "Fast-Link" },
	/* "- name: tlink", already in good/catalog.yaml */
	{ "redefine", 10, "tlink" },
	/* the node whose alias is ws1 */
	{ "alias_clash", 3, "ws1" },
	/* "- name: quadbox": 4 devices, no intra_link */
	{ "no_intra", 3, "intra_link" },
	/* "system: {device: tgpu, node: dgxa, count: 1}" */
	{ "sys_both", 2, "system" },
	/* "count: 1e3", which libcyaml would read as 1 */
	{ "sys_count_exp", 4, "'count' must be a whole number (got '1e3')" },
};

#define N_BAD ((int)(sizeof(bad) / sizeof(bad[0])))

/* A bad file fails with file:line and adds nothing to the catalog. */
START_TEST(bad_file_names_line_and_adds_nothing)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };
	char path[128], prefix[160];
	int nd = hw_catalog_n_devices(cat), nl = hw_catalog_n_links(cat);
	int nn = hw_catalog_n_nodes(cat), nw = hw_catalog_n_networks(cat), rc;

	snprintf(path, sizeof(path), DIR "%s.yaml", bad[_i].file);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, bad[_i].line);
	rc = hw_catalog_add_file(cat, path, &err);
	ck_assert_msg(rc == DLSIM_EPARSE, "%s: code %d (%s), expected %d",
		      path, rc, rc ? err.msg : "loaded", DLSIM_EPARSE);
	ck_assert_int_eq(err.code, DLSIM_EPARSE);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0,
		      "message '%s' does not start with '%s'", err.msg,
		      prefix);
	ck_assert_msg(strstr(err.msg + strlen(prefix), bad[_i].needle) !=
		      NULL, "message '%s' does not mention '%s'", err.msg,
		      bad[_i].needle);
	ck_assert_int_eq(hw_catalog_n_devices(cat), nd);
	ck_assert_int_eq(hw_catalog_n_links(cat), nl);
	ck_assert_int_eq(hw_catalog_n_nodes(cat), nn);
	ck_assert_int_eq(hw_catalog_n_networks(cat), nw);
	/* the catalog still passes its own check */
	ck_assert_int_eq(hw_catalog_check(cat, NULL), DLSIM_OK);
	hw_catalog_free(cat);
}
END_TEST

/*
 * redefine.yaml's node "newbox" is valid and is merged before its link
 * "tlink" clashes; it must be gone again afterwards.  The message names
 * both places: redefine.yaml line 10 and good/catalog.yaml line 94.
 */
START_TEST(redefinition_names_both_places_and_rolls_back)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_add_file(cat, DIR "redefine.yaml", &err),
			 DLSIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, DIR "redefine.yaml:10"));
	ck_assert_ptr_nonnull(strstr(err.msg, CATALOG ":96"));
	ck_assert_ptr_null(hw_node_find(cat, "newbox"));

	/* the alias clash names ws1's own place, catalog.yaml line 124 */
	dlsim_err_clear(&err);
	ck_assert_int_eq(hw_catalog_add_file(cat, DIR "alias_clash.yaml",
					     &err), DLSIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, CATALOG ":126"));
	ck_assert_ptr_null(hw_node_find(cat, "otherbox"));
	ck_assert_ptr_null(hw_node_find(cat, "other-box"));

	/* the same file twice: its first device clashes with itself */
	dlsim_err_clear(&err);
	ck_assert_int_eq(hw_catalog_add_file(cat, CATALOG, &err),
			 DLSIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, CATALOG ":6: 'tgpu'"));
	ck_assert_int_eq(hw_catalog_n_devices(cat), 2);
	ck_assert_int_eq(hw_catalog_n_links(cat), 2);
	hw_catalog_free(cat);
}
END_TEST

/* A name used twice inside one text is a clash too; add_text's name is
 * what the message shows. */
START_TEST(duplicate_inside_one_text_is_an_error)
{
	static const char text[] =
		"links:\n"                                  /* 1 */
		"  - name: dup\n"                           /* 2 */
		"    kind: pcie\n"
		"    bandwidth_GBps: 16\n"
		"    latency_us: 1\n"
		"    source: \"made up for tests\"\n"
		"  - name: dup\n"                           /* 7 */
		"    kind: pcie\n"
		"    bandwidth_GBps: 32\n"
		"    latency_us: 1\n"
		"    source: \"made up for tests\"\n";
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_add_text(cat, "inline", text,
					     strlen(text), &err),
			 DLSIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, "inline:7: 'dup'"));
	ck_assert_ptr_nonnull(strstr(err.msg, "inline:2"));
	ck_assert_ptr_null(hw_link_find(cat, "dup"));
	ck_assert_int_eq(hw_catalog_n_links(cat), 2);
	hw_catalog_free(cat);
}
END_TEST

START_TEST(missing_file_is_eio)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_add_file(cat, DIR "no-such.yaml", &err),
			 DLSIM_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, DIR "no-such.yaml"));
	ck_assert_int_eq(hw_catalog_n_devices(cat), 2);
	hw_catalog_free(cat);
}
END_TEST

/* A device of the test catalog's shape that names another's fits. */
static const char *twin_yaml(const char *from, const char *source)
{
	static char buf[2048];

	snprintf(buf, sizeof(buf),
		 "devices:\n"
		 "  - name: tgpu-twin\n"
		 "    kind: gpu\n"
		 "    vendor: Testco\n"
		 "    model: Testco TG-1 twin\n"
		 "    units: 100\n"
		 "    launch_overhead_us: 4\n"
		 "    launch_source: \"made up for tests\"\n"
		 "    node: dgxa\n"
		 "    source: \"made up for tests\"\n"
		 "    peak:\n"
		 "      - precision: fp32\n"
		 "        matrix_tflops: 32\n"
		 "        vector_tflops: 20\n"
		 "        eff_gemm: 0.8\n"
		 "        eff_conv: 0.6\n"
		 "        eff_conv3x3: 0.95\n"
		 "        source: \"made up for tests\"\n"
		 "        eff_source: \"made up for tests\"\n"
		 "    memory:\n"
		 "      - type: HBM3\n"
		 "        capacity_GiB: 64\n"
		 "        bandwidth_GBps: 1600\n"
		 "        source: \"made up for tests\"\n"
		 "    eff_memory: 0.85\n"
		 "    eff_memory_source: \"made up for tests\"\n"
		 "%s%s%s%s%s",
		 from ? "    calibration_from: " : "", from ? from : "",
		 from ? "\n" : "",
		 source ? "    calibration_from_source: " : "",
		 source ? source : "");
	if (source)
		strcat(buf, "\n");
	return buf;
}

/* calibration_from is read, and the check wants it to name a device of
 * the catalog and to say why (line 2: the device's entry).  The check
 * sets the scales its fits take: tgpu's FP32 peak 40 TFLOPS over the
 * twin's 32 is 1.25 for time per FLOP, its 2000 GB/s over 1600 is 1.25
 * for time per byte; at FP16, which the twin has no peak at, 1; a device
 * without calibration_from keeps 1. */
START_TEST(calibration_from_is_read_and_checked)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };
	const char *y = twin_yaml("tgpu", "\"same chip: made up for tests\"");
	const struct hw_device *d;

	ck_assert_msg(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					  &err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
	d = device(cat, "tgpu-twin");
	ck_assert_str_eq(d->calib_from, "tgpu");
	ck_assert_str_eq(d->calib_from_source, "same chip: made up for tests");
	ck_assert_rel(d->calib_flop_scale[DLSIM_FP32], 1.25, 1e-12);
	ck_assert_rel(d->calib_flop_scale[DLSIM_FP16], 1.0, 1e-12);
	ck_assert_rel(d->calib_byte_scale, 1.25, 1e-12);
	ck_assert_str_eq(device(cat, "tgpu")->calib_from, "");
	ck_assert_rel(device(cat, "tgpu")->calib_flop_scale[DLSIM_FP32], 1.0,
		      1e-12);
	ck_assert_rel(device(cat, "tgpu")->calib_byte_scale, 1.0, 1e-12);
	hw_catalog_free(cat);

	/* named by an alias, it is held by the name the fits are stored
	 * under */
	cat = new_catalog();
	y = twin_yaml("test-gpu", "\"same chip: made up for tests\"");
	ck_assert_int_eq(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					     &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
	ck_assert_str_eq(device(cat, "tgpu-twin")->calib_from, "tgpu");
	ck_assert_rel(device(cat, "tgpu-twin")->calib_byte_scale, 1.25, 1e-12);
	hw_catalog_free(cat);

	cat = new_catalog();
	y = twin_yaml("nosuch", "\"made up\"");
	ck_assert_int_eq(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					     &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "twin.yaml:2: device 'tgpu-twin': "
			     "calibration_from 'nosuch' is not in the "
			     "catalog") != NULL, "%s", err.msg);
	hw_catalog_free(cat);

	cat = new_catalog();
	dlsim_err_clear(&err);     /* the first error a struct gets stays */
	y = twin_yaml("tgpu", NULL);
	ck_assert_int_eq(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					     &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "needs a calibration_from_source") !=
		      NULL, "%s", err.msg);
	hw_catalog_free(cat);
}
END_TEST

/* A node's host_link must name a link and say where it comes from. */
START_TEST(host_link_is_read_and_checked)
{
	static const char *const text[] = {
		"nodes:\n  - name: hbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    host_link: tlink\n    host_link_source: \"made up\"\n"
		"    source: \"made up for tests\"\n",
		"nodes:\n  - name: hbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    host_link: nolink\n    host_link_source: \"made up\"\n"
		"    source: \"made up for tests\"\n",
		"nodes:\n  - name: hbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    host_link: tlink\n    source: \"made up for tests\"\n",
	};
	static const char *const want[] = { NULL,
		"host_link 'nolink' is not in the catalog",
		"host_link needs a host_link_source" };
	int i;

	for (i = 0; i < 3; i++) {
		struct hw_catalog *cat = new_catalog();
		struct dlsim_err err = { 0 };

		ck_assert_msg(hw_catalog_add_text(cat, "h.yaml", text[i],
						  strlen(text[i]), &err) ==
			      DLSIM_OK, "%s", err.msg);
		if (!want[i]) {
			ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
			ck_assert_str_eq(hw_node_find(cat, "hbox")->host_link,
					 "tlink");
		} else {
			ck_assert_int_eq(hw_catalog_check(cat, &err),
					 DLSIM_EPARSE);
			ck_assert_msg(strstr(err.msg, want[i]) != NULL, "%s",
				      err.msg);
		}
		hw_catalog_free(cat);
	}
}
END_TEST

/* dangling.yaml reads cleanly; only the cross-reference check can see
 * that its node "lostbox" (line 4) names a link nobody defined. */
START_TEST(catalog_check_finds_unknown_link)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_add_file(cat, DIR "dangling.yaml", &err),
			 DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_EPARSE);
	ck_assert_msg(strncmp(err.msg, DIR "dangling.yaml:4: ",
			      strlen(DIR "dangling.yaml:4: ")) == 0, "%s",
		      err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "lostbox"));
	ck_assert_ptr_nonnull(strstr(err.msg, "nosuch-link"));
	hw_catalog_free(cat);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Strict numbers and plausible values                               */
/* ---------------------------------------------------------------- */

/* good/catalog.yaml with its first `from` replaced by `to`; *line is the
 * line where it was.  The caller frees the result. */
static char *mutated(const char *from, const char *to, int *line)
{
	struct dlsim_err err = { 0 };
	char *text, *out, *at, *p;
	size_t len, n;

	ck_assert_int_eq(core_read_file(CATALOG, &text, &len, &err), 0);
	at = strstr(text, from);
	ck_assert_msg(at != NULL, "'%s' is not in " CATALOG, from);
	for (*line = 1, p = text; p < at; p++)
		*line += *p == '\n';
	n = len - strlen(from) + strlen(to) + 1;
	out = malloc(n);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to,
		 at + strlen(from));
	free(text);
	return out;
}

/*
 * One change to good/catalog.yaml each.  libcyaml 1.3 reads a number by
 * its leading digits ("2abc" as 2, "1e3" as 1 and "4.9" as 4 for an
 * integer, "0x10" as 16), so these must be refused after loading; and a
 * figure above 1e9 in its written unit (1e9 TFLOP/s, GB/s, GiB, ...) is
 * a typo, not hardware.  A NULL needle: the change loads.
 */
static const struct {
	const char *from, *to, *needle;
} numbers[] = {
	{ "units: 100", "units: 2abc",
	  "'units' must be a whole number (got '2abc')" },
	{ "units: 100", "units: 1e3",
	  "'units' must be a whole number (got '1e3')" },
	{ "units: 100", "units: 4.9",
	  "'units' must be a whole number (got '4.9')" },
	{ "units: 100", "units: 0x10",
	  "'units' must be a whole number (got '0x10')" },
	{ "devices_per_node: 4", "devices_per_node: 4.9",
	  "'devices_per_node' must be a whole number (got '4.9')" },
	{ "nics_per_node: 2", "nics_per_node: 2abc",
	  "'nics_per_node' must be a whole number (got '2abc')" },
	{ "bandwidth_GBps: 50", "bandwidth_GBps: 2abc",
	  "'bandwidth_GBps' must be a number (got '2abc')" },
	{ "eff_gemm: 0.8", "eff_gemm: 0.8x",
	  "'eff_gemm' must be a number (got '0.8x')" },
	{ "eff_conv1x1: 0.45", "eff_conv1x1: 1.5",
	  "'eff_conv1x1' must be in (0, 1] (got 1.5)" },
	{ "eff_conv1x1s: 0.3", "eff_conv1x1s: 0",
	  "'eff_conv1x1s' must be in (0, 1] (got 0)" },
	{ "eff_conv1x1s: 0.3", "eff_conv1x1s: 0.3x",
	  "'eff_conv1x1s' must be a number (got '0.3x')" },
	{ "matrix_tflops: 40", "matrix_tflops: 1e300",
	  "'matrix_tflops' is implausibly large (got 1e+300)" },
	{ "capacity_GiB: 32", "capacity_GiB: 1e300",
	  "'capacity_GiB' is implausibly large" },
	{ "bandwidth_GBps: 50", "bandwidth_GBps: 1e300",
	  "'bandwidth_GBps' is implausibly large" },
	{ "latency_us: 1.5", "latency_us: 1e300",
	  "'latency_us' is implausibly large" },
	{ "oversubscription: 2", "oversubscription: 1e300",
	  "'oversubscription' is implausibly large" },
	{ "clock_boost_mhz: 1500", "clock_boost_mhz: 1e300",
	  "'clock_boost_mhz' is implausibly large" },
	{ "price_usd: 10000", "price_usd: 1.5e9",
	  "'price_usd' is implausibly large (got 1.5e+09)" },
	{ "units: 100", "units: 2000000000",
	  "'units' is implausibly large (got 2e+09)" },
	{ "intra_links_per_device: 3", "intra_links_per_device: 1000000001",
	  "'intra_links_per_device' is implausibly large" },
	/* the bound itself is allowed */
	{ "price_usd: 10000", "price_usd: 1e9", NULL },
	{ "units: 100", "units: 1000000000", NULL },
};

#define N_NUMBERS ((int)(sizeof(numbers) / sizeof(numbers[0])))

START_TEST(numbers_must_be_well_formed_and_plausible)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0 };
	char *text, prefix[32];
	int line, rc;

	text = mutated(numbers[_i].from, numbers[_i].to, &line);
	snprintf(prefix, sizeof(prefix), "inline:%d: ", line);
	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	rc = hw_catalog_add_text(cat, "inline", text, strlen(text), &err);
	free(text);
	if (!numbers[_i].needle) {
		ck_assert_msg(rc == DLSIM_OK, "%s", err.msg);
		ck_assert_int_eq(hw_catalog_n_devices(cat), 2);
		hw_catalog_free(cat);
		return;
	}
	ck_assert_msg(rc == DLSIM_EPARSE, "%s: code %d (%s)",
		      numbers[_i].to, rc, err.msg);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0 &&
		      strstr(err.msg, numbers[_i].needle) != NULL,
		      "message '%s', expected '%s%s'", err.msg, prefix,
		      numbers[_i].needle);
	ck_assert_int_eq(hw_catalog_n_devices(cat), 0);
	ck_assert_int_eq(hw_catalog_n_links(cat), 0);
	hw_catalog_free(cat);
}
END_TEST

/* ---------------------------------------------------------------- */
/* LogGP and topology fields                                         */
/* ---------------------------------------------------------------- */

/*
 * The optional LogGP figures of a link (configs/hw/README.md): o and g
 * in microseconds, the eager limit in bytes, the rendezvous handshake as
 * written or one round trip 2 (L + o); absent, the alpha-beta form (all
 * zero).  A network's leaf size and torus dims; a node's PCIe switches.
 */
static const char loggp_text[] =
	"links:\n"
	"  - {name: ibx, kind: infiniband, bandwidth_GBps: 25,\n"
	"     latency_us: 0.5, overhead_us: 0.25, gap_us: 1,\n"
	"     eager_limit_bytes: 12288, source: s}\n"
	"  - {name: ibr, kind: infiniband, bandwidth_GBps: 25,\n"
	"     latency_us: 0.5, eager_limit_bytes: 65536,\n"
	"     rendezvous_us: 3, source: s}\n"
	"  - {name: plain, kind: nvlink, bandwidth_GBps: 25,\n"
	"     latency_us: 0.5, source: s}\n"
	"networks:\n"
	"  - {name: tor, topology: torus, oversubscription: 1,\n"
	"     dims: 4x4x8, source: s}\n"
	"  - {name: leafy, topology: fat-tree, oversubscription: 2,\n"
	"     nodes_per_leaf: 16, source: s}\n"
	"nodes:\n"
	"  - {name: pbox, device: tgpu, devices_per_node: 8,\n"
	"     intra_link: plain, intra_links_per_device: 1,\n"
	"     intra_topology: pcie-tree, devices_per_pcie_switch: 4,\n"
	"     source: s}\n";

START_TEST(loggp_and_topology_fields_are_read)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0 };
	const struct hw_link *l;
	const struct hw_network *n;

	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	ck_assert_msg(hw_catalog_add_text(cat, "inline", loggp_text,
					  strlen(loggp_text), &err) == 0,
		      "%s", err.msg);
	l = hw_link_find(cat, "ibx");
	ck_assert_rel(l->overhead_s, 0.25e-6, 1e-12);
	ck_assert_rel(l->gap_s, 1e-6, 1e-12);
	ck_assert(l->eager_limit_bytes == 12288.0);
	ck_assert_rel(l->rendezvous_s, 1.5e-6, 1e-12);
	l = hw_link_find(cat, "ibr");
	ck_assert(l->overhead_s == 0.0 && l->gap_s == 0.0);
	ck_assert(l->eager_limit_bytes == 65536.0);
	ck_assert_rel(l->rendezvous_s, 3e-6, 1e-12);
	l = hw_link_find(cat, "plain");
	ck_assert(l->overhead_s == 0.0 && l->gap_s == 0.0 &&
		  l->eager_limit_bytes == 0.0);
	n = hw_network_find(cat, "tor");
	ck_assert_int_eq(n->n_dims, 3);
	ck_assert(n->dims[0] == 4 && n->dims[1] == 4 && n->dims[2] == 8);
	ck_assert_int_eq(n->nodes_per_leaf, 0);
	n = hw_network_find(cat, "leafy");
	ck_assert_int_eq(n->nodes_per_leaf, 16);
	ck_assert_int_eq(n->n_dims, 0);
	ck_assert_int_eq(hw_node_find(cat, "pbox")->devices_per_pcie_switch,
			 4);
	hw_catalog_free(cat);
}
END_TEST

/* One link, network and node; each %s is one line of fields. */
static const char field_text[] =
	"links:\n"                                   /* 1 */
	"  - name: ibx\n"
	"    kind: infiniband\n"
	"    bandwidth_GBps: 25\n"
	"    latency_us: 0.5\n"
	"    %s\n"                                   /* 6 */
	"    source: s\n"
	"networks:\n"
	"  - name: net\n"
	"    topology: %s\n"                         /* 10 */
	"    oversubscription: 2\n"
	"    %s\n"                                   /* 12 */
	"    source: s\n"
	"nodes:\n"
	"  - name: box\n"
	"    device: tgpu\n"
	"    devices_per_node: 4\n"
	"    intra_link: ibx\n"
	"    intra_links_per_device: 1\n"
	"    intra_topology: %s\n"                   /* 20 */
	"    %s\n"                                   /* 21 */
	"    source: s\n";

/* The fields on lines 6, 10, 12, 20 and 21, the line of the mistake and
 * what the message says; a NULL needle: it loads. */
static const struct {
	const char *link, *topo, *net, *intra, *node;
	int line;
	const char *needle;
} fields[] = {
	{ "gap_us: -1", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 0", 6, "'gap_us' must not be negative" },
	{ "overhead_us: 2abc", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 0", 6,
	  "'overhead_us' must be a number (got '2abc')" },
	{ "overhead_us: 1e300", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 0", 6, "'overhead_us' is implausibly" },
	{ "eager_limit_bytes: 1.5", "fat-tree", "nodes_per_leaf: 0",
	  "nvswitch", "devices_per_pcie_switch: 0", 6,
	  "'eager_limit_bytes' must be a whole number (got '1.5')" },
	{ "eager_limit_bytes: -2", "fat-tree", "nodes_per_leaf: 0",
	  "nvswitch", "devices_per_pcie_switch: 0", 6,
	  "'eager_limit_bytes' must not be negative" },
	{ "rendezvous_us: 3", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 0", 6,
	  "'rendezvous_us' needs 'eager_limit_bytes'" },
	{ "rendezvous_us: -3", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 0", 6,
	  "'rendezvous_us' must not be negative" },
	{ "gap_us: 0", "fat-tree", "dims: 4x4", "nvswitch",
	  "devices_per_pcie_switch: 0", 12, "'dims' is for a torus only" },
	{ "gap_us: 0", "torus", "dims: 4x", "nvswitch",
	  "devices_per_pcie_switch: 0", 12,
	  "'dims' must be up to 4 whole numbers joined by 'x'" },
	{ "gap_us: 0", "torus", "dims: 4x4x4x4x4", "nvswitch",
	  "devices_per_pcie_switch: 0", 12, "(got '4x4x4x4x4')" },
	{ "gap_us: 0", "torus", "dims: 0x4", "nvswitch",
	  "devices_per_pcie_switch: 0", 12, "'dims' sizes must be in" },
	{ "gap_us: 0", "torus", "dims: 100000x100000", "nvswitch",
	  "devices_per_pcie_switch: 0", 12,
	  "'dims' multiply out to implausibly many" },
	{ "gap_us: 0", "torus", "nodes_per_leaf: 8", "nvswitch",
	  "devices_per_pcie_switch: 0", 12,
	  "'nodes_per_leaf' is for switched networks" },
	{ "gap_us: 0", "fat-tree", "nodes_per_leaf: 2.5", "nvswitch",
	  "devices_per_pcie_switch: 0", 12,
	  "'nodes_per_leaf' must be a whole number (got '2.5')" },
	{ "gap_us: 0", "fat-tree", "nodes_per_leaf: 0", "pcie-tree",
	  "devices_per_pcie_switch: 8", 21,
	  "'devices_per_pcie_switch' must be in 0..4 (got 8)" },
	{ "gap_us: 0", "fat-tree", "nodes_per_leaf: 0", "nvswitch",
	  "devices_per_pcie_switch: 2", 21, "needs intra_topology pcie-tree" },
	/* all well formed */
	{ "eager_limit_bytes: 64000", "torus", "dims: 16x16", "pcie-tree",
	  "devices_per_pcie_switch: 2", 0, NULL },
	{ "rendezvous_us: 0", "fat-tree", "nodes_per_leaf: 24", "pcie-tree",
	  "devices_per_pcie_switch: 4", 6, "'rendezvous_us' needs" },
};

#define N_FIELDS ((int)(sizeof(fields) / sizeof(fields[0])))

START_TEST(loggp_and_topology_fields_are_checked)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0 };
	char text[sizeof(field_text) + 256], prefix[32];
	int rc;

	snprintf(text, sizeof(text), field_text, fields[_i].link,
		 fields[_i].topo, fields[_i].net, fields[_i].intra,
		 fields[_i].node);
	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	rc = hw_catalog_add_text(cat, "inline", text, strlen(text), &err);
	if (!fields[_i].needle) {
		ck_assert_msg(rc == DLSIM_OK, "%s", err.msg);
		ck_assert_int_eq(hw_catalog_n_links(cat), 1);
		hw_catalog_free(cat);
		return;
	}
	snprintf(prefix, sizeof(prefix), "inline:%d: ", fields[_i].line);
	ck_assert_msg(rc == DLSIM_EPARSE, "%s: code %d (%s)", text, rc,
		      err.msg);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0 &&
		      strstr(err.msg, fields[_i].needle) != NULL,
		      "message '%s', expected '%s...%s'", err.msg, prefix,
		      fields[_i].needle);
	ck_assert_int_eq(hw_catalog_n_links(cat), 0);
	ck_assert_int_eq(hw_catalog_n_networks(cat), 0);
	hw_catalog_free(cat);
}
END_TEST

/* ---------------------------------------------------------------- */
/* ring_links                                                        */
/* ---------------------------------------------------------------- */

/* A node of 4 devices with 3 links each; %s on line 10 is its topology,
 * on line 12 its ring_links (and what follows). */
static const char ring_text[] =
	"links:\n"                                   /* 1 */
	"  - {name: nv, kind: nvlink, bandwidth_GBps: 25, latency_us: 1,\n"
	"     source: s}\n"
	"nodes:\n"
	"  - name: cube\n"                           /* 5 */
	"    device: tgpu\n"
	"    devices_per_node: 4\n"
	"    intra_link: nv\n"
	"    intra_links_per_device: 3\n"
	"    intra_topology: %s\n"                   /* 10 */
	"    source: s\n"
	"    %s\n";                                  /* 12 */

/* The node's ring_links as written, the line of the mistake and what
 * the message says; a NULL needle: it loads. */
static const struct {
	const char *topo, *ring;
	int line;
	const char *needle;
} rings[] = {
	{ "hybrid-cube-mesh", "ring_links: [1, 2.5]", 12,
	  "'ring_links' entries must be whole numbers (got '2.5')" },
	{ "hybrid-cube-mesh", "ring_links: [2abc]", 12,
	  "must be whole numbers (got '2abc')" },
	{ "hybrid-cube-mesh", "ring_links: [1, 1e3]", 12,
	  "must be whole numbers (got '1e3')" },
	{ "hybrid-cube-mesh", "ring_links: [1, 0x2]", 12,
	  "must be whole numbers (got '0x2')" },
	{ "hybrid-cube-mesh", "ring_links: [1, 02]", 12,
	  "must be whole numbers (got '02')" },
	{ "hybrid-cube-mesh", "ring_links: [1, -1]", 12,
	  "must be whole numbers (got '-1')" },
	{ "hybrid-cube-mesh", "ring_links: [1, 0]", 12,
	  "'ring_links' entry 2 must be in 1..3, the links per device "
	  "(got 0)" },
	{ "hybrid-cube-mesh", "ring_links: [1, 1, 4]", 12,
	  "'ring_links' entry 3 must be in 1..3, the links per device "
	  "(got 4)" },
	{ "hybrid-cube-mesh", "ring_links: [1, 1, 99999999999999999999]", 12,
	  "must be whole numbers (got '99999999999999999999')" },
	{ "hybrid-cube-mesh", "ring_links: [1, 1, 2, 3, 3]", 12,
	  "'ring_links' lists 5 entries, one per device count, but node "
	  "'cube' has 4 devices" },
	/* a block sequence: the line of the item */
	{ "hybrid-cube-mesh", "ring_links:\n      - 1\n      - 3.0", 14,
	  "must be whole numbers (got '3.0')" },
	{ "torus", "ring_links: [1, 1]", 12,
	  "'ring_links' is not for intra_topology ring or torus" },
	{ "ring", "ring_links: [1, 1]", 12,
	  "'ring_links' is not for intra_topology ring or torus" },
	/* libcyaml's own: a scalar, an empty list */
	{ "hybrid-cube-mesh", "ring_links: 3", 12, "" },
	{ "hybrid-cube-mesh", "ring_links: []", 12, "" },
	/* all well formed */
	{ "hybrid-cube-mesh", "ring_links: [1, 1, 2, 3]", 0, NULL },
	{ "all-to-all", "ring_links: [1, 3]", 0, NULL },
	{ "nvswitch", "ring_links:\n      - 1\n      - 3", 0, NULL },
};

#define N_RINGS ((int)(sizeof(rings) / sizeof(rings[0])))

START_TEST(ring_links_are_checked)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0 };
	char text[sizeof(ring_text) + 256], prefix[32];
	int rc;

	snprintf(text, sizeof(text), ring_text, rings[_i].topo,
		 rings[_i].ring);
	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	rc = hw_catalog_add_text(cat, "inline", text, strlen(text), &err);
	if (!rings[_i].needle) {
		ck_assert_msg(rc == DLSIM_OK, "%s", err.msg);
		ck_assert_int_eq(hw_catalog_n_links(cat), 1);
		hw_catalog_free(cat);
		return;
	}
	snprintf(prefix, sizeof(prefix), "inline:%d: ", rings[_i].line);
	ck_assert_msg(rc == DLSIM_EPARSE, "%s: code %d (%s)", text, rc,
		      err.msg);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0 &&
		      strstr(err.msg, rings[_i].needle) != NULL,
		      "message '%s', expected '%s...%s'", err.msg, prefix,
		      rings[_i].needle);
	ck_assert_int_eq(hw_catalog_n_links(cat), 0);
	hw_catalog_free(cat);
}
END_TEST

/* Read as written: entry g - 1 for g devices; absent, none.  The shipped
 * DGX-1 vectors are checked in test_collective.c. */
START_TEST(ring_links_are_read)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0 };
	const struct hw_node *n;
	char text[sizeof(ring_text) + 64];

	snprintf(text, sizeof(text), ring_text, "hybrid-cube-mesh",
		 "ring_links: [1, 1, 2, 3]");
	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	ck_assert_msg(hw_catalog_add_text(cat, "inline", text, strlen(text),
					  &err) == DLSIM_OK, "%s", err.msg);
	n = hw_node_find(cat, "cube");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_eq(n->n_ring_links, 4);
	ck_assert(n->ring_links[0] == 1 && n->ring_links[1] == 1 &&
		  n->ring_links[2] == 2 && n->ring_links[3] == 3);
	hw_catalog_free(cat);
	cat = new_catalog();
	ck_assert_int_eq(hw_node_find(cat, "dgxa")->n_ring_links, 0);
	hw_catalog_free(cat);
}
END_TEST

/* ---------------------------------------------------------------- */
/* hw_system_resolve                                                 */
/* ---------------------------------------------------------------- */

/* What a resolved system must be; NULL names mean "no such part". */
struct want {
	const char *device, *node, *intra, *nic, *network;
	int64_t n_devices, per_node, n_nodes;
};

/* One part of a system by name: got and want both NULL, or equal. */
static void assert_part(const char *spec, const char *what,
			const char *got, const char *want)
{
	if (want)
		ck_assert_msg(got && strcmp(got, want) == 0,
			      "%s: %s is '%s', expected '%s'", spec, what,
			      got ? got : "(none)", want);
	else
		ck_assert_msg(got == NULL, "%s: %s is '%s', expected none",
			      spec, what, got);
}

static void assert_system(const struct hw_system *s, const struct want *w)
{
	ck_assert_ptr_nonnull(s->device);
	ck_assert_str_eq(s->device->name, w->device);
	assert_part(s->spec, "node", s->node ? s->node->name : NULL, w->node);
	assert_part(s->spec, "intra", s->intra ? s->intra->name : NULL,
		    w->intra);
	assert_part(s->spec, "nic", s->nic ? s->nic->name : NULL, w->nic);
	assert_part(s->spec, "network",
		    s->network ? s->network->name : NULL, w->network);
	ck_assert_int_eq(s->n_devices, w->n_devices);
	ck_assert_int_eq(s->devices_per_node, w->per_node);
	ck_assert_int_eq(s->n_nodes, w->n_nodes);
}

static void resolve_ok(struct hw_catalog *cat, const char *spec,
		       const struct want *w)
{
	struct dlsim_err err = { 0 };
	struct hw_system s;

	ck_assert_msg(hw_system_resolve(cat, spec, &s, &err) == DLSIM_OK,
		      "%s: %s", spec, err.msg);
	ck_assert_str_eq(s.spec, spec);
	assert_system(&s, w);
}

/*
 * A failure returns code, says something naming `needle`, and leaves
 * the output all zero, whatever it held before.
 */
static void resolve_fails(struct hw_catalog *cat, const char *spec,
			  int code, const char *needle)
{
	struct dlsim_err err = { 0 };
	struct hw_system s, zero;

	memset(&s, 0x5a, sizeof(s));
	memset(&zero, 0, sizeof(zero));
	ck_assert_msg(hw_system_resolve(cat, spec, &s, &err) == code,
		      "'%s': %s (code %d, expected %d)", spec ? spec : "NULL",
		      err.msg, err.code, code);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(memcmp(&s, &zero, sizeof(s)) == 0,
		      "'%s': output not zeroed", spec ? spec : "NULL");
	if (needle)
		ck_assert_msg(strstr(err.msg, needle) != NULL,
			      "'%s': message '%s' does not mention '%s'",
			      spec, err.msg, needle);
}

/* dlsim.h, struct hw_system: node is "NULL for a single device", intra
 * "NULL if one device per node", nic "NULL if one node". */
/* One device sits in its usual node (where it would be bought) but
 * uses no link. */
START_TEST(resolve_single_device_has_no_links)
{
	struct hw_catalog *cat = new_catalog();
	const struct want one = { "tgpu", "dgxa", NULL, NULL, NULL, 1, 1, 1 };
	const struct want cpu = {
		"xeon-x8", "ws1", NULL, NULL, NULL, 1, 1, 1
	};

	resolve_ok(cat, "tgpu", &one);
	resolve_ok(cat, "tgpux1", &one);
	resolve_ok(cat, "test-gpu", &one);
	/* an exact name wins over a split: one xeon-x8, not eight of a
	 * device "xeon-" */
	resolve_ok(cat, "xeon-x8", &cpu);
	resolve_ok(cat, "xeon-x8x1", &cpu);
	hw_catalog_free(cat);
}
END_TEST

/* DEVICExN packs N devices into the device's usual node (dgxa, 4 per
 * node): up to 4 share one node; 8 fill two. */
START_TEST(resolve_devices_within_and_across_nodes)
{
	struct hw_catalog *cat = new_catalog();
	const struct want two = {
		"tgpu", "dgxa", "tlink", NULL, NULL, 2, 2, 1
	};
	const struct want four = {
		"tgpu", "dgxa", "tlink", NULL, NULL, 4, 4, 1
	};
	const struct want eight = {
		"tgpu", "dgxa", "tlink", "tnic", "tfat", 8, 4, 2
	};
	const struct want many = {
		"tgpu", "dgxa", "tlink", "tnic", "tfat", 4000, 4, 1000
	};

	resolve_ok(cat, "tgpux2", &two);
	resolve_ok(cat, "tgpux4", &four);
	resolve_ok(cat, "tgpux8", &eight);
	resolve_ok(cat, "tgpux4000", &many);
	/* aliases, including one holding an 'x' itself */
	resolve_ok(cat, "test-gpux8", &eight);
	resolve_ok(cat, "tgpu-sxmx4", &four);
	hw_catalog_free(cat);
}
END_TEST

/* NAME or NAMExN for a node: N whole nodes.  "dgxa" holds an 'x', so
 * "dgxax3" must split at the last one. */
START_TEST(resolve_nodes_split_at_last_x)
{
	struct hw_catalog *cat = new_catalog();
	const struct want one = {
		"tgpu", "dgxa", "tlink", NULL, NULL, 4, 4, 1
	};
	const struct want three = {
		"tgpu", "dgxa", "tlink", "tnic", "tfat", 12, 4, 3
	};
	const struct want two = {
		"tgpu", "dgxa", "tlink", "tnic", "tfat", 8, 4, 2
	};
	const struct want ws = { "xeon-x8", "ws1", NULL, NULL, NULL, 1, 1, 1 };

	resolve_ok(cat, "dgxa", &one);
	resolve_ok(cat, "dgxax1", &one);
	resolve_ok(cat, "dgxax3", &three);
	resolve_ok(cat, "dgx-ax2", &two);
	resolve_ok(cat, "ws1", &ws);
	hw_catalog_free(cat);
}
END_TEST

START_TEST(resolve_rejects_malformed_counts)
{
	struct hw_catalog *cat = new_catalog();

	resolve_fails(cat, "tgpux0", DLSIM_EINVAL, "'0'");
	resolve_fails(cat, "x64", DLSIM_EINVAL, "x64");
	resolve_fails(cat, "tgpux-3", DLSIM_EINVAL, "-3");
	resolve_fails(cat, "tgpux12abc", DLSIM_EINVAL, "12abc");
	resolve_fails(cat, "tgpux", DLSIM_EINVAL, NULL);
	resolve_fails(cat, "tgpux 2", DLSIM_EINVAL, NULL);
	resolve_fails(cat, "", DLSIM_EINVAL, NULL);
	resolve_fails(cat, NULL, DLSIM_EINVAL, NULL);
	/* well-formed, but more than HW_MAX_COUNT */
	resolve_fails(cat, "tgpux99999999999999999999", DLSIM_ERANGE, NULL);
	resolve_fails(cat, "dgxax100000001", DLSIM_ERANGE, NULL);
	hw_catalog_free(cat);
}
END_TEST

START_TEST(resolve_unknown_name_is_notfound)
{
	struct hw_catalog *cat = new_catalog();

	resolve_fails(cat, "nosuch", DLSIM_ENOTFOUND, "nosuch");
	resolve_fails(cat, "nosuchx4", DLSIM_ENOTFOUND, "nosuch");
	/* links and networks are not systems */
	resolve_fails(cat, "tlink", DLSIM_ENOTFOUND, "tlink");
	resolve_fails(cat, "TGPU", DLSIM_ENOTFOUND, "TGPU");
	hw_catalog_free(cat);
}
END_TEST

/* 4 per node: 6 lies between 4 and 8, 10 between 8 and 12, 5 between 4
 * and 8; the message offers the nearest valid counts. */
START_TEST(resolve_count_must_fill_whole_nodes)
{
	struct hw_catalog *cat = new_catalog();
	struct dlsim_err err = { 0 };
	struct hw_system s;

	resolve_fails(cat, "tgpux6", DLSIM_EINVAL, "(4 or 8)");
	resolve_fails(cat, "tgpux5", DLSIM_EINVAL, "(4 or 8)");
	resolve_fails(cat, "tgpux10", DLSIM_EINVAL, "(8 or 12)");
	hw_system_resolve(cat, "tgpux6", &s, &err);
	ck_assert_ptr_nonnull(strstr(err.msg, "dgxa"));
	hw_catalog_free(cat);
}
END_TEST

/* ws1 has no nic_link: one such node is a system, two are not. */
START_TEST(resolve_multi_node_needs_a_nic)
{
	struct hw_catalog *cat = new_catalog();

	resolve_fails(cat, "xeon-x8x2", DLSIM_EINVAL, "ws1");
	resolve_fails(cat, "ws1x2", DLSIM_EINVAL, "ws1");
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_hw(void)
{
	Suite *s = suite_create("hw");
	TCase *tc = tcase_create("catalog");

	tcase_add_test(tc, units_convert_to_si);
	tcase_add_test(tc, links_networks_and_nodes_are_read);
	tcase_add_test(tc, lookups_by_name_and_alias);
	tcase_add_test(tc, kind_and_topology_names);
	tcase_add_test(tc, device_supports_exactly_its_listed_precisions);
	tcase_add_test(tc, auto_precision_prefers_bf16_then_fp16_then_fp32);
	tcase_add_loop_test(tc, bad_file_names_line_and_adds_nothing, 0,
			    N_BAD);
	tcase_add_test(tc, redefinition_names_both_places_and_rolls_back);
	tcase_add_test(tc, duplicate_inside_one_text_is_an_error);
	tcase_add_test(tc, missing_file_is_eio);
	tcase_add_test(tc, catalog_check_finds_unknown_link);
	tcase_add_test(tc, calibration_from_is_read_and_checked);
	tcase_add_test(tc, host_link_is_read_and_checked);
	tcase_add_loop_test(tc, numbers_must_be_well_formed_and_plausible,
			    0, N_NUMBERS);
	tcase_add_test(tc, loggp_and_topology_fields_are_read);
	tcase_add_test(tc, ring_links_are_read);
	tcase_add_loop_test(tc, ring_links_are_checked, 0, N_RINGS);
	tcase_add_loop_test(tc, loggp_and_topology_fields_are_checked, 0,
			    N_FIELDS);
	suite_add_tcase(s, tc);

	tc = tcase_create("system");
	tcase_add_test(tc, resolve_single_device_has_no_links);
	tcase_add_test(tc, resolve_devices_within_and_across_nodes);
	tcase_add_test(tc, resolve_nodes_split_at_last_x);
	tcase_add_test(tc, resolve_rejects_malformed_counts);
	tcase_add_test(tc, resolve_unknown_name_is_notfound);
	tcase_add_test(tc, resolve_count_must_fill_whole_nodes);
	tcase_add_test(tc, resolve_multi_node_needs_a_nic);
	suite_add_tcase(s, tc);
	return s;
}
