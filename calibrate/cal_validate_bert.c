/*
 * cal_validate_bert.c -- the DeepLearningExamples BERT-Large pre-training
 * sets: NVIDIA's PyTorch BERT (LanguageModeling/BERT) on one DGX-1, DGX-2
 * or DGX A100, sequences per second, as its README published them in
 * 2019-2022 (data/validation/dle_bert.csv, its README gives the rows kept).
 *
 * HOW A ROW BECOMES A PREDICTION
 * - Model: bert-large at the row's sequence length (128 for phase 1, 512
 *   for phase 2), attention scores written to memory as every PyTorch
 *   BERT of those years did (unfused=1; FlashAttention is from 2022),
 *   its vocabulary padded from 30,522 to 30,528 as run_pretraining.py
 *   pads it ("Padding for divisibility by 8", NVIDIA/
 *   DeepLearningExamples@042e8724 PyTorch/LanguageModeling/BERT), so
 *   that its GEMMs are on 16-byte rows.
 * - Strategy: data parallel over the row's GPUs, no recomputation, the
 *   optimizer apex's FusedLAMB as run_pretraining.py makes it (SIM_OPT_
 *   LAMB: its per-tensor trust ratios cost four passes over the
 *   parameters more than Adam's one).  Where the
 *   row gives gradient accumulation as "A and B", A is the steps of the
 *   fp32/TF32 runs and B those of the mixed-precision runs (the tables'
 *   batch per GPU over A or B is the 8, 16, 54, 64 ... micro-batches the
 *   same READMEs list elsewhere), so micro-batch = batch per GPU / steps
 *   and the step's global batch = batch per GPU x GPUs; without it the
 *   batch per GPU is the micro-batch and one step reduces once.
 * - Precision: fp32, TF32, or mixed = fp16 math.
 * - Phase 2 of the 2022 code ran binned: its README's changelog (January
 *   2022, NVIDIA/DeepLearningExamples PyTorch/LanguageModeling/BERT)
 *   lists "Binned pretraining for phase2 with LDDL using a bin size of
 *   64", and LDDL's loader draws each batch from one bin and pads it to
 *   its longest sequence, rounded up to 8 (NVIDIA/LDDL lddl/torch/
 *   bert.py, _to_encoded_inputs).  So a 512-token row first published
 *   in 2022 or later is not a step of 512-token sequences but a mix:
 *   bin k (lengths 64k+1 .. 64k+64) a step padded to 64(k+1) tokens, in
 *   the share of samples that bin holds.  The shares are those of the
 *   Wikipedia phase-2 set at 512 tokens whose lengths Krell et al.
 *   published ("Efficient Sequence Packing without Cross-contamination",
 *   arXiv:2107.02027, Fig. 1: more than half its tokens are padding;
 *   the counts are graphcore/examples' tutorials/blogs_code/packedBERT/
 *   histograms.py, data/validation/wikipedia_seq512_histogram.csv): 17.6,
 *   19.4, 11.4, 8.3, 6.5, 5.3, 4.4 and 27.2%.  That set was made by
 *   Google's create_pretraining_data.py recipe from a Wikipedia dump, as
 *   LDDL's preprocessor makes its own from another dump: the document
 *   lengths, not the code, set the mix.  The step's time is the shares'
 *   mean of the bins' step times (sim_binned_predict, as `dlsim predict
 *   --seq-lengths` runs it); padding to a bin's longest sequence, not to
 *   the batch's, overstates a micro-batch of 4 by about 2.5% and one of
 *   32 by 0.1% (the histogram's expected maximum).
 * - No host dispatch time.  Issue 6's rule would allow the stack's to be
 *   fitted on every fifth row, and it was tried with tools/
 *   fit_dispatch.py's method: the optimum moved from 124 to 148 us when
 *   8 suspect rows left the file, the error was not unimodal in it, and
 *   it traded rows against each other (V100 mixed precision from +40%
 *   to -21%) more than it closed a gap, so it is not used.
 *
 * LIMITATIONS
 * - The masked-LM head is costed over every token (the zoo's head, as
 *   HF's); NVIDIA's also scores only the masked ones in later versions.
 *   The next-sentence head (one token) is left out.
 * - apex amp's passes around the optimizer (O2's gradient unscaling and
 *   the fp32-to-fp16 copy of the weights as a kernel of its own) are
 *   not costed apart; dlsim's mixed optimizer writes the 16-bit copy.
 * - The READMEs' code changed over 2019-2022 (fused kernels, attention)
 *   and one model serves every version: the 2022 code's native AMP and
 *   TorchScript with NVFuser (its changelog) are costed as the apex O2
 *   of earlier years, without fusion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

const char *cal_val_dle_device(const char *gpu_type)
{
	static const struct {
		const char *gpu_type, *device;
	} map[] = {
		{ "V100-16GB", "v100" }, { "V100-32GB", "v100-sxm2-32gb" },
		{ "V100-SXM3-32GB", "v100-sxm3-32gb" },
		{ "A100-40GB", "a100-sxm4-40gb" }, { "A100-80GB", "a100" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].gpu_type, gpu_type) == 0)
			return map[i].device;
	return NULL;
}

int cal_val_dle_precision(const char *text, enum dlsim_precision *p)
{
	if (strcmp(text, "fp32") == 0)
		*p = DLSIM_FP32;
	else if (strcmp(text, "tf32") == 0)
		*p = DLSIM_TF32;
	else if (strcmp(text, "mixed") == 0)
		*p = DLSIM_FP16;
	else
		return -1;
	return 0;
}

/*
 * The accumulation steps of a row at precision p: 1 when the column is
 * empty, A or B of "A and B" (fp32/TF32, mixed), or the one number given;
 * 0 when the text is none of these.
 */
