/*
 * hw_catalog.c -- the catalog: reading a file into it, built-in files,
 * user directories, lookups and the cross-reference check.
 *
 * Load order is fixed: the compiled-in files (every YAML file in
 * configs/hw, sorted), then each directory of $DLSIM_PATH in order, each
 * directory's *.yaml and *.yml files sorted by name, then any file named
 * by --hw.  Names are unique across the whole catalog (hw_store.c), so a
 * user file cannot silently change what a built-in name means.
 *
 * Reading a user's file parses its text twice, no more: once by libcyaml
 * into raw structs, once by libyaml into a document that every later
 * step (number checks, entry lines, error lines) shares.  A compiled-in
 * file is parsed once, by libcyaml: its numbers are checked by `make
 * check` (hw_catalog_load_checked) and its entries' lines read off the
 * text (yaml_read_as says why).
 */
#include "hw/hw.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Names                                                             */
/* ---------------------------------------------------------------- */

static const char *const kind_names[] = {
	"cpu", "phi", "gpu", "tpu", "accel", NULL
};

static const char *const topology_names[] = {
	"single", "pcie-tree", "hybrid-cube-mesh", "nvswitch", "all-to-all",
	"ring", "torus", "fat-tree", "dragonfly", NULL
};

const char *hw_device_kind_name(enum hw_device_kind k)
{
	if ((int)k < 0 || k >= HW_DEVICE_KIND_COUNT)
		return NULL;
	return kind_names[k];
}

const char *hw_topology_name(enum hw_topology t)
{
	if ((int)t < 0 || t >= HW_TOPOLOGY_COUNT)
		return NULL;
	return topology_names[t];
}

/* ---------------------------------------------------------------- */
/* Lookups                                                           */
/* ---------------------------------------------------------------- */

static int named(const char *name, const char *want,
		 const char (*aliases)[HW_NAME_LEN], int n_aliases)
{
	int i;

	if (strcmp(name, want) == 0)
		return 1;
	for (i = 0; i < n_aliases; i++)
		if (strcmp(aliases[i], want) == 0)
			return 1;
	return 0;
}

const struct hw_device *hw_device_find(const struct hw_catalog *cat,
				       const char *name)
{
	const struct hw_device *d;
	int i;

	for (i = 0; name && (d = hw_catalog_device(cat, i)) != NULL; i++)
		if (named(d->name, name, d->aliases, d->n_aliases))
			return d;
	return NULL;
}

const struct hw_node *hw_node_find(const struct hw_catalog *cat,
				   const char *name)
{
	const struct hw_node *n;
	int i;

	for (i = 0; name && (n = hw_catalog_node(cat, i)) != NULL; i++)
		if (named(n->name, name, n->aliases, n->n_aliases))
			return n;
	return NULL;
}

const struct hw_link *hw_link_find(const struct hw_catalog *cat,
				   const char *name)
{
	const struct hw_link *l;
	int i;

	for (i = 0; name && (l = hw_catalog_link(cat, i)) != NULL; i++)
		if (strcmp(l->name, name) == 0)
			return l;
	return NULL;
}

