/*
 * hw_system.c -- turns a --hw string into a system: how many devices of
 * which kind, in how many nodes, joined by which links.
 *
 * Accepted forms, tried in this order:
 *   FILE.yaml   a user file; its devices, links and nodes join the
 *               catalog and its `system:` entry says what to build
 *   NAME        a device (one device) or a node (one node)
 *   NAMExN      N devices packed into the device's usual node, or N nodes
 * The split is at the last 'x', so names holding an x (dgx1, xeon-x5690)
 * still work: dgx1x8 is eight dgx1 nodes.
 *
 * N devices must fill whole nodes (N <= devices per node, or a multiple of
 * it): a partly filled node would give the collective model a shape it
 * does not describe, so it is refused with the nearest valid counts.
 *
 * Who is at fault decides the error.  A mistake in the --hw string is a
 * usage error (DLSIM_EINVAL, ENOTFOUND, ERANGE, prefixed by the string);
 * the same mistake in a file's `system:` entry is the file's
 * (DLSIM_EPARSE at "path:line").  A file that fails after its entries
 * were merged is taken out again, so a failed resolve leaves the catalog
 * as it was.
 */
#include "hw/hw.h"

#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* Who gets the blame for a mistake in what to build. */
struct place {
	char name[200];    /* prefix for the device or node: "SPEC" or
			      "FILE:LINE" */
	char count[200];   /* prefix for the count */
	int file;          /* 1: the content of a --hw file */
};

