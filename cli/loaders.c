/* loaders.c - choosing a file's loader; plugins loaded only when needed. */
#include "loaders.h"
#include "hints.h"

#include "output.h"
#include "pc_config.h"
#include "platform.h"

#include <profcore.h>
#include <profcore_plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int plugins_loaded;

/* a directory name that does not depend on the current directory */
static int is_absolute(const char *d)
{
	if (d[0] == '/')
		return 1;
#ifdef _WIN32
	if (d[0] == '\\' && d[1] == '\\')
		return 1;
	if (((d[0] | 0x20) >= 'a' && (d[0] | 0x20) <= 'z') && d[1] == ':' &&
	    (d[2] == '\\' || d[2] == '/'))
		return 1;
#endif
	return 0;
}

static void load_dir(pc_registry *reg, const char *dir, int warn)
{
	if (pc_registry_load_plugins(reg, dir) && warn && pc_registry_error(reg))
		pc_cli_error("warning: ", pc_registry_error(reg), NULL);
}

void pc_cli_load_plugins(pc_registry *reg, int verbose)
{
	if (plugins_loaded)
		return;
	plugins_loaded = 1;
	const char *pp = getenv("PROFCORE_PLUGIN_PATH");
	if (pp && *pp) {
		char *copy = malloc(strlen(pp) + 1);
		if (!copy) {
			fprintf(stderr, "profcat: warning: out of memory: no plugins loaded\n");
			return;
		}
		strcpy(copy, pp);
		const char sep[2] = {PC_PLAT_PATH_LIST_SEP, '\0'};
		for (char *d = copy, *end; d; d = end) {
			end = strchr(d, sep[0]);
			if (end)
				*end++ = '\0';
			if (!*d)
				continue;
			if (!is_absolute(d))
				pc_cli_message("warning: PROFCORE_PLUGIN_PATH: relative entry ignored (plugins load from absolute directories only): ", d);
			else
				load_dir(reg, d, 1);
		}
		free(copy);
	}
	load_dir(reg, PC_PLUGINDIR, verbose);
}

const pc_loader *pc_cli_choose_loader(pc_registry *reg, pc_stream *s,
				      const char *path, const char *format,
				      int verbose, int *conf, int *exit_status)
{
	const pc_loader *l;
	*conf = 0;
	if (format) {
		if (!(l = pc_registry_find(reg, format))) {
			pc_cli_load_plugins(reg, verbose);
			l = pc_registry_find(reg, format);
		}
		if (!l) {
			const char *names[128];
			size_t nn = 0;
			for (; nn < pc_registry_count(reg) && nn < 128; nn++)
				names[nn] = pc_registry_at(reg, nn)->name;
			const char *hit = pc_cli_nearest(format, names, nn);
			if (hit)
				fprintf(stderr, "profcat: no format named '%s': did you mean '%s'? (see profcat --list-formats)\n",
					pc_cli_shown(format), hit);
			else
				fprintf(stderr, "profcat: no format named '%s' (see profcat --list-formats; -f is --format here%s)\n",
					pc_cli_shown(format), pc_cli_gprof_value_hint('f'));
			*exit_status = PC_CLI_EXIT_USAGE;
		}
		return l;
	}
	if (!(l = pc_registry_detect(conf, reg, s))) {
		pc_cli_load_plugins(reg, verbose);
		l = pc_registry_detect(conf, reg, s);
	}
	if (l) {
		if (verbose)
			fprintf(stderr, "profcat: %s: detected as %s (confidence %d)\n",
				pc_cli_shown(path), l->name, *conf);
		return l;
	}
	const unsigned char *h;
	size_t hl = 0;
	pc_stream_peek(&h, &hl, s);
	if (pc_stream_error(s)) /* corrupt gzip: say so */
		pc_cli_error("", pc_stream_error(s), NULL);
	else
		pc_cli_file_error(path, 0,
				  hl ? "unrecognised file format (use --format NAME; --list-formats lists them)"
				     : "empty file");
	*exit_status = PC_CLI_EXIT_INPUT;
	return NULL;
}
