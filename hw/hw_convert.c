/*
 * hw_convert.c -- conversion of a loaded catalog file's raw entries
 * (units as written) to SI units.
 *
 * HOW IT WORKS
 * Each raw entry is checked (hw_check.c: positive, efficiencies in
 * (0, 1], names of [a-z0-9._-], nothing above HW_MAX_RAW in its written
 * unit) and converted into a batch that belongs to no catalog yet: a bad
 * file adds nothing.  The numbers of each kind of entry are one table
 * {key, raw field, SI field, scale, allowed range}, so a unit is written
 * down once.  A failure finds its line again in the parsed document the
 * caller keeps, by the dotted path of the value
 * ("devices.3.memory.0.bandwidth_GBps").
 */
#include "hw/hw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

#define PATH(buf, ...) snprintf(buf, sizeof(buf), __VA_ARGS__)
#define N(t) (sizeof(t) / sizeof((t)[0]))

/* ---------------------------------------------------------------- */
/* Devices                                                           */
/* ---------------------------------------------------------------- */

static void copy_aliases(char (*dst)[HW_NAME_LEN], int *n, char **src,
			 unsigned count)
{
	unsigned i;

	for (i = 0; i < count; i++)
		core_strlcpy(dst[i], src[i], HW_NAME_LEN);
	*n = (int)count;
}

#define RAW(type, field) offsetof(struct hw_raw_##type, field)

static const struct hw_num peak_nums[] = {
	{ "matrix_tflops", RAW(peak, matrix_tflops),
	  offsetof(struct hw_peak, matrix_flops), 1e12, HW_RATE },
	{ "vector_tflops", RAW(peak, vector_tflops),
	  offsetof(struct hw_peak, vector_flops), 1e12, HW_RATE },
	{ "sparse_tflops", RAW(peak, sparse_tflops),
	  offsetof(struct hw_peak, sparse_flops), 1e12, HW_NON_NEGATIVE },
	{ "eff_gemm", RAW(peak, eff_gemm),
	  offsetof(struct hw_peak, eff_gemm), 1.0, HW_FRACTION },
	{ "eff_conv", RAW(peak, eff_conv),
	  offsetof(struct hw_peak, eff_conv), 1.0, HW_FRACTION },
	{ "eff_conv3x3", RAW(peak, eff_conv3x3),
	  offsetof(struct hw_peak, eff_conv3x3), 1.0, HW_WINOGRAD },
};

static const struct hw_num mem_nums[] = {
	{ "capacity_GiB", RAW(mem, capacity_GiB),
	  offsetof(struct hw_mem_tier, capacity_bytes), 1073741824.0,
	  HW_POSITIVE },
	{ "bandwidth_GBps", RAW(mem, bandwidth_GBps),
	  offsetof(struct hw_mem_tier, bandwidth_Bps), 1e9, HW_RATE },
};

/* Optional figures are 0 when absent ("none published"). */
static const struct hw_num device_nums[] = {
	{ "clock_boost_mhz", RAW(device, clock_boost_mhz),
	  offsetof(struct hw_device, clock_boost_hz), 1e6, HW_CLOCK },
	{ "tdp_W", RAW(device, tdp_W),
	  offsetof(struct hw_device, tdp_w), 1.0, HW_NON_NEGATIVE },
	{ "launch_overhead_us", RAW(device, launch_overhead_us),
	  offsetof(struct hw_device, launch_overhead_s), 1e-6, HW_POSITIVE },
	{ "clock_base_mhz", RAW(device, clock_base_mhz),
	  offsetof(struct hw_device, clock_base_hz), 1e6, HW_CLOCK },
	{ "clock_avx512_mhz", RAW(device, clock_avx512_mhz),
	  offsetof(struct hw_device, clock_avx512_hz), 1e6, HW_CLOCK },
	{ "price_usd", RAW(device, price_usd),
	  offsetof(struct hw_device, price_usd), 1.0, HW_NON_NEGATIVE },
	{ "llc_MiB", RAW(device, llc_MiB),
	  offsetof(struct hw_device, llc_bytes), 1048576.0, HW_NON_NEGATIVE },
	{ "eff_memory", RAW(device, eff_memory),
	  offsetof(struct hw_device, eff_memory), 1.0, HW_FRACTION },
};

