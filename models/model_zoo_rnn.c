/*
 * model_zoo_rnn.c -- the recurrent families: gnmt (translation) and
 * deepspeech2 (speech recognition), as the MLPerf training reference
 * implementations build them (mlcommons/training, rnn_translator/pytorch
 * and speech_recognition/pytorch), keys in model_zoo.c.
 *
 * GNMT
 *
 * The MLPerf reference is GNMT v2, not the network of Wu et al. 2016
 * ("Google's Neural Machine Translation System", 8 encoder and 8 decoder
 * layers, attention from the decoder's bottom layer fed to every step):
 * dlsim follows the reference, whose code and parameter count are
 * published (seq2seq/models/gnmt.py, encoder.py, decoder.py,
 * attention.py; train.py defaults: hidden 1024, 4 layers, shared
 * embeddings, dropout 0.2, batch 128 per worker, sequences of at most
 * 50 tokens with BOS and EOS).  With L layers:
 *   embed        one V x H table, shared by the decoder's input
 *   encoder      dropout, a bidirectional LSTM (H -> 2H), dropout, an
 *                LSTM (2H -> H), then L - 2 of dropout, LSTM (H -> H)
 *                and a residual add
 *   decoder      dropout, LSTM (H -> H); Bahdanau attention of its
 *                output over the encoder's (query projection H x H with
 *                a bias, key projection H x H, score v and scale g);
 *                then L - 1 of concat (x, context), dropout, LSTM
 *                (2H -> H), with the residual add from the second on
 *   classifier   H -> V with a bias, softmax and cross-entropy
 * The attention runs once over all decoder steps (GNMT v2: only the
 * bottom decoder layer's output attends, and its context goes to the
 * layers above), so it is not part of any recurrence.  The reference's
 * vocabulary is 32,000 BPE merges, padded for fp16 to a multiple of 8:
 * V = 32,320 gives 160,671,297 parameters, the count NVIDIA's MLPerf
 * GNMT submissions and MLBench quote ("MLPerf GNMT has 160671297
 * parameters"), which this builder reproduces exactly.
 *
 * DEEPSPEECH2
 *
 * The MLPerf v0.5 reference (speech_recognition/pytorch/model.py and
 * params.py; after Amodei et al. 2016, "Deep Speech 2", whose own widths
 * we could not verify): a 161-bin spectrogram (16 kHz, 20 ms windows:
 * 320 / 2 + 1 bins) every 10 ms; two convolutions, 32 filters of 41 x 11
 * (frequency x time) stride 2 x 2 and 21 x 11 stride 2 x 1, each with
 * batch norm and Hardtanh(0, 20); L bidirectional GRUs of H units whose
 * directions are summed (the first reads 32 x 21 = 672 features, the
 * others a batch norm of the previous output); batch norm, a linear
 * layer to 29 characters without bias, and CTC.  hidden 800, 5 layers,
 * biases, batch 5 (params.py).  dlsim lays the spectrogram out as (1,
 * frames, 161): h is time, so the second convolution's (32, T, 21)
 * output is what the first GRU reads (model_build_rnn.c).
 *
 * LIMITATIONS
 * - Every sequence has the preset's length (seq): the references bucket
 *   sentences and utterances by length, so most batches are shorter.
 *   GNMT's source and target share one seq.
 * - Hardtanh(0, 20) is costed as a ReLU (one more compare per value).
 * - CTC's forward-backward over the label lattice (O(T x label length)
 *   per sample) is costed as a softmax with cross-entropy per frame;
 *   GNMT's label smoothing as plain cross-entropy.
 * - Bahdanau's padding mask and the packing of the bidirectional layer's
 *   variable-length input cost nothing.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

/* The reference's spectrogram bins (params.py: 16000 Hz x 0.02 s / 2 +
 * 1) and characters (labels.json: blank, apostrophe, A-Z, space). */
#define DS2_BINS 161
#define DS2_LABELS 29

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* dropout, then an LSTM of H units; "<stack>.drop<i>", "<stack>.lstm<i>" */
static int drop_lstm(struct model_builder *b, int x, const char *stack,
		     int i, int64_t hidden, unsigned flags)
{
	char name[MODEL_NAME_LEN];

	snprintf(name, sizeof(name), "%s.drop%d", stack, i);
	x = model_add_simple(b, MODEL_DROPOUT, x, name);
	snprintf(name, sizeof(name), "%s.lstm%d", stack, i);
	return model_add_rnn(b, MODEL_LSTM, x, name, hidden, flags, 1);
}

static int residual(struct model_builder *b, int x, int y, const char *stack,
		    int i)
{
	char name[MODEL_NAME_LEN];
	int in[2] = { x, y };

	snprintf(name, sizeof(name), "%s.add%d", stack, i);
	return model_add_merge(b, MODEL_ADD, 2, in, name);
}