const struct hw_network *hw_network_find(const struct hw_catalog *cat,
					 const char *name)
{
	const struct hw_network *n;
	int i;

	for (i = 0; name && (n = hw_catalog_network(cat, i)) != NULL; i++)
		if (strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

/* ---------------------------------------------------------------- */
/* Devices                                                           */
/* ---------------------------------------------------------------- */

int hw_device_supports(const struct hw_device *d, enum dlsim_precision p)
{
	if ((int)p < 0 || p >= DLSIM_PRECISION_COUNT)
		return 0;
	return d->peak[p].matrix_flops > 0.0;
}

enum dlsim_precision hw_device_auto_precision(const struct hw_device *d)
{
	double fp32 = d->peak[DLSIM_FP32].matrix_flops;

	if (d->peak[DLSIM_BF16].matrix_flops > fp32)
		return DLSIM_BF16;
	if (d->peak[DLSIM_FP16].matrix_flops > fp32)
		return DLSIM_FP16;
	if (fp32 > 0.0)
		return DLSIM_FP32;
	/* A device without fp32 (none in the catalog today): its fastest */
	return d->peak[DLSIM_FP64].matrix_flops > 0.0 ? DLSIM_FP64 :
	       DLSIM_FP16;
}

/* ---------------------------------------------------------------- */
/* Loading                                                           */
/* ---------------------------------------------------------------- */

/*
 * hw_yaml_read without the nesting check; with checked 0, also without
 * the second parse (a libyaml document of the same text) that every
 * number is read again from (hw_schema.c) and that an error's line is
 * found in.  The compiled-in files skip both: they are configs/hw's own,
 * which `make check` reads the checked way (hw_catalog_load_checked), and
 * the two were most of a start's instructions under callgrind: the
 * nesting check 42 of 172 million, the document 48.6 of the 137 million
 * left (`dlsim predict resnet50 --hw v100x64`; 80 million without it,
 * entries' lines read off the text by hw_line_of).  *converted tells the
 * caller whether the text got as far as the merge.
 */
static int yaml_read_as(struct hw_catalog *cat, const char *name,
			const char *text, size_t len, int checked,
			struct hw_file_system *sys, int *converted,
			struct dlsim_err *err)
{
	struct core_yaml_doc *doc = checked ? core_yaml_doc_open(text, len) :
				    NULL;
	struct hw_raw_file *f = NULL;
	struct hw_file_system fsys;
	struct hw_batch batch;
	int rc;

	*converted = 0;
	memset(&batch, 0, sizeof(batch));
	if (sys)
		memset(sys, 0, sizeof(*sys));
	rc = hw_schema_load(name, text, len, doc, checked, &f, err);
	if (rc)
		goto cleanup;
	rc = hw_convert(f, name, doc, text, len, &batch, &fsys, err);
	if (rc)
		goto cleanup;
	*converted = 1;
	rc = hw_catalog_merge(cat, &batch, err);
	if (!rc && sys)
		*sys = fsys;
cleanup:
	hw_batch_free(&batch);
	hw_schema_free(f);
	core_yaml_doc_close(doc);
	return rc;
}

static int yaml_read(struct hw_catalog *cat, const char *name,
		     const char *text, size_t len, struct hw_file_system *sys,
		     struct dlsim_err *err)
{
	int converted;

	return yaml_read_as(cat, name, text, len, 1, sys, &converted, err);
}

/* A compiled-in file, unchecked; should it fail before the merge all the
 * same (a build from a broken configs/hw), read again the checked way,
 * so that the message names its line as a user file's would. */
static int builtin_read(struct hw_catalog *cat,
			const struct hw_builtin_file *f, int checked,
			struct dlsim_err *err)
{
	int converted;
	int rc = yaml_read_as(cat, f->name, f->data, f->size, checked, NULL,
			      &converted, err);

	if (rc && !checked && !converted) {
		dlsim_err_clear(err);    /* the first error is kept: this one */
		rc = yaml_read(cat, f->name, f->data, f->size, NULL, err);
	}
	return rc;
}

int hw_builtin_read(struct hw_catalog *cat, const struct hw_builtin_file *f,
		    struct dlsim_err *err)
{
	return builtin_read(cat, f, 0, err);
}

int hw_yaml_read(struct hw_catalog *cat, const char *name, const char *text,
		 size_t len, struct hw_file_system *sys,
		 struct dlsim_err *err)
{
	int deep = core_yaml_too_deep(text, len);

	if (deep)
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: nested deeper "
				     "than %d levels", name, deep,
				     CORE_YAML_MAX_DEPTH);
	return yaml_read(cat, name, text, len, sys, err);
}

int hw_catalog_add_text(struct hw_catalog *cat, const char *name,
			const char *text, size_t len, struct dlsim_err *err)
{
	return hw_yaml_read(cat, name, text, len, NULL, err);
}

int hw_catalog_add_file(struct hw_catalog *cat, const char *path,
			struct dlsim_err *err)
{
	char *text;
	size_t len;
	int rc = core_read_file(path, &text, &len, err);

	if (rc)
		return rc;
	rc = hw_yaml_read(cat, path, text, len, NULL, err);
	free(text);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add every *.yaml and *.yml file in dir, in name order. */
static int add_dir(struct hw_catalog *cat, const char *dir,
		   struct dlsim_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0, i, rc = DLSIM_OK;

	if (!d)
		return dlsim_err_set(err, DLSIM_EIO,
				     "DLSIM_PATH directory %s: %s", dir,
				     strerror(errno));
	while (!rc && (e = readdir(d)) != NULL) {
		size_t len;

		/* an entry's name holds no '/', so this is its suffix */
		if (e->d_name[0] == '.' || !core_is_yaml_path(e->d_name))
			continue;
		if (n == cap) {
			char **p = realloc(names, (size_t)(cap = cap * 2 + 16) *
						  sizeof(*p));
			if (!p) {
				rc = dlsim_err_set(err, DLSIM_ENOMEM,
						   "out of memory");
				break;
			}
			names = p;
		}
		len = strlen(dir) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (!names[n]) {
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!rc)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (!rc)
			rc = hw_catalog_add_file(cat, names[i], err);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* d's calibration scales against the device its fits come from, whose
 * name (not an alias: the fits are stored under names) d then holds. */
static void calib_scales(struct hw_device *d, const struct hw_device *from)
{
	int p;

	if (from)
		core_strlcpy(d->calib_from, from->name, sizeof(d->calib_from));

	for (p = 0; p < DLSIM_PRECISION_COUNT; p++)
		d->calib_flop_scale[p] = from && from->peak[p].matrix_flops > 0.0 &&
					 d->peak[p].matrix_flops > 0.0 ?
					 from->peak[p].matrix_flops /
					 d->peak[p].matrix_flops : 1.0;
	d->calib_byte_scale = from && from->n_mem > 0 && d->n_mem > 0 &&
			      from->mem[0].bandwidth_Bps > 0.0 &&
			      d->mem[0].bandwidth_Bps > 0.0 ?
			      from->mem[0].bandwidth_Bps /
			      d->mem[0].bandwidth_Bps : 1.0;
}

int hw_catalog_check(struct hw_catalog *cat, struct dlsim_err *err)
{
	int i;

	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);
		const char *what = NULL, *ref = NULL;

		if (!hw_device_find(cat, n->device))
			what = "device", ref = n->device;
		else if (n->intra_link[0] && !hw_link_find(cat, n->intra_link))
			what = "intra_link", ref = n->intra_link;
		else if (n->nic_link[0] && !hw_link_find(cat, n->nic_link))
			what = "nic_link", ref = n->nic_link;
		else if (n->network[0] && !hw_network_find(cat, n->network))
			what = "network", ref = n->network;
		else if (n->host_link[0] && !hw_link_find(cat, n->host_link))
			what = "host_link", ref = n->host_link;
		else if (n->host_cpu[0] && !hw_device_find(cat, n->host_cpu))
			what = "host_cpu", ref = n->host_cpu;
		if (what)
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: node '%s': %s '%s' is "
					     "not in the catalog", n->file,
					     n->line, n->name, what, ref);
		if (n->host_cpu[0] &&
		    hw_device_find(cat, n->host_cpu)->kind != HW_CPU)
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: node '%s': host_cpu '%s' "
					     "is not a CPU", n->file, n->line,
					     n->name, n->host_cpu);
		if (n->host_link[0] && !n->host_link_source[0])
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: node '%s': host_link "
					     "needs a host_link_source",
					     n->file, n->line, n->name);
		if (n->calib_from[0] && !hw_node_find(cat, n->calib_from))
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: node '%s': "
					     "calibration_from '%s' is not a "
					     "node in the catalog", n->file,
					     n->line, n->name, n->calib_from);
		if (n->calib_from[0] && !n->calib_from_source[0])
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: node '%s': "
					     "calibration_from needs a "
					     "calibration_from_source", n->file,
					     n->line, n->name);
		/* held by the name the fits are stored under, not an
		 * alias it was given by */
		if (n->calib_from[0]) {
			struct hw_node *mn = cat->nodes.v[i];

			core_strlcpy(mn->calib_from,
				     hw_node_find(cat, n->calib_from)->name,
				     sizeof(mn->calib_from));
		}
	}
	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		if (!hw_node_find(cat, d->node))
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: device '%s': node '%s' "
					     "is not in the catalog", d->file,
					     d->line, d->name, d->node);
		if (d->calib_from[0] && !hw_device_find(cat, d->calib_from))
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: device '%s': "
					     "calibration_from '%s' is not in "
					     "the catalog", d->file, d->line,
					     d->name, d->calib_from);
		if (d->calib_from[0] && !d->calib_from_source[0])
			return dlsim_err_set(err, DLSIM_EPARSE,
					     "%s:%d: device '%s': "
					     "calibration_from needs a "
					     "calibration_from_source", d->file,
					     d->line, d->name);
		calib_scales(cat->devices.v[i], d->calib_from[0] ?
			     hw_device_find(cat, d->calib_from) : NULL);
	}
	return DLSIM_OK;
}

