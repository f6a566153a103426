/*
 * report.h -- helpers shared by the report writers: JSON string escaping
 * and human-readable units.
 */
#ifndef DLSIM_REPORTS_REPORT_H
#define DLSIM_REPORTS_REPORT_H

#include <stdio.h>

#include "dlsim.h"

/* "12.3 GiB", "456 MiB" ... into buf. */
const char *report_bytes(double bytes, char *buf, size_t n);

/* "12.3 ms", "4.56 s", "789 us" ... into buf. */
const char *report_seconds(double s, char *buf, size_t n);

/* A rate for a table: one decimal, or three significant digits below
 * 0.1 (8 samples in 308 s is 0.026 samples/s, not 0.0). */
const char *report_rate(double x, char *buf, size_t n);

/* An age, "42 s", "17 min", "5 h", "12 d", into buf (negative: 0 s). */
const char *report_age(double s, char *buf, size_t n);

/* A strategy in words ("tp 1 x pp 1 x dp 8, micro-batch 32, ..."), and
 * as a JSON object (report_plan.c). */
void report_strategy_line(FILE *f, const struct sim_strategy *st,
			  int64_t micro_batches);
void report_json_strategy(FILE *f, const struct sim_strategy *st);

/* The table's fusion lines (predict's, and its binned step's): the
 * element-wise edges kept on chip and the BatchNorm + ReLU pairs run
 * inside convolutions, each only when there are any. */
void report_fusion_lines(FILE *f, int fused_edges, int conv_bn_pairs);

/* A length histogram's bins as plan and scale give them: the
 * "seq_lengths" member (key, object and a trailing ", "), and the
 * table's words for them ("8 length bins of 64 tokens, the longest 512,
 * 255.8 tokens a sample (279.2 padded)", no newline) (report_binned.c). */
void report_json_seq_lengths(FILE *f, int bins, int64_t width,
			     int64_t longest, double mean_length,
			     double mean_padded);
void report_seq_lengths(FILE *f, int bins, int64_t width, int64_t longest,
			double mean_length, double mean_padded);

/*
 * Plots (report_gnuplot.c).  report_plot_terminal() gives the gnuplot
 * terminal for IMAGE by its extension (.png, .svg; anything else is
 * DLSIM_EINVAL).  report_plot_paths() gives the .dat and .gp paths beside
 * IMAGE (the script must read its data from that .dat path).
 * report_gnuplot() writes DATA and SCRIPT there and runs gnuplot on the
 * script; *ran is 1 if the image was drawn, 0 if gnuplot is not installed
 * (the files are written all the same).  DLSIM_EIO if a file cannot be
 * written or gnuplot fails.
 */
/* A gnuplot string literal, quoted and escaped. */
void report_gp_string(FILE *f, const char *s);

/* The file name after the last '/'. */
const char *report_basename(const char *path);

int report_plot_terminal(const char *image, const char **terminal,
			 struct dlsim_err *err);
int report_plot_paths(const char *image, char *dat, char *gp, size_t n,
		      struct dlsim_err *err);
int report_gnuplot(const char *image, const char *data, const char *script,
		   int *ran, struct dlsim_err *err);

/*
 * A figure's two texts, written by its own functions with its context:
 * report_draw picks the terminal and the .dat/.gp paths beside image,
 * writes both texts and runs gnuplot (report_gnuplot.c).  out as
 * report_plot_paths/report_gnuplot fill it.
 */
struct report_figure {
	void (*data)(FILE *f, const void *ctx);
	void (*script)(FILE *f, const char *image, const char *terminal,
		       const struct report_plot *p, const void *ctx);
	const void *ctx;
};

int report_draw(const char *image, const struct report_figure *fig,
		struct report_plot *out, struct dlsim_err *err);

/* DLSIM_EIO if f has an error, else OK. */
int report_check(FILE *f, struct dlsim_err *err);

#endif /* DLSIM_REPORTS_REPORT_H */
