/*
 * model_kernel.c -- the kernel class of a matrix layer's pass: which of the
 * rooflines the simulator fits and times apart (dlsim.h, enum
 * model_kernel) a convolution or GEMM runs on.  The model, the
 * calibration's grouping of samples (calibrate/cal_points.c) and the
 * kernel validation (calibrate/cal_validate_kernels.c) use these rules,
 * so that a class is fitted on the shapes it times.
 *
 * THE CLASSES
 *
 * fc is a GEMM; conv2d is a convolution, and a 3x3 stride-1 one without
 * dilation (dense, or grouped with 8 channels a group or more, below) is
 * its own class, because cuDNN
 * and MIOpen run those with Winograd's minimal filtering (Lavin & Gray,
 * CVPR 2016), which needs 2.25x to 4x fewer multiplies than the direct
 * count below.  The FLOPs stay the direct count; the efficiency measured
 * for that class (configs/hw, eff_conv3x3) carries the saving.  Dense 1x1
 * convs are two classes more: a GEMM over the channels, with no filter
 * window to gather, at stride 1, and strided (reading every s-th pixel:
 * a downsampling shortcut).  Pooled with the other convolutions,
 * DeepBench's 1x1/1 rows came out 16% slow and its 1x1/2 rows 13% fast;
 * fitted apart, the error of a row predicted with rooflines fitted
 * without it (deepbench_conv_heldout) falls.  The catalog gives them
 * eff_conv1x1 and eff_conv1x1s, a calibration fits them apart (kinds
 * conv1x1, conv1x1s).  A class for convolutions of at most 4 input
 * channels (an image's first layer, which cuDNN runs with kernels of its
 * own) was tried and not kept: held out over the four fold splits it
 * gave 15.10, 15.47, 17.15 and 15.85% against 15.52, 14.96, 16.75 and
 * 16.05% (mean 15.89 against 15.82), though in-sample and on
 * tf_cnn_p100 (P90 25.7% to 20.8%) it looked better.  Nor was a class
 * for 5x5 windows at stride 1 (which cuDNN can run with FFT and, from
 * 5.1, Winograd), counted in class other too as the non-square class
 * is: DeepBench's 36 such rows went from a +14.7% bias to -3.1% in-sample
 * and their held-out mean |log error| from 0.39 to 0.36 (fold bit 0) and
 * 0.37 to 0.36 (bit 1), but the held-out set went from 14.92, 14.66,
 * 16.23 and 15.62% to 14.80, 14.83, 16.28 and 15.62% (mean 15.38 against
 * 15.36).  Kept, it would have taken tf_cnn_p100's P90 from 26.4% to
 * 20.4% and jcjohnson's median from 11.1% to 10.5% (their AlexNets'
 * 5x5 convolutions); in the 3x3 class instead the held-out set rose on
 * every fold (15.32, 15.53, 16.83, 16.33%).
 * A window that is not square (kh != kw: DeepSpeech's 5x20 and 5x10,
 * Inception v3's 1x7, 7x1, 1x3 and 3x1) is a class of its own
 * (MODEL_KERNEL_CONV_NONSQUARE, model_conv_class).  Held out, with the
 * one fit of every window that is neither 1x1 nor 3x3 at stride 1,
 * DeepBench's 5x20/2 rows came out about 14% fast and its 5x10/2 ones
 * 35% fast (median signed error over the GPUs), while that class's
 * square rows were slow (5x5/1 +8%, 5x5/2 +34%, 3x3/2 on 3 channels
 * +53%).  With a fit of their own, fitted on their rows while the
 * general convolution fit keeps them too (calibrate/cal_points.c says
 * why), deepbench_conv_heldout goes from 15.52, 14.96, 16.75 and 16.05%
 * to 15.19, 14.88, 16.32 and 15.75% over the four fold splits (the
 * hash's bits 0-3), and holding out every batch size of a shape
 * together, from 18.1% to 16.5% (mean of the four, a reproduction
 * outside dlsim).  In 16 bits DeepBench has one such shape (its 5x20
 * filter on one channel is in the unaligned class there, below), too few
 * to tell a roofline's terms apart, so there the class is the
 * convolution fit times one factor (calibrate/cal_fitdb.c); as a factor
 * everywhere it gains nothing (15.54, 14.91, 16.76, 15.96%).  No
 * catalog figure: uncalibrated, the class takes eff_conv.
 * An fc or linear GEMM with a dimension (rows, input or output width)
 * that is not a whole number of 16 bytes is a class of its own
 * (MODEL_KERNEL_GEMM_UNALIGNED, model_gemm_unaligned): cuBLAS runs such
 * shapes with alignment-1 or -2 kernels, a third of the aligned rate on
 * an H100 (data/measurements/h100/profile.txt: GPT-2's 50,257-wide
 * vocabulary projection), which is why Megatron-LM and NVIDIA's BERT pad
 * their vocabularies (to 128 x TP and to 8).
 * A grouped conv (groups > 1) of fewer than 8 input channels a group
 * (model_conv_grouped_vector; a depthwise one has one) is vector work
 * instead: each output sums over only C_in/g channels, too short a
 * reduction to tile into the matrix units' fragments, and cuDNN's usual
 * kernels for them are direct kernels on the ordinary cores, like the
 * depthwise kernels frameworks wrote for themselves before cuDNN 7 had
 * any (PyTorch issue #1708, MXNet PR #11076).  They also do few MACs per
 * byte, so the memory bound usually decides them anyway.  Their FLOPs are
 * still the direct count.  With 8 channels a group or more (the 16-byte
 * vector of 16-bit channels the kernels load, as the unaligned class
 * below counts them) each group is a dense convolution of C_in/g into
 * C_out/g channels, in its window's class: Krizhevsky's two-tower
 * AlexNet (48 and 192 a group, model_zoo_alexnet_bvlc), which Torch7's
 * cudnn bindings ran as one cuDNN convolution a group (cudnn.torch,
 * SpatialConvolution.lua, a loop over groups) and cuDNN 7 and later as
 * one call over the groups (cudnnSetConvolutionGroupCount).  The 8 holds
 * at every precision (at fp32 a 16-byte vector holds 4 channels), and no
 * measurement sets it: ResNeXt's 4-32 a group straddle it.  It is
 * costed as one call: Torch7's extra calls a group (AlexNet's three
 * grouped layers, 0.3-0.7 ms in steps of 14-26 ms at batch 16 with the
 * shipped fits) are not.
 *
 * A 16-bit convolution whose input channels are not a multiple of 8 (an
 * image's first layer, C = 3; DeepSpeech's spectrogram, C = 1) keeps its
 * window's class and is marked apart (model_pass_cost.channel_pad,
 * model_conv_channel_pad).  cuDNN 7 ran a convolution on tensor cores
 * only when C and K are multiples of 8 (cuDNN Developer Guide 7.1,
 * DU-06702-001_v07, "Tensor Core Operations"; from 7.2 it pads packed
 * NCHW tensors instead, NVIDIA's "Tensor Ops Made Easier in cuDNN",
 * 2018), and DeepBench's 16-bit rows on 1 or 3 channels took 0.9 to 19
 * times the time of the same shapes in fp32 (V100 0.9-8.2, T4 1.3-5.5,
 * P100 1.8-19; shared/data/deepbench_conv.csv); costed with their
 * windows' fits, nine of the ten on the V100 and on the T4 came out
 * 54-91% fast (the tenth, a 3x3/2 on 108x108, 32% and 51% slow).
 * Where a calibration fitted that population (kind
 * conv_unaligned:<dtype>), the pass takes that fit, on
 * a device whose matrix units outrun its vector ones at the precision
 * (tensor cores; sim_device_kernel); elsewhere its window's, since no
 * catalog figure describes fallback kernels.
 * The population is sized at its work with C padded up to 8 (x 8/3 for
 * an image, x 8 for one channel): kernels that move channels in 16-byte
 * vectors do the padded lanes' work too, and so sized DeepBench's ten
 * V100 shapes run at 3.0-21.6 TFLOP/s a pass, against 0.4-8.1 as
 * counted.
 * One roofline through them has a residual of 50% rms on the V100 (85%
 * unpadded), and held out (deepbench_conv_heldout, fold bits 0-3) the
 * set goes from 15.19, 14.88, 16.32 and 15.75% to 14.92, 14.66, 16.23 and
 * 15.62% (unpadded: 15.13, 14.88, 16.32, 15.73%).  The H100's cuDNN 9
 * pads them onto its tensor cores: its fit runs the padded work at 179
 * TFLOP/s (fp16).  K off 8 (SSD's class heads, 324 and 486) is the
 * guide's rule too, but no shipped row measures it: the fit of first
 * layers, whose reductions are 9-147 values long, would cost those
 * heads (C = 512-1024) at a few TFLOP/s, and SSD's mixed-precision V100
 * rows went from 40% fast to 75% slow with them in, so they are not.
 * The P100 (no tensor cores; "16 bit inputs, 32 bit multiplication")
 * keeps its windows' fits: with the class's own its C = 3 rows, within
 * 15% of their windows' fits but one, came out 30-53% fast.  At 32 bits
 * no row shows the effect (DeepBench's GPU rows in fp32 on 1 or 3
 * channels are -33% to +27% off their windows' fits, median |error|
 * 9%, as other rows are), and 8-bit convolutions were not measured.
 * LIMITATION: the fits are of cuDNN 7.0's fallback (DeepBench, 2017);
 * later cuDNN pads such inputs to 8 channels for the tensor cores, and
 * no shipped row measures a first layer under those versions, so runs
 * of them (the DeepLearningExamples sets) are costed with 2017's
 * kernels wherever the device's fit is DeepBench's.
 */
