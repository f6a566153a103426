/*
 * hw_yaml.c -- reads catalog YAML (configs/hw/README.md is the format)
 * into hw_catalog entries.
 *
 * HOW IT WORKS
 * 1. libcyaml loads the text against the schema below into "raw" structs
 *    that mirror the file (units as written: TFLOP/s, GB/s, GiB, MHz).
 *    Types, unknown keys, missing required keys and enum values are
 *    checked there, and its backtrace gives the line.
 * 2. Each raw entry is range-checked (positive, finite, efficiencies in
 *    (0, 1], names of [a-z0-9._-]) and converted to SI units in a scratch
 *    catalog.  A failure finds its line again with core_yaml_line().
 * 3. Names are checked against each other and against the catalog, and
 *    only then are the entries appended: a bad file adds nothing.
 */
#include "hw/hw.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Raw types: the file as written                                    */
/* ---------------------------------------------------------------- */

struct raw_peak {
	int precision;
	double matrix_tflops, vector_tflops, sparse_tflops;
	double eff_gemm, eff_conv, eff_conv3x3;
	char *source, *eff_source;
};

struct raw_mem {
	char *type;
	double capacity_GiB, bandwidth_GBps;
	char *source;
};

struct raw_device {
	char *name;
	char **aliases;
	unsigned aliases_count;
	int kind;
	char *vendor, *model;
	int64_t units;
	double clock_base_mhz, clock_boost_mhz, clock_avx512_mhz;
	double tdp_W, price_usd, launch_overhead_us, llc_MiB;
	char *launch_source, *node, *source;
	struct raw_peak *peak;
	unsigned peak_count;
	struct raw_mem *memory;
	unsigned memory_count;
	double eff_memory;
	char *eff_memory_source;
};

struct raw_link {
	char *name, *kind;
	double bandwidth_GBps, latency_us;
	char *source;
};

struct raw_network {
	char *name;
	int topology;
	double oversubscription;
	char *source;
};

struct raw_node {
	char *name;
	char **aliases;
	unsigned aliases_count;
	char *device;
	int64_t devices_per_node;
	char *intra_link;
	int64_t intra_links_per_device;
	int intra_topology;
	char *nic_link;
	int64_t nics_per_node;
	char *network, *source;
};

struct raw_system {
	char *device, *node;
	int64_t count;
};

struct raw_file {
	struct raw_device *devices;
	unsigned devices_count;
	struct raw_link *links;
	unsigned links_count;
	struct raw_network *networks;
	unsigned networks_count;
	struct raw_node *nodes;
	unsigned nodes_count;
	struct raw_system *system;
};

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
	ENUM("precision", CYAML_FLAG_DEFAULT, struct raw_peak, precision,
	     precision_strings),
	CYAML_FIELD_FLOAT("matrix_tflops", CYAML_FLAG_DEFAULT,
			  struct raw_peak, matrix_tflops),
	CYAML_FIELD_FLOAT("vector_tflops", CYAML_FLAG_DEFAULT,
			  struct raw_peak, vector_tflops),
	CYAML_FIELD_FLOAT("sparse_tflops", OPT, struct raw_peak,
			  sparse_tflops),
	CYAML_FIELD_FLOAT("eff_gemm", CYAML_FLAG_DEFAULT, struct raw_peak,
			  eff_gemm),
	CYAML_FIELD_FLOAT("eff_conv", CYAML_FLAG_DEFAULT, struct raw_peak,
			  eff_conv),
	CYAML_FIELD_FLOAT("eff_conv3x3", CYAML_FLAG_DEFAULT, struct raw_peak,
			  eff_conv3x3),
	STR("source", struct raw_peak, source),
	STR("eff_source", struct raw_peak, eff_source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t peak_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_peak, peak_fields),
};

