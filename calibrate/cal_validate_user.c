/*
 * cal_validate_user.c -- `dlsim validate --file FILE`: a user's own
 * measurements, predicted and compared as the shipped sets are.
 *
 * WHY
 * The shipped sets are what others published; the accuracy that matters
 * to a user is on their own models and machines.  A measurement file
 * makes their runs a set of the record: the same statistics, rows, plot,
 * JSON, and with --record the same history across dlsim versions.
 *
 * THE FORMAT (README "Your own measurements", man dlsim)
 * A CSV file with a header.  Each column is named as the `dlsim predict`
 * option it stands for, without the dashes, and holds what that option
 * takes; an empty field is an option not given, so a row means what the
 * same `dlsim predict` command line would:
 *   model, hw                     required (predict's MODEL and --hw)
 *   metric                        required: step_s, samples_per_s,
 *                                 samples_per_s_per_device
 *   measured                      required: the measured figure, in
 *                                 1e-9 .. 1e15
 *   batch, global-batch, precision, optimizer, dispatch-us,
 *   optimizer-foreach, autocast   both steps' options
 *   fuse-elementwise, fuse-conv-bn (implies fuse-elementwise),
 *   no-overlap, allreduce, bucket-mb, compression,
 *   topk-ratio                    the data-parallel step's alone
 *   update-on                     both (with a strategy, ZeRO-Offload)
 *   tp, pp, dp, micro-batch, zero, recompute, schedule, chunks,
 *   sequence-parallel             a hybrid-parallel strategy (any of them
 *                                 set, or dispatch-us above 0 on a
 *                                 transformer, asks for one, as predict)
 *   source, note                  free text; source is kept with the row
 * Flags (fuse-elementwise, fuse-conv-bn, no-overlap, sequence-parallel,
 * optimizer-foreach, autocast) take yes or no.
 * A column of another name is refused, so that a misspelt one is not
 * silently left out; so is any field predict would refuse (a number
 * column's " 64" included, though CSV trims it: --batch " 64" is
 * refused), with the file and line (and the column, where one is at fault: the
 * simulator's own refusals, such as chunks without the interleaved
 * schedule, concern several).  Unlike the shipped sets, whose rows are
 * skipped when the catalog lacks their device, a user's row that cannot
 * be predicted is an error: they asked for it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "hw/hw.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* The columns                                                       */
/* ---------------------------------------------------------------- */

static const char *const columns[] = {
	"model", "hw", "metric", "measured",
	"batch", "global-batch", "precision", "optimizer", "dispatch-us",
	"optimizer-foreach", "autocast", "fuse-elementwise", "fuse-conv-bn",
	"no-overlap", "allreduce",
	"bucket-mb", "compression", "topk-ratio", "update-on",
	"tp", "pp", "dp", "micro-batch", "zero", "recompute", "schedule",
	"chunks", "sequence-parallel",
	"source", "note", NULL
};

/* Those that ask for a hybrid-parallel strategy when set
 * (sequence-parallel when yes, dispatch-us above 0 on a transformer). */
static const char *const strategy_columns[] = {
	"tp", "pp", "dp", "micro-batch", "zero", "recompute", "schedule",
	"chunks", NULL
};

/* The data-parallel step's alone, refused with a strategy (the flags
 * when yes). */
static const char *const single_columns[] = {
	"allreduce", "bucket-mb", "compression", "topk-ratio", NULL
};

/* Those holding a number, as the option of their name takes it. */
static const char *const number_columns[] = {
	"measured", "batch", "global-batch", "dispatch-us", "bucket-mb",
	"topk-ratio", "tp", "pp", "dp", "micro-batch", "zero", "chunks", NULL
};

static const char *const required[] = {
	"model", "hw", "metric", "measured", NULL
};

