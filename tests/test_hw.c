/*
 * test_hw.c -- reading catalog files (hw/hw_schema.c, hw/hw_convert.c,
 * hw/hw_catalog.c): units, lookups, precisions, and the errors a file can
 * hold.  Numbers and link, node and network fields are
 * test_hw_fields.c; resolving --hw strings into systems
 * (hw/hw_system.c) is test_hw_resolve.c.  --hw files, the rollback of a
 * failed one, and entries that stay put as the catalog grows are in
 * test_catalog.c.
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
#include "hw_util.h"

#define DIR HW_TEST_DIR
#define CATALOG DIR "good/catalog.yaml"

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
	struct hw_catalog *cat = hw_test_catalog();
	const struct hw_device *d = hw_test_device(cat, "tgpu");
	const struct hw_device *cpu = hw_test_device(cat, "xeon-x8");

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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();
	const struct hw_device *d = hw_test_device(cat, "tgpu");

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
	struct hw_catalog *cat = hw_test_catalog();
	const struct hw_device *d = hw_test_device(cat, "tgpu");
	const struct hw_device *cpu = hw_test_device(cat, "xeon-x8");

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
	struct hw_catalog *cat = hw_test_catalog();
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
 * both places: redefine.yaml line 10 and good/catalog.yaml line 96.
 */
