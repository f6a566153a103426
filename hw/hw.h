/*
 * hw.h -- the hardware module inside the library: the catalog's storage,
 * the YAML reader that fills it, and the compiled-in catalog files.
 *
 * A file travels through three steps, each in its own file:
 *   hw_schema.c   libcyaml loads the text into raw structs (the file as
 *                 written, in its own units) and every number is checked
 *                 to be well formed;
 *   hw_convert.c  each raw entry is range-checked (hw_check.c) and
 *                 converted to SI units in a batch that belongs to no
 *                 catalog yet;
 *   hw_store.c    the batch's names are checked against the catalog and
 *                 its entries merged in; a mark taken before lets a
 *                 caller take a whole file out again.
 * hw_catalog.c drives the steps (hw_yaml_read) and holds the lookups;
 * hw_system.c turns a --hw string into a system.
 *
 * Every entry remembers the file and line it came from, so that a clash
 * or a dangling reference names both places.  A file may also carry a
 * `system:` entry (a device or node and a count); the reader hands it
 * back to hw_system_resolve() and does not store it.
 */
#ifndef DLSIM_HW_HW_H
#define DLSIM_HW_HW_H

#include <stddef.h>
#include <stdint.h>

#include "dlsim.h"

struct core_yaml_doc;            /* core/yaml.h: a parsed YAML text */

/* Bounds on what a user's files can make us allocate. */
#define HW_MAX_ENTRIES 100000                /* per kind of entry */
#define HW_MAX_COUNT ((int64_t)100000000)   /* devices or nodes */

/*
 * The largest number a file may write in its own unit (TFLOP/s, GB/s,
 * GiB, MHz, us, W, USD, MiB, a count).  Real hardware is orders of
 * magnitude below it; above it is a typo, and the bound keeps every
 * converted value finite.
 */
#define HW_MAX_RAW 1e9

/* ---------------------------------------------------------------- */
/* Storage (hw_store.c)                                              */
/* ---------------------------------------------------------------- */

/*
 * A growing list of entries, each allocated on its own: growing the
 * list moves the pointers, never the entries they point at.
 */
struct hw_list {
	void **v;
	int n, cap;
};

struct hw_catalog {
	struct hw_list devices;      /* struct hw_device */
	struct hw_list links;        /* struct hw_link */
	struct hw_list nodes;        /* struct hw_node */
	struct hw_list networks;     /* struct hw_network */
};

/* The size of each list at one moment, to roll back to. */
struct hw_mark {
	int devices, links, nodes, networks;
};

/* One file's entries, converted but in no catalog yet. */
struct hw_batch {
	struct hw_device *devices;
	int n_devices;
	struct hw_link *links;
	int n_links;
	struct hw_node *nodes;
	int n_nodes;
	struct hw_network *networks;
	int n_networks;
};

void hw_catalog_mark(const struct hw_catalog *cat, struct hw_mark *m);

/* Free every entry added since m was taken; pointers to them die. */
void hw_catalog_rollback(struct hw_catalog *cat, const struct hw_mark *m);

/*
 * Copy the batch's entries into cat one at a time, so that a name used
 * twice inside the batch clashes too.  On failure (a name or alias
 * already defined: DLSIM_EPARSE naming both places; DLSIM_ENOMEM) cat is
 * as it was.
 */