static int fail(struct dlsim_err *err, const struct place *pl,
		const char *at, int code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Set "AT: message" with code, or DLSIM_EPARSE for a file's mistake. */
static int fail(struct dlsim_err *err, const struct place *pl,
		const char *at, int code, const char *fmt, ...)
{
	char msg[DLSIM_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dlsim_err_set(err, pl->file ? DLSIM_EPARSE : code, "%s: %s",
			     at, msg);
}

/* Fill the links and network of a system built on node n. */
static int attach_links(const struct hw_catalog *cat, const struct hw_node *n,
			struct hw_system *s, const struct place *pl,
			struct dlsim_err *err)
{
	s->node = n;
	if (s->devices_per_node > 1)
		s->intra = hw_link_find(cat, n->intra_link);
	s->host = hw_link_find(cat, n->host_link[0] ? n->host_link :
			       n->intra_topology == HW_TOPO_PCIE_TREE ?
			       n->intra_link : "");
	s->host_cpu = n->host_cpu[0] ? hw_device_find(cat, n->host_cpu) :
		      NULL;
	if (s->n_nodes > 1) {
		if (!n->nic_link[0])
			return fail(err, pl, pl->count, DLSIM_EINVAL,
				    "node '%s' has no network link, so a "
				    "system can have only one of them",
				    n->name);
		s->nic = hw_link_find(cat, n->nic_link);
		s->network = hw_network_find(cat, n->network);
	}
	if ((s->devices_per_node > 1 && !s->intra) ||
	    (s->n_nodes > 1 && !s->nic))
		return fail(err, pl, pl->name, DLSIM_EINVAL,
			    "node '%s' names a link that is not in the "
			    "catalog", n->name);
	return DLSIM_OK;
}

static int build_devices(const struct hw_catalog *cat,
			 const struct hw_device *d, int64_t count,
			 struct hw_system *s, const struct place *pl,
			 struct dlsim_err *err)
{
	const struct hw_node *n = hw_node_find(cat, d->node);
	int64_t per;

	if (!n)
		return fail(err, pl, pl->name, DLSIM_EINVAL,
			    "device '%s' names node '%s', which is not in "
			    "the catalog", d->name, d->node);
	per = n->devices_per_node;
	if (count > per && count % per)
		return fail(err, pl, pl->count, DLSIM_EINVAL,
			    "%lld devices do not fill whole '%s' nodes of "
			    "%lld; use at most %lld or a multiple of it "
			    "(%lld or %lld)", (long long)count, n->name,
			    (long long)per, (long long)per,
			    (long long)(count / per * per),
			    (long long)((count / per + 1) * per));
	s->device = d;
	s->n_devices = count;
	s->devices_per_node = count < per ? count : per;
	s->n_nodes = count < per ? 1 : count / per;
	return attach_links(cat, n, s, pl, err);
}

static int build_nodes(const struct hw_catalog *cat, const struct hw_node *n,
		       int64_t count, struct hw_system *s,
		       const struct place *pl, struct dlsim_err *err)
{
	s->device = hw_device_find(cat, n->device);
	if (!s->device)
		return fail(err, pl, pl->name, DLSIM_EINVAL,
			    "node '%s' names device '%s', which is not in "
			    "the catalog", n->name, n->device);
	if (count > HW_MAX_COUNT / n->devices_per_node)
		return fail(err, pl, pl->count, DLSIM_ERANGE,
			    "more than %lld devices",
			    (long long)HW_MAX_COUNT);
	s->n_nodes = count;
	s->devices_per_node = n->devices_per_node;
	s->n_devices = count * n->devices_per_node;
	return attach_links(cat, n, s, pl, err);
}

/*
 * The error for a name the catalog lacks.  When NAME followed by 'x' is a
 * name (mi300x, a device whose name ends in x), spec was most likely
 * meant as a count of it, which needs a second x.
 */
static int unknown_name(const struct hw_catalog *cat, const char *name,
			const char *spec, struct dlsim_err *err)
{
	char with_x[HW_NAME_LEN * 2 + 2];
	size_t n = strlen(name);

	snprintf(with_x, sizeof(with_x), "%sx", name);
	/* name is spec up to its last 'x' (hw_system_resolve's split) */
	if (strncmp(spec, name, n) == 0 && spec[n] == 'x' &&
	    (hw_device_find(cat, with_x) || hw_node_find(cat, with_x)))
		return dlsim_err_set(err, DLSIM_ENOTFOUND,
				     "unknown device or node '%s' in --hw "
				     "'%s'; '%s' is one: a count of it is "
				     "'%sx%s'", name, spec, with_x, with_x,
				     spec + n + 1);
	return dlsim_err_set(err, DLSIM_ENOTFOUND,
			     "unknown device or node '%s' in --hw '%s' "
			     "(see 'dlsim hw')", name, spec);
}

/* NAME with a count: a device or a node, by what the name is. */
static int build_named(const struct hw_catalog *cat, const char *name,
		       int64_t count, struct hw_system *s,
		       struct dlsim_err *err)
{
	const struct hw_device *d = hw_device_find(cat, name);
	const struct hw_node *n = hw_node_find(cat, name);
	struct place pl = { "", "", 0 };

	core_strlcpy(pl.name, s->spec, sizeof(pl.name));
	core_strlcpy(pl.count, s->spec, sizeof(pl.count));
	if (d)
		return build_devices(cat, d, count, s, &pl, err);
	if (n)
		return build_nodes(cat, n, count, s, &pl, err);
	return unknown_name(cat, name, s->spec, err);
}

/* Build what a file's system entry asks for, from a checked catalog. */
static int build_system(const struct hw_catalog *cat, const char *path,
			const struct hw_file_system *sys,
			struct hw_system *s, struct dlsim_err *err)
{
	const struct hw_device *d = hw_device_find(cat, sys->device);
	const struct hw_node *n = hw_node_find(cat, sys->node);
	struct place pl = { "", "", 1 };

	/* the document starts at line 1: a missing entry belongs there */
	if (!sys->present)
		return dlsim_err_set(err, DLSIM_EPARSE,
				     "%s:1: no 'system:' entry saying which "
				     "device or node and how many", path);
	snprintf(pl.name, sizeof(pl.name), "%s:%d", path, sys->line);
	snprintf(pl.count, sizeof(pl.count), "%s:%d", path, sys->count_line);
	if (sys->device[0] && !d)
		return fail(err, &pl, pl.name, DLSIM_ENOTFOUND,
			    "unknown device '%s'", sys->device);
	if (sys->device[0])
		return build_devices(cat, d, sys->count, s, &pl, err);
	if (!n)
		return fail(err, &pl, pl.name, DLSIM_ENOTFOUND,
			    "unknown node '%s'", sys->node);
	return build_nodes(cat, n, sys->count, s, &pl, err);
}

/*
 * A --hw file: read it into cat, check the whole catalog, build its
 * system.  Any failure after the read takes the file's entries out
 * again; s may point at them only on success.
 */
static int resolve_file(struct hw_catalog *cat, const char *path,
			struct hw_system *s, struct dlsim_err *err)
{
	struct hw_file_system sys;
	struct hw_mark mark;
	char *text;
	size_t len;
	int rc = core_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	hw_catalog_mark(cat, &mark);
	rc = hw_yaml_read(cat, path, text, len, &sys, err);
	free(text);
	if (rc)
		return rc;
	rc = hw_catalog_check(cat, err);
	if (!rc)
		rc = build_system(cat, path, &sys, s, err);
	if (rc)
		hw_catalog_rollback(cat, &mark);
	return rc;
}

/* What follows the last 'x' of spec is meant as a count when it starts
 * as a number does (a digit, a sign, a point, a space) or is empty after
 * a name the catalog has ("v100x"); core_parse_count then says whether
 * it is one.  Otherwise ("nonexist") spec is all name. */
static int looks_like_count(const struct hw_catalog *cat, const char *spec,
			    const char *x)
{
	char name[HW_NAME_LEN * 2];
	const char *s = x + 1;

	if (isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+' ||
	    s[0] == '.' || isspace((unsigned char)s[0]))
		return 1;
	if (s[0] || (size_t)(x - spec) >= sizeof(name))
		return 0;
	memcpy(name, spec, (size_t)(x - spec));
	name[x - spec] = '\0';
	return hw_device_find(cat, name) || hw_node_find(cat, name);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int hw_system_resolve(struct hw_catalog *cat, const char *spec,
		      struct hw_system *out, struct dlsim_err *err)
{
	char name[HW_NAME_LEN * 2];
	const char *x;
	int64_t count;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return dlsim_err_set(err, DLSIM_EINVAL, "--hw is empty");
	core_strlcpy(out->spec, spec, sizeof(out->spec));
	if (core_is_yaml_path(spec))
		rc = resolve_file(cat, spec, out, err);
	else if (hw_device_find(cat, spec) || hw_node_find(cat, spec))
		rc = build_named(cat, spec, 1, out, err);
	else if (!(x = strrchr(spec, 'x')) || !looks_like_count(cat, spec, x))
		/* no count: "nonexist" is an unknown name, not 'ist'
		 * devices of "none" */
		rc = build_named(cat, spec, 1, out, err);
	else if (x == spec)
		rc = dlsim_err_set(err, DLSIM_EINVAL,
				   "--hw '%s': no device or node name before "
				   "'x'", spec);
	else if ((size_t)(x - spec) >= sizeof(name))
		rc = dlsim_err_set(err, DLSIM_ENOTFOUND,
				   "--hw '%s': name too long", spec);
	else {
		memcpy(name, spec, (size_t)(x - spec));
		name[x - spec] = '\0';
		rc = core_parse_count(x + 1, HW_MAX_COUNT, &count, err,
				      "the count after 'x' in --hw");
		if (!rc)
			rc = build_named(cat, name, count, out, err);
	}
	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	return DLSIM_OK;
}

int64_t hw_system_host_sharing(const struct hw_system *s)
{
	const struct hw_node *n = s->node;

	if (!n)
		return 1;
	if (n->devices_per_host_link > 0)
		return n->devices_per_host_link;
	if (!n->host_link[0] && n->intra_topology == HW_TOPO_PCIE_TREE &&
	    n->devices_per_pcie_switch > 0)
		return n->devices_per_pcie_switch;
	return 1;
}
