/*
 * dlsim.c -- main: finds the subcommand in a sorted table and runs it.
 * Everything else lives in the library; this file only dispatches.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_command *const commands[] = {
	&cli_calibrate, &cli_comm, &cli_db, &cli_hw, &cli_models, &cli_plan,
	&cli_predict, &cli_scale, &cli_validate,
};

#define N_COMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

static void usage(FILE *f)
{
	int i;

	fputs("Usage: dlsim COMMAND [ARGS]\n"
	      "Predict deep-learning training step time on HPC hardware.\n\n"
	      "Commands:\n", f);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name,
			commands[i]->summary);
	fputs("\n'dlsim COMMAND --help' describes a command; "
	      "'man dlsim' describes them all.\n"
	      "  --help     this text\n  --version  the version\n", f);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	/* "dlsim help CMD", as git's: CMD's own --help */
	if (strcmp(argv[1], "help") == 0 && argc == 3) {
		char help[] = "--help", *args[3] = { argv[2], help, NULL };

		for (i = 0; i < N_COMMANDS; i++)
			if (strcmp(argv[2], commands[i]->name) == 0)
				return commands[i]->run(commands[i], 2, args);
		fputs("dlsim: help: unknown command '", stderr);
		cli_put_escaped(argv[2], stderr);
		fputs("'; try 'dlsim --help'\n", stderr);
		return CLI_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0 ||
	    strcmp(argv[1], "--version") == 0) {
		/* they take nothing after them (help one COMMAND, above):
		 * a word there is a mistake */
		if (argc > 2) {
			fprintf(stderr, "dlsim: %s takes %s (got '", argv[1],
				argv[1][0] == '-' ? "no argument" :
				"one COMMAND at most");
			cli_put_escaped(argv[argv[1][0] == '-' ? 2 : 3],
					stderr);
			fputs("'); try 'dlsim --help'\n", stderr);
			return CLI_USAGE;
		}
		if (strcmp(argv[1], "--version") == 0)
			printf("dlsim %s\n", dlsim_version());
		else
			usage(stdout);
		return cli_finish(NULL, CLI_OK);
	}
	for (i = 0; i < N_COMMANDS; i++)
		if (strcmp(argv[1], commands[i]->name) == 0)
			return commands[i]->run(commands[i], argc - 1,
						argv + 1);
	fputs("dlsim: unknown command '", stderr);
	cli_put_escaped(argv[1], stderr);
	fputs("'; try 'dlsim --help'\n", stderr);
	return CLI_USAGE;
}