/*
 * A 1x1 efficiency the entry leaves out is eff_conv's: files written
 * before the 1x1 classes existed have eff_conv pooled over them with the
 * other convolutions, the figure they were measured in there, and stay
 * valid.
 */
static int convert_optional_eff(struct hw_reader *r, const char *prefix,
				const char *key, const double *raw,
				double fallback, double *out)
{
	char p[128];
	int rc;

	*out = fallback;
	if (!raw)
		return DLSIM_OK;
	PATH(p, "%s.%s", prefix, key);
	if ((rc = hw_check_range(r, p, *raw, HW_FRACTION)))
		return rc;
	*out = *raw;
	return DLSIM_OK;
}

static int convert_peak(struct hw_reader *r, unsigned d, unsigned i,
			const struct hw_raw_peak *rp, struct hw_device *dev)
{
	struct hw_peak *pk = &dev->peak[rp->precision];
	char p[96];
	int rc;

	PATH(p, "devices.%u.peak.%u", d, i);
	if (pk->matrix_flops > 0.0)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: precision '%s' listed twice",
				     r->name, hw_line_of(r, p),
				     dlsim_precision_name(rp->precision));
	if ((rc = hw_convert_nums(r, p, peak_nums, N(peak_nums), rp, pk)) ||
	    (rc = convert_optional_eff(r, p, "eff_conv1x1", rp->eff_conv1x1,
				       pk->eff_conv, &pk->eff_conv1x1)) ||
	    (rc = convert_optional_eff(r, p, "eff_conv1x1s",
				       rp->eff_conv1x1s, pk->eff_conv,
				       &pk->eff_conv1x1s)))
		return rc;
	core_strlcpy(pk->source, rp->source, sizeof(pk->source));
	core_strlcpy(pk->eff_source, rp->eff_source, sizeof(pk->eff_source));
	return DLSIM_OK;
}

/*
 * Tiers, and the capacity that bounds what fits: the largest tier's.
 * Tier 0 sets the bandwidth but may be a cache in front of a bigger
 * tier, as KNL's 16 GiB of MCDRAM in cache mode in front of 96 GiB of
 * DDR4 (Stampede2), where a model of 40 GiB still trains.
 */
static int convert_memory(struct hw_reader *r, unsigned d,
			  const struct hw_raw_device *rd,
			  struct hw_device *dev)
{
	char p[96];
	unsigned i;
	int rc;

	for (i = 0; i < rd->memory_count; i++) {
		const struct hw_raw_mem *rm = &rd->memory[i];
		struct hw_mem_tier *t = &dev->mem[i];

		PATH(p, "devices.%u.memory.%u", d, i);
		if ((rc = hw_convert_nums(r, p, mem_nums, N(mem_nums), rm, t)))
			return rc;
		core_strlcpy(t->type, rm->type, sizeof(t->type));
		core_strlcpy(t->source, rm->source, sizeof(t->source));
		if (t->capacity_bytes > dev->mem_capacity_bytes)
			dev->mem_capacity_bytes = t->capacity_bytes;
	}
	dev->n_mem = (int)rd->memory_count;
	return DLSIM_OK;
}

static void copy_device_strings(const struct hw_raw_device *rd,
				struct hw_device *dev)
{
	core_strlcpy(dev->name, rd->name, sizeof(dev->name));
	copy_aliases(dev->aliases, &dev->n_aliases, rd->aliases,
		     rd->aliases_count);
	core_strlcpy(dev->vendor, rd->vendor, sizeof(dev->vendor));
	core_strlcpy(dev->model, rd->model, sizeof(dev->model));
	core_strlcpy(dev->launch_source, rd->launch_source,
		     sizeof(dev->launch_source));
	core_strlcpy(dev->node, rd->node, sizeof(dev->node));
	core_strlcpy(dev->source, rd->source, sizeof(dev->source));
	core_strlcpy(dev->eff_memory_source, rd->eff_memory_source,
		     sizeof(dev->eff_memory_source));
	/* optional: "" when absent (dev is not zeroed before) */
	core_strlcpy(dev->calib_from, rd->calibration_from ?
		     rd->calibration_from : "", sizeof(dev->calib_from));
	core_strlcpy(dev->calib_from_source, rd->calibration_from_source ?
		     rd->calibration_from_source : "",
		     sizeof(dev->calib_from_source));
}

