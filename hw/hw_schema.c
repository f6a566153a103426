/*
 * hw_schema.c -- the libcyaml schema of a catalog file
 * (configs/hw/README.md is the format), and the load that checks a text
 * against it.
 *
 * HOW IT WORKS
 * libcyaml loads the text into raw structs (hw.h) that mirror the file,
 * units as written: TFLOP/s, GB/s, GiB, MHz.  It checks types, unknown
 * and missing keys and enum values, and its backtrace gives the line.
 *
 * LIMITATIONS
 * libcyaml 1.3 reads a number by its leading digits: "2abc" loads as 2,
 * "1e3" and "4.9" as the integers 1 and 4, "0x10" as 16.  So after it
 * loads, every scalar under an integer or float key of this schema is
 * read again, whole, from the parsed document (core_yaml_check_numbers;
 * for the compiled-in files, which hw_catalog_load trusts, only in `make
 * check`); the key lists come from walking the schema, so a key added
 * below is checked without being listed twice.  A boolean key (none
 * yet) would be read back the same way, as libcyaml reads any text but a
 * few false spellings as true.
 */
#include "hw/hw.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Schema                                                            */
/* ---------------------------------------------------------------- */

#define OPT CYAML_FLAG_OPTIONAL
#define STR(key, type, field) \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER, type, field, 1, \
			       HW_SOURCE_LEN - 1)
#define OSTR(key, type, field) \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | OPT, type, field, \
			       1, HW_SOURCE_LEN - 1)
#define NAME(key, type, field) \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER, type, field, 1, \
			       HW_NAME_LEN - 1)
#define ONAME(key, type, field) \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | OPT, type, field, \
			       1, HW_NAME_LEN - 1)

static const cyaml_strval_t precision_strings[] = {
	{ "fp64", DLSIM_FP64 }, { "fp32", DLSIM_FP32 },
	{ "tf32", DLSIM_TF32 }, { "fp16", DLSIM_FP16 },
	{ "bf16", DLSIM_BF16 }, { "fp8", DLSIM_FP8 },
	{ "int8", DLSIM_INT8 },
};

static const cyaml_strval_t kind_strings[] = {
	{ "cpu", HW_CPU }, { "phi", HW_PHI }, { "gpu", HW_GPU },
	{ "tpu", HW_TPU }, { "accel", HW_ACCEL },
};

static const cyaml_strval_t topology_strings[] = {
	{ "single", HW_TOPO_SINGLE }, { "pcie-tree", HW_TOPO_PCIE_TREE },
	{ "hybrid-cube-mesh", HW_TOPO_HYBRID_CUBE_MESH },
	{ "nvswitch", HW_TOPO_NVSWITCH }, { "all-to-all", HW_TOPO_ALL_TO_ALL },
	{ "ring", HW_TOPO_RING }, { "torus", HW_TOPO_TORUS },
	{ "fat-tree", HW_TOPO_FAT_TREE }, { "dragonfly", HW_TOPO_DRAGONFLY },
};

#define ENUM(key, flags, type, field, table) \
	CYAML_FIELD_ENUM(key, (flags) | CYAML_FLAG_STRICT, type, field, \
			 table, CYAML_ARRAY_LEN(table))

static const cyaml_schema_value_t name_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, HW_NAME_LEN - 1),
};

