/* loaders.h - choosing a file's loader, plugins loaded only when needed
 * (cli/loaders.c); shared by profcat and its subcommands. */
#ifndef PC_CLI_LOADERS_H
#define PC_CLI_LOADERS_H

struct pc_loader;
struct pc_registry;
struct pc_stream;

/** Loads the loader plugins into reg, once per process: the directories of
 *  PROFCORE_PLUGIN_PATH whose names are absolute (a relative entry is
 *  skipped with a one-line warning: it would load code from whatever
 *  directory profcat runs in), then the installed plugin directory.
 *  Problems are warnings (the installed directory's only with verbose). */
void pc_cli_load_plugins(struct pc_registry *reg, int verbose);

/** The loader for stream s (file path): the one named format when format
 *  is not NULL, else the detected one (confidence in *conf).  Plugins are
 *  loaded only when the built-in loaders have no loader of that name or
 *  none recognises the file, so that no plugin code runs for a command the
 *  built-ins serve.  NULL after one error line: returns the exit status
 *  in *exit_status (2: no such format, 1: unrecognised or empty file). */
const struct pc_loader *pc_cli_choose_loader(struct pc_registry *reg,
					     struct pc_stream *s,
					     const char *path,
					     const char *format, int verbose,
					     int *conf, int *exit_status);

#endif