static int convert_device(struct hw_reader *r, unsigned d,
			  const struct hw_raw_device *rd,
			  struct hw_device *dev)
{
	char p[96];
	unsigned i;
	int rc;

	memset(dev, 0, sizeof(*dev));
	/* its own fits' scales until hw_catalog_check resolves
	 * calibration_from */
	for (i = 0; i < DLSIM_PRECISION_COUNT; i++)
		dev->calib_flop_scale[i] = 1.0;
	dev->calib_byte_scale = 1.0;
	PATH(p, "devices.%u.name", d);
	if ((rc = hw_valid_name(r, p, rd->name)) ||
	    (rc = hw_check_aliases(r, "devices", d, rd->aliases,
				   rd->aliases_count)))
		return rc;
	PATH(p, "devices.%u", d);
	if ((rc = hw_convert_nums(r, p, device_nums, N(device_nums), rd, dev)))
		return rc;
	PATH(p, "devices.%u.units", d);
	if ((rc = hw_check_int(r, p, rd->units, 1, (int64_t)HW_MAX_RAW)))
		return rc;
	copy_device_strings(rd, dev);
	dev->kind = (enum hw_device_kind)rd->kind;
	dev->units = rd->units;
	for (i = 0; i < rd->peak_count; i++)
		if ((rc = convert_peak(r, d, i, &rd->peak[i], dev)))
			return rc;
	if ((rc = convert_memory(r, d, rd, dev)))
		return rc;
	core_strlcpy(dev->file, r->name, sizeof(dev->file));
	PATH(p, "devices.%u", d);
	dev->line = hw_line_of(r, p);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Links and networks                                                */
/* ---------------------------------------------------------------- */

/* overhead_us and gap_us are optional: absent, they are 0, the
 * alpha-beta form of LogGP (configs/hw/README.md says so). */
static const struct hw_num link_nums[] = {
	{ "bandwidth_GBps", RAW(link, bandwidth_GBps),
	  offsetof(struct hw_link, bandwidth_Bps), 1e9, HW_RATE },
	{ "latency_us", RAW(link, latency_us),
	  offsetof(struct hw_link, latency_s), 1e-6, HW_NON_NEGATIVE },
	{ "overhead_us", RAW(link, overhead_us),
	  offsetof(struct hw_link, overhead_s), 1e-6, HW_NON_NEGATIVE },
	{ "gap_us", RAW(link, gap_us),
	  offsetof(struct hw_link, gap_s), 1e-6, HW_NON_NEGATIVE },
};

/*
 * The eager/rendezvous switch: above eager_limit_bytes a message first
 * asks the receiver for a buffer.  Without rendezvous_us the handshake
 * costs one round trip of a small message, 2 (L + o); rendezvous_us
 * without a limit would never apply, so it is refused.
 */
static int convert_protocol(struct hw_reader *r, unsigned i,
			    const struct hw_raw_link *rl, struct hw_link *l)
{
	char p[96];
	int rc;

	PATH(p, "links.%u.eager_limit_bytes", i);
	if ((rc = hw_check_int(r, p, rl->eager_limit_bytes, 0,
			       (int64_t)HW_MAX_RAW)))
		return rc;
	l->eager_limit_bytes = (double)rl->eager_limit_bytes;
	l->rendezvous_s = 2.0 * (l->latency_s + l->overhead_s);
	if (!rl->rendezvous_us)
		return DLSIM_OK;
	PATH(p, "links.%u.rendezvous_us", i);
	if ((rc = hw_check_range(r, p, *rl->rendezvous_us, HW_NON_NEGATIVE)))
		return rc;
	if (rl->eager_limit_bytes <= 0)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'rendezvous_us' needs "
				     "'eager_limit_bytes' (the size above "
				     "which it applies)", r->name,
				     hw_line_of(r, p));
	l->rendezvous_s = *rl->rendezvous_us * 1e-6;
	return DLSIM_OK;
}

