/*
 * cal_validate_nmt.c -- the DeepLearningExamples translation sets, in
 * tokens per second as the READMEs published them: NVIDIA's PyTorch
 * Transformer (Translation/Transformer, fairseq's
 * transformer_wmt_en_de_big_t2t on WMT14 English-German) on one DGX-1,
 * DGX-2 or DGX A100 in 2020-2022 (data/validation/dle_transformer.csv),
 * and its PyTorch GNMT (Translation/GNMT, WMT16 English-German) on one
 * DGX-1 or DGX-2 in 2018-2019 (data/validation/dle_gnmt.csv).
 *
 * A TRANSFORMER ROW
 * - Model: transformer-big, 6 + 6 blocks of width 1024, 16 heads, a
 *   feed-forward of 4096 (the README's --arch), over the shared
 *   vocabulary of 33,708 BPE tokens and fairseq's four special ones,
 *   33,712 (the README's "Default vocabulary size is 33708, excluding
 *   all special tokens"), a multiple of 8.  The zoo's blocks put their
 *   LayerNorms after each sublayer and t2t's before: the same layers.
 * - Batch: the README's "Batch size / GPU" is fairseq's --max-tokens,
 *   the tokens one GPU's batch holds; "A/B" is the mixed-precision runs'
 *   A and the FP32 or TF32 runs' B (the README: "To use FP32, reduce the
 *   batch size to 2560").  fairseq sorts the sentences by length and
 *   batches sentences of a length together (the README's "Dataset
 *   guidelines"), so a batch is nearly all tokens: it is costed as
 *   tokens / 32 sentence pairs of 32 tokens, source and target.  The 32
 *   is an assumption (the file gives no sentence length); it moves only
 *   the attention's share: with the shipped fits, transformer-big on a
 *   V100 in fp16 at 5,120 tokens gives 51,645 tokens/s at sentences of
 *   16 tokens, 51,043 at 32, 49,881 at 64 and 47,708 at 128.
 * - Attention: scores written to memory (unfused=1), as fairseq's
 *   MultiheadAttention of those years ran it (bmm, softmax, dropout,
 *   bmm).
 * - Throughput: the predicted sentence pairs per second times 32, the
 *   target tokens fairseq counts.
 * - Strategy: data parallel over the row's GPUs, one step a batch (the
 *   tables' rows state no --update-freq), Adam (fairseq's, apex's fused
 *   kernel in mixed precision); fp32, TF32, or mixed = fp16 math with
 *   fp32 master weights.
 *
 * - The 2022 README trains with --fuse-dropout-add, --fuse-relu-dropout
 *   and --fuse-layer-norm; the rows are costed without element-wise
 *   fusion, as one model serves the 2020 and 2022 code.
 *
 * A GNMT ROW
 * - Model: the zoo's gnmt, MLPerf's GNMT v2 (the same code: 4 + 4 LSTM
 *   layers of 1024, the first decoder layer's attention fed to the
 *   rest, 32,320 tokens), over sentence pairs of 32 tokens.  The
 *   training sentences are at most 50 tokens (train.py's
 *   --max-length-train) and bucketed by length; 32 is an assumption as
 *   above: with the shipped fits, 128 pairs on a V100 in fp16 give
 *   132,342 tokens/s at 25 tokens, 135,461 at 32 and 137,996 at 50.
 * - Batch: the row's sentences a GPU (train.py's --train-batch-size,
 *   128); the 2018 rows, which state neither GPU nor batch, are skipped.
 * - Throughput: the trainer's Tok/s counts source and target tokens
 *   (seq2seq/train/trainer.py: tot_num_toks = num_toks['tgt'] +
 *   num_toks['src']), so pairs per second times 64.
 * - Strategy: data parallel over the row's GPUs, Adam (train.py's
 *   default); fp32, or mixed = fp16 math with fp32 master weights
 *   (--math fp16, seq2seq/train/fp_optimizers.py).
 *
 * LIMITATIONS
 * - No host dispatch time: neither stack's was ever measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

/* The tokens of a sentence as costed (see the head). */
#define NMT_SEQ 32

/*
 * The tokens per GPU of a row at precision p: "A/B" gives A in mixed
 * precision and B in fp32 or TF32, one number both; 0 when the text is
 * neither or a count is not a whole number of sentences.
 */