static const cyaml_schema_field_t peak_fields[] = {
	ENUM("precision", CYAML_FLAG_DEFAULT, struct hw_raw_peak, precision,
	     precision_strings),
	CYAML_FIELD_FLOAT("matrix_tflops", CYAML_FLAG_DEFAULT,
			  struct hw_raw_peak, matrix_tflops),
	CYAML_FIELD_FLOAT("vector_tflops", CYAML_FLAG_DEFAULT,
			  struct hw_raw_peak, vector_tflops),
	CYAML_FIELD_FLOAT("sparse_tflops", OPT, struct hw_raw_peak,
			  sparse_tflops),
	CYAML_FIELD_FLOAT("eff_gemm", CYAML_FLAG_DEFAULT, struct hw_raw_peak,
			  eff_gemm),
	CYAML_FIELD_FLOAT("eff_conv", CYAML_FLAG_DEFAULT, struct hw_raw_peak,
			  eff_conv),
	CYAML_FIELD_FLOAT("eff_conv3x3", CYAML_FLAG_DEFAULT, struct hw_raw_peak,
			  eff_conv3x3),
	CYAML_FIELD_FLOAT_PTR("eff_conv1x1", OPT, struct hw_raw_peak,
			      eff_conv1x1),
	CYAML_FIELD_FLOAT_PTR("eff_conv1x1s", OPT, struct hw_raw_peak,
			      eff_conv1x1s),
	STR("source", struct hw_raw_peak, source),
	STR("eff_source", struct hw_raw_peak, eff_source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t peak_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_peak,
			    peak_fields),
};

static const cyaml_schema_field_t mem_fields[] = {
	CYAML_FIELD_STRING_PTR("type", CYAML_FLAG_POINTER, struct hw_raw_mem,
			       type, 1, 15),
	CYAML_FIELD_FLOAT("capacity_GiB", CYAML_FLAG_DEFAULT, struct hw_raw_mem,
			  capacity_GiB),
	CYAML_FIELD_FLOAT("bandwidth_GBps", CYAML_FLAG_DEFAULT,
			  struct hw_raw_mem, bandwidth_GBps),
	STR("source", struct hw_raw_mem, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t mem_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_mem, mem_fields),
};

static const cyaml_schema_field_t device_fields[] = {
	NAME("name", struct hw_raw_device, name),
	CYAML_FIELD_SEQUENCE("aliases", CYAML_FLAG_POINTER | OPT,
			     struct hw_raw_device, aliases, &name_entry, 0,
			     HW_MAX_ALIASES),
	ENUM("kind", CYAML_FLAG_DEFAULT, struct hw_raw_device, kind,
	     kind_strings),
	NAME("vendor", struct hw_raw_device, vendor),
	CYAML_FIELD_STRING_PTR("model", CYAML_FLAG_POINTER,
			       struct hw_raw_device, model, 1, 95),
	CYAML_FIELD_INT("units", CYAML_FLAG_DEFAULT, struct hw_raw_device,
			units),
	CYAML_FIELD_FLOAT("clock_base_mhz", OPT, struct hw_raw_device,
			  clock_base_mhz),
	CYAML_FIELD_FLOAT("clock_boost_mhz", OPT, struct hw_raw_device,
			  clock_boost_mhz),
	CYAML_FIELD_FLOAT("clock_avx512_mhz", OPT, struct hw_raw_device,
			  clock_avx512_mhz),
	CYAML_FIELD_FLOAT("tdp_W", OPT, struct hw_raw_device, tdp_W),
	CYAML_FIELD_FLOAT("price_usd", OPT, struct hw_raw_device, price_usd),
	CYAML_FIELD_FLOAT("launch_overhead_us", CYAML_FLAG_DEFAULT,
			  struct hw_raw_device, launch_overhead_us),
	STR("launch_source", struct hw_raw_device, launch_source),
	CYAML_FIELD_FLOAT("llc_MiB", OPT, struct hw_raw_device, llc_MiB),
	NAME("node", struct hw_raw_device, node),
	STR("source", struct hw_raw_device, source),
	CYAML_FIELD_SEQUENCE("peak", CYAML_FLAG_POINTER, struct hw_raw_device,
			     peak, &peak_entry, 1, DLSIM_PRECISION_COUNT),
	CYAML_FIELD_SEQUENCE("memory", CYAML_FLAG_POINTER, struct hw_raw_device,
			     memory, &mem_entry, 1, HW_MAX_MEM_TIERS),
	CYAML_FIELD_FLOAT("eff_memory", CYAML_FLAG_DEFAULT,
			  struct hw_raw_device, eff_memory),
	STR("eff_memory_source", struct hw_raw_device, eff_memory_source),
	ONAME("calibration_from", struct hw_raw_device, calibration_from),
	OSTR("calibration_from_source", struct hw_raw_device,
	     calibration_from_source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t device_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_device,
			    device_fields),
};