#include <math.h>
#include <string.h>

#include "model.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_gemm_unaligned(double m, double n, double k, int elem_bytes)
{
	double q;

	if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4)
		return 0;
	q = 16.0 / (double)elem_bytes;
	return fmod(m, q) != 0.0 || fmod(n, q) != 0.0 || fmod(k, q) != 0.0;
}

enum model_kernel model_conv_class(double kh, double kw, double sh,
				   double sw, double dilation)
{
	int unit_stride = sh == 1.0 && sw == 1.0;

	if (kh == 1.0 && kw == 1.0)
		return unit_stride ? MODEL_KERNEL_CONV1X1 :
		       MODEL_KERNEL_CONV1X1_STRIDED;
	if (kh != kw)
		return MODEL_KERNEL_CONV_NONSQUARE;
	if (unit_stride && kh == 3.0 && dilation == 1.0)
		return MODEL_KERNEL_CONV3X3;
	return MODEL_KERNEL_CONV;
}

int model_conv_grouped_vector(double c_in_per_group, int64_t groups)
{
	return groups > 1 && c_in_per_group < 8.0;
}

/* Asked of every convolution a model builds (model_layer_derive) and of
 * every conv sample a calibration reads, so a whole count is tested in
 * integers, fmod only for what is not. */
double model_conv_channel_pad(double c_in, int elem_bytes)
{
	int64_t c;

	if (elem_bytes != 2 || !(c_in > 0.0))
		return 0.0;
	c = c_in < 9.2e18 ? (int64_t)c_in : 0;
	if ((double)c == c_in)
		return c % 8 ? (double)((c + 7) / 8 * 8) / c_in : 0.0;
	return fmod(c_in, 8.0) == 0.0 ? 0.0 : 8.0 * ceil(c_in / 8.0) / c_in;
}