static const struct hw_num network_nums[] = {
	{ "oversubscription", RAW(network, oversubscription),
	  offsetof(struct hw_network, oversubscription), 1.0,
	  HW_AT_LEAST_ONE },
};

/*
 * A link's efficiency (attained over line rate: protocol headers, flow
 * control) scales the bandwidth every model uses; it needs its own
 * source.  Without one the line rate is used, and `dlsim hw` shows both.
 */
static int convert_efficiency(struct hw_reader *r, unsigned i,
			      const struct hw_raw_link *rl, struct hw_link *l)
{
	char p[96];
	int rc;

	l->line_rate_Bps = l->bandwidth_Bps;
	l->efficiency = 1.0;
	if (!rl->efficiency)
		return DLSIM_OK;
	PATH(p, "links.%u.efficiency", i);
	if ((rc = hw_check_range(r, p, *rl->efficiency, HW_FRACTION)))
		return rc;
	if (!rl->efficiency_source)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'efficiency' needs an "
				     "'efficiency_source'", r->name,
				     hw_line_of(r, p));
	l->efficiency = *rl->efficiency;
	l->bandwidth_Bps = l->line_rate_Bps * l->efficiency;
	return DLSIM_OK;
}

static int convert_link(struct hw_reader *r, unsigned i,
			const struct hw_raw_link *rl, struct hw_link *l)
{
	char p[96];
	int rc;

	memset(l, 0, sizeof(*l));
	PATH(p, "links.%u.name", i);
	if ((rc = hw_valid_name(r, p, rl->name)))
		return rc;
	PATH(p, "links.%u", i);
	if ((rc = hw_convert_nums(r, p, link_nums, N(link_nums), rl, l)) ||
	    (rc = convert_protocol(r, i, rl, l)) ||
	    (rc = convert_efficiency(r, i, rl, l)))
		return rc;
	PATH(p, "links.%u", i);
	core_strlcpy(l->name, rl->name, sizeof(l->name));
	core_strlcpy(l->kind, rl->kind, sizeof(l->kind));
	core_strlcpy(l->source, rl->source, sizeof(l->source));
	core_strlcpy(l->file, r->name, sizeof(l->file));
	l->line = hw_line_of(r, p);
	return DLSIM_OK;
}

/* The most devices or nodes one torus dimension may hold. */
#define HW_MAX_DIM_SIZE 1000000

/*
 * A torus's sizes, "16x16" or "4x4x4": whole decimal numbers in
 * 1..HW_MAX_DIM_SIZE joined by 'x', at most HW_MAX_DIMS of them, whose
 * product stays within HW_MAX_COUNT.
 */
static int convert_dims(struct hw_reader *r, const char *path, const char *s,
			struct hw_network *n)
{
	const char *p = s;
	double product = 1.0;

	n->n_dims = 0;
	for (;;) {
		int64_t v = 0;
		const char *start = p;

		while (*p >= '0' && *p <= '9' && v <= HW_MAX_DIM_SIZE)
			v = v * 10 + (*p++ - '0');
		if (p == start || (*p != 'x' && *p != '\0') ||
		    n->n_dims == HW_MAX_DIMS)
			return dlsim_err_set(r->err, DLSIM_EPARSE,
					     "%s:%d: 'dims' must be up to %d "
					     "whole numbers joined by 'x', as "
					     "16x16 (got '%s')", r->name,
					     hw_line_of(r, path), HW_MAX_DIMS,
					     s);
		if (v < 1 || v > HW_MAX_DIM_SIZE)
			return dlsim_err_set(r->err, DLSIM_EPARSE,
					     "%s:%d: 'dims' sizes must be in "
					     "1..%d (got '%s')", r->name,
					     hw_line_of(r, path),
					     HW_MAX_DIM_SIZE, s);
		n->dims[n->n_dims++] = v;
		product *= (double)v;
		if (*p == '\0')
			break;
		p++;
	}
	if (product > (double)HW_MAX_COUNT)
		return hw_bad_value(r, path,
				    "multiply out to implausibly many",
				    product);
	return DLSIM_OK;
}