static int listed(const char *const *list, const char *name)
{
	int i;

	for (i = 0; list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return 1;
	return 0;
}

int cal_val_user_head(const char *const *head, int n, struct dlsim_err *err)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (!listed(columns, head[i]))
			return dlsim_err_set(err, DLSIM_EPARSE, "unknown column "
					     "'%s' (the columns are dlsim "
					     "predict's options: man dlsim, "
					     "VALIDATE)", head[i]);
		for (j = 0; j < i; j++)
			if (strcmp(head[i], head[j]) == 0)
				return dlsim_err_set(err, DLSIM_EPARSE,
						     "column '%s' appears "
						     "twice", head[i]);
	}
	for (i = 0; required[i]; i++) {
		for (j = 0; j < n && strcmp(head[j], required[i]); j++)
			;
		if (j == n)
			return dlsim_err_set(err, DLSIM_EPARSE, "no '%s' "
					     "column (model, hw, metric and "
					     "measured are required)",
					     required[i]);
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* One row's fields                                                  */
/* ---------------------------------------------------------------- */

/*
 * CSV trims the blanks around an unquoted field, so " 64" reached the
 * batch column as 64 while predict refuses --batch " 5": a number column
 * holds what its option takes, so a number with blanks around it is
 * refused as the option would refuse it (a quoted one keeps them, and
 * its parser refuses it).
 */
static int numbers_unpadded(const struct cal_vctx *v, struct dlsim_err *err)
{
	const char *c;
	int i, flag;

	for (i = 0; (c = number_columns[i]); i++) {
		if (!cal_val_padded(v, c))
			continue;
		flag = strcmp(c, "measured") != 0;     /* no option's */
		return dlsim_err_set(err, DLSIM_EINVAL, "column '%s': blanks "
				     "before or after '%s' (a number is "
				     "written without them%s%s%s)", c,
				     cal_val_col(v, c),
				     flag ? ", as predict's --" : "",
				     flag ? c : "", flag ? " takes it" : "");
	}
	return DLSIM_OK;
}

/* What a row asks for, read from its fields. */
struct user_row {
	struct sim_options o;
	struct sim_strategy st;
	int strategy;                /* 1: a hybrid-parallel step */
	int optimizer_given;
	int bucket_given;
	enum { STEP_S, SAMPLES_S, SAMPLES_S_DEVICE } metric;
	double measured;
};

/* Prefix err's message with the column it is about. */
static int in_column(const char *col, int rc, struct dlsim_err *err)
{
	char msg[sizeof(err->msg)];

	if (rc == DLSIM_OK)
		return rc;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	dlsim_err_clear(err);       /* the first error is kept otherwise */
	return dlsim_err_set(err, rc, "column '%s': %s", col, msg);
}

static int read_count(const struct cal_vctx *v, const char *col,
		      int64_t *out, struct dlsim_err *err)
{
	const char *s = cal_val_col(v, col);
	char what[48];

	if (!*s)
		return DLSIM_OK;
	snprintf(what, sizeof(what), "column '%s'", col);
	return dlsim_parse_count(s, DLSIM_MAX_COUNT, out, what, err);
}

/* A number above 0 (and at most max when max > 0). */
static int read_positive(const struct cal_vctx *v, const char *col,
			 double max, double *out, struct dlsim_err *err)
{
	const char *s = cal_val_col(v, col);
	char what[48];
	int rc;

	if (!*s)
		return DLSIM_OK;
	snprintf(what, sizeof(what), "column '%s'", col);
	if ((rc = dlsim_parse_number(s, out, what, err)))
		return rc;
	if (!(*out > 0.0) || (max > 0.0 && *out > max)) {
		char most[40] = "";

		if (max > 0.0)
			snprintf(most, sizeof(most), " and at most %g", max);
		return dlsim_err_set(err, DLSIM_EINVAL, "column '%s': %s is "
				     "not above 0%s", col, s, most);
	}
	return DLSIM_OK;
}

static int read_flag(const struct cal_vctx *v, const char *col, int *out,
		     struct dlsim_err *err)
{
	const char *s = cal_val_col(v, col);

	if (!*s)
		return DLSIM_OK;
	if (strcmp(s, "yes") && strcmp(s, "no"))
		return dlsim_err_set(err, DLSIM_EINVAL, "column '%s': '%s' "
				     "is not yes or no", col, s);
	*out = strcmp(s, "yes") == 0;
	return DLSIM_OK;
}

static int read_metric(const struct cal_vctx *v, struct user_row *u,
		       struct dlsim_err *err)
{
	const char *s = cal_val_col(v, "metric");
	const char *m = cal_val_col(v, "measured");
	int rc;

	if (strcmp(s, "step_s") == 0)
		u->metric = STEP_S;
	else if (strcmp(s, "samples_per_s") == 0)
		u->metric = SAMPLES_S;
	else if (strcmp(s, "samples_per_s_per_device") == 0)
		u->metric = SAMPLES_S_DEVICE;
	else
		return dlsim_err_set(err, DLSIM_EINVAL, "column 'metric': "
				     "'%s' is not step_s, samples_per_s or "
				     "samples_per_s_per_device", s);
	if ((rc = dlsim_parse_number(m, &u->measured, "column 'measured'",
				     err)))
		return rc;
	if (!(u->measured > 0.0))
		return dlsim_err_set(err, DLSIM_EINVAL, "column 'measured': "
				     "'%s' is not above 0", m);
	/* no step is shorter than a nanosecond or runs 10^15 samples a
	 * second: such a figure is a unit slip, and its error would be a
	 * number 300 digits long */
	if (u->measured < 1e-9 || u->measured > 1e15)
		return dlsim_err_set(err, DLSIM_EINVAL, "column 'measured': "
				     "'%s' is outside 1e-9 .. 1e15, the "
				     "range of any step time or rate", m);
	return DLSIM_OK;
}

/* The data-parallel options (cli_sim_options' for these columns). */
static int read_options(const struct cal_vctx *v, struct user_row *u,
			struct dlsim_err *err)
{
	struct sim_options *o = &u->o;
	const char *s;
	double us, mb = 0.0;
	int rc = DLSIM_OK, no_overlap = 0;

	sim_options_init(o);
	if ((rc = read_count(v, "batch", &o->batch_per_device, err)) ||
	    (rc = read_count(v, "global-batch", &o->global_batch, err)))
		return rc;
	if (o->batch_per_device && o->global_batch)
		return dlsim_err_set(err, DLSIM_EINVAL, "columns 'batch' and "
				     "'global-batch' exclude each other");
	s = cal_val_col(v, "precision");
	if (*s && strcmp(s, "auto")) {
		o->precision_auto = 0;
		rc = in_column("precision", dlsim_precision_parse(
				       s, &o->precision, err), err);
	}
	s = cal_val_col(v, "optimizer");
	if (!rc && (u->optimizer_given = *s != '\0'))
		rc = in_column("optimizer", sim_optimizer_parse(
				       s, &o->optimizer, err), err);
	if (!rc)
		rc = read_flag(v, "fuse-elementwise", &o->fuse_elementwise,
			       err);
	if (!rc && !(rc = read_flag(v, "fuse-conv-bn", &o->fuse_conv_bn,
				    err)))
		o->fuse_elementwise |= o->fuse_conv_bn;
	if (!rc)
		rc = read_flag(v, "optimizer-foreach", &o->optimizer_foreach,
			       err);
	if (!rc)
		rc = read_flag(v, "autocast", &o->autocast, err);
	if (!rc && !(rc = read_flag(v, "no-overlap", &no_overlap, err)))
		o->overlap = !no_overlap;
	s = cal_val_col(v, "allreduce");
	if (!rc && *s)
		rc = in_column("allreduce", sim_algo_parse(s, &o->allreduce,
							   err), err);
	s = cal_val_col(v, "compression");
	if (!rc && *s)
		rc = in_column("compression", sim_compression_parse(
				       s, &o->compression, err), err);
	if (!rc && !(rc = read_positive(v, "bucket-mb", 0.0, &mb, err)) &&
	    (u->bucket_given = mb > 0.0))
		o->bucket_bytes = mb * 1048576.0;
	if (!rc && *cal_val_col(v, "topk-ratio")) {
		if (o->compression != SIM_COMPRESS_TOPK)
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'topk-ratio' needs compression "
					     "topk");
		rc = read_positive(v, "topk-ratio", 1.0, &o->topk_ratio, err);
	}
	s = cal_val_col(v, "update-on");
	if (!rc && *s) {
		if (strcmp(s, "host") && strcmp(s, "device"))
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'update-on': '%s' is not device "
					     "or host", s);
		o->update_on_host = strcmp(s, "host") == 0;
		if (o->update_on_host && u->bucket_given)
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'bucket-mb': the update on the "
					     "host fills no gradient buckets");
		/* what sim_host_update_check refuses, named as columns */
		if (o->update_on_host && !o->overlap)
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'no-overlap': the update on the "
					     "host overlaps nothing already");
		if (o->update_on_host && o->allreduce != SIM_ALGO_AUTO)
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'allreduce': the update on the "
					     "host sends the gradients to it, "
					     "through no allreduce");
		if (o->update_on_host &&
		    o->compression != SIM_COMPRESS_NONE)
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'compression': the update on the "
					     "host sends the gradients whole");
	}
	s = cal_val_col(v, "dispatch-us");
	if (!rc && *s) {
		if ((rc = dlsim_parse_number(s, &us, "column 'dispatch-us'",
					     err)))
			return rc;
		if (!(us >= 0.0 && us < 1e6))
			return dlsim_err_set(err, DLSIM_EINVAL, "column "
					     "'dispatch-us': %s is not at "
					     "least 0 and below 1e6", s);
		o->dispatch_s = us * 1e-6;
	}
	return rc;
}

