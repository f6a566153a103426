/*
 * test_hw_fields.c -- the values a catalog file's fields may take
 * (hw/hw_check.c, hw/hw_convert.c): numbers well formed and plausible,
 * and the LogGP, topology and ring fields of links, nodes and networks,
 * read and checked.  Each case mutates one line of the made-up catalog
 * (hw_util.c) and names the line and field the message must give.
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
	/* an integer is quoted whole, not as %g's 2e+09 */
	{ "units: 100", "units: 2000000001",
	  "'units' is implausibly large (got 2000000001)" },
	{ "intra_links_per_device: 3", "intra_links_per_device: 1000000001",
	  "'intra_links_per_device' is implausibly large (got 1000000001)" },
	/* a rate below HW_MIN_RATE is no part's: a 1e-308 TFLOP/s peak made
	 * a step of 1.9e30 s and a training time of inf */
	{ "vector_tflops: 20", "vector_tflops: 1e-308",
	  "'vector_tflops' is implausibly small (got 1e-308)" },
	{ "bandwidth_GBps: 2000", "bandwidth_GBps: 1e-7",
	  "'bandwidth_GBps' is implausibly small (got 1e-07)" },
	{ "bandwidth_GBps: 50", "bandwidth_GBps: -3",
	  "'bandwidth_GBps' must be positive (got -3)" },
	/* and an efficiency below HW_MIN_EFF (a subnormal one made a step
	 * of inf s) */
	{ "eff_gemm: 0.8", "eff_gemm: 4.9e-324",
	  "'eff_gemm' is implausibly small (got 4.94066e-324)" },
	{ "eff_conv1x1: 0.45", "eff_conv1x1: 0.0009",
	  "'eff_conv1x1' is implausibly small (got 0.0009)" },
	/* and a clock other than 0 below HW_MIN_CLOCK_MHZ (1e-300 MHz made
	 * a step of 3.5e30 s) */
	{ "clock_boost_mhz: 1500", "clock_boost_mhz: 1e-300",
	  "'clock_boost_mhz' is implausibly small (got 1e-300)" },
	{ "clock_boost_mhz: 1500", "clock_boost_mhz: -5",
	  "'clock_boost_mhz' must not be negative (got -5)" },
	/* the bounds themselves are allowed (a clock of 0: not published) */
	{ "clock_boost_mhz: 1500", "clock_boost_mhz: 0", NULL },
	{ "clock_boost_mhz: 1500", "clock_boost_mhz: 1", NULL },
	{ "vector_tflops: 20", "vector_tflops: 1e-6", NULL },
	{ "eff_conv1x1: 0.45", "eff_conv1x1: 0.001", NULL },
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
	{ "rendezvous_us: 0", "fat-tree", "nodes_per_leaf: 24", "pcie-tree",
	  "devices_per_pcie_switch: 4", 6, "'rendezvous_us' needs" },
	/* all well formed */
	{ "eager_limit_bytes: 64000", "torus", "dims: 16x16", "pcie-tree",
	  "devices_per_pcie_switch: 2", 0, NULL },
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
	cat = hw_test_catalog();
	ck_assert_int_eq(hw_node_find(cat, "dgxa")->n_ring_links, 0);
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_hw_fields(void)
{
	Suite *s = suite_create("hw_fields");
	TCase *tc = tcase_create("fields");

	tcase_add_loop_test(tc, numbers_must_be_well_formed_and_plausible,
			    0, N_NUMBERS);
	tcase_add_test(tc, loggp_and_topology_fields_are_read);
	tcase_add_test(tc, ring_links_are_read);
	tcase_add_loop_test(tc, ring_links_are_checked, 0, N_RINGS);
	tcase_add_loop_test(tc, loggp_and_topology_fields_are_checked, 0,
			    N_FIELDS);
	suite_add_tcase(s, tc);
	return s;
}