/* hw_catalog_load, its compiled-in files read checked or not. */
static int catalog_load(const char *dir_path, int checked,
			struct hw_catalog **out, struct dlsim_err *err)
{
	struct hw_catalog *cat;
	const struct hw_builtin_file *f;
	int rc = hw_catalog_new(&cat, err);

	*out = NULL;
	if (rc)
		return rc;
	for (f = hw_builtin_files; !rc && f->name; f++)
		rc = builtin_read(cat, f, checked, err);
	if (!rc && dir_path && *dir_path) {
		char *copy = strdup(dir_path), *p = copy, *colon;

		if (!copy)
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
		while (!rc && p) {
			colon = strchr(p, ':');
			if (colon)
				*colon = '\0';
			if (*p)
				rc = add_dir(cat, p, err);
			p = colon ? colon + 1 : NULL;
		}
		free(copy);
	}
	if (!rc)
		rc = hw_catalog_check(cat, err);
	if (rc) {
		hw_catalog_free(cat);
		return rc;
	}
	*out = cat;
	return DLSIM_OK;
}

int hw_catalog_load(const char *dir_path, struct hw_catalog **out,
		    struct dlsim_err *err)
{
	return catalog_load(dir_path, 0, out, err);
}

int hw_catalog_load_checked(const char *dir_path, struct hw_catalog **out,
			    struct dlsim_err *err)
{
	return catalog_load(dir_path, 1, out, err);
}
