/*
 * test_catalog.c -- the catalog as a whole.  The shipped files
 * (configs/hw, compiled into the library): they load, they hold every
 * device the foundation issue names, every device and node resolves,
 * every figure has a source, and a few figures equal their datasheets
 * or the DeepBench medians they cite.  What other files do to a catalog
 * is test_catalog_files.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "dlsim.h"
#include "hw_util.h"
#include "calibrate/cal.h"

/* The device names issue 2 asks for, with these exact spellings. */
static const char *const required[] = {
	"xeon-x5690", "xeon-e5-2690", "xeon-e5-2699v3", "xeon-e5-2630v3",
	"xeon-8160", "xeon-8180", "xeon-9282", "xeon-8380", "xeon-8480",
	"epyc-7742", "epyc-9654", "phi-7120", "phi-7250", "phi-7290",
	"phi-7295", "m2090", "k40", "k80", "m40", "p40", "p100", "p100-pcie",
	"v100", "v100-sxm2-32gb", "v100-sxm3-32gb", "v100-pcie", "t4", "a10g",
	"a30", "a40", "a100", "a100-sxm4-40gb", "a100-pcie-40gb",
	"a100-pcie-80gb", "l4", "l40", "l40s", "h100", "h100-pcie", "h200",
	"b200", "gb200", "rtx4090", "rtx-a5000", "mi250x", "mi300x", "gaudi2",
	"gaudi3", "tpu-v2", "tpu-v3", "tpu-v4", "tpu-v5e", "tpu-v5p",
	"tpu-v6e", NULL
};

START_TEST(catalog_has_every_required_device)
{
	struct hw_catalog *cat = hw_test_shipped();
	int i;

	for (i = 0; required[i]; i++)
		ck_assert_msg(hw_device_find(cat, required[i]) != NULL,
			      "no device '%s'", required[i]);
	hw_catalog_free(cat);
}
END_TEST

/*
 * A memory efficiency that cites a BabelStream triad is that triad over
 * the bandwidth it cites ("triad 177.0 GB/s ... vs 240 GB/s", or "triad
 * 556.0 of 732 GB/s"), to the three places written, so within half a
 * thousandth: a figure copied wrong, or a source edited without its
 * figure, fails here (a source that names no bandwidth to divide by is
 * passed over).  The K80 (177.0 / 240 = 0.7375, ECC on, written 0.737)
 * and Titan X Maxwell (268.7 / 336.5 = 0.79851, written 0.799) are among
 * them.
 */
START_TEST(catalog_memory_efficiency_is_its_triad)
{
	struct hw_catalog *cat = hw_test_shipped();
	int i, n = 0;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);
		const char *t = strstr(d->eff_memory_source, "triad "), *v;
		double triad, peak;

		if (!t || strstr(d->eff_memory_source, "class default"))
			continue;
		triad = strtod(t + 6, NULL);
		v = strstr(t, " vs ");
		v = v ? v + 4 : strstr(t, " of ") ? strstr(t, " of ") + 4 :
		    NULL;
		if (!v)
			continue;   /* a bound from another part (KNC) */
		peak = strtod(v, NULL);
		ck_assert_msg(triad > 0.0 && peak > 0.0 &&
			      fabs(d->eff_memory - triad / peak) <=
			      0.0005 + 1e-9,
			      "%s: eff_memory %.3f, its source %.1f / %.1f = "
			      "%.4f", d->name, d->eff_memory, triad, peak,
			      triad / peak);
		n++;
	}
	ck_assert_int_ge(n, 10);
	ck_assert_rel(hw_device_find(cat, "k80")->eff_memory, 0.737, 1e-9);
	hw_catalog_free(cat);
}
END_TEST

/* Every figure carries a source, and every device can train at the
 * precision auto picks. */
