/*
 * test_hw_resolve.c -- resolving --hw strings into systems
 * (hw/hw_system.c) on the made-up catalog (hw_util.c): one device, DEVICExN
 * within and across nodes, NODExN, malformed counts, unknown names, counts
 * that do not fill whole nodes, and nodes without a network link.
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();

	resolve_fails(cat, "tgpux0", DLSIM_EINVAL, "'0'");
	resolve_fails(cat, "x64", DLSIM_EINVAL, "x64");
	resolve_fails(cat, "tgpux-3", DLSIM_EINVAL, "-3");
	resolve_fails(cat, "tgpux12abc", DLSIM_EINVAL, "12abc");
	resolve_fails(cat, "tgpux", DLSIM_EINVAL, NULL);
	resolve_fails(cat, "tgpux 2", DLSIM_EINVAL, NULL);
	resolve_fails(cat, "", DLSIM_EINVAL, NULL);
	resolve_fails(cat, NULL, DLSIM_EINVAL, NULL);
	/* well-formed, but more than HW_MAX_COUNT (1e8) */
	resolve_fails(cat, "tgpux99999999999999999999", DLSIM_ERANGE,
		      "too large (got '99999999999999999999', at most "
		      "100000000)");
	resolve_fails(cat, "dgxax100000001", DLSIM_ERANGE,
		      "too large (got '100000001'");
	hw_catalog_free(cat);
}
END_TEST

/* A count of nodes under HW_MAX_COUNT may still hold more devices than
 * it: dgxa holds 4, so 25,000,000 nodes are 1e8 devices, the most, and
 * 25,000,001 are 100,000,004. */
START_TEST(resolve_nodes_count_their_devices_against_the_bound)
{
	struct hw_catalog *cat = hw_test_catalog();
	const struct want most = {
		"tgpu", "dgxa", "tlink", "tnic", "tfat", 100000000, 4, 25000000
	};

	resolve_ok(cat, "dgxax25000000", &most);
	resolve_fails(cat, "dgxax25000001", DLSIM_ERANGE,
		      "dgxax25000001: more than 100000000 devices");
	hw_catalog_free(cat);
}
END_TEST

START_TEST(resolve_unknown_name_is_notfound)
{
	struct hw_catalog *cat = hw_test_catalog();

	resolve_fails(cat, "nosuch", DLSIM_ENOTFOUND, "nosuch");
	resolve_fails(cat, "nosuchx4", DLSIM_ENOTFOUND, "nosuch");
	/* an x inside a name is not a count: the whole name is unknown,
	 * not "must be a positive integer (got 'ist')" */
	resolve_fails(cat, "nonexist", DLSIM_ENOTFOUND,
		      "unknown device or node 'nonexist'");
	resolve_fails(cat, "max", DLSIM_ENOTFOUND,
		      "unknown device or node 'max'");
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
	struct hw_catalog *cat = hw_test_catalog();
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
	struct hw_catalog *cat = hw_test_catalog();

	resolve_fails(cat, "xeon-x8x2", DLSIM_EINVAL,
		      "xeon-x8x2: node 'ws1' has no network link");
	resolve_fails(cat, "ws1x2", DLSIM_EINVAL,
		      "ws1x2: node 'ws1' has no network link");
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_hw_resolve(void)
{
	Suite *s = suite_create("hw_resolve");
	TCase *tc = tcase_create("system");

	tcase_add_test(tc, resolve_single_device_has_no_links);
	tcase_add_test(tc, resolve_devices_within_and_across_nodes);
	tcase_add_test(tc, resolve_nodes_split_at_last_x);
	tcase_add_test(tc, resolve_rejects_malformed_counts);
	tcase_add_test(tc, resolve_nodes_count_their_devices_against_the_bound);
	tcase_add_test(tc, resolve_unknown_name_is_notfound);
	tcase_add_test(tc, resolve_count_must_fill_whole_nodes);
	tcase_add_test(tc, resolve_multi_node_needs_a_nic);
	suite_add_tcase(s, tc);
	return s;
}