static const cyaml_schema_field_t mem_fields[] = {
	CYAML_FIELD_STRING_PTR("type", CYAML_FLAG_POINTER, struct raw_mem,
			       type, 1, 15),
	CYAML_FIELD_FLOAT("capacity_GiB", CYAML_FLAG_DEFAULT, struct raw_mem,
			  capacity_GiB),
	CYAML_FIELD_FLOAT("bandwidth_GBps", CYAML_FLAG_DEFAULT,
			  struct raw_mem, bandwidth_GBps),
	STR("source", struct raw_mem, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t mem_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_mem, mem_fields),
};

static const cyaml_schema_field_t device_fields[] = {
	NAME("name", struct raw_device, name),
	CYAML_FIELD_SEQUENCE("aliases", CYAML_FLAG_POINTER | OPT,
			     struct raw_device, aliases, &name_entry, 0,
			     HW_MAX_ALIASES),
	ENUM("kind", CYAML_FLAG_DEFAULT, struct raw_device, kind,
	     kind_strings),
	NAME("vendor", struct raw_device, vendor),
	CYAML_FIELD_STRING_PTR("model", CYAML_FLAG_POINTER, struct raw_device,
			       model, 1, 95),
	CYAML_FIELD_INT("units", CYAML_FLAG_DEFAULT, struct raw_device,
			units),
	CYAML_FIELD_FLOAT("clock_base_mhz", OPT, struct raw_device,
			  clock_base_mhz),
	CYAML_FIELD_FLOAT("clock_boost_mhz", OPT, struct raw_device,
			  clock_boost_mhz),
	CYAML_FIELD_FLOAT("clock_avx512_mhz", OPT, struct raw_device,
			  clock_avx512_mhz),
	CYAML_FIELD_FLOAT("tdp_W", OPT, struct raw_device, tdp_W),
	CYAML_FIELD_FLOAT("price_usd", OPT, struct raw_device, price_usd),
	CYAML_FIELD_FLOAT("launch_overhead_us", CYAML_FLAG_DEFAULT,
			  struct raw_device, launch_overhead_us),
	STR("launch_source", struct raw_device, launch_source),
	CYAML_FIELD_FLOAT("llc_MiB", OPT, struct raw_device, llc_MiB),
	NAME("node", struct raw_device, node),
	STR("source", struct raw_device, source),
	CYAML_FIELD_SEQUENCE("peak", CYAML_FLAG_POINTER, struct raw_device,
			     peak, &peak_entry, 1, DLSIM_PRECISION_COUNT),
	CYAML_FIELD_SEQUENCE("memory", CYAML_FLAG_POINTER, struct raw_device,
			     memory, &mem_entry, 1, HW_MAX_MEM_TIERS),
	CYAML_FIELD_FLOAT("eff_memory", CYAML_FLAG_DEFAULT, struct raw_device,
			  eff_memory),
	STR("eff_memory_source", struct raw_device, eff_memory_source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t device_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_device,
			    device_fields),
};

static const cyaml_schema_field_t link_fields[] = {
	NAME("name", struct raw_link, name),
	CYAML_FIELD_STRING_PTR("kind", CYAML_FLAG_POINTER, struct raw_link,
			       kind, 1, 23),
	CYAML_FIELD_FLOAT("bandwidth_GBps", CYAML_FLAG_DEFAULT,
			  struct raw_link, bandwidth_GBps),
	CYAML_FIELD_FLOAT("latency_us", CYAML_FLAG_DEFAULT, struct raw_link,
			  latency_us),
	STR("source", struct raw_link, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t link_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_link, link_fields),
};

static const cyaml_schema_field_t network_fields[] = {
	NAME("name", struct raw_network, name),
	ENUM("topology", CYAML_FLAG_DEFAULT, struct raw_network, topology,
	     topology_strings),
	CYAML_FIELD_FLOAT("oversubscription", CYAML_FLAG_DEFAULT,
			  struct raw_network, oversubscription),
	STR("source", struct raw_network, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t network_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_network,
			    network_fields),
};