/* nodes_per_leaf describes a switched network, dims a torus. */
static int network_shape(struct hw_reader *r, unsigned i,
			 const struct hw_raw_network *rn, struct hw_network *n)
{
	int torus = rn->topology == HW_TOPO_TORUS;
	char p[96];
	int rc;

	PATH(p, "networks.%u.nodes_per_leaf", i);
	if ((rc = hw_check_int(r, p, rn->nodes_per_leaf, 0, HW_MAX_COUNT)))
		return rc;
	if (torus && rn->nodes_per_leaf > 0)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'nodes_per_leaf' is for switched "
				     "networks, not a torus", r->name,
				     hw_line_of(r, p));
	n->nodes_per_leaf = rn->nodes_per_leaf;
	if (!rn->dims)
		return DLSIM_OK;
	PATH(p, "networks.%u.dims", i);
	if (!torus)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'dims' is for a torus only",
				     r->name, hw_line_of(r, p));
	return convert_dims(r, p, rn->dims, n);
}

static int convert_network(struct hw_reader *r, unsigned i,
			   const struct hw_raw_network *rn,
			   struct hw_network *n)
{
	char p[96];
	int rc;

	memset(n, 0, sizeof(*n));
	PATH(p, "networks.%u.name", i);
	if ((rc = hw_valid_name(r, p, rn->name)))
		return rc;
	PATH(p, "networks.%u", i);
	if ((rc = hw_convert_nums(r, p, network_nums, N(network_nums), rn,
				  n)) ||
	    (rc = network_shape(r, i, rn, n)))
		return rc;
	PATH(p, "networks.%u", i);
	core_strlcpy(n->name, rn->name, sizeof(n->name));
	n->topology = (enum hw_topology)rn->topology;
	core_strlcpy(n->source, rn->source, sizeof(n->source));
	core_strlcpy(n->file, r->name, sizeof(n->file));
	n->line = hw_line_of(r, p);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Nodes and the system entry                                        */
/* ---------------------------------------------------------------- */

/* The host side: how many devices share a host link (dividing the
 * node's), and the host CPU with its socket count and source. */
static int node_host(struct hw_reader *r, unsigned i,
		     const struct hw_raw_node *rn)
{
	const char *missing = NULL, *key;
	char p[96];
	int rc;

	PATH(p, "nodes.%u.devices_per_host_link", i);
	if ((rc = hw_check_int(r, p, rn->devices_per_host_link, 0,
			       rn->devices_per_node)))
		return rc;
	if (rn->devices_per_host_link > 0 && !rn->host_link)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'devices_per_host_link' needs "
				     "a 'host_link'", r->name,
				     hw_line_of(r, p));
	if (rn->devices_per_host_link > 0 &&
	    rn->devices_per_node % rn->devices_per_host_link)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'devices_per_host_link' (%lld) "
				     "must divide 'devices_per_node' (%lld)",
				     r->name, hw_line_of(r, p),
				     (long long)rn->devices_per_host_link,
				     (long long)rn->devices_per_node);
	PATH(p, "nodes.%u.host_cpus", i);
	if ((rc = hw_check_int(r, p, rn->host_cpus, 0, 64)))
		return rc;
	PATH(p, "nodes.%u.host_memory_GiB", i);
	if (rn->host_memory_GiB &&
	    (rc = hw_check_range(r, p, *rn->host_memory_GiB, HW_POSITIVE)))
		return rc;
	/* the message is at the line of the key that is there */
	key = "host_cpu";
	if (rn->host_cpu && rn->host_cpus < 1)
		missing = "'host_cpu' needs 'host_cpus' (1 to 64 sockets)";
	else if (rn->host_cpu && !rn->host_memory_GiB)
		missing = "'host_cpu' needs 'host_memory_GiB'";
	else if (rn->host_cpu && !rn->host_cpu_source)
		missing = "'host_cpu' needs a 'host_cpu_source'";
	else if (!rn->host_cpu && rn->host_memory_GiB) {
		key = "host_memory_GiB";
		missing = "'host_memory_GiB' needs a 'host_cpu'";
	} else if (!rn->host_cpu && rn->host_cpus) {
		key = "host_cpus";
		missing = "'host_cpus' needs a 'host_cpu'";
	} else if (!rn->host_cpu && rn->host_cpu_source) {
		key = "host_cpu_source";
		missing = "'host_cpu_source' needs a 'host_cpu'";
	}
	PATH(p, "nodes.%u.%s", i, key);
	if (missing)
		return dlsim_err_set(r->err, DLSIM_EPARSE, "%s:%d: node '%s': "
				     "%s", r->name, hw_line_of(r, p), rn->name,
				     missing);
	return DLSIM_OK;
}