static const cyaml_schema_field_t link_fields[] = {
	NAME("name", struct hw_raw_link, name),
	CYAML_FIELD_STRING_PTR("kind", CYAML_FLAG_POINTER, struct hw_raw_link,
			       kind, 1, 23),
	CYAML_FIELD_FLOAT("bandwidth_GBps", CYAML_FLAG_DEFAULT,
			  struct hw_raw_link, bandwidth_GBps),
	CYAML_FIELD_FLOAT("latency_us", CYAML_FLAG_DEFAULT, struct hw_raw_link,
			  latency_us),
	/* LogGP beyond L and G: absent means the alpha-beta form */
	CYAML_FIELD_FLOAT("overhead_us", OPT, struct hw_raw_link, overhead_us),
	CYAML_FIELD_FLOAT("gap_us", OPT, struct hw_raw_link, gap_us),
	CYAML_FIELD_INT("eager_limit_bytes", OPT, struct hw_raw_link,
			eager_limit_bytes),
	CYAML_FIELD_FLOAT_PTR("rendezvous_us", OPT, struct hw_raw_link,
			      rendezvous_us),
	CYAML_FIELD_FLOAT_PTR("efficiency", OPT, struct hw_raw_link,
			      efficiency),
	OSTR("efficiency_source", struct hw_raw_link, efficiency_source),
	STR("source", struct hw_raw_link, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t link_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_link,
			    link_fields),
};

static const cyaml_schema_field_t network_fields[] = {
	NAME("name", struct hw_raw_network, name),
	ENUM("topology", CYAML_FLAG_DEFAULT, struct hw_raw_network, topology,
	     topology_strings),
	CYAML_FIELD_FLOAT("oversubscription", CYAML_FLAG_DEFAULT,
			  struct hw_raw_network, oversubscription),
	CYAML_FIELD_INT("nodes_per_leaf", OPT, struct hw_raw_network,
			nodes_per_leaf),
	/* "16x16": read whole by hw_convert.c, as a list of integers
	 * would escape the strict-number check (it reads scalars under a
	 * key, not the items of a sequence) */
	CYAML_FIELD_STRING_PTR("dims", CYAML_FLAG_POINTER | OPT,
			       struct hw_raw_network, dims, 1, 63),
	STR("source", struct hw_raw_network, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t network_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_network,
			    network_fields),
};

static const cyaml_schema_value_t ring_links_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, 31),
};

static const cyaml_schema_field_t node_fields[] = {
	NAME("name", struct hw_raw_node, name),
	CYAML_FIELD_SEQUENCE("aliases", CYAML_FLAG_POINTER | OPT,
			     struct hw_raw_node, aliases, &name_entry, 0,
			     HW_MAX_ALIASES),
	NAME("device", struct hw_raw_node, device),
	CYAML_FIELD_INT("devices_per_node", CYAML_FLAG_DEFAULT,
			struct hw_raw_node, devices_per_node),
	ONAME("intra_link", struct hw_raw_node, intra_link),
	CYAML_FIELD_INT("intra_links_per_device", OPT, struct hw_raw_node,
			intra_links_per_device),
	ENUM("intra_topology", CYAML_FLAG_DEFAULT, struct hw_raw_node,
	     intra_topology, topology_strings),
	CYAML_FIELD_INT("devices_per_pcie_switch", OPT, struct hw_raw_node,
			devices_per_pcie_switch),
	/* [4, 6, ...]: each item loaded as text and read whole by
	 * hw_convert.c, as the strict-number check reads scalars under a
	 * key, not the items of a sequence */
	CYAML_FIELD_SEQUENCE("ring_links", CYAML_FLAG_POINTER | OPT,
			     struct hw_raw_node, ring_links,
			     &ring_links_entry, 1, HW_MAX_RING_LINKS),
	ONAME("nic_link", struct hw_raw_node, nic_link),
	ONAME("host_link", struct hw_raw_node, host_link),
	OSTR("host_link_source", struct hw_raw_node, host_link_source),
	CYAML_FIELD_INT("devices_per_host_link", OPT, struct hw_raw_node,
			devices_per_host_link),
	ONAME("host_cpu", struct hw_raw_node, host_cpu),
	CYAML_FIELD_INT("host_cpus", OPT, struct hw_raw_node, host_cpus),
	CYAML_FIELD_FLOAT_PTR("host_memory_GiB", OPT, struct hw_raw_node,
			      host_memory_GiB),
	OSTR("host_cpu_source", struct hw_raw_node, host_cpu_source),
	CYAML_FIELD_INT("nics_per_node", OPT, struct hw_raw_node,
			nics_per_node),
	CYAML_FIELD_FLOAT_PTR("overhead_W", OPT, struct hw_raw_node,
			      overhead_W),
	OSTR("overhead_source", struct hw_raw_node, overhead_source),
	ONAME("calibration_from", struct hw_raw_node, calibration_from),
	OSTR("calibration_from_source", struct hw_raw_node,
	     calibration_from_source),
	ONAME("network", struct hw_raw_node, network),
	STR("source", struct hw_raw_node, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t node_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct hw_raw_node,
			    node_fields),
};