static const cyaml_schema_field_t node_fields[] = {
	NAME("name", struct raw_node, name),
	CYAML_FIELD_SEQUENCE("aliases", CYAML_FLAG_POINTER | OPT,
			     struct raw_node, aliases, &name_entry, 0,
			     HW_MAX_ALIASES),
	NAME("device", struct raw_node, device),
	CYAML_FIELD_INT("devices_per_node", CYAML_FLAG_DEFAULT,
			struct raw_node, devices_per_node),
	ONAME("intra_link", struct raw_node, intra_link),
	CYAML_FIELD_INT("intra_links_per_device", OPT, struct raw_node,
			intra_links_per_device),
	ENUM("intra_topology", CYAML_FLAG_DEFAULT, struct raw_node,
	     intra_topology, topology_strings),
	ONAME("nic_link", struct raw_node, nic_link),
	CYAML_FIELD_INT("nics_per_node", OPT, struct raw_node, nics_per_node),
	ONAME("network", struct raw_node, network),
	STR("source", struct raw_node, source),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t node_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_node, node_fields),
};

static const cyaml_schema_field_t system_fields[] = {
	ONAME("device", struct raw_system, device),
	ONAME("node", struct raw_system, node),
	CYAML_FIELD_INT("count", CYAML_FLAG_DEFAULT, struct raw_system,
			count),
	CYAML_FIELD_END
};

#define SEQ(key, field, entry) \
	CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | OPT, struct raw_file, \
			     field, entry, 0, HW_MAX_ENTRIES)

static const cyaml_schema_field_t file_fields[] = {
	SEQ("devices", devices, &device_entry),
	SEQ("links", links, &link_entry),
	SEQ("networks", networks, &network_entry),
	SEQ("nodes", nodes, &node_entry),
	CYAML_FIELD_MAPPING_PTR("system", CYAML_FLAG_POINTER | OPT,
				struct raw_file, system, system_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t file_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_file, file_fields),
};

/* ---------------------------------------------------------------- */
/* Checks and conversion                                             */
/* ---------------------------------------------------------------- */

/* Where we are while converting, for messages. */
struct reader {
	const char *name, *text;
	size_t len;
	struct dlsim_err *err;
	struct core_yaml_doc *doc;   /* parsed once for entry lines */
};

/* Line of an entry that loaded fine (kept for later messages). */
static int entry_line(struct reader *r, const char *path)
{
	if (!r->doc)
		r->doc = core_yaml_doc_open(r->text, r->len);
	return core_yaml_doc_line(r->doc, path);
}

static int bad(struct reader *r, const char *path, const char *what,
	       double got)
{
	int line = core_yaml_line(r->text, r->len, path);
	const char *key = strrchr(path, '.');

	return dlsim_err_set(r->err, DLSIM_EPARSE,
			     "%s:%d: '%s' %s (got %g)", r->name, line,
			     key ? key + 1 : path, what, got);
}

static int positive(struct reader *r, const char *path, double v)
{
	if (!isfinite(v) || v <= 0.0)
		return bad(r, path, "must be positive", v);
	return DLSIM_OK;
}

static int non_negative(struct reader *r, const char *path, double v)
{
	if (!isfinite(v) || v < 0.0)
		return bad(r, path, "must not be negative", v);
	return DLSIM_OK;
}

static int fraction(struct reader *r, const char *path, double v)
{
	if (!isfinite(v) || v <= 0.0 || v > 1.0)
		return bad(r, path, "must be in (0, 1]", v);
	return DLSIM_OK;
}

static int valid_name(struct reader *r, const char *path, const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    *p != '-' && *p != '_' && *p != '.')
			return dlsim_err_set(r->err, DLSIM_EPARSE,
					     "%s:%d: name '%s' may hold only "
					     "a-z, 0-9, '-', '_' and '.'",
					     r->name,
					     core_yaml_line(r->text, r->len,
							    path), s);
	return DLSIM_OK;
}

#define PATH(buf, ...) snprintf(buf, sizeof(buf), __VA_ARGS__)

