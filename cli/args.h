/* args.h - the one option parser of profcat and its subcommands
 * (cli/args.c), on getopt_long (glibc, mingw-w64). */
#ifndef PC_CLI_ARGS_H
#define PC_CLI_ARGS_H

#include <stdio.h>

/* Which commands an option applies to. */
enum {
	PC_CMD_MAIN = 1,  /* profcat FILE...   */
	PC_CMD_DIFF = 2,
	PC_CMD_MERGE = 4,
	PC_CMD_RATES = 8,
	PC_CMD_ALL = 15
};

/* Options a command handles itself (opt.id); the others set opt.key in
 * the report options. */
enum {
	PC_OPT_KEYED = 0, PC_OPT_FORMAT, PC_OPT_OPTION, PC_OPT_LOAD_ADDRESS,
	PC_OPT_REPORT, PC_OPT_OUTPUT, PC_OPT_EXPORT, PC_OPT_LIST_FORMATS,
	PC_OPT_LIST_REPORTS, PC_OPT_LIST_EXPORTS, PC_OPT_LIST_SYMBOLS,
	PC_OPT_IGNORE_FIT, PC_OPT_CHECK, PC_OPT_SYMBOL, PC_OPT_VERBOSE,
	PC_OPT_HELP, PC_OPT_VERSION, PC_OPT_RATE, PC_OPT_TRACE_DIALECT
};

typedef struct pc_cli_opt {
	const char *name;    /* long name without "--"; NULL ends the table */
	char shortc;         /* short letter, 0 if none */
	int id;              /* PC_OPT_*: PC_OPT_KEYED sets key */
	const char *key;     /* report option set (PC_OPT_KEYED) */
	const char *value;   /* NULL: takes a value (metavar); else the
				value a flag sets */
	const char *metavar;
	unsigned cmds;       /* PC_CMD_* it applies to */
	const char *help;    /* NULL: not listed by --help */
} pc_cli_opt;

typedef struct pc_cli_parser pc_cli_parser;

/** Called for each option in command-line order (o set, val its value or
 *  the flag's value) and each operand (o NULL, val the argument; dashes
 *  is 1 after "--").  Returns 0 to go on, else the parse stops and
 *  returns that (-1: stop with exit status 0, e.g. after --help). */
typedef int (*pc_cli_cb)(void *ctx, pc_cli_parser *ps, const pc_cli_opt *o,
			 const char *val, int dashes);

/** Parses argv[first..argc) for command cmd (PC_CMD_*; name as shown in
 *  messages: "profcat" or "profcat diff").  Returns 0, -1 (stop, exit
 *  0), or an exit status after one error line on standard error. */
int pc_cli_parse(int argc, char **argv, int first, unsigned cmd,
		 const char *name, pc_cli_cb cb, void *ctx);
/** The next argument not yet read (NULL at the end), and taking it. */
const char *pc_cli_peek(pc_cli_parser *ps);
void pc_cli_take(pc_cli_parser *ps);
/** The option lines of cmd's --help, in two columns. */
void pc_cli_option_help(FILE *f, unsigned cmd);

#endif