static int node_numbers(struct hw_reader *r, unsigned i,
			const struct hw_raw_node *rn)
{
	char p[96];
	int rc;

	PATH(p, "nodes.%u.devices_per_node", i);
	if ((rc = hw_check_int(r, p, rn->devices_per_node, 1, 1000000)))
		return rc;
	PATH(p, "nodes.%u.intra_links_per_device", i);
	if ((rc = hw_check_int(r, p, rn->intra_links_per_device, 0,
			       (int64_t)HW_MAX_RAW)))
		return rc;
	PATH(p, "nodes.%u.nics_per_node", i);
	if ((rc = hw_check_int(r, p, rn->nics_per_node, 0,
			       (int64_t)HW_MAX_RAW)))
		return rc;
	PATH(p, "nodes.%u.devices_per_pcie_switch", i);
	if ((rc = hw_check_int(r, p, rn->devices_per_pcie_switch, 0,
			       rn->devices_per_node)))
		return rc;
	if (rn->devices_per_pcie_switch > 0 &&
	    rn->intra_topology != HW_TOPO_PCIE_TREE)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'devices_per_pcie_switch' needs "
				     "intra_topology pcie-tree", r->name,
				     hw_line_of(r, p));
	if ((rc = node_host(r, i, rn)))
		return rc;
	PATH(p, "nodes.%u.overhead_W", i);
	if (rn->overhead_W &&
	    (rc = hw_check_range(r, p, *rn->overhead_W, HW_NON_NEGATIVE)))
		return rc;
	if (rn->overhead_W && !rn->overhead_source)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'overhead_W' needs an "
				     "'overhead_source'", r->name,
				     hw_line_of(r, p));
	PATH(p, "nodes.%u", i);
	if (rn->devices_per_node > 1 &&
	    (!rn->intra_link || rn->intra_links_per_device <= 0))
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: node '%s' has %lld devices but "
				     "no intra_link and "
				     "intra_links_per_device", r->name,
				     hw_line_of(r, p), rn->name,
				     (long long)rn->devices_per_node);
	PATH(p, "nodes.%u.nic_link", i);
	if (rn->nic_link && rn->nics_per_node <= 0)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: node '%s' names a nic_link but "
				     "no nics_per_node", r->name,
				     hw_line_of(r, p), rn->name);
	return DLSIM_OK;
}

/* A whole decimal number, digits only, no leading zero (which YAML 1.1
 * reads as octal): what an integer key takes, read to its end. */
static int whole_number(const char *s, int64_t *out)
{
	int64_t v = 0;
	const char *p;

	if (!*s || (s[0] == '0' && s[1]))
		return 0;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (int64_t)HW_MAX_RAW)
			return 0;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 1;
}

/*
 * ring_links: entry g - 1 is the links' worth of bandwidth a ring over
 * the node's first g devices gets (the edge-disjoint directed rings its
 * links hold, tools/dgx1_rings.py).  Whole numbers in 1..links per
 * device (a ring leaves each device by one link), one per device count
 * up to the node's devices.  Not for ring and torus nodes, whose rings
 * run per dimension.
 */