static int convert_peak(struct reader *r, unsigned d, unsigned i,
			const struct raw_peak *rp, struct hw_device *dev)
{
	struct hw_peak *pk = &dev->peak[rp->precision];
	char p[96];
	int rc;

	if (pk->matrix_flops > 0.0) {
		PATH(p, "devices.%u.peak.%u.precision", d, i);
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: precision '%s' listed twice",
				     r->name, core_yaml_line(r->text, r->len,
							     p),
				     dlsim_precision_name(rp->precision));
	}
	PATH(p, "devices.%u.peak.%u.matrix_tflops", d, i);
	if ((rc = positive(r, p, rp->matrix_tflops)))
		return rc;
	PATH(p, "devices.%u.peak.%u.vector_tflops", d, i);
	if ((rc = positive(r, p, rp->vector_tflops)))
		return rc;
	PATH(p, "devices.%u.peak.%u.sparse_tflops", d, i);
	if ((rc = non_negative(r, p, rp->sparse_tflops)))
		return rc;
	PATH(p, "devices.%u.peak.%u.eff_gemm", d, i);
	if ((rc = fraction(r, p, rp->eff_gemm)))
		return rc;
	PATH(p, "devices.%u.peak.%u.eff_conv", d, i);
	if ((rc = fraction(r, p, rp->eff_conv)))
		return rc;
	/* Winograd F(4x4,3x3) does 4x fewer multiplies: the most a 3x3
	 * efficiency over the direct count can be */
	PATH(p, "devices.%u.peak.%u.eff_conv3x3", d, i);
	if (!isfinite(rp->eff_conv3x3) || rp->eff_conv3x3 <= 0.0 ||
	    rp->eff_conv3x3 > 4.0)
		return bad(r, p, "must be in (0, 4]", rp->eff_conv3x3);
	pk->matrix_flops = rp->matrix_tflops * 1e12;
	pk->vector_flops = rp->vector_tflops * 1e12;
	pk->sparse_flops = rp->sparse_tflops * 1e12;
	pk->eff_gemm = rp->eff_gemm;
	pk->eff_conv = rp->eff_conv;
	pk->eff_conv3x3 = rp->eff_conv3x3;
	core_strlcpy(pk->source, rp->source, sizeof(pk->source));
	core_strlcpy(pk->eff_source, rp->eff_source, sizeof(pk->eff_source));
	return DLSIM_OK;
}

static int convert_mem(struct reader *r, unsigned d, unsigned i,
		       const struct raw_mem *rm, struct hw_mem_tier *t)
{
	char p[96];
	int rc;

	PATH(p, "devices.%u.memory.%u.capacity_GiB", d, i);
	if ((rc = positive(r, p, rm->capacity_GiB)))
		return rc;
	PATH(p, "devices.%u.memory.%u.bandwidth_GBps", d, i);
	if ((rc = positive(r, p, rm->bandwidth_GBps)))
		return rc;
	core_strlcpy(t->type, rm->type, sizeof(t->type));
	t->capacity_bytes = rm->capacity_GiB * 1073741824.0;
	t->bandwidth_Bps = rm->bandwidth_GBps * 1e9;
	core_strlcpy(t->source, rm->source, sizeof(t->source));
	return DLSIM_OK;
}

static void copy_aliases(char (*dst)[HW_NAME_LEN], int *n, char **src,
			 unsigned count)
{
	unsigned i;

	for (i = 0; i < count; i++)
		core_strlcpy(dst[i], src[i], HW_NAME_LEN);
	*n = (int)count;
}

static int check_aliases(struct reader *r, const char *list, unsigned d,
			 char **aliases, unsigned count)
{
	char p[96];
	unsigned i;
	int rc;

	for (i = 0; i < count; i++) {
		PATH(p, "%s.%u.aliases.%u", list, d, i);
		if ((rc = valid_name(r, p, aliases[i])))
			return rc;
	}
	return DLSIM_OK;
}

