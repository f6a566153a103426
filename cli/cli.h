/*
 * cli.h -- the command-line front end: one cmd_* function per subcommand
 * (git's builtins), one option table per command that feeds both the
 * parser and --help (curl's tool_getparam), and one way to report errors.
 *
 * Exit statuses: 0 success, 1 failure (a file that cannot be read or
 * parsed, a write error), 2 misuse (an unknown option, a malformed value,
 * an unknown model, device or precision, an output naming an input).
 */
#ifndef DLSIM_CLI_CLI_H
#define DLSIM_CLI_CLI_H

#include <stdint.h>

#include "dlsim.h"

#define CLI_MAX_OPTIONS 48
#define CLI_MAX_POSITIONAL 4

enum cli_exit { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

enum cli_arg {
	CLI_FLAG,      /* no argument */
	CLI_STRING,    /* any text */
	CLI_COUNT,     /* positive integer (core_parse_count) */
	CLI_NUMBER,    /* positive finite number */
	CLI_NONNEG     /* finite number, 0 or more (0: the default's meaning) */
};

struct cli_option {
	const char *name;      /* long name without "--" */
	const char *arg;       /* argument name for --help; NULL for flags */
	enum cli_arg type;
	const char *help;
};

struct cli_command {
	const char *name;
	const char *usage;                 /* after "dlsim NAME " */
	const char *summary;
	int min_positional, max_positional;
	const struct cli_option *options;  /* ends with a NULL name */
	int (*run)(const struct cli_command *cmd, int argc, char **argv);
};

/* What the parser found. */
struct cli_values {
	int set[CLI_MAX_OPTIONS];
	const char *str[CLI_MAX_OPTIONS];
	int64_t count[CLI_MAX_OPTIONS];
	double num[CLI_MAX_OPTIONS];
	const char *positional[CLI_MAX_POSITIONAL];
	int n_positional;
};

/*
 * Parse argv (argv[0] is the command name) against cmd's table.  Returns
 * -1 to go on, or an exit status: CLI_OK after printing --help, CLI_USAGE
 * after printing an error.
 */
int cli_parse(const struct cli_command *cmd, int argc, char **argv,
	      struct cli_values *v);

/* Index of option `name` in cmd's table (an internal error if absent). */
int cli_opt(const struct cli_command *cmd, const char *name);

/* The same, or -1 if the command has no such option. */
int cli_opt_find(const struct cli_command *cmd, const char *name);

/*
 * The options every simulating command shares (predict, scale), spliced
 * into their tables, and the function that reads them into sim_options:
 * batch sizes, precision, optimizer, allreduce algorithm, buckets,
 * overlap, where the update runs, gradient compression, element-wise
 * and convolution + BatchNorm fusion, the optimizer's kernels, autocast.  Returns 0 or an error code
 * in err.
 */
#define CLI_SIM_OPTIONS \
	{ "batch", "N", CLI_COUNT, "samples per device per step (with a " \
	  "strategy: per data-parallel replica)" }, \
	{ "global-batch", "N", CLI_COUNT, \
	  "samples per step over all devices" }, \
	{ "precision", "P", CLI_STRING, \
	  "auto, fp64, fp32, tf32, fp16, bf16, fp8 (default auto)" }, \
	{ "optimizer", "O", CLI_STRING, \
	  "sgd, momentum, adam, lamb (default momentum; adam with a strategy)" }, \
	{ "allreduce", "A", CLI_STRING, \
	  "auto, ring, tree, halving-doubling, parameter-server, ..." }, \
	{ "bucket-mb", "MB", CLI_NUMBER, \
	  "gradient bucket size in MiB (default 25)" }, \
	{ "no-overlap", NULL, CLI_FLAG, \
	  "reduce gradients after backward, not during it" }, \
	{ "update-on", "WHERE", CLI_STRING, \
	  "device, or host: weights and optimizer in host memory, a " \
	  "parameter server on the host CPUs (with a strategy, " \
	  "ZeRO-Offload) (default device)" }, \
	{ "compression", "C", CLI_STRING, \
	  "gradients on the wire: none, fp16, bf16, int8, topk" }, \
	{ "topk-ratio", "R", CLI_NUMBER, \
	  "fraction of gradients topk keeps (default 0.01)" }, \
	{ "fuse-elementwise", NULL, CLI_FLAG, \
	  "run chains of element-wise layers as one kernel (XLA, " \
	  "torch.compile, fused BatchNorm-Add-ReLU)" }, \
	{ "fuse-conv-bn", NULL, CLI_FLAG, \
	  "run each BatchNorm + ReLU between two convolutions inside them " \
	  "(cuDNN fused ops, NVIDIA's MXNet NormConvolution); implies " \
	  "--fuse-elementwise" }, \
	{ "optimizer-foreach", NULL, CLI_FLAG, \
	  "run the optimizer as torch.optim's default foreach kernels, " \
	  "one an operation (AdamW 8), not one fused kernel" }, \
	{ "autocast", NULL, CLI_FLAG, \
	  "fp16 or bf16 as torch.autocast runs it: fp32 weights cast at " \
	  "each use, LayerNorm, loss and residual stream in fp32" }

/* Split "a,b,c" into at most max pieces (buf is modified in place);
 * the count, or -1 with err naming `what` for an empty entry or too
 * many. */
int cli_split(char *buf, char **out, int max, const char *what,
	      struct dlsim_err *err);

/* The options that set a hybrid-parallel strategy (cli_strategy). */
#define CLI_STRATEGY_OPTIONS \
	{ "tp", "N", CLI_COUNT, "tensor-parallel devices (Megatron)" }, \
	{ "pp", "N", CLI_COUNT, "pipeline stages" }, \
	{ "dp", "N", CLI_COUNT, \
	  "data-parallel replicas (default: devices / (tp x pp))" }, \
	{ "micro-batch", "N", CLI_COUNT, \
	  "sequences per micro-batch (default 1)" }, \
	{ "zero", "S", CLI_STRING, "ZeRO stage 0, 1, 2 or 3 (default 0)" }, \
	{ "recompute", "R", CLI_STRING, \
	  "activation recomputation: none, selective, full" }, \
	{ "schedule", "S", CLI_STRING, \
	  "pipeline schedule: 1f1b, gpipe, interleaved (default 1f1b)" }, \
	{ "chunks", "V", CLI_COUNT, \
	  "model chunks per device, interleaved (default 2)" }, \
	{ "sequence-parallel", NULL, CLI_FLAG, \
	  "Megatron's sequence parallelism with --tp" }, \
	{ "dispatch-us", "US", CLI_NONNEG, \
	  "the software stack's host time per kernel launch, launches " \
	  "queued (default 0: the host keeps ahead; alone, a model that " \
	  "is no transformer keeps its data-parallel step)" }, \
	{ "strategy", "S", CLI_STRING, \
	  "auto: the best of `dlsim plan` (with --dispatch-us and " \
	  "--update-on; the other flags above are refused)" }

/* 1 if strategy option name, as given in v, asks model m for a hybrid-
 * parallel strategy: any that is set, but --dispatch-us only above 0 and
 * on a transformer (else the data-parallel step takes it). */
int cli_asks_strategy(const struct cli_command *cmd,
		      const struct cli_values *v, const struct model *m,
		      const char *name);

/*
 * The strategy the options above give for n devices (sim_strategy; the
 * global batch from --global-batch, else --batch per data-parallel
 * replica times dp, else the model's default batch times dp).  *asked is
 * 1 if any was given, *auto_pick 1 for --strategy auto.  DLSIM_EINVAL
 * naming the option for a bad value.
 */
int cli_strategy(const struct cli_command *cmd, const struct cli_values *v,
		 const struct sim_options *o, const struct model *m,
		 int64_t n, struct sim_strategy *st, int *asked,
		 int *auto_pick, struct dlsim_err *err);

/* The default database's path ($DLSIM_DB, else the XDG data
 * directory's), without making its directories; -1 if there is none (no
 * HOME), -2 if it does not fit in n. */
int cli_default_db_path(char *buf, size_t n);

/* --precision into *p, and *is_auto to 0, unless absent or "auto";
 * DLSIM_ENOTFOUND listing the training precisions for another name. */
int cli_precision(const struct cli_command *cmd, const struct cli_values *v,
		  enum dlsim_precision *p, int *is_auto, struct dlsim_err *err);

/* The options of the commands that predict with a system's calibration
 * (cli_calib_open). */
#define CLI_CALIB_OPTIONS \
	{ "db", "PATH", CLI_STRING, \
	  "calibration database, which must exist (default $DLSIM_DB, " \
	  "else the XDG data directory, each read if it exists)" }, \
	{ "uncalibrated", NULL, CLI_FLAG, \
	  "use the catalog's datasheet figures, not the database's fits" }

/* Where a command's calibration comes from: db NULL for none;
 * uncalibrated 1 for --uncalibrated. */
struct cli_calib_src {
	struct db *db;
	int uncalibrated;
	const char *cmd_name;   /* whose warnings (cli_system_resolve) */
};

/* A resolved system with the calibration it borrows; must stay put while
 * sys is in use (sys points into it). */
struct cli_system {
	struct hw_system sys;
	struct hw_calib calib;
	struct hw_local local;
};

/*
 * The database a command reads: --db's path into path, which must name a
 * file (else DLSIM_EIO "--db PATH: why", exit 1), else the default one
 * (cli_default_db_path: $DLSIM_DB, else the XDG data directory's) with
 * *exists saying whether a file is there; path "" when there is no
 * default path (no HOME), DLSIM_EIO when it is longer than n allows.
 * Only looks: creates no file or directory.
 */
int cli_db_locate(const struct cli_command *cmd, const struct cli_values *v,
		  char *path, size_t n, int *exists, struct dlsim_err *err);

/*
 * Open read-only (db_open_readonly) the database a command that only
 * reads and needs one lists (db info, calibrate show): as cli_db_locate
 * finds it; no file there is DLSIM_EIO "PATH: no database there yet
 * (calibrate seed, import or run makes one)".  Creates nothing; the
 * caller owns *db (db_close), NULL on failure.
 */
int cli_db_open_read(const struct cli_command *cmd,
		     const struct cli_values *v, struct db **db,
		     struct dlsim_err *err);

/*
 * Open the calibration database of --db, $DLSIM_DB or the default path,
 * but only if that file exists: looking never creates one.  --db naming
 * no file is an error (cli_db_locate); --uncalibrated opens nothing.
 * write 0 (predicting) opens it read-only (db_open_readonly), so that
 * the file is left byte for byte as it was; one without dlsim's tables
 * (an empty file) is then read as no database, with one warning line
 * naming it on stderr.  write 1 (--record) opens it to write, creating
 * or upgrading the schema (db_open).  src->db is NULL when there is
 * nothing to read.
 */
int cli_calib_open(const struct cli_command *cmd, const struct cli_values *v,
		   int write, struct cli_calib_src *src, struct dlsim_err *err);
void cli_calib_close(struct cli_calib_src *src);

/* A file a command reads that no option of the table names for
 * cli_outputs_check (MODEL, a --hw FILE.yaml): path NULL for none. */
struct cli_input {
	const char *path;
	const char *what;      /* "the model file (MODEL)" */
};

/*
 * Before any output is opened: DLSIM_EINVAL when a file the command
 * writes (--trace; --plot's image and the .dat and .gp beside it) is one
 * it reads (the database of --db, $DLSIM_DB or the default path, with
 * its -wal, -shm and -journal files; --seq-lengths; each --file; the n
 * in more) or another it writes.  fopen "w" would empty it first.
 */
int cli_outputs_check(const struct cli_command *cmd,
		      const struct cli_values *v,
		      const struct cli_input *more, int n,
		      struct dlsim_err *err);

/* calibrate import's FILE, read into the database: DLSIM_EINVAL when it
 * is that database (or one of its files), named as cmd's --db or the
 * default. */
int cli_input_not_database(const struct cli_command *cmd,
			   const struct cli_values *v, const char *path,
			   struct dlsim_err *err);

/* --dispatch-us, where cmd has it and it is set, in seconds in *s (left
 * as it is otherwise); refused from 1e6 us on.  predict, plan and scale
 * share it; predict reads it before --record can create a database. */
int cli_dispatch_s(const struct cli_command *cmd, const struct cli_values *v,
		   double *s, struct dlsim_err *err);

/*
 * --seq-lengths FILE [--seq-bin W] (predict, plan, scale): the histogram
 * read into a new *out, which the caller frees (NULL without
 * --seq-lengths), and model_arg built once at its longest bin, so that a
 * model the bins cannot take (a YAML file, no seq key) is refused before
 * anything is printed.  --seq-bin alone is refused.
 */
int cli_seq_bins(const struct cli_command *cmd, const struct cli_values *v,
		 const char *model_arg, struct model_seq_bins **out,
		 struct dlsim_err *err);

/*
 * Resolve spec ("local", or what hw_system_resolve takes) into out, with
 * the newest fits for its device's name (else its node's) attached when
 * src has a database holding any.  "local" needs the database's fits.
 */
int cli_system_resolve(struct cli_calib_src *src, struct hw_catalog *cat,
		       const char *spec, struct cli_system *out,
		       struct dlsim_err *err);

int cli_sim_options(const struct cli_command *cmd,
		    const struct cli_values *v, struct sim_options *o,
		    struct dlsim_err *err);

/* --update-on's value: device (0, also when not given) or host (1);
 * another is DLSIM_EINVAL naming it. */
int cli_update_on(const struct cli_command *cmd, const struct cli_values *v,
		  int *on_host, struct dlsim_err *err);

/* --format, if the command has it and it was given; else table. */
int cli_format(const struct cli_command *cmd, const struct cli_values *v,
	       enum report_format *fmt, struct dlsim_err *err);

/* Print "dlsim: SUBCOMMAND: MSG" on stderr (MSG alone where it names the
 * subcommand already); for usage errors add the --help hint.  Returns
 * the exit status for the error's code. */
int cli_fail(const struct cli_command *cmd, const struct dlsim_err *err);

/* msg to f with its control characters written as C escapes ("\n",
 * "\x1b"): a message quoting the user's input stays one line. */
void cli_put_escaped(const char *msg, FILE *f);

/* The same line without the hint, exit 1 whatever the code: a failure
 * after the arguments were read (the data were not there or usable). */
int cli_fail_run(const struct cli_command *cmd, const struct dlsim_err *err);

/* Print --help of a command to f. */
void cli_help(const struct cli_command *cmd, FILE *f);

/* Load the catalog with $DLSIM_PATH; prints and returns an exit status on
 * failure, -1 on success. */
int cli_catalog(const struct cli_command *cmd, struct hw_catalog **cat);

/* Flush stdout and turn a write error into exit status 1, with one line
 * naming the subcommand cmd (NULL: the top level, --version, --help). */
int cli_finish(const struct cli_command *cmd, int status);

int cmd_predict(const struct cli_command *cmd, int argc, char **argv);
int cmd_scale(const struct cli_command *cmd, int argc, char **argv);
int cmd_db(const struct cli_command *cmd, int argc, char **argv);
int cmd_calibrate(const struct cli_command *cmd, int argc, char **argv);
int cmd_models(const struct cli_command *cmd, int argc, char **argv);
int cmd_hw(const struct cli_command *cmd, int argc, char **argv);
int cmd_comm(const struct cli_command *cmd, int argc, char **argv);
int cmd_plan(const struct cli_command *cmd, int argc, char **argv);
int cmd_validate(const struct cli_command *cmd, int argc, char **argv);

extern const struct cli_command cli_comm, cli_plan, cli_validate;
extern const struct cli_command cli_predict, cli_models, cli_hw,
	cli_scale, cli_db, cli_calibrate;

#endif /* DLSIM_CLI_CLI_H */