static int64_t nmt_tokens(const char *text, enum dlsim_precision p)
{
	long long a = 0, b = 0, t;
	char tail;

	if (sscanf(text, "%lld/%lld%c", &a, &b, &tail) == 2)
		t = p == DLSIM_FP16 ? a : b;
	else if (sscanf(text, "%lld%c", &a, &tail) == 1)
		t = a;
	else
		return 0;
	return t >= NMT_SEQ && t <= (1LL << 30) && t % NMT_SEQ == 0 ? t : 0;
}

int cal_val_row_dle_transformer(const struct cal_vctx *v,
				struct cal_vrow *r)
{
	const char *gpu = cal_val_col(v, "gpu_type");
	const char *dev = cal_val_dle_device(gpu);
	int64_t gpus = cal_val_int(v, "gpus"), tokens;
	struct model *m = NULL;
	struct sim_strategy st;
	struct sim_par_result res;
	struct hw_system s;
	struct hw_calib cal;
	enum dlsim_precision p = DLSIM_FP32;
	char spec[64], model[64];
	int rc;

	snprintf(r->what, sizeof(r->what), "transformer-big on %s x%lld "
		 "batch %s tokens %s", gpu, (long long)gpus,
		 cal_val_col(v, "batch_per_gpu"), cal_val_col(v, "precision"));
	if (!dev)
		return cal_val_skip(r, "GPU not mapped to the catalog");
	if (cal_val_dle_precision(cal_val_col(v, "precision"), &p))
		return cal_val_skip(r, "precision not fp32, tf32 or mixed");
	tokens = nmt_tokens(cal_val_col(v, "batch_per_gpu"), p);
	if (!(gpus > 0 && tokens > 0))
		return cal_val_skip(r, "GPUs or tokens per GPU not usable");
	snprintf(r->what, sizeof(r->what), "transformer-big on %s x%lld %lld "
		 "tokens a GPU %s", gpu, (long long)gpus, (long long)tokens,
		 cal_val_col(v, "precision"));
	snprintf(spec, sizeof(spec), "%sx%lld", dev, (long long)gpus);
	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	snprintf(model, sizeof(model), "transformer-big:seq=%d,vocab=33712,"
		 "unfused=1", NMT_SEQ);
	if (model_resolve(model, &m, NULL))
		return cal_val_skip(r, "the model does not build");
	sim_strategy_init(&st);
	st.dp = gpus;
	st.micro_batch = tokens / NMT_SEQ;
	st.global_batch = st.micro_batch * gpus;
	rc = sim_parallel_predict(m, &s, p, SIM_OPT_ADAM, &st, &res, NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the strategy is refused");
	r->measured = cal_val_num(v, "value");
	r->predicted = res.samples_per_s * NMT_SEQ;
	return 0;
}

int cal_val_row_dle_gnmt(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *gpu = cal_val_col(v, "gpu_type");
	const char *dev = cal_val_dle_device(gpu);
	int64_t gpus = cal_val_int(v, "gpus");
	int64_t batch = cal_val_int(v, "batch_per_gpu");
	enum dlsim_precision p = DLSIM_FP32;
	char model[32], what[sizeof(r->what)];
	int rc;

	snprintf(what, sizeof(what), "gnmt on %s x%lld batch %s %s",
		 *gpu ? gpu : "(no GPU stated)", (long long)gpus,
		 cal_val_col(v, "batch_per_gpu"), cal_val_col(v, "precision"));
	snprintf(r->what, sizeof(r->what), "%s", what);
	if (!dev)
		return cal_val_skip(r, "GPU not mapped to the catalog");
	if (cal_val_dle_precision(cal_val_col(v, "precision"), &p) ||
	    p == DLSIM_TF32)
		return cal_val_skip(r, "precision not fp32 or mixed");
	if (!(gpus > 0 && batch > 0))
		return cal_val_skip(r, "GPUs or batch not usable");
	snprintf(model, sizeof(model), "gnmt:seq=%d", NMT_SEQ);
	rc = cal_val_dp_row(v, model, dev, gpus, batch, p, 0,
			    CAL_REDUCE_DEFAULT, SIM_OPT_ADAM,
			    cal_val_num(v, "value"), r);
	/* the row's own words, not the data-parallel helper's */
	snprintf(r->what, sizeof(r->what), "%s", what);
	if (!rc)
		r->predicted *= 2.0 * NMT_SEQ;
	return rc;
}