static int device_numbers(struct reader *r, unsigned d,
			  const struct raw_device *rd)
{
	static const struct { const char *key; size_t off; int opt; } f[] = {
		{ "clock_boost_mhz",
		  offsetof(struct raw_device, clock_boost_mhz), 1 },
		{ "tdp_W", offsetof(struct raw_device, tdp_W), 1 },
		{ "launch_overhead_us",
		  offsetof(struct raw_device, launch_overhead_us), 0 },
		{ "clock_base_mhz",
		  offsetof(struct raw_device, clock_base_mhz), 1 },
		{ "clock_avx512_mhz",
		  offsetof(struct raw_device, clock_avx512_mhz), 1 },
		{ "price_usd", offsetof(struct raw_device, price_usd), 1 },
		{ "llc_MiB", offsetof(struct raw_device, llc_MiB), 1 },
	};
	char p[96];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		double v = *(const double *)((const char *)rd + f[i].off);

		PATH(p, "devices.%u.%s", d, f[i].key);
		rc = f[i].opt ? non_negative(r, p, v) : positive(r, p, v);
		if (rc)
			return rc;
	}
	PATH(p, "devices.%u.units", d);
	if ((rc = positive(r, p, (double)rd->units)))
		return rc;
	PATH(p, "devices.%u.eff_memory", d);
	return fraction(r, p, rd->eff_memory);
}

static int convert_device(struct reader *r, unsigned d,
			  const struct raw_device *rd, struct hw_device *dev)
{
	char p[96];
	unsigned i;
	int rc;

	memset(dev, 0, sizeof(*dev));
	PATH(p, "devices.%u.name", d);
	if ((rc = valid_name(r, p, rd->name)) ||
	    (rc = check_aliases(r, "devices", d, rd->aliases,
				rd->aliases_count)) ||
	    (rc = device_numbers(r, d, rd)))
		return rc;
	core_strlcpy(dev->name, rd->name, sizeof(dev->name));
	copy_aliases(dev->aliases, &dev->n_aliases, rd->aliases,
		     rd->aliases_count);
	dev->kind = (enum hw_device_kind)rd->kind;
	core_strlcpy(dev->vendor, rd->vendor, sizeof(dev->vendor));
	core_strlcpy(dev->model, rd->model, sizeof(dev->model));
	dev->units = rd->units;
	dev->clock_base_hz = rd->clock_base_mhz * 1e6;
	dev->clock_boost_hz = rd->clock_boost_mhz * 1e6;
	dev->clock_avx512_hz = rd->clock_avx512_mhz * 1e6;
	dev->tdp_w = rd->tdp_W;
	dev->price_usd = rd->price_usd;
	dev->launch_overhead_s = rd->launch_overhead_us * 1e-6;
	core_strlcpy(dev->launch_source, rd->launch_source,
		     sizeof(dev->launch_source));
	dev->llc_bytes = rd->llc_MiB * 1048576.0;
	core_strlcpy(dev->node, rd->node, sizeof(dev->node));
	core_strlcpy(dev->source, rd->source, sizeof(dev->source));
	dev->eff_memory = rd->eff_memory;
	core_strlcpy(dev->eff_memory_source, rd->eff_memory_source,
		     sizeof(dev->eff_memory_source));
	for (i = 0; i < rd->peak_count; i++)
		if ((rc = convert_peak(r, d, i, &rd->peak[i], dev)))
			return rc;
	for (i = 0; i < rd->memory_count; i++)
		if ((rc = convert_mem(r, d, i, &rd->memory[i], &dev->mem[i])))
			return rc;
	dev->n_mem = (int)rd->memory_count;
	core_strlcpy(dev->file, r->name, sizeof(dev->file));
	PATH(p, "devices.%u", d);
	dev->line = entry_line(r, p);
	return DLSIM_OK;
}