static int node_ring_links(struct hw_reader *r, unsigned i,
			   const struct hw_raw_node *rn, struct hw_node *n)
{
	int64_t hi = rn->intra_links_per_device > 0 ?
		     rn->intra_links_per_device : 1;
	char p[96];
	unsigned j;

	if (!rn->ring_links)
		return DLSIM_OK;
	PATH(p, "nodes.%u.ring_links", i);
	if (rn->intra_topology == HW_TOPO_RING ||
	    rn->intra_topology == HW_TOPO_TORUS)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'ring_links' is not for "
				     "intra_topology ring or torus (their "
				     "rings run per dimension)", r->name,
				     hw_line_of(r, p));
	if ((int64_t)rn->ring_links_count > rn->devices_per_node)
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'ring_links' lists %u entries, "
				     "one per device count, but node '%s' "
				     "has %lld devices", r->name,
				     hw_line_of(r, p), rn->ring_links_count,
				     rn->name,
				     (long long)rn->devices_per_node);
	for (j = 0; j < rn->ring_links_count; j++) {
		int64_t v;

		PATH(p, "nodes.%u.ring_links.%u", i, j);
		if (!whole_number(rn->ring_links[j], &v))
			return dlsim_err_set(r->err, DLSIM_EPARSE,
					     "%s:%d: 'ring_links' entries "
					     "must be whole numbers (got "
					     "'%s')", r->name, hw_line_of(r, p),
					     rn->ring_links[j]);
		if (v < 1 || v > hi)
			return dlsim_err_set(r->err, DLSIM_EPARSE,
					     "%s:%d: 'ring_links' entry %u "
					     "must be in 1..%lld, the links "
					     "per device (got %lld)", r->name,
					     hw_line_of(r, p), j + 1,
					     (long long)hi, (long long)v);
		n->ring_links[j] = v;
	}
	n->n_ring_links = (int)rn->ring_links_count;
	return DLSIM_OK;
}

static int convert_node(struct hw_reader *r, unsigned i,
			const struct hw_raw_node *rn, struct hw_node *n)
{
	char p[96];
	int rc;

	memset(n, 0, sizeof(*n));
	PATH(p, "nodes.%u.name", i);
	if ((rc = hw_valid_name(r, p, rn->name)) ||
	    (rc = hw_check_aliases(r, "nodes", i, rn->aliases,
				   rn->aliases_count)) ||
	    (rc = node_numbers(r, i, rn)) ||
	    (rc = node_ring_links(r, i, rn, n)))
		return rc;
	core_strlcpy(n->name, rn->name, sizeof(n->name));
	copy_aliases(n->aliases, &n->n_aliases, rn->aliases,
		     rn->aliases_count);
	core_strlcpy(n->device, rn->device, sizeof(n->device));
	n->devices_per_node = rn->devices_per_node;
	core_strlcpy(n->intra_link, rn->intra_link, sizeof(n->intra_link));
	n->intra_links_per_device = rn->intra_links_per_device;
	n->intra_topology = (enum hw_topology)rn->intra_topology;
	n->devices_per_pcie_switch = rn->devices_per_pcie_switch;
	core_strlcpy(n->nic_link, rn->nic_link, sizeof(n->nic_link));
	n->nics_per_node = rn->nics_per_node;
	core_strlcpy(n->host_link, rn->host_link ? rn->host_link : "",
		     sizeof(n->host_link));
	core_strlcpy(n->host_link_source, rn->host_link_source ?
		     rn->host_link_source : "", sizeof(n->host_link_source));
	n->devices_per_host_link = rn->devices_per_host_link;
	core_strlcpy(n->host_cpu, rn->host_cpu ? rn->host_cpu : "",
		     sizeof(n->host_cpu));
	n->host_cpus = rn->host_cpus;
	n->host_memory_bytes = rn->host_memory_GiB ? *rn->host_memory_GiB *
			       1073741824.0 : 0.0;
	core_strlcpy(n->host_cpu_source, rn->host_cpu_source ?
		     rn->host_cpu_source : "", sizeof(n->host_cpu_source));
	n->overhead_w = rn->overhead_W ? *rn->overhead_W : 0.0;
	core_strlcpy(n->overhead_source, rn->overhead_source,
		     sizeof(n->overhead_source));
	core_strlcpy(n->calib_from, rn->calibration_from ?
		     rn->calibration_from : "", sizeof(n->calib_from));
	core_strlcpy(n->calib_from_source, rn->calibration_from_source ?
		     rn->calibration_from_source : "",
		     sizeof(n->calib_from_source));
	core_strlcpy(n->network, rn->network, sizeof(n->network));
	core_strlcpy(n->source, rn->source, sizeof(n->source));
	core_strlcpy(n->file, r->name, sizeof(n->file));
	PATH(p, "nodes.%u", i);
	n->line = hw_line_of(r, p);
	return DLSIM_OK;
}

