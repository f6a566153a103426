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
 */
#include "hw/hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int is_yaml_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 5 && strcmp(s + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(s + n - 4, ".yml") == 0);
}

/* Fill the links and network of a system built on node n. */
static int attach_links(const struct hw_catalog *cat, const struct hw_node *n,
			struct hw_system *s, struct dlsim_err *err)
{
	s->node = n;
	if (s->devices_per_node > 1)
		s->intra = hw_link_find(cat, n->intra_link);
	if (s->n_nodes > 1) {
		if (!n->nic_link[0])
			return dlsim_err_set(err, DLSIM_EINVAL,
					     "%s: node '%s' has no network "
					     "link, so a system can have only "
					     "one of them", s->spec, n->name);
		s->nic = hw_link_find(cat, n->nic_link);
		s->network = hw_network_find(cat, n->network);
	}
	if ((s->devices_per_node > 1 && !s->intra) ||
	    (s->n_nodes > 1 && !s->nic))
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s: node '%s' names a link that is not "
				     "in the catalog", s->spec, n->name);
	return DLSIM_OK;
}

static int build_devices(const struct hw_catalog *cat,
			 const struct hw_device *d, int64_t count,
			 struct hw_system *s, struct dlsim_err *err)
{
	const struct hw_node *n = hw_node_find(cat, d->node);
	int64_t per;

	if (!n)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s: device '%s' names node '%s', which "
				     "is not in the catalog", s->spec,
				     d->name, d->node);
	per = n->devices_per_node;
	if (count > per && count % per)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s: %lld devices do not fill whole "
				     "'%s' nodes of %lld; use at most %lld or "
				     "a multiple of it (%lld or %lld)",
				     s->spec, (long long)count, n->name,
				     (long long)per, (long long)per,
				     (long long)(count / per * per),
				     (long long)((count / per + 1) * per));
	s->device = d;
	s->n_devices = count;
	s->devices_per_node = count < per ? count : per;
	s->n_nodes = count < per ? 1 : count / per;
	return attach_links(cat, n, s, err);
}

static int build_nodes(const struct hw_catalog *cat, const struct hw_node *n,
		       int64_t count, struct hw_system *s,
		       struct dlsim_err *err)
{
	s->device = hw_device_find(cat, n->device);
	if (!s->device)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s: node '%s' names device '%s', which "
				     "is not in the catalog", s->spec,
				     n->name, n->device);
	if (count > HW_MAX_COUNT / n->devices_per_node)
		return dlsim_err_set(err, DLSIM_ERANGE,
				     "%s: more than %lld devices", s->spec,
				     (long long)HW_MAX_COUNT);
	s->n_nodes = count;
	s->devices_per_node = n->devices_per_node;
	s->n_devices = count * n->devices_per_node;
	return attach_links(cat, n, s, err);
}

/* NAME with a count: a device or a node, by what the name is. */
static int build_named(const struct hw_catalog *cat, const char *name,
		       int64_t count, struct hw_system *s,
		       struct dlsim_err *err)
{
	const struct hw_device *d = hw_device_find(cat, name);
	const struct hw_node *n = hw_node_find(cat, name);

	if (d)
		return build_devices(cat, d, count, s, err);
	if (n)
		return build_nodes(cat, n, count, s, err);
	return dlsim_err_set(err, DLSIM_ENOTFOUND,
			     "unknown device or node '%s' in --hw '%s' "
			     "(see 'dlsim hw')", name, s->spec);
}

static int resolve_file(struct hw_catalog *cat, const char *path,
			struct hw_system *s, struct dlsim_err *err)
{
	struct hw_file_system sys;
	char *text;
	size_t len;
	int rc = core_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	rc = hw_yaml_read(cat, path, text, len, &sys, err);
	free(text);
	if (!rc)
		rc = hw_catalog_check(cat, err);
	if (rc)
		return rc;
	if (!sys.present)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "%s: no 'system:' entry saying which "
				     "device or node and how many", path);
	if (sys.device[0]) {
		const struct hw_device *d = hw_device_find(cat, sys.device);

		if (!d)
			return dlsim_err_set(err, DLSIM_ENOTFOUND,
					     "%s:%d: unknown device '%s'",
					     path, sys.line, sys.device);
		return build_devices(cat, d, sys.count, s, err);
	}
	if (!hw_node_find(cat, sys.node))
		return dlsim_err_set(err, DLSIM_ENOTFOUND,
				     "%s:%d: unknown node '%s'", path,
				     sys.line, sys.node);
	return build_nodes(cat, hw_node_find(cat, sys.node), sys.count, s,
			   err);
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
	if (is_yaml_path(spec))
		rc = resolve_file(cat, spec, out, err);
	else if (hw_device_find(cat, spec) || hw_node_find(cat, spec))
		rc = build_named(cat, spec, 1, out, err);
	else if (!(x = strrchr(spec, 'x')))
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
