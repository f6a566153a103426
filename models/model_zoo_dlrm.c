/*
 * model_zoo_dlrm.c -- DLRM, the deep-learning recommendation model of
 * Naumov et al. 2019 ("Deep Learning Recommendation Model for
 * Personalization and Recommendation Systems", arXiv:1906.00091, Sec. 2),
 * as the MLPerf training benchmark runs it on Criteo Terabyte
 * (facebookresearch/dlrm: bench/run_and_time.sh, --arch-sparse-feature-
 * size=128 --arch-mlp-bot=13-512-256-128 --arch-mlp-top=1024-1024-512-
 * 256-1 --max-ind-range=40000000 --mini-batch-size=2048 --loss-function
 * =bce; the 26 table sizes are those the repository lists for that run,
 * tools/visualize.py "Criteo Terabyte MLPerf training", the same as
 * HugeCTR's and TensorFlow's DLRM configurations).
 *
 * THE NETWORK
 *
 *   dense      13 values per sample (the model input)
 *   bottom     fc 512, relu, fc 256, relu, fc D, relu (D = dim, 128)
 *   sparse     26 embedding bags of D, one id each per sample (Criteo
 *              has one value per categorical feature), sum pooling
 *   interact   the dot products of the 27 vectors' pairs (351), after a
 *              copy of the bottom output: D + 351 = 479
 *   top        fc 1024, relu, fc 1024, relu, fc 512, relu, fc 256, relu,
 *              fc 1, then sigmoid and binary cross-entropy
 * (dlrm_s_pytorch.py: create_mlp with biases, ReLU except the top's last
 * layer, sigmoid_top; arch_interaction_op "dot" without self pairs.)
 *
 * Counts (by hand): 187,767,399 rows x 128 = 24,034,227,072 embedding
 * parameters (96.1 GB in fp32); bottom MLP 171,392 and top MLP 2,197,505
 * parameters; 24,036,595,969 in all.  Forward MACs per sample: bottom
 * 170,496, interaction 351 x 128 = 44,928, top 2,194,688.
 *
 * Every table is marked MODEL_LAYER_HOST_CANDIDATE (dlsim.h): the
 * simulator keeps those that do not fit in host memory.
 *
 * LIMITATIONS
 * - The sigmoid and binary cross-entropy on the one logit are costed as
 *   dlsim's softmax with cross-entropy over one class (its exp, sum,
 *   divide and log are the sigmoid's and the log-loss's operations).
 * - The sparse ids reach the embedding bags beside the dense input, which
 *   is the only model input; the bags count the ids they read.
 * - The reference's hashing of ids into max-ind-range rows and its data
 *   loader cost nothing.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

/* Rows of the 26 tables (facebookresearch/dlrm tools/visualize.py,
 * max_ind_range 40000000). */
static const int64_t dlrm_rows[] = {
	39884406, 39043, 17289, 7420, 20263, 3, 7120, 1543, 63, 38532951,
	2953546, 403346, 10, 2208, 11938, 155, 4, 976, 14, 39979771,
	25641295, 39664984, 585935, 12972, 108, 36
};

#define DLRM_TABLES ((int)(sizeof(dlrm_rows) / sizeof(dlrm_rows[0])))
#define DLRM_DENSE 13

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* fc layers of the given widths, a relu after each but the last when
 * `last_relu` is 0; "<mlp>.fc<i>", "<mlp>.relu<i>" */
static int mlp(struct model_builder *b, int x, const char *prefix,
	       const int64_t *widths, int n, int last_relu)
{
	char name[MODEL_NAME_LEN];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s.fc%d", prefix, i);
		x = model_add_fc(b, x, name, widths[i], 1);
		if (i == n - 1 && !last_relu)
			break;
		snprintf(name, sizeof(name), "%s.relu%d", prefix, i);
		x = model_add_simple(b, MODEL_RELU, x, name);
	}
	return x;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_zoo_dlrm(struct model_builder *b, const struct model_spec *s)
{
	static const int64_t top[] = { 1024, 1024, 512, 256, 1 };
	int64_t dim = s->args->v[MODEL_KEY_DLRM_DIM];
	int64_t bottom[3] = { 512, 256, 0 };
	struct model_shape dense = { DLRM_DENSE, 1, 1 };
	char name[MODEL_NAME_LEN];
	int in[DLRM_TABLES + 1], i, x;

	bottom[2] = dim;
	model_builder_init(b, s->name, dense, s->batch, s->source);
	in[0] = mlp(b, MODEL_IN, "bottom", bottom, 3, 1);
	for (i = 0; i < DLRM_TABLES; i++) {
		snprintf(name, sizeof(name), "emb%d", i);
		in[i + 1] = model_add_embedding_bag(b, MODEL_IN, name,
						    dlrm_rows[i], dim, 1,
						    MODEL_LAYER_HOST_CANDIDATE);
	}
	x = model_add_interaction(b, DLRM_TABLES + 1, in, "interaction");
	x = mlp(b, x, "top", top, 5, 0);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