static int convert_link(struct reader *r, unsigned i,
			const struct raw_link *rl, struct hw_link *l)
{
	char p[96];
	int rc;

	memset(l, 0, sizeof(*l));
	PATH(p, "links.%u.name", i);
	if ((rc = valid_name(r, p, rl->name)))
		return rc;
	PATH(p, "links.%u.bandwidth_GBps", i);
	if ((rc = positive(r, p, rl->bandwidth_GBps)))
		return rc;
	PATH(p, "links.%u.latency_us", i);
	if ((rc = non_negative(r, p, rl->latency_us)))
		return rc;
	core_strlcpy(l->name, rl->name, sizeof(l->name));
	core_strlcpy(l->kind, rl->kind, sizeof(l->kind));
	l->bandwidth_Bps = rl->bandwidth_GBps * 1e9;
	l->latency_s = rl->latency_us * 1e-6;
	core_strlcpy(l->source, rl->source, sizeof(l->source));
	core_strlcpy(l->file, r->name, sizeof(l->file));
	PATH(p, "links.%u", i);
	l->line = entry_line(r, p);
	return DLSIM_OK;
}

static int convert_network(struct reader *r, unsigned i,
			   const struct raw_network *rn, struct hw_network *n)
{
	char p[96];
	int rc;

	memset(n, 0, sizeof(*n));
	PATH(p, "networks.%u.name", i);
	if ((rc = valid_name(r, p, rn->name)))
		return rc;
	PATH(p, "networks.%u.oversubscription", i);
	if (!isfinite(rn->oversubscription) || rn->oversubscription < 1.0)
		return bad(r, p, "must be at least 1", rn->oversubscription);
	core_strlcpy(n->name, rn->name, sizeof(n->name));
	n->topology = (enum hw_topology)rn->topology;
	n->oversubscription = rn->oversubscription;
	core_strlcpy(n->source, rn->source, sizeof(n->source));
	core_strlcpy(n->file, r->name, sizeof(n->file));
	PATH(p, "networks.%u", i);
	n->line = entry_line(r, p);
	return DLSIM_OK;
}

static int node_numbers(struct reader *r, unsigned i,
			const struct raw_node *rn)
{
	char p[96];
	int rc;

	PATH(p, "nodes.%u.devices_per_node", i);
	if (rn->devices_per_node <= 0 || rn->devices_per_node > 1000000)
		return bad(r, p, "must be in 1..1000000",
			   (double)rn->devices_per_node);
	PATH(p, "nodes.%u.intra_links_per_device", i);
	if ((rc = non_negative(r, p, (double)rn->intra_links_per_device)))
		return rc;
	PATH(p, "nodes.%u.nics_per_node", i);
	if ((rc = non_negative(r, p, (double)rn->nics_per_node)))
		return rc;
	if (rn->devices_per_node > 1 &&
	    (!rn->intra_link || rn->intra_links_per_device <= 0)) {
		PATH(p, "nodes.%u", i);
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: node '%s' has %lld devices but "
				     "no intra_link and "
				     "intra_links_per_device", r->name,
				     core_yaml_line(r->text, r->len, p),
				     rn->name,
				     (long long)rn->devices_per_node);
	}
	if (rn->nic_link && rn->nics_per_node <= 0) {
		PATH(p, "nodes.%u.nic_link", i);
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: node '%s' names a nic_link but "
				     "no nics_per_node", r->name,
				     core_yaml_line(r->text, r->len, p),
				     rn->name);
	}
	return DLSIM_OK;
}

static int convert_node(struct reader *r, unsigned i,
			const struct raw_node *rn, struct hw_node *n)
{
	char p[96];
	int rc;

	memset(n, 0, sizeof(*n));
	PATH(p, "nodes.%u.name", i);
	if ((rc = valid_name(r, p, rn->name)) ||
	    (rc = check_aliases(r, "nodes", i, rn->aliases,
				rn->aliases_count)) ||
	    (rc = node_numbers(r, i, rn)))
		return rc;
	core_strlcpy(n->name, rn->name, sizeof(n->name));
	copy_aliases(n->aliases, &n->n_aliases, rn->aliases,
		     rn->aliases_count);
	core_strlcpy(n->device, rn->device, sizeof(n->device));
	n->devices_per_node = rn->devices_per_node;
	core_strlcpy(n->intra_link, rn->intra_link, sizeof(n->intra_link));
	n->intra_links_per_device = rn->intra_links_per_device;
	n->intra_topology = (enum hw_topology)rn->intra_topology;
	core_strlcpy(n->nic_link, rn->nic_link, sizeof(n->nic_link));
	n->nics_per_node = rn->nics_per_node;
	core_strlcpy(n->network, rn->network, sizeof(n->network));
	core_strlcpy(n->source, rn->source, sizeof(n->source));
	core_strlcpy(n->file, r->name, sizeof(n->file));
	PATH(p, "nodes.%u", i);
	n->line = entry_line(r, p);
	return DLSIM_OK;
}