static const cyaml_schema_field_t system_fields[] = {
	ONAME("device", struct hw_raw_system, device),
	ONAME("node", struct hw_raw_system, node),
	CYAML_FIELD_INT("count", CYAML_FLAG_DEFAULT, struct hw_raw_system,
			count),
	CYAML_FIELD_END
};

#define SEQ(key, field, entry) \
	CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | OPT, \
			     struct hw_raw_file, field, entry, 0, \
			     HW_MAX_ENTRIES)

static const cyaml_schema_field_t file_fields[] = {
	SEQ("devices", devices, &device_entry),
	SEQ("links", links, &link_entry),
	SEQ("networks", networks, &network_entry),
	SEQ("nodes", nodes, &node_entry),
	CYAML_FIELD_MAPPING_PTR("system", CYAML_FLAG_POINTER | OPT,
				struct hw_raw_file, system, system_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t file_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct hw_raw_file,
			    file_fields),
};

/* ---------------------------------------------------------------- */
/* Numbers                                                           */
/* ---------------------------------------------------------------- */

/* The schema holds 8 integer and 22 float keys (some repeat across
 * kinds of entry); room to grow. */
#define MAX_KEYS 48

struct keys {
	const char *ints[MAX_KEYS + 1];    /* NULL-terminated */
	const char *nums[MAX_KEYS + 1];
	const char *bools[MAX_KEYS + 1];   /* none yet: see hw_check_bools */
	int n_ints, n_nums, n_bools;
};

static void add_key(const char **list, int *n, const char *key)
{
	assert(*n < MAX_KEYS);          /* the schema is ours, not input */
	list[(*n)++] = key;
	list[*n] = NULL;
}

/* Every integer, float and boolean key under fields, at any depth. */
static void collect_keys(const cyaml_schema_field_t *fields, struct keys *k)
{
	for (; fields->key; fields++) {
		const cyaml_schema_value_t *v = &fields->value;

		if (v->type == CYAML_SEQUENCE ||
		    v->type == CYAML_SEQUENCE_FIXED)
			v = v->sequence.entry;
		if (v->type == CYAML_INT)
			add_key(k->ints, &k->n_ints, fields->key);
		else if (v->type == CYAML_FLOAT)
			add_key(k->nums, &k->n_nums, fields->key);
		else if (v->type == CYAML_BOOL)
			add_key(k->bools, &k->n_bools, fields->key);
		else if (v->type == CYAML_MAPPING)
			collect_keys(v->mapping.fields, k);
	}
}