/* The strategy, when the row asks for one (cli_strategy's rules). */
static int read_strategy(const struct cal_vctx *v, const struct model *m,
			 int64_t n, struct user_row *u, struct dlsim_err *err)
{
	struct sim_strategy *st = &u->st;
	const char *s, *asker = NULL;
	int i, rc;

	sim_strategy_init(st);
	for (i = 0; strategy_columns[i] && !asker; i++)
		if (*cal_val_col(v, strategy_columns[i]))
			asker = strategy_columns[i];
	if (!asker && strcmp(cal_val_col(v, "sequence-parallel"), "yes") == 0)
		asker = "sequence-parallel";
	if (!asker && u->o.dispatch_s > 0.0 && m->tf.blocks > 0)
		asker = "dispatch-us";
	if (!(u->strategy = asker != NULL))
		return DLSIM_OK;
	for (i = 0, s = NULL; single_columns[i] && !s; i++)
		if (*cal_val_col(v, single_columns[i]))
			s = single_columns[i];
	if (!s && (u->o.fuse_elementwise || !u->o.overlap))
		s = u->o.fuse_conv_bn ? "fuse-conv-bn" :
		    u->o.fuse_elementwise ? "fuse-elementwise" : "no-overlap";
	if (s)
		return dlsim_err_set(err, DLSIM_EINVAL, "column '%s' is not "
				     "available with a parallel strategy, "
				     "which column '%s' asks for", s, asker);
	st->dp = 0;
	if ((rc = read_count(v, "tp", &st->tp, err)) ||
	    (rc = read_count(v, "pp", &st->pp, err)) ||
	    (rc = read_count(v, "dp", &st->dp, err)))
		return rc;
	st->global_batch = u->o.global_batch;
	if ((rc = sim_strategy_complete(st, n, u->o.batch_per_device, m, err)))
		return rc;
	if ((rc = read_count(v, "micro-batch", &st->micro_batch, err)) ||
	    (rc = read_flag(v, "sequence-parallel", &st->sequence_parallel,
			    err)))
		return rc;
	s = cal_val_col(v, "recompute");
	if (*s && (rc = in_column("recompute", sim_recompute_parse(
					  s, &st->recompute, err), err)))
		return rc;
	s = cal_val_col(v, "zero");
	if (*s && !(s[0] >= '0' && s[0] <= '3' && s[1] == '\0'))
		return dlsim_err_set(err, DLSIM_EINVAL, "column 'zero': '%s' "
				     "is not 0, 1, 2 or 3", s);
	if (*s)
		st->zero = s[0] - '0';
	s = cal_val_col(v, "schedule");
	if (*s && (rc = in_column("schedule", sim_schedule_parse(
					  s, &st->schedule, err), err)))
		return rc;
	if (st->schedule == SIM_SCHED_INTERLEAVED)
		st->chunks = 2;     /* predict's default */
	if ((rc = read_count(v, "chunks", &st->chunks, err)))
		return rc;
	st->dispatch_s = u->o.dispatch_s;
	st->optimizer_foreach = u->o.optimizer_foreach;
	st->autocast = u->o.autocast;
	st->update_on_host = u->o.update_on_host;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* The prediction                                                    */
/* ---------------------------------------------------------------- */

/* Append to r->what the options the row set that its words so far do
 * not show, so that rows differing only in them read apart. */
static void what_options(const struct user_row *u, struct cal_vrow *r)
{
	size_t n = strlen(r->what);

	if (u->optimizer_given)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n, " %s",
				      sim_optimizer_name(u->o.optimizer));
	if (n < sizeof(r->what) && u->o.optimizer_foreach)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " foreach");
	if (n < sizeof(r->what) && u->o.autocast)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " autocast");
	if (n < sizeof(r->what) && u->st.sequence_parallel)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n, " sp");
	if (n < sizeof(r->what) && !u->o.overlap)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " no-overlap");
	if (n < sizeof(r->what) && u->o.dispatch_s > 0.0)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " dispatch %g us", u->o.dispatch_s * 1e6);
	if (n < sizeof(r->what) && u->st.zero > 0)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " zero %d", u->st.zero);
	if (n < sizeof(r->what) && u->st.schedule == SIM_SCHED_GPIPE)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " gpipe");
	if (n < sizeof(r->what) && u->st.schedule == SIM_SCHED_INTERLEAVED)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " interleaved x%lld",
				      (long long)u->st.chunks);
	if (n < sizeof(r->what) && u->o.update_on_host)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " update on host");
	if (n < sizeof(r->what) && u->o.allreduce != SIM_ALGO_AUTO)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n, " %s",
				      sim_algo_name(u->o.allreduce));
	if (n < sizeof(r->what) && u->bucket_given)
		n += (size_t)snprintf(r->what + n, sizeof(r->what) - n,
				      " bucket %g MiB",
				      u->o.bucket_bytes / 1048576.0);
	if (n < sizeof(r->what) && u->o.compression == SIM_COMPRESS_TOPK)
		snprintf(r->what + n, sizeof(r->what) - n, " topk %g gradients",
			 u->o.topk_ratio);
	else if (n < sizeof(r->what) && u->o.compression != SIM_COMPRESS_NONE)
		snprintf(r->what + n, sizeof(r->what) - n, " %s gradients",
			 sim_compression_name(u->o.compression));
}