START_TEST(catalog_every_figure_has_a_source)
{
	struct hw_catalog *cat = hw_test_shipped();
	int i, p, m;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		ck_assert_msg(d->source[0] && d->launch_source[0] &&
			      d->eff_memory_source[0], "%s lacks a source",
			      d->name);
		/* each tier: KNL's DDR4 behind its MCDRAM too */
		ck_assert_int_ge(d->n_mem, 1);
		for (m = 0; m < d->n_mem; m++)
			ck_assert_msg(d->mem[m].source[0],
				      "%s memory %d lacks a source", d->name,
				      m);
		for (p = 0; p < DLSIM_PRECISION_COUNT; p++)
			if (d->peak[p].matrix_flops > 0.0)
				ck_assert_msg(d->peak[p].source[0] &&
					      d->peak[p].eff_source[0],
					      "%s %s lacks a source", d->name,
					      dlsim_precision_name(p));
		ck_assert(hw_device_supports(d,
					     hw_device_auto_precision(d)));
	}
	for (i = 0; i < hw_catalog_n_links(cat); i++)
		ck_assert(hw_catalog_link(cat, i)->source[0]);
	for (i = 0; i < hw_catalog_n_nodes(cat); i++)
		ck_assert(hw_catalog_node(cat, i)->source[0]);
	hw_catalog_free(cat);
}
END_TEST

/* Every device resolves alone and filling two of its nodes, and every
 * node resolves; sizes multiply out.  Every shipped device's node has a
 * network link: a device whose node lacks one is named, so that a reader
 * that lost nic_link cannot pass by skipping the two-node systems. */
START_TEST(catalog_every_device_and_node_resolves)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;
	char spec[96];
	int i, two_nodes = 0;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);
		const struct hw_node *n = hw_node_find(cat, d->node);

		ck_assert_msg(hw_system_resolve(cat, d->name, &s, &err) == 0,
			      "%s: %s", d->name, err.msg);
		ck_assert_int_eq(s.n_devices, 1);
		ck_assert_msg(n->nic_link[0], "%s: node '%s' has no network "
			      "link", d->name, n->name);
		snprintf(spec, sizeof(spec), "%sx%lld", d->name,
			 (long long)(2 * n->devices_per_node));
		ck_assert_msg(hw_system_resolve(cat, spec, &s, &err) == 0,
			      "%s: %s", spec, err.msg);
		ck_assert_int_eq(s.n_nodes, 2);
		ck_assert_int_eq(s.devices_per_node, n->devices_per_node);
		ck_assert_int_eq(s.n_devices, 2 * n->devices_per_node);
		ck_assert(s.nic != NULL);
		two_nodes++;
	}
	ck_assert_int_eq(two_nodes, hw_catalog_n_devices(cat));
	for (i = 0; i < hw_catalog_n_nodes(cat); i++) {
		const struct hw_node *n = hw_catalog_node(cat, i);

		ck_assert_msg(hw_system_resolve(cat, n->name, &s, &err) == 0,
			      "%s: %s", n->name, err.msg);
		ck_assert_int_eq(s.n_devices, n->devices_per_node);
	}
	hw_catalog_free(cat);
}
END_TEST