START_TEST(redefinition_names_both_places_and_rolls_back)
{
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_add_file(cat, DIR "redefine.yaml", &err),
			 DLSIM_EPARSE);
	ck_assert_ptr_nonnull(strstr(err.msg, DIR "redefine.yaml:10"));
	ck_assert_ptr_nonnull(strstr(err.msg, CATALOG ":96"));
	ck_assert_ptr_null(hw_node_find(cat, "newbox"));

	/* the alias clash names ws1's own place, catalog.yaml line 126 */
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0 };
	const char *y = twin_yaml("tgpu", "\"same chip: made up for tests\"");
	const struct hw_device *d;

	ck_assert_msg(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					  &err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
	d = hw_test_device(cat, "tgpu-twin");
	ck_assert_str_eq(d->calib_from, "tgpu");
	ck_assert_str_eq(d->calib_from_source, "same chip: made up for tests");
	ck_assert_rel(d->calib_flop_scale[DLSIM_FP32], 1.25, 1e-12);
	ck_assert_rel(d->calib_flop_scale[DLSIM_FP16], 1.0, 1e-12);
	ck_assert_rel(d->calib_byte_scale, 1.25, 1e-12);
	ck_assert_str_eq(hw_test_device(cat, "tgpu")->calib_from, "");
	ck_assert_rel(hw_test_device(cat, "tgpu")->calib_flop_scale[DLSIM_FP32], 1.0,
		      1e-12);
	ck_assert_rel(hw_test_device(cat, "tgpu")->calib_byte_scale, 1.0, 1e-12);
	hw_catalog_free(cat);

	/* named by an alias, it is held by the name the fits are stored
	 * under */
	cat = hw_test_catalog();
	y = twin_yaml("test-gpu", "\"same chip: made up for tests\"");
	ck_assert_int_eq(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					     &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
	ck_assert_str_eq(hw_test_device(cat, "tgpu-twin")->calib_from, "tgpu");
	ck_assert_rel(hw_test_device(cat, "tgpu-twin")->calib_byte_scale, 1.25, 1e-12);
	hw_catalog_free(cat);

	cat = hw_test_catalog();
	y = twin_yaml("nosuch", "\"made up\"");
	ck_assert_int_eq(hw_catalog_add_text(cat, "twin.yaml", y, strlen(y),
					     &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "twin.yaml:2: device 'tgpu-twin': "
			     "calibration_from 'nosuch' is not in the "
			     "catalog") != NULL, "%s", err.msg);
	hw_catalog_free(cat);

	cat = hw_test_catalog();
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

/* Each of n texts read into the test catalog as h.yaml: where want[i] is
 * NULL the check passes and ok sees the catalog, else it fails naming
 * want[i]. */
static void check_node_texts(const char *const *text,
			     const char *const *want, int n,
			     void (*ok)(const struct hw_catalog *))
{
	int i;

	for (i = 0; i < n; i++) {
		struct hw_catalog *cat = hw_test_catalog();
		struct dlsim_err err = { 0 };

		ck_assert_msg(hw_catalog_add_text(cat, "h.yaml", text[i],
						  strlen(text[i]), &err) ==
			      DLSIM_OK, "%s", err.msg);
		if (!want[i]) {
			ck_assert_int_eq(hw_catalog_check(cat, &err), DLSIM_OK);
			ok(cat);
		} else {
			ck_assert_int_eq(hw_catalog_check(cat, &err),
					 DLSIM_EPARSE);
			ck_assert_msg(strstr(err.msg, want[i]) != NULL, "%s",
				      err.msg);
		}
		hw_catalog_free(cat);
	}
}

static void host_link_ok(const struct hw_catalog *cat)
{
	ck_assert_str_eq(hw_node_find(cat, "hbox")->host_link, "tlink");
}

static void calib_from_ok(const struct hw_catalog *cat)
{
	ck_assert_str_eq(hw_node_find(cat, "cbox")->calib_from, "dgxa");
	ck_assert_str_eq(hw_node_find(cat, "dgxa")->calib_from, "");
}

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
	check_node_texts(text, want, 3, host_link_ok);
}
END_TEST

/* A node's calibration_from must name a node of the catalog and say
 * where the fits it takes were measured; named by an alias (dgx-a), it
 * is held by the name the fits are stored under (dgxa). */
START_TEST(node_calibration_from_is_read_and_checked)
{
	static const char *const text[] = {
		"nodes:\n  - name: cbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    calibration_from: dgx-a\n"
		"    calibration_from_source: \"made up\"\n"
		"    source: \"made up for tests\"\n",
		"nodes:\n  - name: cbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    calibration_from: tgpu\n"
		"    calibration_from_source: \"made up\"\n"
		"    source: \"made up for tests\"\n",
		"nodes:\n  - name: cbox\n    device: tgpu\n"
		"    devices_per_node: 1\n    intra_topology: single\n"
		"    calibration_from: dgxa\n    source: \"made up\"\n",
	};
	static const char *const want[] = { NULL,
		"h.yaml:2: node 'cbox': calibration_from 'tgpu' is not a node "
		"in the catalog",
		"h.yaml:2: node 'cbox': calibration_from needs a "
		"calibration_from_source" };
	check_node_texts(text, want, 3, calib_from_ok);
}
END_TEST

/* dangling.yaml reads cleanly; only the cross-reference check can see
 * that its node "lostbox" (line 4) names a link nobody defined. */
START_TEST(catalog_check_finds_unknown_link)
{
	struct hw_catalog *cat = hw_test_catalog();
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

/*
 * A compiled-in file is read unchecked; one that fails before its entries
 * are merged is read again the checked way, so that its message names
 * the line, as a user file's does: a negative latency on line 6 (the
 * unchecked read names no line: 0).  One that fails at the merge, a name
 * the catalog already holds, keeps the first message, which names the
 * entry's line.  Good text reads as the checked reader reads it.
 */
START_TEST(builtin_read_names_the_line_of_a_broken_file)
{
	static const char broken[] =
		"links:\n"
		"  - name: blink\n"
		"    kind: nvlink\n"
		"    bandwidth_GBps: 50\n"
		"    source: \"made up\"\n"
		"    latency_us: -1\n";
	static const char dup[] =
		"links:\n"
		"  - name: tlink\n"
		"    kind: nvlink\n"
		"    bandwidth_GBps: 50\n"
		"    latency_us: 1\n"
		"    source: \"made up\"\n";
	static const char good[] =
		"links:\n"
		"  - name: glink\n"
		"    kind: nvlink\n"
		"    bandwidth_GBps: 50\n"
		"    latency_us: 1\n"
		"    source: \"made up\"\n";
	struct hw_builtin_file f = { "b.yaml", broken, sizeof(broken) - 1 };
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0 };
	int n = hw_catalog_n_links(cat);

	ck_assert_int_eq(hw_builtin_read(cat, &f, &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "b.yaml:6:") != NULL, "%s", err.msg);
	ck_assert_int_eq(hw_catalog_n_links(cat), n);
	dlsim_err_clear(&err);
	f.data = dup;
	f.size = sizeof(dup) - 1;
	ck_assert_int_eq(hw_builtin_read(cat, &f, &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "b.yaml:2:") != NULL &&
		      strstr(err.msg, "tlink") != NULL, "%s", err.msg);
	ck_assert_int_eq(hw_catalog_n_links(cat), n);
	dlsim_err_clear(&err);
	f.data = good;
	f.size = sizeof(good) - 1;
	ck_assert_int_eq(hw_builtin_read(cat, &f, &err), DLSIM_OK);
	ck_assert_int_eq(hw_catalog_n_links(cat), n + 1);
	ck_assert_int_eq(hw_link_find(cat, "glink")->line, 2);
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_hw(void)
{
	Suite *s = suite_create("hw");
	TCase *tc = tcase_create("catalog");

	tcase_add_test(tc, units_convert_to_si);
	tcase_add_test(tc, builtin_read_names_the_line_of_a_broken_file);
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
	tcase_add_test(tc, node_calibration_from_is_read_and_checked);
	tcase_add_test(tc, host_link_is_read_and_checked);
	suite_add_tcase(s, tc);

	return s;
}