static int convert_system(struct hw_reader *r, const struct hw_raw_system *rs,
			  struct hw_file_system *sys)
{
	int rc;

	memset(sys, 0, sizeof(*sys));
	if (!rs)
		return DLSIM_OK;
	if ((rs->device != NULL) == (rs->node != NULL))
		return dlsim_err_set(r->err, DLSIM_EPARSE,
				     "%s:%d: 'system' needs exactly one of "
				     "'device' and 'node'", r->name,
				     hw_line_of(r, "system"));
	if ((rc = hw_check_int(r, "system.count", rs->count, 1, HW_MAX_COUNT)))
		return rc;
	sys->present = 1;
	core_strlcpy(sys->device, rs->device, sizeof(sys->device));
	core_strlcpy(sys->node, rs->node, sizeof(sys->node));
	sys->count = rs->count;
	sys->line = hw_line_of(r, rs->device ? "system.device" : "system.node");
	sys->count_line = hw_line_of(r, "system.count");
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* The batch                                                         */
/* ---------------------------------------------------------------- */

static int alloc_batch(struct hw_batch *b, const struct hw_raw_file *f)
{
	memset(b, 0, sizeof(*b));
	b->devices = calloc(f->devices_count + 1, sizeof(*b->devices));
	b->links = calloc(f->links_count + 1, sizeof(*b->links));
	b->nodes = calloc(f->nodes_count + 1, sizeof(*b->nodes));
	b->networks = calloc(f->networks_count + 1, sizeof(*b->networks));
	if (!b->devices || !b->links || !b->nodes || !b->networks)
		return DLSIM_ENOMEM;
	return DLSIM_OK;
}

void hw_batch_free(struct hw_batch *b)
{
	free(b->devices);
	free(b->links);
	free(b->nodes);
	free(b->networks);
	memset(b, 0, sizeof(*b));
}

static int convert_all(struct hw_reader *r, const struct hw_raw_file *f,
		       struct hw_batch *b)
{
	unsigned i;
	int rc = DLSIM_OK;

	for (i = 0; i < f->devices_count && !rc; i++)
		rc = convert_device(r, i, &f->devices[i],
				    &b->devices[b->n_devices++]);
	for (i = 0; i < f->links_count && !rc; i++)
		rc = convert_link(r, i, &f->links[i], &b->links[b->n_links++]);
	for (i = 0; i < f->networks_count && !rc; i++)
		rc = convert_network(r, i, &f->networks[i],
				     &b->networks[b->n_networks++]);
	for (i = 0; i < f->nodes_count && !rc; i++)
		rc = convert_node(r, i, &f->nodes[i], &b->nodes[b->n_nodes++]);
	return rc;
}

int hw_convert(const struct hw_raw_file *f, const char *name,
	       struct core_yaml_doc *doc, const char *text, size_t len,
	       struct hw_batch *b, struct hw_file_system *sys,
	       struct dlsim_err *err)
{
	struct hw_reader r = { .name = name, .doc = doc, .err = err,
			       .text = text, .len = len };
	int rc;

	memset(sys, 0, sizeof(*sys));
	if (alloc_batch(b, f)) {
		hw_batch_free(b);
		return dlsim_err_set(err, DLSIM_ENOMEM,
				     "out of memory reading %s", name);
	}
	rc = convert_all(&r, f, b);
	if (!rc)
		rc = convert_system(&r, f->system, sys);
	if (rc)
		hw_batch_free(b);
	return rc;
}