static int64_t bert_accumulation(const char *text, enum dlsim_precision p)
{
	long long a = 0, b = 0;
	char tail;

	if (*text == '\0')
		return 1;
	if (sscanf(text, "%lld and %lld%c", &a, &b, &tail) == 2)
		return a > 0 && b > 0 ? (p == DLSIM_FP16 ? b : a) : 0;
	if (sscanf(text, "%lld%c", &a, &tail) == 1)
		return a > 0 ? a : 0;
	return 0;
}

/*
 * The step time (*t, s) of st on s at precision p of NVIDIA's BERT-Large
 * at seq tokens: 0, -1 when the model does not build, 1 when the strategy
 * is refused.
 */
static int bert_step(int64_t seq, const struct hw_system *s,
		     enum dlsim_precision p, const struct sim_strategy *st,
		     double *t)
{
	struct sim_par_result res;
	struct model *m = NULL;
	char model[64];
	int rc;

	snprintf(model, sizeof(model), "bert-large:seq=%lld,vocab=30528,"
		 "unfused=1", (long long)seq);
	if (model_resolve(model, &m, NULL))
		return -1;
	rc = sim_parallel_predict(m, s, p, SIM_OPT_LAMB, st, &res, NULL);
	model_free(m);
	if (rc)
		return 1;
	*t = res.step_time_s;
	return 0;
}

/* Phase 2's sequence length, and the bins LDDL batches it in. */
#define BERT_PHASE2_SEQ 512
#define BERT_BIN 64

/*
 * The 2022 code's phase-2 step: the bins of wikipedia_seq512_histogram.
 * csv (model_seq_bins_read) predicted as one strategy each and mixed
 * (sim_binned_predict): samples/s into *samples_per_s; 0, -1 when the
 * histogram is missing or damaged, 1 when a bin's prediction fails.
 */
static int bert_binned(const struct hw_system *s, enum dlsim_precision p,
		       const struct sim_strategy *st, double *samples_per_s)
{
	struct model_seq_bins bins;
	struct sim_binned res;
	struct sim_options o;
	size_t size;
	const char *text = cal_val_builtin("wikipedia_seq512_histogram.csv",
					   &size);

	if (!text || model_seq_bins_read(text, size, "wikipedia_seq512_"
					 "histogram.csv", BERT_BIN, &bins,
					 NULL))
		return -1;
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = p;
	o.optimizer = SIM_OPT_LAMB;
	if (sim_binned_predict("bert-large:vocab=30528,unfused=1", s, &o, st,
			       &bins, &res, NULL))
		return 1;
	*samples_per_s = res.samples_per_s;
	return 0;
}

/* 1 for a row of the binned phase 2: 512 tokens, first published in
 * 2022 or later (the file head); a date not YYYY-MM-DD is not. */
static int binned(const struct cal_vctx *v, int64_t seq)
{
	int year, month, day;
	char tail;

	return seq == BERT_PHASE2_SEQ &&
	       sscanf(cal_val_col(v, "first_seen_date"), "%4d-%2d-%2d%c",
		      &year, &month, &day, &tail) == 3 && year >= 2022;
}

int cal_val_row_dle_bert(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *gpu = cal_val_col(v, "gpu_type");
	const char *dev = cal_val_dle_device(gpu);
	int64_t gpus = cal_val_int(v, "gpus");
	int64_t batch = cal_val_int(v, "batch_per_gpu");
	int64_t seq = cal_val_int(v, "seq_len"), steps;
	struct sim_strategy st;
	struct hw_system s;
	struct hw_calib cal;
	enum dlsim_precision p = DLSIM_FP32;
	double step_s = 0.0;
	char spec[64];
	int rc;

	snprintf(r->what, sizeof(r->what), "bert-large seq %lld on %s x%lld "
		 "batch %lld %s", (long long)seq, gpu, (long long)gpus,
		 (long long)batch, cal_val_col(v, "precision"));
	if (!dev)
		return cal_val_skip(r, "GPU not mapped to the catalog");
	if (cal_val_dle_precision(cal_val_col(v, "precision"), &p))
		return cal_val_skip(r, "precision not fp32, tf32 or mixed");
	steps = bert_accumulation(cal_val_col(v, "grad_accum"), p);
	if (!(gpus > 0 && batch > 0 && seq > 0 && steps > 0 &&
	      batch % steps == 0))
		return cal_val_skip(r, "GPUs, batch, sequence or accumulation "
				    "not usable");
	snprintf(r->what, sizeof(r->what), "bert-large seq %lld on %s x%lld "
		 "mb %lld gb %lld %s", (long long)seq, gpu, (long long)gpus,
		 (long long)(batch / steps), (long long)(batch * gpus),
		 cal_val_col(v, "precision"));
	snprintf(spec, sizeof(spec), "%sx%lld", dev, (long long)gpus);
	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	sim_strategy_init(&st);
	st.dp = gpus;
	st.micro_batch = batch / steps;
	st.global_batch = batch * gpus;
	if (binned(v, seq)) {
		rc = bert_binned(&s, p, &st, &r->predicted);
		if (rc < 0)
			return cal_val_skip(r, "wikipedia_seq512_histogram.csv "
					    "is missing or damaged");
	} else {
		rc = bert_step(seq, &s, p, &st, &step_s);
		if (rc < 0)
			return cal_val_skip(r, "the model does not build");
		r->predicted = (double)st.global_batch / step_s;
	}
	if (rc)
		return cal_val_skip(r, "the strategy (or a bin's) is refused");
	r->measured = cal_val_num(v, "value");
	return 0;
}