static int convert_system(struct reader *r, const struct raw_system *rs,
			  struct hw_file_system *sys)
{
	int line = core_yaml_line(r->text, r->len, "system");

	memset(sys, 0, sizeof(*sys));
	if (!rs)
		return DLSIM_OK;
	if ((rs->device != NULL) == (rs->node != NULL))
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'system' needs exactly one of "
				     "'device' and 'node'", r->name, line);
	if (rs->count <= 0 || rs->count > HW_MAX_COUNT)
		return bad(r, "system.count", "must be in 1..100000000",
			   (double)rs->count);
	sys->present = 1;
	core_strlcpy(sys->device, rs->device, sizeof(sys->device));
	core_strlcpy(sys->node, rs->node, sizeof(sys->node));
	sys->count = rs->count;
	sys->line = line;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Appending to the catalog                                          */
/* ---------------------------------------------------------------- */

static int grow(void **arr, int *cap, int need, size_t size)
{
	void *p;
	int c = *cap ? *cap : 16;

	if (need <= *cap)
		return DLSIM_OK;
	if (need > HW_MAX_ENTRIES)
		return DLSIM_ENOMEM;
	while (c < need)
		c *= 2;
	p = realloc(*arr, (size_t)c * size);
	if (!p)
		return DLSIM_ENOMEM;
	*arr = p;
	*cap = c;
	return DLSIM_OK;
}

/* Where a name is already defined (device, node, link or network
 * namespace), as "file:line"; NULL if nowhere. */
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

static int clash(struct dlsim_err *err, const char *file, int line,
		 const char *name, const char *where)
{
	return dlsim_err_set(err, DLSIM_EPARSE,
			     "%s:%d: '%s' is already defined (%s)", file,
			     line, name, where);
}

/*
 * Check every name and alias of scratch against cat, appending to cat one
 * entry at a time so that duplicates inside the file are found too.  On
 * failure cat is restored to its old counts.
 */
static int merge(struct hw_catalog *cat, const struct hw_catalog *s,
		 struct dlsim_err *err)
{
	int nd = cat->n_devices, nl = cat->n_links, nn = cat->n_nodes;
	int nw = cat->n_networks, i, j, rc = DLSIM_OK;
	char where[200];

