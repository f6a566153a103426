/*
 * hw_store.c -- the catalog's storage: entries that never move, merging
 * a file's entries in under the name rules, and taking them out again.
 *
 * INVARIANTS
 * 1. Every entry is its own allocation and the lists hold pointers, so
 *    growing a list never moves an entry: a pointer handed out (and kept
 *    in a struct hw_system) stays valid until hw_catalog_free(), or until
 *    the rollback of the file that added it.
 * 2. A name or alias is defined once across devices, nodes, links and
 *    networks together, so a user file cannot silently change what a
 *    built-in name means.
 * 3. A file's entries sit at the end of each list until the next file is
 *    merged, so taking a file out is truncating every list to a mark.
 */
#include "hw/hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Lists                                                             */
/* ---------------------------------------------------------------- */

/* Append a copy of entry; DLSIM_ENOMEM if memory or HW_MAX_ENTRIES runs
 * out, with the list unchanged. */
static int list_push(struct hw_list *l, const void *entry, size_t size)
{
	void *copy;

	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		void **v;

		if (l->n >= HW_MAX_ENTRIES)
			return DLSIM_ENOMEM;
		v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return DLSIM_ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	copy = malloc(size);
	if (!copy)
		return DLSIM_ENOMEM;
	memcpy(copy, entry, size);
	l->v[l->n++] = copy;
	return DLSIM_OK;
}

static void list_truncate(struct hw_list *l, int n)
{
	while (l->n > n)
		free(l->v[--l->n]);
}

static const void *list_get(const struct hw_list *l, int i)
{
	return i >= 0 && i < l->n ? l->v[i] : NULL;
}

/* ---------------------------------------------------------------- */
/* The catalog's lifetime and indexed access                         */
/* ---------------------------------------------------------------- */

int hw_catalog_new(struct hw_catalog **out, struct dlsim_err *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	return DLSIM_OK;
}

void hw_catalog_free(struct hw_catalog *cat)
{
	static const struct hw_mark empty;

	if (!cat)
		return;
	hw_catalog_rollback(cat, &empty);
	free(cat->devices.v);
	free(cat->links.v);
	free(cat->nodes.v);
	free(cat->networks.v);
	free(cat);
}

int hw_catalog_n_devices(const struct hw_catalog *cat)
{
	return cat->devices.n;
}

const struct hw_device *hw_catalog_device(const struct hw_catalog *cat,
					  int i)
{
	return list_get(&cat->devices, i);
}

int hw_catalog_n_nodes(const struct hw_catalog *cat)
{
	return cat->nodes.n;
}

const struct hw_node *hw_catalog_node(const struct hw_catalog *cat, int i)
{
	return list_get(&cat->nodes, i);
}

int hw_catalog_n_links(const struct hw_catalog *cat)
{
	return cat->links.n;
}

const struct hw_link *hw_catalog_link(const struct hw_catalog *cat, int i)
{
	return list_get(&cat->links, i);
}

int hw_catalog_n_networks(const struct hw_catalog *cat)
{
	return cat->networks.n;
}

const struct hw_network *hw_catalog_network(const struct hw_catalog *cat,
					    int i)
{
	return list_get(&cat->networks, i);
}

void hw_catalog_mark(const struct hw_catalog *cat, struct hw_mark *m)
{
	m->devices = cat->devices.n;
	m->links = cat->links.n;
	m->nodes = cat->nodes.n;
	m->networks = cat->networks.n;
}

void hw_catalog_rollback(struct hw_catalog *cat, const struct hw_mark *m)
{
	list_truncate(&cat->devices, m->devices);
	list_truncate(&cat->links, m->links);
	list_truncate(&cat->nodes, m->nodes);
	list_truncate(&cat->networks, m->networks);
}

/* ---------------------------------------------------------------- */
/* Merging                                                           */
/* ---------------------------------------------------------------- */

/* Where a name is already defined, in any of the four kinds, as
 * "kind at file:line"; 0 if nowhere. */
