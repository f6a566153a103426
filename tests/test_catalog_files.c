/*
 * test_catalog_files.c -- what other files do to a catalog: $DLSIM_PATH
 * directories (what they add, and clashes refused), --hw files (their
 * entries and system: entry, content errors, and that a failed one adds
 * nothing), entries that stay where they are as the catalog grows, and
 * capacity against bandwidth tiers; and the compiled-in files, which
 * hw_catalog_load trusts, read the checked way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "dlsim.h"
#include "hw_util.h"
#include "hw/hw.h"
#include "core/yaml.h"

#define DIR HW_TEST_DIR

/* spec fails with code, a message holding needle, and a zeroed out. */
static void fails(struct hw_catalog *cat, const char *spec, int code,
		  const char *needle)
{
	struct dlsim_err err = { 0, "" };
	struct hw_system s, zero;
	int rc;

	memset(&s, 0x5a, sizeof(s));
	memset(&zero, 0, sizeof(zero));
	rc = hw_system_resolve(cat, spec, &s, &err);
	ck_assert_msg(rc == code && err.code == code &&
		      strstr(err.msg, needle) != NULL,
		      "%s: code %d '%s', expected %d '%s'", spec, rc, err.msg,
		      code, needle);
	ck_assert_msg(memcmp(&s, &zero, sizeof(s)) == 0, "%s: out not zeroed",
		      spec);
}

/* A --hw file: its entries join the catalog, its system: entry says
 * what to build (sys_node.yaml: three of its own two-tgpu node). */