static const char *metric_unit(const struct user_row *u)
{
	return u->metric == STEP_S ? "s" : u->metric == SAMPLES_S ?
	       "samples/s" : "samples/s/device";
}

static double pick(const struct user_row *u, double step_s, double samples_s,
		   int64_t devices)
{
	return u->metric == STEP_S ? step_s : u->metric == SAMPLES_S ?
	       samples_s : samples_s / (double)devices;
}

static int predict_parallel(const char *name, const struct model *m,
			    const struct hw_system *s,
			    const struct user_row *u, struct cal_vrow *r,
			    struct dlsim_err *err)
{
	struct sim_par_result res;
	enum dlsim_precision p = u->o.precision_auto ?
				 hw_device_auto_precision(s->device) :
				 u->o.precision;
	enum sim_optimizer opt = u->optimizer_given ? u->o.optimizer :
				 SIM_OPT_ADAM;
	int rc;

	if (!hw_device_supports(s->device, p))
		return dlsim_err_set(err, DLSIM_EINVAL, "device '%s' has no "
				     "%s peak in the catalog", s->device->name,
				     dlsim_precision_name(p));
	if ((rc = sim_parallel_predict(m, s, p, opt, &u->st, &res, err)))
		return rc;
	snprintf(r->what, sizeof(r->what), "%.72s on %.24s tp %lld pp %lld dp "
		 "%lld mb %lld gb %lld %s %s", name, s->spec,
		 (long long)u->st.tp, (long long)u->st.pp, (long long)u->st.dp,
		 (long long)u->st.micro_batch, (long long)u->st.global_batch,
		 dlsim_precision_name(p), sim_recompute_name(u->st.recompute));
	r->predicted = pick(u, res.step_time_s, res.samples_per_s,
			    res.devices);
	return DLSIM_OK;
}