int hw_catalog_merge(struct hw_catalog *cat, const struct hw_batch *b,
		     struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* Raw entries, as written (hw_schema.c)                             */
/* ---------------------------------------------------------------- */

struct hw_raw_peak {
	int precision;
	double matrix_tflops, vector_tflops, sparse_tflops;
	double eff_gemm, eff_conv, eff_conv3x3;
	double *eff_conv1x1, *eff_conv1x1s;  /* optional: NULL when absent */
	char *source, *eff_source;
};

struct hw_raw_mem {
	char *type;
	double capacity_GiB, bandwidth_GBps;
	char *source;
};

struct hw_raw_device {
	char *name;
	char **aliases;
	unsigned aliases_count;
	int kind;
	char *vendor, *model;
	int64_t units;
	double clock_base_mhz, clock_boost_mhz, clock_avx512_mhz;
	double tdp_W, price_usd, launch_overhead_us, llc_MiB;
	char *launch_source, *node, *source;
	struct hw_raw_peak *peak;
	unsigned peak_count;
	struct hw_raw_mem *memory;
	unsigned memory_count;
	double eff_memory;
	char *eff_memory_source;
	char *calibration_from, *calibration_from_source;
};

struct hw_raw_link {
	char *name, *kind;
	double bandwidth_GBps, latency_us;
	double overhead_us, gap_us;  /* optional: 0 when absent */
	int64_t eager_limit_bytes;   /* optional: 0 when absent */
	double *rendezvous_us;       /* optional: NULL when absent */
	double *efficiency;          /* optional: NULL when absent */
	char *efficiency_source;     /* required with efficiency */
	char *source;
};

struct hw_raw_network {
	char *name;
	int topology;
	double oversubscription;
	int64_t nodes_per_leaf;      /* optional: 0 when absent */
	char *dims;                  /* optional torus sizes, "16x16" */
	char *source;
};

struct hw_raw_node {
	char *name;
	char **aliases;
	unsigned aliases_count;
	char *device;
	int64_t devices_per_node;
	char *intra_link;
	int64_t intra_links_per_device;
	int intra_topology;
	int64_t devices_per_pcie_switch;  /* optional: 0 when absent */
	char **ring_links;           /* optional, read whole by
					hw_convert.c: NULL when absent */
	unsigned ring_links_count;
	char *nic_link;
	int64_t nics_per_node;
	char *host_link;             /* optional: NULL when absent */
	char *host_link_source;      /* required with host_link */
	int64_t devices_per_host_link;  /* optional: 0 when absent */
	char *host_cpu;              /* optional: NULL when absent */
	int64_t host_cpus;           /* required with host_cpu */
	double *host_memory_GiB;     /* required with host_cpu */
	char *host_cpu_source;       /* required with host_cpu */
	double *overhead_W;          /* optional: NULL when absent */
	char *overhead_source;       /* required with overhead_W */
	char *calibration_from;      /* optional: NULL when absent */
	char *calibration_from_source;  /* required with calibration_from */
	char *network, *source;
};

struct hw_raw_system {
	char *device, *node;
	int64_t count;
};

struct hw_raw_file {
	struct hw_raw_device *devices;
	unsigned devices_count;
	struct hw_raw_link *links;
	unsigned links_count;
	struct hw_raw_network *networks;
	unsigned networks_count;
	struct hw_raw_node *nodes;
	unsigned nodes_count;
	struct hw_raw_system *system;
};

/*
 * Load text (`name` in messages) against the schema, then, with check,
 * check that every integer and number under a schema key is well formed,
 * using doc (the same text, parsed once by the caller); without check
 * (the compiled-in catalog: hw_catalog.c says why) doc is not read.  On
 * success *out is freed with hw_schema_free(); on failure *out is NULL
 * and err says "name:line: what" (DLSIM_EPARSE, or DLSIM_ENOMEM if a
 * check has no doc).
 */
int hw_schema_load(const char *name, const char *text, size_t len,
		   struct core_yaml_doc *doc, int check,
		   struct hw_raw_file **out, struct dlsim_err *err);

void hw_schema_free(struct hw_raw_file *f);

/* ---------------------------------------------------------------- */
/* Checks on a file's values, and scaling to SI (hw_check.c)         */
/* ---------------------------------------------------------------- */

/* Where a conversion is, for messages: the file's name, its parsed
 * document (for lines) and where the error goes. */
struct hw_reader {
	const char *name;
	struct core_yaml_doc *doc;       /* NULL: lines off text (below) */
	struct dlsim_err *err;
	const char *text;                /* the file, for hw_line_of */
	size_t len;
	/* where hw_line_of's last read of text stopped: the next item of
	 * the same key resumes there, as conversion asks them in order */
	struct hw_item_cursor {
		char key[16];
		size_t at, col;          /* the next line; items' column */
		long seen;               /* items of key before at, less 1 */
		int line;                /* lines before at */
	} cursor;
};

/* What a number may be; hw_check.c words each one's message. */
enum hw_range {
	HW_POSITIVE, HW_NON_NEGATIVE, HW_FRACTION, HW_WINOGRAD,
	HW_AT_LEAST_ONE,
	HW_RATE,                     /* positive, and at least HW_MIN_RATE */
	HW_CLOCK                     /* MHz: 0 (not published) or at least
					HW_MIN_CLOCK_MHZ */
};

/* The least FLOP rate (TFLOP/s) or bandwidth (GB/s) a catalog takes: a
 * mega-FLOP or kilobyte a second, far below any part it describes.  A
 * 1e-308 TFLOP/s peak otherwise passes as positive and makes steps that
 * take longer than a double can count. */
#define HW_MIN_RATE 1e-6

/* The least efficiency (a fraction, or a Winograd one) a catalog takes:
 * a thousandth of the peak, below the least any measurement gave (the
 * shipped catalog's least is 0.177); a subnormal one made a step of
 * inf s. */
#define HW_MIN_EFF 1e-3

/* The least clock a catalog takes, in MHz: below any processor, and the
 * clock is the unit of a pass's depth (a 1e-300 MHz clock made a step of
 * 3.5e30 s). */
#define HW_MIN_CLOCK_MHZ 1.0

/* One number of an entry: where it is raw and converted, and its unit. */
struct hw_num {
	const char *key;
	size_t raw;                  /* offset of the double, raw struct */
	size_t si;                   /* offset of the double, SI struct */
	double scale;                /* written unit to SI */
	enum hw_range range;
};

/* The line of the value at a dotted path ("devices.3.peak.0.eff_conv"),
 * or of its deepest part that exists; without a document (r->doc NULL:
 * the compiled-in files) only of an entry, "KEY.N", read off r->text
 * (moving r's cursor), and 0 for any other path. */
int hw_line_of(struct hw_reader *r, const char *path);

/* Set "NAME:LINE: 'KEY' WHAT (got GOT)" and return DLSIM_EPARSE. */
int hw_bad_value(struct hw_reader *r, const char *path,
		 const char *what, double got);

/* DLSIM_OK if v is in range k, else hw_bad's error. */
int hw_check_range(struct hw_reader *r, const char *path, double v,
		   enum hw_range k);

/* DLSIM_OK if v is in lo..hi (hi = HW_MAX_RAW: the plausibility bound),
 * else hw_bad's error. */
int hw_check_int(struct hw_reader *r, const char *path, int64_t v,
		 int64_t lo, int64_t hi);

/* Check the n numbers of table t in raw (under path prefix) and store
 * each, scaled to SI, in si; the first that fails is the error. */
int hw_convert_nums(struct hw_reader *r, const char *prefix,
		    const struct hw_num *t, size_t n, const void *raw,
		    void *si);

/* The catalog's name rule: a name holds only a-z, 0-9, '-', '_' and
 * '.'.  The first byte of s outside it, NULL when there is none. */
const char *hw_name_bad_byte(const char *s);

/* DLSIM_OK if name s holds only a-z, 0-9, '-', '_' and '.'. */
int hw_valid_name(struct hw_reader *r, const char *path, const char *s);

/* hw_valid_name() on each of the count aliases of entry d of list. */
int hw_check_aliases(struct hw_reader *r, const char *list, unsigned d,
		     char **aliases, unsigned count);

/* ---------------------------------------------------------------- */
/* Conversion to SI units (hw_convert.c)                             */
/* ---------------------------------------------------------------- */

/* A file's `system:` entry, when it has one. */
struct hw_file_system {
	int present;
	char device[HW_NAME_LEN];
	char node[HW_NAME_LEN];
	int64_t count;
	int line;                    /* of the device or node name */
	int count_line;              /* of the count */
};

/*
 * Range-check every entry of f and convert it into *b (freed with
 * hw_batch_free()), and its system entry into *sys.  doc is f's text
 * (text, len), parsed, for the lines of entries and errors; without it
 * (the compiled-in files: hw_catalog.c) an entry's line is read off the
 * text (hw_line_of) and an error's may be 0.  On failure *b is empty and
 * err says "name:line: what" (DLSIM_EPARSE or DLSIM_ENOMEM).
 */
int hw_convert(const struct hw_raw_file *f, const char *name,
	       struct core_yaml_doc *doc, const char *text, size_t len,
	       struct hw_batch *b, struct hw_file_system *sys,
	       struct dlsim_err *err);

void hw_batch_free(struct hw_batch *b);

/* ---------------------------------------------------------------- */
/* Reading files (hw_catalog.c)                                      */
/* ---------------------------------------------------------------- */

/*
 * hw_catalog_load with the compiled-in files' every number read again and
 * entries' and errors' lines found in a libyaml document, as a user's
 * file's are (hw_catalog_load skips both for them: hw_catalog.c says
 * why; both skip the nesting check, which a user's file also gets).  For
 * the tests, which so check what hw_catalog_load trusts.
 */
int hw_catalog_load_checked(const char *dir_path, struct hw_catalog **out,
			    struct dlsim_err *err);

/* One compiled-in catalog file (build/gen/hw_builtin.c). */
struct hw_builtin_file {
	const char *name;
	const char *data;
	size_t size;
};

extern const struct hw_builtin_file hw_builtin_files[];

/*
 * Read one file into cat as hw_catalog_load reads a compiled-in one: the
 * unchecked way, and, should that fail before its entries are merged, a
 * second time the checked way, so that the message names the line.  For
 * the tests, which cannot build a broken compiled-in catalog.
 */
int hw_builtin_read(struct hw_catalog *cat, const struct hw_builtin_file *f,
		    struct dlsim_err *err);

/*
 * Parse YAML text and append its entries to cat.  `name` is the file name
 * used in messages.  On failure nothing is appended (entries of a bad
 * file never reach the catalog) and err says "name:line: what"; text
 * nested more than CORE_YAML_MAX_DEPTH deep is refused before it is
 * parsed.  If sys is not NULL it receives the file's system entry.
 */
int hw_yaml_read(struct hw_catalog *cat, const char *name, const char *text,
		 size_t len, struct hw_file_system *sys,
		 struct dlsim_err *err);

/* Check every cross-reference (a node's device, links, network; a
 * device's usual node and calibration_from) and set each device's
 * calibration scales from its calibration_from (hw_device). */
int hw_catalog_check(struct hw_catalog *cat, struct dlsim_err *err);

#endif /* DLSIM_HW_HW_H */