START_TEST(hw_file_with_system_joins_the_catalog)
{
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;

	ck_assert_int_eq(hw_system_resolve(cat, DIR "sys_device.yaml", &s,
					   &err), DLSIM_OK);
	ck_assert_str_eq(s.device->name, "tgpu");
	ck_assert_str_eq(s.node->name, "dgxa");
	ck_assert_int_eq(s.n_devices, 8);
	ck_assert_int_eq(s.n_nodes, 2);
	/* one document with its start and end marked is one document */
	ck_assert_msg(hw_system_resolve(cat, DIR "sys_marked.yaml", &s,
					&err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(s.n_devices, 8);
	ck_assert_int_eq(hw_system_resolve(cat, DIR "sys_node.yaml", &s,
					   &err), DLSIM_OK);
	ck_assert_ptr_eq(s.node, hw_node_find(cat, "pairbox"));
	ck_assert_str_eq(s.intra->name, "tlink");
	ck_assert_str_eq(s.nic->name, "tnic");
	ck_assert_str_eq(s.network->name, "tfat");
	ck_assert_int_eq(s.n_devices, 6);
	ck_assert_int_eq(s.devices_per_node, 2);
	ck_assert_int_eq(s.n_nodes, 3);
	hw_catalog_free(cat);
}
END_TEST

/*
 * Errors in a --hw file's content are the file's: DLSIM_EPARSE at
 * "path:line: " (exit status 1), where the same mistake in a --hw
 * string is a usage error.
 */
START_TEST(hw_file_content_errors_are_parse_errors)
{
	struct hw_catalog *cat = hw_test_catalog();

	/* valid, but nothing says what to build: the document's line */
	fails(cat, DIR "no_system.yaml", DLSIM_EPARSE,
	      DIR "no_system.yaml:1: no 'system:'");
	fails(cat, DIR "sys_both.yaml", DLSIM_EPARSE, DIR "sys_both.yaml:2:");
	/* the names' lines, then the count's */
	fails(cat, DIR "sys_unknown_device.yaml", DLSIM_EPARSE,
	      DIR "sys_unknown_device.yaml:10: unknown device 'nosuch'");
	fails(cat, DIR "sys_unknown_node.yaml", DLSIM_EPARSE,
	      DIR "sys_unknown_node.yaml:3: unknown node 'nosuch'");
	fails(cat, DIR "sys_partial.yaml", DLSIM_EPARSE,
	      DIR "sys_partial.yaml:4: 6 devices do not fill");
	fails(cat, DIR "sys_partial.yaml", DLSIM_EPARSE, "(4 or 8)");
	fails(cat, DIR "sys_no_nic.yaml", DLSIM_EPARSE,
	      DIR "sys_no_nic.yaml:4: node 'ws1'");
	fails(cat, DIR "sys_count_exp.yaml", DLSIM_EPARSE,
	      DIR "sys_count_exp.yaml:4: 'count' must be a whole number");
	/* libcyaml reads the first document and drops the rest: a second
	 * one is refused where it starts, its "---" */
	fails(cat, DIR "sys_second_doc.yaml", DLSIM_EPARSE,
	      DIR "sys_second_doc.yaml:6: a second YAML document starts "
	      "here; the file must hold one");
	fails(cat, DIR "sys_second_system.yaml", DLSIM_EPARSE,
	      DIR "sys_second_system.yaml:6: a second YAML document");
	/* a YAML null libcyaml read as the text "~", and an empty value it
	 * called "STRING length < 1" */
	fails(cat, DIR "sys_null_source.yaml", DLSIM_EPARSE,
	      DIR "sys_null_source.yaml:13: 'source' has no value ('~' is "
	      "YAML's null)");
	fails(cat, DIR "sys_empty_name.yaml", DLSIM_EPARSE,
	      DIR "sys_empty_name.yaml:3: 'name' has no value");
	fails(cat, DIR "no-such.yaml", DLSIM_EIO, "no-such.yaml");
	/* a slash makes it a path without the suffix; a suffix makes it
	 * one without a slash */
	fails(cat, DIR "good", DLSIM_EIO, DIR "good");
	fails(cat, "no-such-hw.yml", DLSIM_EIO, "no-such-hw.yml");
	hw_catalog_free(cat);
}
END_TEST

/*
 * A --hw file that fails after its entries were merged (the
 * cross-reference check; a system naming an unknown device) takes them
 * out again: nothing it defined stays, it fails the same way a second
 * time, and later files still resolve.
 */
START_TEST(failed_hw_file_leaves_catalog_as_it_was)
{
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;
	int nd = hw_catalog_n_devices(cat), nl = hw_catalog_n_links(cat);
	int nn = hw_catalog_n_nodes(cat), nw = hw_catalog_n_networks(cat);

	fails(cat, DIR "sys_dangling.yaml", DLSIM_EPARSE, "nosuch-link");
	ck_assert_ptr_null(hw_node_find(cat, "lostbox2"));
	ck_assert_ptr_null(hw_link_find(cat, "orphan-link"));
	fails(cat, DIR "sys_dangling.yaml", DLSIM_EPARSE, "nosuch-link");
	fails(cat, DIR "sys_unknown_device.yaml", DLSIM_EPARSE, "nosuch");
	ck_assert_ptr_null(hw_link_find(cat, "extra-link"));
	ck_assert_int_eq(hw_catalog_n_devices(cat), nd);
	ck_assert_int_eq(hw_catalog_n_links(cat), nl);
	ck_assert_int_eq(hw_catalog_n_nodes(cat), nn);
	ck_assert_int_eq(hw_catalog_n_networks(cat), nw);
	ck_assert_msg(hw_system_resolve(cat, DIR "sys_device.yaml", &s,
					&err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(s.n_devices, 8);
	hw_catalog_free(cat);
}
END_TEST

/* One of the 200 texts below: a device, link, network and node each. */
static const char grow_text[] =
	"devices:\n"
	"  - {name: d%d, kind: gpu, vendor: t, model: t, units: 1,\n"
	"     node: ws1, launch_overhead_us: 1, launch_source: t,\n"
	"     source: t, eff_memory: 0.5, eff_memory_source: t,\n"
	"     peak: [{precision: fp32, matrix_tflops: 1, vector_tflops: 1,\n"
	"             eff_gemm: 0.5, eff_conv: 0.5, eff_conv3x3: 0.5,\n"
	"             source: t, eff_source: t}],\n"
	"     memory: [{type: DDR4, capacity_GiB: 1, bandwidth_GBps: 1,\n"
	"               source: t}]}\n"
	"links:\n"
	"  - {name: l%d, kind: pcie, bandwidth_GBps: 16, latency_us: 1,\n"
	"     source: t}\n"
	"networks:\n"
	"  - {name: n%d, topology: torus, oversubscription: 1, source: t}\n"
	"nodes:\n"
	"  - {name: box%d, device: d%d, devices_per_node: 1,\n"
	"     intra_topology: single, source: t}\n";

/*
 * Systems hold pointers into the catalog.  Adding 200 texts (every list
 * grows far past its first allocation) must not move what they point
 * at: the same entries are found again, and their fields read cleanly
 * under ASan.
 */
START_TEST(entries_never_move_when_the_catalog_grows)
{
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0, "" };
	struct hw_system s, f;
	char text[sizeof(grow_text) + 64];
	int i;

	ck_assert_int_eq(hw_system_resolve(cat, "tgpux8", &s, &err), 0);
	ck_assert_int_eq(hw_system_resolve(cat, DIR "sys_node.yaml", &f,
					   &err), 0);
	for (i = 0; i < 200; i++) {
		snprintf(text, sizeof(text), grow_text, i, i, i, i, i);
		ck_assert_msg(hw_catalog_add_text(cat, "grow", text,
						  strlen(text), &err) == 0,
			      "%s", err.msg);
	}
	ck_assert_int_eq(hw_catalog_n_devices(cat), 202);
	ck_assert_int_eq(hw_catalog_n_networks(cat), 201);
	ck_assert_ptr_eq(s.device, hw_device_find(cat, "tgpu"));
	ck_assert_ptr_eq(s.node, hw_node_find(cat, "dgxa"));
	ck_assert_ptr_eq(s.intra, hw_link_find(cat, "tlink"));
	ck_assert_ptr_eq(s.nic, hw_link_find(cat, "tnic"));
	ck_assert_ptr_eq(s.network, hw_network_find(cat, "tfat"));
	ck_assert_ptr_eq(f.node, hw_node_find(cat, "pairbox"));
	ck_assert_str_eq(s.device->name, "tgpu");
	ck_assert_int_eq(s.device->units, 100);
	ck_assert(s.intra->bandwidth_Bps == 5e10);
	ck_assert(s.nic->bandwidth_Bps == 2.5e10);
	ck_assert(s.network->oversubscription == 2.0);
	ck_assert_int_eq(s.node->devices_per_node, 4);
	ck_assert_int_eq(f.node->devices_per_node, 2);
	ck_assert_str_eq(f.device->name, "tgpu");
	hw_catalog_free(cat);
}
END_TEST

/*
 * knl.yaml: 16 GiB at 400 GB/s in front of 96 GiB at 90 GB/s.  What
 * fits is bounded by 96 GiB = 103,079,215,104 bytes; speed by tier 0.
 */
START_TEST(capacity_is_the_largest_tier_bandwidth_tier_0)
{
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0, "" };
	const struct hw_device *knl;

	ck_assert_msg(hw_catalog_add_file(cat, DIR "knl.yaml", &err) ==
		      DLSIM_OK, "%s", err.msg);
	knl = hw_device_find(cat, "tknl");
	ck_assert_ptr_nonnull(knl);
	ck_assert_int_eq(knl->n_mem, 2);
	ck_assert(knl->mem_capacity_bytes == 103079215104.0);
	ck_assert(knl->mem[0].capacity_bytes == 17179869184.0);
	ck_assert(knl->mem[0].bandwidth_Bps == 4e11);
	/* one tier: its own 32 GiB */
	ck_assert(hw_device_find(cat, "tgpu")->mem_capacity_bytes ==
		  34359738368.0);
	hw_catalog_free(cat);
}
END_TEST

/* $DLSIM_PATH: a directory's files join the catalog (.yaml and .yml);
 * a clash with a built-in name is refused, naming both places. */
START_TEST(catalog_dlsim_path_adds_and_refuses_clashes)
{
	char dir[] = "/tmp/dlsim-path-XXXXXX", file[96], yml[96];
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
	snprintf(yml, sizeof(yml), "%s/other.yml", dir);
	f = fopen(yml, "w");
	ck_assert(f != NULL);
	fputs("links:\n  - {name: yml-link, kind: ethernet, "
	      "bandwidth_GBps: 1.25, latency_us: 50, source: \"lab\"}\n", f);
	fclose(f);
	ck_assert_msg(hw_catalog_load(dir, &cat, &err) == 0, "%s", err.msg);
	ck_assert(hw_link_find(cat, "my-link") != NULL);
	ck_assert(hw_link_find(cat, "yml-link") != NULL);
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
	unlink(yml);
	rmdir(dir);
	dlsim_err_clear(&err);
	ck_assert_int_eq(hw_catalog_load("/nonexistent-dlsim-dir", &cat,
					 &err), DLSIM_EIO);
	ck_assert(strstr(err.msg, "/nonexistent-dlsim-dir") != NULL);
}
END_TEST

/*
 * hw_catalog_load trusts the compiled-in files: it reads them without
 * reading every number again and without a document for error lines
 * (hw_catalog.c).  So here they are read the checked way, as a user's
 * file is: every one passes, and the two loads give the same catalog,
 * entry for entry, byte for byte (no entry holds a pointer), each
 * entry's line too, which hw_catalog_load reads off the text.
 */
START_TEST(builtin_catalog_passes_the_checked_read)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *fast = NULL, *checked = NULL;
	int i;

	ck_assert_msg(hw_catalog_load_checked(NULL, &checked, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(hw_catalog_load(NULL, &fast, &err), DLSIM_OK);
	ck_assert_int_ge(fast->devices.n, 60);   /* 64 in 2026-11 */
	ck_assert_int_eq(fast->devices.n, checked->devices.n);
	ck_assert_int_eq(fast->links.n, checked->links.n);
	ck_assert_int_eq(fast->nodes.n, checked->nodes.n);
	ck_assert_int_eq(fast->networks.n, checked->networks.n);
	for (i = 0; i < fast->devices.n; i++)
		ck_assert_msg(memcmp(fast->devices.v[i], checked->devices.v[i],
				     sizeof(struct hw_device)) == 0,
			      "device %d (%s) differs", i,
			      ((struct hw_device *)fast->devices.v[i])->name);
	for (i = 0; i < fast->links.n; i++) {
		const struct hw_link *a = fast->links.v[i];
		const struct hw_link *b = checked->links.v[i];

		ck_assert_int_gt(a->line, 0);
		ck_assert_mem_eq(a, b, sizeof(*a));
	}
	for (i = 0; i < fast->nodes.n; i++) {
		const struct hw_node *a = fast->nodes.v[i];
		const struct hw_node *b = checked->nodes.v[i];

		ck_assert_int_gt(a->line, 0);
		ck_assert_mem_eq(a, b, sizeof(*a));
	}
	for (i = 0; i < fast->networks.n; i++) {
		const struct hw_network *a = fast->networks.v[i];
		const struct hw_network *b = checked->networks.v[i];

		ck_assert_int_gt(a->line, 0);
		ck_assert_mem_eq(a, b, sizeof(*a));
	}
	for (i = 0; i < fast->devices.n; i++)
		ck_assert_int_gt(((struct hw_device *)
				  fast->devices.v[i])->line, 0);
	hw_catalog_free(fast);
	hw_catalog_free(checked);
}
END_TEST

/* The entry lines of text read with a libyaml document and without one
 * (hw_line_of off the text), link by link: the same, each above 0. */
static void links_lines_agree(const char *name, const char *text,
			      size_t len)
{
	struct dlsim_err err = { 0, "" };
	struct core_yaml_doc *doc = core_yaml_doc_open(text, len);
	struct hw_raw_file *f = NULL;
	struct hw_batch with, without;
	struct hw_file_system sys;
	int i;

	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(hw_schema_load(name, text, len, doc, 1, &f, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(hw_convert(f, name, doc, text, len, &with, &sys,
				    &err), DLSIM_OK);
	ck_assert_int_eq(hw_convert(f, name, NULL, text, len, &without, &sys,
				    &err), DLSIM_OK);
	ck_assert_int_ge(with.n_links, 40);
	ck_assert_int_eq(with.n_links, without.n_links);
	for (i = 0; i < with.n_links; i++) {
		ck_assert_msg(with.links[i].line > 0 &&
			      with.links[i].line == without.links[i].line,
			      "%s: link %d (%s) at line %d, read off the text "
			      "%d", name, i, with.links[i].name,
			      with.links[i].line, without.links[i].line);
		ck_assert_mem_eq(&with.links[i], &without.links[i],
				 sizeof(struct hw_link));
	}
	hw_batch_free(&with);
	hw_batch_free(&without);
	hw_schema_free(f);
	core_yaml_doc_close(doc);
}

/*
 * The entry lines hw_catalog_load reads off a compiled-in file's text
 * (hw_check.c, item_line) against libyaml's, on the links file as
 * shipped and written otherwise: with CRLF line ends, with its items at
 * column 0 (every line of the sequence two spaces less), and after a
 * second top-level key that the scanner must pass over (an empty
 * "networks" list ahead of it).
 */
START_TEST(entry_lines_read_off_the_text_match_libyaml)
{
	const struct hw_builtin_file *b;
	char *crlf, *flat, *two;
	size_t i, n, len = 0;
	const char *text = NULL, *key;

	for (b = hw_builtin_files; b->name; b++)
		if (strstr(b->name, "links.yaml")) {
			text = b->data;
			len = b->size;
		}
	ck_assert_ptr_nonnull(text);
	links_lines_agree("links.yaml", text, len);
	crlf = malloc(2 * len + 1);
	flat = malloc(len + 1);
	two = malloc(len + 64);
	ck_assert(crlf && flat && two);
	for (i = n = 0; i < len; i++) {
		if (text[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = text[i];
	}
	links_lines_agree("crlf.yaml", crlf, n);
	key = strstr(text, "\nlinks:\n");
	ck_assert_ptr_nonnull(key);
	for (i = n = 0; i < len; i++) {
		/* drop two leading spaces of each line after the key */
		if (text + i > key && text[i - 1] == '\n' && text[i] == ' ' &&
		    i + 1 < len && text[i + 1] == ' ') {
			i++;
			continue;
		}
		flat[n++] = text[i];
	}
	links_lines_agree("flat.yaml", flat, n);
	n = (size_t)snprintf(two, 64, "networks: []\n# a comment\n");
	memcpy(two + n, text, len);
	links_lines_agree("two.yaml", two, n + len);
	free(crlf);
	free(flat);
	free(two);
}
END_TEST

Suite *suite_catalog_files(void)
{
	Suite *s = suite_create("catalog_files");
	TCase *c = tcase_create("files");

	tcase_add_test(c, hw_file_with_system_joins_the_catalog);
	tcase_add_test(c, hw_file_content_errors_are_parse_errors);
	tcase_add_test(c, failed_hw_file_leaves_catalog_as_it_was);
	tcase_add_test(c, entries_never_move_when_the_catalog_grows);
	tcase_add_test(c, capacity_is_the_largest_tier_bandwidth_tier_0);
	tcase_add_test(c, catalog_dlsim_path_adds_and_refuses_clashes);
	tcase_add_test(c, builtin_catalog_passes_the_checked_read);
	tcase_add_test(c, entry_lines_read_off_the_text_match_libyaml);
	suite_add_tcase(s, c);
	return s;
}