static int predict_data_parallel(const char *name, const struct model *m,
				 const struct hw_system *s,
				 const struct user_row *u, struct cal_vrow *r,
				 struct dlsim_err *err)
{
	struct sim_result res;
	int rc = sim_predict(m, s, &u->o, &res, err);

	if (rc)
		return rc;
	snprintf(r->what, sizeof(r->what), "%.72s on %.48s batch %lld %s%s",
		 name, s->spec, (long long)res.batch_per_device,
		 dlsim_precision_name(res.precision),
		 u->o.fuse_conv_bn ? " fused into convolutions" :
		 u->o.fuse_elementwise ? " fused" : "");
	r->predicted = pick(u, res.step_time_s, res.throughput, res.devices);
	sim_result_release(&res);
	return DLSIM_OK;
}

/* A row predicted on system s (its hardware resolved), the model named
 * in the row built: 0, or CAL_VAL_FAILED with err set. */
static int predict_row(const struct cal_vctx *v, struct user_row *u,
		       struct hw_system *s, struct cal_vrow *r)
{
	struct dlsim_err *err = v->err;
	const char *name = cal_val_col(v, "model");
	struct model *m = NULL;
	int rc;

	if ((rc = in_column("model", model_resolve(name, &m, err), err)))
		return CAL_VAL_FAILED;
	rc = read_strategy(v, m, s->n_devices, u, err);
	if (!rc)
		rc = u->strategy ? predict_parallel(name, m, s, u, r, err) :
		     predict_data_parallel(name, m, s, u, r, err);
	model_free(m);
	return rc ? CAL_VAL_FAILED : 0;
}