	if (grow((void **)&cat->devices, &cat->cap_devices,
		 nd + s->n_devices, sizeof(*cat->devices)) ||
	    grow((void **)&cat->links, &cat->cap_links, nl + s->n_links,
		 sizeof(*cat->links)) ||
	    grow((void **)&cat->nodes, &cat->cap_nodes, nn + s->n_nodes,
		 sizeof(*cat->nodes)) ||
	    grow((void **)&cat->networks, &cat->cap_networks,
		 nw + s->n_networks, sizeof(*cat->networks)))
		return dlsim_err_set(err, DLSIM_ENOMEM,
				     "too many catalog entries");
	for (i = 0; i < s->n_devices && !rc; i++) {
		const struct hw_device *d = &s->devices[i];

		if (name_taken(cat, d->name, where, sizeof(where)))
			rc = clash(err, d->file, d->line, d->name, where);
		for (j = 0; j < d->n_aliases && !rc; j++)
			if (name_taken(cat, d->aliases[j], where,
				       sizeof(where)))
				rc = clash(err, d->file, d->line,
					   d->aliases[j], where);
		if (!rc)
			cat->devices[cat->n_devices++] = *d;
	}
	for (i = 0; i < s->n_nodes && !rc; i++) {
		const struct hw_node *n = &s->nodes[i];

		if (name_taken(cat, n->name, where, sizeof(where)))
			rc = clash(err, n->file, n->line, n->name, where);
		for (j = 0; j < n->n_aliases && !rc; j++)
			if (name_taken(cat, n->aliases[j], where,
				       sizeof(where)))
				rc = clash(err, n->file, n->line,
					   n->aliases[j], where);
		if (!rc)
			cat->nodes[cat->n_nodes++] = *n;
	}
	for (i = 0; i < s->n_links && !rc; i++) {
		const struct hw_link *l = &s->links[i];

		if (name_taken(cat, l->name, where, sizeof(where)))
			rc = clash(err, l->file, l->line, l->name, where);
		else
			cat->links[cat->n_links++] = *l;
	}
	for (i = 0; i < s->n_networks && !rc; i++) {
		const struct hw_network *n = &s->networks[i];

		if (name_taken(cat, n->name, where, sizeof(where)))
			rc = clash(err, n->file, n->line, n->name, where);
		else
			cat->networks[cat->n_networks++] = *n;
	}
	if (rc) {
		cat->n_devices = nd;
		cat->n_links = nl;
		cat->n_nodes = nn;
		cat->n_networks = nw;
	}
	return rc;
}

static int alloc_scratch(struct hw_catalog *s, const struct raw_file *f)
{
	memset(s, 0, sizeof(*s));
	s->devices = calloc(f->devices_count + 1, sizeof(*s->devices));
	s->links = calloc(f->links_count + 1, sizeof(*s->links));
	s->nodes = calloc(f->nodes_count + 1, sizeof(*s->nodes));
	s->networks = calloc(f->networks_count + 1, sizeof(*s->networks));
	if (!s->devices || !s->links || !s->nodes || !s->networks)
		return DLSIM_ENOMEM;
	return DLSIM_OK;
}

static void free_scratch(struct hw_catalog *s)
{
	free(s->devices);
	free(s->links);
	free(s->nodes);
	free(s->networks);
}

static int convert_all(struct reader *r, const struct raw_file *f,
		       struct hw_catalog *s)
{
	unsigned i;
	int rc = DLSIM_OK;

	for (i = 0; i < f->devices_count && !rc; i++)
		rc = convert_device(r, i, &f->devices[i],
				    &s->devices[s->n_devices++]);
	for (i = 0; i < f->links_count && !rc; i++)
		rc = convert_link(r, i, &f->links[i], &s->links[s->n_links++]);
	for (i = 0; i < f->networks_count && !rc; i++)
		rc = convert_network(r, i, &f->networks[i],
				     &s->networks[s->n_networks++]);
	for (i = 0; i < f->nodes_count && !rc; i++)
		rc = convert_node(r, i, &f->nodes[i], &s->nodes[s->n_nodes++]);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int hw_yaml_read(struct hw_catalog *cat, const char *name, const char *text,
		 size_t len, struct hw_file_system *sys,
		 struct dlsim_err *err)
{
	struct reader r = { name, text, len, err, NULL };
	struct core_yaml_log log;
	struct raw_file *f = NULL;
	struct hw_catalog scratch;
	struct hw_file_system fsys;
	cyaml_config_t cfg;
	cyaml_err_t ce;
	int rc;

	if (sys)
		memset(sys, 0, sizeof(*sys));
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
	rc = alloc_scratch(&scratch, f);
	if (rc)
		dlsim_err_set(err, rc, "out of memory reading %s", name);
	if (!rc)
		rc = convert_all(&r, f, &scratch);
	if (!rc)
		rc = convert_system(&r, f->system, &fsys);
	if (!rc)
		rc = merge(cat, &scratch, err);
	if (!rc && sys)
		*sys = fsys;
	free_scratch(&scratch);
	core_yaml_doc_close(r.doc);
	cyaml_free(&cfg, &file_schema, f, 0);
	return rc;
}