static int name_taken(const struct hw_catalog *cat, const char *name,
		      char *where, size_t n)
{
	const struct hw_device *d = hw_device_find(cat, name);
	const struct hw_node *nd = hw_node_find(cat, name);
	const struct hw_link *l = hw_link_find(cat, name);
	const struct hw_network *nw = hw_network_find(cat, name);

	if (d)
		snprintf(where, n, "device at %s:%d", d->file, d->line);
	else if (nd)
		snprintf(where, n, "node at %s:%d", nd->file, nd->line);
	else if (l)
		snprintf(where, n, "link at %s:%d", l->file, l->line);
	else if (nw)
		snprintf(where, n, "network at %s:%d", nw->file, nw->line);
	return d || nd || l || nw;
}

/* The name and aliases of an entry at file:line, all still free? */
static int names_free(const struct hw_catalog *cat, const char *name,
		      const char (*aliases)[HW_NAME_LEN], int n_aliases,
		      const char *file, int line, struct dlsim_err *err)
{
	char where[400];
	int i;

	for (i = -1; i < n_aliases; i++) {
		const char *s = i < 0 ? name : aliases[i];

		if (name_taken(cat, s, where, sizeof(where)))
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: '%s' is already defined "
					     "(%s)", file, line, s, where);
	}
	return DLSIM_OK;
}

static int push(struct hw_list *l, const void *entry, size_t size,
		struct dlsim_err *err)
{
	if (list_push(l, entry, size))
		return dlsim_err_set(err, DLSIM_ENOMEM,
				     "out of memory or more than %d catalog "
				     "entries of one kind", HW_MAX_ENTRIES);
	return DLSIM_OK;
}

static int merge_devices(struct hw_catalog *cat, const struct hw_batch *b,
			 struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	for (i = 0; i < b->n_devices && !rc; i++) {
		const struct hw_device *d = &b->devices[i];

		rc = names_free(cat, d->name,
				(const char (*)[HW_NAME_LEN])d->aliases,
				d->n_aliases, d->file, d->line, err);
		if (!rc)
			rc = push(&cat->devices, d, sizeof(*d), err);
	}
	return rc;
}

static int merge_nodes(struct hw_catalog *cat, const struct hw_batch *b,
		       struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	for (i = 0; i < b->n_nodes && !rc; i++) {
		const struct hw_node *n = &b->nodes[i];

		rc = names_free(cat, n->name,
				(const char (*)[HW_NAME_LEN])n->aliases,
				n->n_aliases, n->file, n->line, err);
		if (!rc)
			rc = push(&cat->nodes, n, sizeof(*n), err);
	}
	return rc;
}

static int merge_links(struct hw_catalog *cat, const struct hw_batch *b,
		       struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	for (i = 0; i < b->n_links && !rc; i++) {
		const struct hw_link *l = &b->links[i];

		rc = names_free(cat, l->name, NULL, 0, l->file, l->line, err);
		if (!rc)
			rc = push(&cat->links, l, sizeof(*l), err);
	}
	return rc;
}

static int merge_networks(struct hw_catalog *cat, const struct hw_batch *b,
			  struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	for (i = 0; i < b->n_networks && !rc; i++) {
		const struct hw_network *n = &b->networks[i];

		rc = names_free(cat, n->name, NULL, 0, n->file, n->line, err);
		if (!rc)
			rc = push(&cat->networks, n, sizeof(*n), err);
	}
	return rc;
}

int hw_catalog_merge(struct hw_catalog *cat, const struct hw_batch *b,
		     struct dlsim_err *err)
{
	struct hw_mark m;
	int rc;

	hw_catalog_mark(cat, &m);
	rc = merge_devices(cat, b, err);
	if (!rc)
		rc = merge_nodes(cat, b, err);
	if (!rc)
		rc = merge_links(cat, b, err);
	if (!rc)
		rc = merge_networks(cat, b, err);
	if (rc)
		hw_catalog_rollback(cat, &m);
	return rc;
}
