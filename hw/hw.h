/*
 * hw.h -- the hardware module inside the library: the catalog's storage,
 * the YAML reader that fills it, and the compiled-in catalog files.
 *
 * A catalog is four growing arrays (devices, links, nodes, networks).
 * Every entry remembers the file and line it came from, so that a clash or
 * a dangling reference names both places.  A file may also carry a
 * `system:` entry (a device or node and a count); the reader hands it back
 * to hw_system_resolve() and does not store it.
 */
#ifndef DLSIM_HW_HW_H
#define DLSIM_HW_HW_H

#include <stddef.h>

#include "dlsim.h"

/* Bounds on what a user's files can make us allocate. */
#define HW_MAX_ENTRIES 100000
#define HW_MAX_COUNT ((int64_t)100000000)   /* devices or nodes */

struct hw_catalog {
	struct hw_device *devices;
	int n_devices, cap_devices;
	struct hw_link *links;
	int n_links, cap_links;
	struct hw_node *nodes;
	int n_nodes, cap_nodes;
	struct hw_network *networks;
	int n_networks, cap_networks;
};

/* A file's `system:` entry, when it has one. */
struct hw_file_system {
	int present;
	char device[HW_NAME_LEN];
	char node[HW_NAME_LEN];
	int64_t count;
	int line;
};

/* One compiled-in catalog file (build/gen/hw_builtin.c). */
struct hw_builtin_file {
	const char *name;
	const char *data;
	size_t size;
};

extern const struct hw_builtin_file hw_builtin_files[];

/*
 * Parse YAML text and append its entries to cat.  `name` is the file name
 * used in messages.  On failure nothing is appended (entries of a bad
 * file never reach the catalog) and err says "name:line: what".  If sys is
 * not NULL it receives the file's system entry.
 */
int hw_yaml_read(struct hw_catalog *cat, const char *name, const char *text,
		 size_t len, struct hw_file_system *sys,
		 struct dlsim_err *err);

/* Check every cross-reference (a node's device, links, network; a
 * device's usual node). */
int hw_catalog_check(const struct hw_catalog *cat, struct dlsim_err *err);

#endif /* DLSIM_HW_HW_H */