static int gnmt_encoder(struct model_builder *b, int x, int64_t L,
			int64_t H)
{
	int i, y;

	x = drop_lstm(b, x, "enc", 0, H, MODEL_LAYER_BIDIRECTIONAL);
	x = drop_lstm(b, x, "enc", 1, H, 0);
	for (i = 2; i < L; i++) {
		y = drop_lstm(b, x, "enc", i, H, 0);
		x = residual(b, x, y, "enc", i);
	}
	return x;
}

/* The bottom decoder layer's output y attends over the encoder's enc;
 * returns the context. */
static int gnmt_attention(struct model_builder *b, int y, int enc,
			  int64_t H)
{
	int q, kv[2];

	q = model_add_linear(b, y, "dec.attn.q", H, 1, 0);
	kv[0] = model_add_linear(b, enc, "dec.attn.k", H, 0, 0);
	kv[1] = enc;
	return model_add_additive_attention(b, q, model_add_merge(
		b, MODEL_CONCAT, 2, kv, "dec.attn.kv"), "dec.attn.core");
}

static int gnmt_decoder(struct model_builder *b, int x, int enc, int64_t L,
			int64_t H)
{
	char name[MODEL_NAME_LEN];
	int ctx, cat[2], i, y;

	x = drop_lstm(b, x, "dec", 0, H, 0);
	ctx = gnmt_attention(b, x, enc, H);
	for (i = 1; i < L; i++) {
		cat[0] = x;
		cat[1] = ctx;
		snprintf(name, sizeof(name), "dec.cat%d", i);
		y = model_add_merge(b, MODEL_CONCAT, 2, cat, name);
		y = drop_lstm(b, y, "dec", i, H, 0);
		x = i == 1 ? y : residual(b, x, y, "dec", i);
	}
	return x;
}

/* conv, batch norm, Hardtanh (as relu); kernel and stride (time, freq) */
static int ds2_conv(struct model_builder *b, int x, int i, int64_t kt,
		    int64_t kf, int64_t sf)
{
	struct model_conv_spec s;
	char name[MODEL_NAME_LEN];

	model_conv_spec_init(&s, 32, 1, 1, 0);
	s.kernel_h = kt;
	s.kernel_w = kf;
	s.stride_h = i == 1 ? 2 : 1;
	s.stride_w = sf;
	s.bias = 1;
	snprintf(name, sizeof(name), "conv%d", i);
	x = model_add_conv(b, x, name, &s);
	snprintf(name, sizeof(name), "conv%d.bn", i);
	x = model_add_batchnorm(b, x, name);
	snprintf(name, sizeof(name), "conv%d.hardtanh", i);
	return model_add_simple(b, MODEL_RELU, x, name);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_zoo_gnmt(struct model_builder *b, const struct model_spec *s)
{
	const int64_t *v = s->args->v;
	int64_t L = v[MODEL_KEY_RNN_LAYERS], H = v[MODEL_KEY_RNN_HIDDEN];
	int64_t V = v[MODEL_KEY_RNN_VOCAB];
	struct model_shape ids = { 1, 1, 1 };
	int table, enc, x;

	ids.h = v[MODEL_KEY_RNN_SEQ];
	model_builder_init(b, s->name, ids, s->batch, s->source);
	table = model_add_embedding(b, MODEL_IN, "embed", V, H, 0, 0, 0);
	enc = gnmt_encoder(b, table, L, H);
	x = model_add_embedding(b, MODEL_IN, "dec.embed", V, H, 0, 0, table);
	x = gnmt_decoder(b, x, enc, L, H);
	x = model_add_linear(b, x, "classifier", V, 1, 0);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

int model_zoo_deepspeech2(struct model_builder *b,
			  const struct model_spec *s)
{
	const int64_t *v = s->args->v;
	int64_t H = v[MODEL_KEY_RNN_HIDDEN];
	const unsigned both = MODEL_LAYER_BIDIRECTIONAL |
			      MODEL_LAYER_SUM_DIRECTIONS;
	struct model_shape spec = { 1, 1, DS2_BINS };
	char name[MODEL_NAME_LEN];
	int x, i;

	spec.h = v[MODEL_KEY_RNN_SEQ];
	model_builder_init(b, s->name, spec, s->batch, s->source);
	x = ds2_conv(b, MODEL_IN, 1, 11, 41, 2);
	x = ds2_conv(b, x, 2, 11, 21, 2);
	for (i = 0; i < v[MODEL_KEY_RNN_LAYERS]; i++) {
		if (i > 0) {
			snprintf(name, sizeof(name), "gru%d.bn", i);
			x = model_add_batchnorm(b, x, name);
		}
		snprintf(name, sizeof(name), "gru%d", i);
		x = model_add_rnn(b, MODEL_GRU, x, name, H, both, 1);
	}
	x = model_add_batchnorm(b, x, "fc.bn");
	x = model_add_linear(b, x, "fc", DS2_LABELS, 0, 0);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