/*
 * Every kernel class's names (struct model_kernel_name): the one table of
 * them, which the fits are named by (calibrate/cal_fitdb.c), read back by
 * (calibrate/cal_fitjson.c) and found by for a pass (hw/hw_calib.c), and
 * the calibration groups its samples by (calibrate/cal_points.c), so a
 * new class joins it here and nowhere else.  Vector work and the fused
 * fp32 attention have no fit of their own.  Each name is stored in a
 * database: a fit's kind "conv3x3:fp16", a group "... class=3x3s1" in its
 * params_json, a recurrent sample's "cell=lstm" (calibrate/cal_csv.c), so
 * none may change, or an existing database would no longer read.
 */
static const struct model_kernel_name names[MODEL_KERNEL_COUNT] = {
	[MODEL_KERNEL_VECTOR] = { NULL, NULL, NULL, 0 },
	[MODEL_KERNEL_GEMM] = { "gemm", "gemm", "", 1 },
	[MODEL_KERNEL_CONV] = { "conv", "conv", "other", 1 },
	[MODEL_KERNEL_CONV3X3] = { "conv3x3", "conv", "3x3s1", 0 },
	[MODEL_KERNEL_CONV1X1] = { "conv1x1", "conv", "1x1s1", 0 },
	[MODEL_KERNEL_CONV1X1_STRIDED] = { "conv1x1s", "conv", "1x1strided",
					   0 },
	[MODEL_KERNEL_RECURRENT] = { "rnn", "rnn", "", 1 },
	[MODEL_KERNEL_LSTM] = { "rnn_lstm", "rnn", "lstm", 0 },
	[MODEL_KERNEL_GRU] = { "rnn_gru", "rnn", "gru", 0 },
	[MODEL_KERNEL_RNN_TANH] = { "rnn_tanh", "rnn", "vanilla", 0 },
	[MODEL_KERNEL_GEMM_UNALIGNED] = { "gemm_unaligned", "gemm",
					  "unaligned", 0 },
	[MODEL_KERNEL_ATTENTION_F32] = { NULL, NULL, NULL, 0 },
	[MODEL_KERNEL_CONV_NONSQUARE] = { "conv_nonsquare", "conv",
					  "nonsquare", 0 },
	[MODEL_KERNEL_CONV_UNALIGNED] = { "conv_unaligned", "conv",
					  "unaligned", 0 },
};

const struct model_kernel_name *model_kernel_name(enum model_kernel k)
{
	static const struct model_kernel_name none = { NULL, NULL, NULL, 0 };

	return (int)k >= 0 && k < MODEL_KERNEL_COUNT ? &names[k] : &none;
}

const char *model_kernel_fit_kind(enum model_kernel k)
{
	return model_kernel_name(k)->fit;
}

enum model_kernel model_kernel_of_class(const char *benchmark,
					const char *cls)
{
	enum model_kernel k, plain = MODEL_KERNEL_VECTOR;

	for (k = 0; k < MODEL_KERNEL_COUNT; k++) {
		if (!names[k].benchmark ||
		    strcmp(names[k].benchmark, benchmark) != 0)
			continue;
		if (strcmp(names[k].cls, cls) == 0)
			return k;
		if (names[k].plain)
			plain = k;
	}
	return plain;
}

size_t model_kernel_of_fit_kind(const char *kind, enum model_kernel *k)
{
	const char *colon = strchr(kind, ':');
	size_t i, n;

	if (!colon)
		return 0;
	n = (size_t)(colon - kind);
	for (i = 0; i < MODEL_KERNEL_COUNT; i++)
		if (names[i].fit && strlen(names[i].fit) == n &&
		    strncmp(kind, names[i].fit, n) == 0) {
			*k = (enum model_kernel)i;
			return n;
		}
	return 0;
}