static int check_numbers(const char *name, struct core_yaml_doc *doc,
			 const struct keys *k, struct dlsim_err *err)
{
	char key[64], text[64];
	int line, whole;

	line = core_yaml_check_numbers(doc, k->ints, k->nums, key, text,
				       sizeof(key));
	if (!line)
		return DLSIM_OK;
	whole = core_name_index(k->ints, key) >= 0;
	return dlsim_err_set(err, DLSIM_EPARSE,
			     "%s:%d: '%s' must be a %s (got '%s')", name,
			     line, key, whole ? "whole number" : "number",
			     text);
}

/*
 * libcyaml reads a boolean as true unless it is one of a few false
 * spellings ("nonsense" and "~" are true), so each must be written true
 * or false (core_yaml_check_bools).  The schema has no boolean key yet;
 * the keys come from walking it, so one added is checked from the start.
 */
static int hw_check_bools(const char *name, struct core_yaml_doc *doc,
			  const struct keys *k, struct dlsim_err *err)
{
	char key[64], text[64];
	int line = core_yaml_check_bools(doc, k->bools, key, text,
					 sizeof(key));

	if (!line)
		return DLSIM_OK;
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: '%s' must be true or "
			     "false (got '%s')", name, line, key, text);
}

/* libcyaml loads a null under a string key as its text ("name: ~" named
 * a device "~"): refused like a value that is not there
 * (core_yaml_check_nulls). */
static int hw_check_nulls(const char *name, struct core_yaml_doc *doc,
			  struct dlsim_err *err)
{
	char key[64], text[64];
	int item, line = core_yaml_check_nulls(doc, key, text, sizeof(key),
					       &item);

	if (!line)
		return DLSIM_OK;
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s'%s' has no value "
			     "('%s' is YAML's null)", name, line,
			     item ? "an item of " : "", key, text);
}

/* The checks of a loaded text that libcyaml does not make. */
static int hw_check_doc(const char *name, struct core_yaml_doc *doc,
			struct dlsim_err *err)
{
	struct keys k = { { NULL }, { NULL }, { NULL }, 0, 0, 0 };
	int rc;

	collect_keys(file_fields, &k);
	rc = check_numbers(name, doc, &k, err);
	if (!rc)
		rc = hw_check_bools(name, doc, &k, err);
	if (!rc)
		rc = hw_check_nulls(name, doc, err);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Loading                                                           */
/* ---------------------------------------------------------------- */

int hw_schema_load(const char *name, const char *text, size_t len,
		   struct core_yaml_doc *doc, int check,
		   struct hw_raw_file **out, struct dlsim_err *err)
{
	struct core_yaml_log log;
	struct hw_raw_file *f = NULL;
	cyaml_config_t cfg;
	cyaml_err_t ce;
	int rc;

	*out = NULL;
	/* libcyaml would read the first document and drop the rest; the
	 * compiled-in files are ours, read this way by `make check` */
	if (check && (rc = core_yaml_second_document(text, len)))
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: a second YAML "
				     "document starts here; the file must "
				     "hold one", name, rc);
	core_yaml_config(&cfg, &log);
	ce = cyaml_load_data((const uint8_t *)text, len, &cfg, &file_schema,
			     (cyaml_data_t **)&f, NULL);
	if (ce != CYAML_OK)
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s", name,
				     core_yaml_log_line(&log, text, len),
				     log.first[0] ? log.first :
				     cyaml_strerror(ce));
	if (!f)
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:1: empty file",
				     name);
	/* libyaml parsed what libcyaml did: only memory can fail here */
	if (!check)
		rc = DLSIM_OK;
	else if (!doc)
		rc = dlsim_err_set(err, DLSIM_ENOMEM,
				   "out of memory reading %s", name);
	else
		rc = hw_check_doc(name, doc, err);
	if (rc) {
		hw_schema_free(f);
		return rc;
	}
	*out = f;
	return DLSIM_OK;
}

void hw_schema_free(struct hw_raw_file *f)
{
	struct core_yaml_log log;
	cyaml_config_t cfg;

	if (!f)
		return;
	core_yaml_config(&cfg, &log);
	cyaml_free(&cfg, &file_schema, f, 0);
}