/* The shorthands the issue and README use. */
START_TEST(catalog_issue_examples_resolve)
{
	static const struct { const char *spec, *device; int64_t dev, nodes;
	} ex[] = {
		{ "v100x64", "v100", 64, 8 },     /* 8 DGX-1 */
		{ "dgx1x8", "v100", 64, 8 },
		{ "dgx-a100x4", "a100", 32, 4 },
		{ "dgx-h100x16", "h100", 128, 16 },
		{ "tpu-v3x256", "tpu-v3", 256, 64 },
		{ "phi-7250x4", "phi-7250", 4, 4 }, /* one KNL per node */
		{ "summit", "v100", 6, 1 },
		{ "stampede2-knl", "phi-7250", 1, 1 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	struct dlsim_err err = { 0, "" };
	struct hw_system s;
	size_t i;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		ck_assert_msg(hw_system_resolve(cat, ex[i].spec, &s, &err) ==
			      0, "%s: %s", ex[i].spec, err.msg);
		ck_assert_str_eq(s.device->name, ex[i].device);
		ck_assert_int_eq(s.n_devices, ex[i].dev);
		ck_assert_int_eq(s.n_nodes, ex[i].nodes);
	}
	/* v100x64: NVLink inside the DGX-1, EDR InfiniBand between */
	ck_assert_int_eq(hw_system_resolve(cat, "v100x64", &s, &err), 0);
	ck_assert_str_eq(s.node->name, "dgx1");
	ck_assert(strstr(s.intra->name, "nvlink") != NULL);
	ck_assert(strstr(s.nic->name, "edr") != NULL);
	hw_catalog_free(cat);
}
END_TEST

/*
 * Datasheet figures, dense (sparse figures are never the default):
 * V100-SXM2-16GB: 15.7 TF fp32, 125 TF tensor, 900 GB/s, 16 GB (NVIDIA
 * V100 datasheet, 2017).  A100-SXM4-80GB: 156 TF tf32, 312 TF bf16,
 * 2,039 GB/s, 80 GB (A100 datasheet, 2021).  H100-SXM5: 989.4 TF bf16
 * dense (Hopper whitepaper, 2022), 1,978.9 with 2:4 sparsity (the
 * whitepaper's figure: twice the unrounded 989.43 = 132 SMs x 4 tensor
 * cores x 1,024 FLOPs a clock x 1.83 GHz; the datasheet's 1,979),
 * 3.35 TB/s (H100 datasheet, 2023).
 * P100-SXM2: 10.6 TF fp32, 21.2 TF fp16, 732 GB/s (P100 datasheet, 2016).
 */
START_TEST(catalog_matches_datasheets)
{
	struct hw_catalog *cat = hw_test_shipped();
	const struct hw_device *v = hw_device_find(cat, "v100");
	const struct hw_device *a = hw_device_find(cat, "a100");
	const struct hw_device *h = hw_device_find(cat, "h100");
	const struct hw_device *p = hw_device_find(cat, "p100");

	ck_assert(v->peak[DLSIM_FP32].matrix_flops == 15.7e12);
	ck_assert(v->peak[DLSIM_FP16].matrix_flops == 125e12);
	ck_assert(v->mem[0].bandwidth_Bps == 900e9);
	ck_assert(v->mem[0].capacity_bytes == 16.0 * 1073741824.0);
	ck_assert(!hw_device_supports(v, DLSIM_BF16));
	ck_assert_int_eq(hw_device_auto_precision(v), DLSIM_FP16);
	ck_assert(a->peak[DLSIM_TF32].matrix_flops == 156e12);
	ck_assert(a->peak[DLSIM_BF16].matrix_flops == 312e12);
	ck_assert(a->mem[0].bandwidth_Bps == 2039e9);
	ck_assert(a->mem[0].capacity_bytes == 80.0 * 1073741824.0);
	ck_assert_int_eq(hw_device_auto_precision(a), DLSIM_BF16);
	ck_assert_rel(h->peak[DLSIM_BF16].matrix_flops, 989.4e12, 1e-12);
	ck_assert_rel(h->peak[DLSIM_BF16].sparse_flops, 1978.9e12, 1e-12);
	ck_assert(h->mem[0].bandwidth_Bps == 3350e9);
	ck_assert(p->peak[DLSIM_FP32].matrix_flops == 10.6e12);
	ck_assert(p->peak[DLSIM_FP16].matrix_flops == 21.2e12);
	ck_assert(p->mem[0].bandwidth_Bps == 732e9);
	ck_assert(hw_device_find(cat, "v100-sxm2-16gb") == v);  /* alias */
	hw_catalog_free(cat);
}
END_TEST

/*
 * The convolution efficiencies of every device DeepBench measured are
 * what tools/deepbench_efficiency.py says they are, worked out again here
 * from the DeepBench rows shipped in data/validation: per class (3x3
 * stride 1, 1x1 stride 1, strided 1x1, the rest), the median of passes x
 * 2 N K P Q C R S / total time / peak over the compute-bound rows (2 N K
 * P Q C R S over e (N C H W + K C R S + N K P Q) bytes at or above peak /
 * bandwidth, the tool's PEAKS and BANDWIDTH), half-precision rows with C
 * not a multiple of 8 left out.  A class with fewer than 5 such rows
 * takes the class default (the figure of `fallback`, an entry that
 * carries it).  The catalog rounds to three decimals.  So the catalog
 * cannot drift from the data it cites.  (The class defaults themselves
 * pool AMD's rows too, which data/validation does not ship: the next
 * test holds them together instead.)
 */
enum { CV_OTHER, CV_3X3, CV_1X1, CV_1X1S, CV_CLASSES };

#define CV_MIN_ROWS 5

struct conv_effs {
	double v[CV_CLASSES][64];
	int n[CV_CLASSES];
};

/* One (hardware, sheet) of DeepBench and the catalog entry it sets. */
struct conv_sheet {
	const char *device, *fallback;
	enum dlsim_precision p;
	const char *hardware, *sheet;
	double peak, bw;
	int width;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Column i of the header h, or -1. */
static int column(char **h, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(h[i], name) == 0)
			return i;
	return -1;
}

static void conv_row_efficiency(char **f, const int *c,
				const struct conv_sheet *s,
				struct conv_effs *e)
{
	double n = atof(f[c[3]]), ch = atof(f[c[2]]), k = atof(f[c[4]]);
	double w = atof(f[c[0]]), h = atof(f[c[1]]);
	double sw = atof(f[c[9]]), sh = atof(f[c[10]]);
	double fs = atof(f[c[5]]), fr = atof(f[c[6]]);
	double q = floor((w + 2 * atof(f[c[7]]) - fs) / sw) + 1;
	double p = floor((h + 2 * atof(f[c[8]]) - fr) / sh) + 1;
	double macs = n * k * p * q * ch * fr * fs, total = atof(f[c[14]]);
	int passes = 0, j, cls;

	/* a pass DeepBench did not time is empty or "N/A*" */
	for (j = 11; j <= 13; j++) {
		char *end;

		strtod(f[c[j]], &end);
		passes += end != f[c[j]] && *end == '\0';
	}
	if (!passes || total <= 0.0 ||
	    (s->width == 2 && fmod(ch, 8.0) != 0.0))
		return;
	if (2.0 * macs / (s->width * (n * ch * h * w + k * ch * fr * fs +
				      n * k * p * q)) < s->peak / s->bw)
		return;
	if (fr == 3 && fs == 3 && sw == 1 && sh == 1)
		cls = CV_3X3;
	else if (fr == 1 && fs == 1)
		cls = sw == 1 && sh == 1 ? CV_1X1 : CV_1X1S;
	else
		cls = CV_OTHER;
	ck_assert_int_lt(e->n[cls], 64);
	e->v[cls][e->n[cls]++] = passes * 2.0 * macs / (total * 1e-3) /
				 s->peak;
}

static void deepbench_conv_effs(const struct conv_sheet *s,
				struct conv_effs *e)
{
	static const char *const names[] = {
		"W", "H", "C", "N", "K", "S_filter_w", "R_filter_h", "pad_w",
		"pad_h", "stride_w", "stride_h", "fwd_ms", "bwd_inputs_ms",
		"bwd_params_ms", "total_ms"
	};
	FILE *fp = fopen("data/validation/deepbench_conv.csv", "r");
	char line[1024], *f[32];
	int c[15], hw, st, sh, n, i, lines = 1;

	ck_assert_ptr_nonnull(fp);
	memset(e, 0, sizeof(*e));
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), fp));
	line[strcspn(line, "\r\n")] = '\0';
	n = cal_split_csv(line, f, 32);
	hw = column(f, n, "hardware");
	st = column(f, n, "setting");
	sh = column(f, n, "sheet");
	ck_assert(hw >= 0 && st >= 0 && sh >= 0);
	for (i = 0; i < 15; i++) {
		c[i] = column(f, n, names[i]);
		ck_assert_int_ge(c[i], 0);
	}
	while (fgets(line, sizeof(line), fp)) {
		lines++;
		line[strcspn(line, "\r\n")] = '\0';
		ck_assert_msg(cal_split_csv(line, f, 32) == n,
			      "deepbench_conv.csv:%d: not %d fields", lines,
			      n);
		if (strcmp(f[hw], s->hardware) == 0 &&
		    strcmp(f[st], "training") == 0 &&
		    strcmp(f[sh], s->sheet) == 0)
			conv_row_efficiency(f, c, s, e);
	}
	fclose(fp);
}