int cal_val_row_user(const struct cal_vctx *v, struct cal_vrow *r)
{
	struct user_row u;
	struct hw_system s;
	struct hw_calib cal;
	struct hw_local local;
	struct hw_mark mark;
	struct dlsim_err *err = v->err;
	size_t n;
	int rc;

	memset(&u, 0, sizeof(u));
	memset(&cal, 0, sizeof(cal));
	if (v->n != v->n_head) {
		dlsim_err_set(err, DLSIM_EPARSE, "the row has %d field%s, the "
			      "header %d", v->n, v->n == 1 ? "" : "s",
			      v->n_head);
		return CAL_VAL_FAILED;
	}
	if ((rc = numbers_unpadded(v, err)) || (rc = read_metric(v, &u, err)) ||
	    (rc = read_options(v, &u, err)))
		return CAL_VAL_FAILED;
	/* a --hw file's entries join the catalog for this row alone: the
	 * next row may name the same file, whose names would clash */
	hw_catalog_mark(v->cat, &mark);
	/* the fits predict would use: the caller's database's */
	if ((rc = in_column("hw", hw_system_open(v->cat, v->db, cal_val_col(
							 v, "hw"), &s, &cal,
						 &local, err), err))) {
		/* a file merged before its fits failed to load */
		hw_catalog_rollback(v->cat, &mark);
		return CAL_VAL_FAILED;
	}
	cal_val_note_calib(v, cal_val_col(v, "hw"), s.calib ? s.calib : &cal);
	rc = predict_row(v, &u, &s, r);
	hw_catalog_rollback(v->cat, &mark);
	if (rc)
		return rc;
	r->measured = u.measured;
	snprintf(r->unit, sizeof(r->unit), "%s", metric_unit(&u));
	what_options(&u, r);
	/* a file may mix metrics: each row names its unit */
	n = strlen(r->what);
	if (n < sizeof(r->what))
		snprintf(r->what + n, sizeof(r->what) - n, " (%s)", r->unit);
	return 0;
}