static double conv_eff(const struct hw_peak *pk, int cls)
{
	return cls == CV_OTHER ? pk->eff_conv : cls == CV_3X3 ?
	       pk->eff_conv3x3 : cls == CV_1X1 ? pk->eff_conv1x1 :
	       pk->eff_conv1x1s;
}

START_TEST(catalog_conv_efficiencies_are_the_deepbench_medians)
{
	static const struct conv_sheet sheets[] = {
		{ "v100", "k80", DLSIM_FP32, "NVIDIA V100", "Results FP32",
		  15.7e12, 900e9, 4 },
		{ "v100", "a100", DLSIM_FP16, "NVIDIA V100",
		  "Results - FP16 ip, Mixed math", 125e12, 900e9, 2 },
		{ "p100", "k80", DLSIM_FP32, "NVIDIA Tesla P100",
		  "Results FP32", 10.6e12, 732e9, 4 },
		{ "t4", "k80", DLSIM_FP32, "NVIDIA T4", "Results FP32",
		  8.1e12, 320e9, 4 },
		{ "t4", "a100", DLSIM_FP16, "NVIDIA T4",
		  "Results - FP16 ip, Mixed math", 65e12, 320e9, 2 },
		{ "m40", "k80", DLSIM_FP32, "Nvidia Tesla M40",
		  "Results - FP32", 7.0e12, 288e9, 4 },
		{ "titan-x-maxwell", "k80", DLSIM_FP32, "Nvidia TitanX",
		  "Results - FP32", 6.6e12, 336.5e9, 4 },
		{ "titan-x-pascal", "k80", DLSIM_FP32, "Nvidia TitanX Pascal",
		  "Results - FP32", 10.97e12, 480e9, 4 },
		{ "titan-xp", "k80", DLSIM_FP32, "NVIDIA GTX TitanXp", "FP32",
		  12.15e12, 547.7e9, 4 },
		{ "gtx-1080-ti", "k80", DLSIM_FP32, "NVIDIA GTX 1080 Ti",
		  "Results - FP32", 11.34e12, 484e9, 4 },
		{ "phi-7250", "xeon-8180", DLSIM_FP32,
		  "Intel(R) Xeon Phi(TM)\xc2\xa0" "7250F", "Results - FP32",
		  5.22e12, 490e9, 4 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	struct conv_effs *e = malloc(sizeof(*e));
	size_t i;

	ck_assert_ptr_nonnull(e);
	for (i = 0; i < sizeof(sheets) / sizeof(sheets[0]); i++) {
		const struct conv_sheet *s = &sheets[i];
		const struct hw_device *d = hw_device_find(cat, s->device);
		const struct hw_device *fb = hw_device_find(cat, s->fallback);
		int k;

		ck_assert(d != NULL && fb != NULL);
		deepbench_conv_effs(s, e);
		for (k = 0; k < CV_CLASSES; k++) {
			double want = conv_eff(&d->peak[s->p], k), got;

			ck_assert_int_gt(e->n[k], 0);
			got = e->n[k] >= CV_MIN_ROWS ?
			      median_of(e->v[k], e->n[k]) :
			      conv_eff(&fb->peak[s->p], k);
			ck_assert_msg(fabs(got - want) <= 0.0005 + 1e-9,
				      "%s %s '%s' class %d: %.4f (%d rows), "
				      "catalog %.3f", s->device,
				      dlsim_precision_name(s->p), s->sheet, k,
				      got, e->n[k], want);
		}
	}
	free(e);
	hw_catalog_free(cat);
}
END_TEST

/*
 * Every entry that takes a class default ("class default (GPU vector)",
 * "(GPU tensor)", "(CPU/Phi)" in its eff_source) has that class's five
 * figures; fp64 entries, whose 3x3 figure is eff_conv's (no Winograd
 * kernels), are a class of their own.
 */
START_TEST(catalog_class_defaults_agree)
{
	struct {
		char key[64];
		double eff[5];
	} seen[16];
	struct hw_catalog *cat = hw_test_shipped();
	int n_seen = 0, n_entries = 0, i, p, j;

	for (i = 0; i < hw_catalog_n_devices(cat); i++) {
		const struct hw_device *d = hw_catalog_device(cat, i);

		for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
			const struct hw_peak *pk = &d->peak[p];
			const char *at = strstr(pk->eff_source,
						"class default (");
			double eff[5] = { pk->eff_gemm, pk->eff_conv,
					  pk->eff_conv3x3, pk->eff_conv1x1,
					  pk->eff_conv1x1s };
			char key[64];

			if (pk->matrix_flops <= 0.0 || !at)
				continue;
			at += strlen("class default (");
			snprintf(key, sizeof(key), "%.*s%s",
				 (int)strcspn(at, ")"), at,
				 strncmp(pk->eff_source, "fp64:", 5) == 0 ?
				 " fp64" : "");
			for (j = 0; j < n_seen; j++)
				if (strcmp(seen[j].key, key) == 0)
					break;
			if (j == n_seen) {
				ck_assert_int_lt(n_seen, 16);
				snprintf(seen[j].key, sizeof(seen[j].key), "%s",
					 key);
				memcpy(seen[j].eff, eff, sizeof(eff));
				n_seen++;
			}
			n_entries++;
			ck_assert_msg(memcmp(seen[j].eff, eff,
					     sizeof(eff)) == 0,
				      "%s %s: not the %s class figures",
				      d->name, dlsim_precision_name(p), key);
		}
	}
	/* GPU vector, GPU tensor, CPU/Phi, and fp64 of the first and last */
	ck_assert_int_eq(n_seen, 5);
	ck_assert_int_gt(n_entries, 150);
	hw_catalog_free(cat);
}
END_TEST

/*
 * The Maxwell and Pascal cards of cnn-benchmarks and DeepBench, peaks as
 * cores x 2 FLOP x boost clock from NVIDIA's specification pages: GTX
 * Titan X 3,072 x 2 x 1,075 MHz = 6.605 TF, 336.5 GB/s; GTX 1080 2,560 x
 * 2 x 1,733 MHz = 8.873 TF, 320 GB/s; GTX 1080 Ti 3,584 x 2 x 1,582 MHz
 * = 11.34 TF, 484 GB/s; Titan X (Pascal) 3,584 x 2 x 1,531 MHz = 10.97
 * TF, 480 GB/s; Titan Xp 3,840 x 2 x 1,582 MHz = 12.15 TF, 547.7 GB/s.
 * Maxwell has no fp16 arithmetic worth the name; GP10x runs it at 1/64
 * of fp32, so cuBLAS and cuDNN compute fp16 tensors in fp32: the fp16
 * rate is the fp32 one (and auto precision stays fp32).  Capacities: 12,
 * 8, 11, 12, 12 GB; boards of 250 W but the GTX 1080's 180 W.
 */
START_TEST(catalog_geforce_cards_match_their_specifications)
{
	static const struct {
		const char *name;
		double cores, mhz, GBps, GiB, watts;
	} card[] = {
		{ "titan-x-maxwell", 3072, 1075, 336.5, 12, 250 },
		{ "gtx-1080", 2560, 1733, 320, 8, 180 },
		{ "gtx-1080-ti", 3584, 1582, 484, 11, 250 },
		{ "titan-x-pascal", 3584, 1531, 480, 12, 250 },
		{ "titan-xp", 3840, 1582, 547.7, 12, 250 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	size_t i;

	for (i = 0; i < sizeof(card) / sizeof(card[0]); i++) {
		const struct hw_device *d = hw_device_find(cat, card[i].name);
		double fp32 = card[i].cores * 2.0 * card[i].mhz * 1e6;

		ck_assert_msg(d != NULL, "%s missing", card[i].name);
		ck_assert_rel(d->peak[DLSIM_FP32].matrix_flops, fp32, 1e-3);
		ck_assert_rel(d->mem[0].bandwidth_Bps, card[i].GBps * 1e9,
			      1e-12);
		ck_assert_rel(d->mem[0].capacity_bytes,
			      card[i].GiB * 1073741824.0, 1e-12);
		ck_assert_rel(d->tdp_w, card[i].watts, 1e-12);
		ck_assert_int_eq(hw_device_supports(d, DLSIM_FP16), i > 0);
		if (i > 0)
			ck_assert_rel(d->peak[DLSIM_FP16].matrix_flops, fp32,
				      1e-3);
		ck_assert_int_eq(hw_device_auto_precision(d), DLSIM_FP32);
	}
	hw_catalog_free(cat);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Shipped figures the simulator depends on                          */
/* ---------------------------------------------------------------- */

/*
 * Stampede2's KNL nodes run MCDRAM in cache mode: 16 GB MCDRAM in front
 * of 96 GB DDR4 (TACC Stampede2 user guide).  A model fits in the 96 GiB
 * = 103,079,215,104 bytes and streams at MCDRAM's rate.  "knl7250" is
 * the foundation issue's spelling.
 */
START_TEST(catalog_knl_fits_in_ddr4_streams_from_mcdram)
{
	struct hw_catalog *cat = hw_test_shipped();
	const struct hw_device *knl = hw_device_find(cat, "phi-7250");
	const struct hw_device *v = hw_device_find(cat, "v100");

	ck_assert_ptr_nonnull(knl);
	ck_assert_ptr_eq(hw_device_find(cat, "knl7250"), knl);
	ck_assert(knl->mem_capacity_bytes == 103079215104.0);
	ck_assert_str_eq(knl->mem[0].type, "MCDRAM");
	ck_assert(knl->mem[0].capacity_bytes == 16.0 * 1073741824.0);
	/* one tier: 16 GiB of HBM2 */
	ck_assert(v->mem_capacity_bytes == 16.0 * 1073741824.0);
	hw_catalog_free(cat);
}
END_TEST

/*
 * NVSwitch generations, per GPU per direction through the switch:
 * DGX-2 6 NVLink2 ports x 25 GB/s = 150; DGX A100 12 x 25 = 300; DGX
 * H100 18 NVLink4 x 25 = 450; B200 18 NVLink5 x 50 = 900 (NVIDIA DGX-2,
 * DGX A100 and DGX H100 system architecture whitepapers; DGX B200
 * datasheet).  Latency as the nvlink entries: NCCL's hwLat, 0.6 us.
 */
START_TEST(catalog_nvswitch_generations)
{
	static const struct { const char *name; double gbps; } sw[] = {
		{ "nvswitch1", 150 }, { "nvswitch2", 300 },
		{ "nvswitch3", 450 }, { "nvswitch4", 900 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	size_t i;

	for (i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		const struct hw_link *l = hw_link_find(cat, sw[i].name);

		ck_assert_msg(l != NULL, "no link '%s'", sw[i].name);
		ck_assert_str_eq(l->kind, "nvswitch");
		ck_assert(l->line_rate_Bps == sw[i].gbps * 1e9);
		/* NCCL's ring reaches 0.82 of NVLink's line rate (the
		 * maintainer's 370 of 450 GB/s, nccl-tests #212) */
		ck_assert(l->efficiency == 0.82);
		ck_assert_rel(l->bandwidth_Bps, 0.82 * sw[i].gbps * 1e9,
			      1e-12);
		ck_assert_rel(l->latency_s, 0.6e-6, 1e-12);
		ck_assert(strstr(l->source, "ports x per-port") != NULL);
		ck_assert(strstr(l->source, "hwLat[NVLINK]") != NULL);
	}
	hw_catalog_free(cat);
}
END_TEST

/* Networks by index, as devices, links and nodes. */
START_TEST(catalog_networks_by_index)
{
	struct hw_catalog *cat = hw_test_shipped();
	int i, n = hw_catalog_n_networks(cat);

	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++) {
		const struct hw_network *nw = hw_catalog_network(cat, i);

		ck_assert_ptr_nonnull(nw);
		ck_assert(nw->source[0]);
		ck_assert_ptr_eq(hw_network_find(cat, nw->name), nw);
	}
	ck_assert_ptr_null(hw_catalog_network(cat, n));
	ck_assert_ptr_null(hw_catalog_network(cat, -1));
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_catalog(void)
{
	Suite *s = suite_create("catalog");
	TCase *c = tcase_create("catalog");

	tcase_add_test(c, catalog_has_every_required_device);
	tcase_add_test(c, catalog_every_figure_has_a_source);
	tcase_add_test(c, catalog_memory_efficiency_is_its_triad);
	tcase_add_test(c, catalog_every_device_and_node_resolves);
	tcase_add_test(c, catalog_issue_examples_resolve);
	tcase_add_test(c, catalog_matches_datasheets);
	tcase_add_test(c, catalog_conv_efficiencies_are_the_deepbench_medians);
	tcase_add_test(c, catalog_class_defaults_agree);
	tcase_add_test(c, catalog_geforce_cards_match_their_specifications);
	tcase_add_test(c, catalog_knl_fits_in_ddr4_streams_from_mcdram);
	tcase_add_test(c, catalog_nvswitch_generations);
	tcase_add_test(c, catalog_networks_by_index);
	suite_add_tcase(s, c);
	return s;
}
