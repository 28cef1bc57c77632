/*
 * pc-top - prints the symbols that took the most samples, through
 * libprofcore's public API.  An example of linking libprofcore into a tool:
 *
 *     cc -o pc-top pc-top.c $(pkg-config --cflags --libs profcore)
 *     ./pc-top [-n COUNT] [-F FORMAT] FILE...
 *
 * FILEs are loaded in order into one profile (e.g. a.out gmon.out); the
 * format of each is detected unless -F names a loader.  Loader plugins in
 * the directories of $PROFCORE_PLUGIN_PATH are used too.
 */
#include <profcore.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints an error the way profcat does: FILE:OFFSET: message. */
static void report(const pc_error *e, const char *what)
{
	if (e && e->file && e->offset >= 0)
		fprintf(stderr, "pc-top: %s:%lld: %s\n", e->file,
			(long long)e->offset, e->message);
	else if (e && e->file)
		fprintf(stderr, "pc-top: %s: %s\n", e->file, e->message);
	else
		fprintf(stderr, "pc-top: %s: %s\n", what,
			e && e->message ? e->message : "failed");
}

static int print_top(pc_profile *p, size_t top)
{
	pc_totals t;
	if (pc_profile_attribute(p, NULL) != PC_OK ||
	    pc_profile_totals(&t, p) != PC_OK)
		return -1;

	/* the indexes of the top rows, most samples first */
	size_t *idx = calloc(top ? top : 1, sizeof *idx), n = 0;
	if (!idx || pc_profile_rows_sorted(idx, top, &n, p, PC_SORT_SELF)) {
		free(idx);
		return -1;
	}
	printf("%.2f samples, %.2f attributed\n", t.total, t.attributed);
	for (size_t i = 0; i < n; i++) {
		pc_row r;
		if (pc_profile_row_at(&r, p, idx[i]) != PC_OK) {
			free(idx);
			return -1;
		}
		if (r.count <= 0) /* the rest took no samples */
			break;
		printf("%6.2f%% %10.2f  %s\n",
		       t.total > 0 ? 100.0 * r.count / t.total : 0.0, r.count,
		       r.name); /* name: owned by p */
	}
	free(idx);
	return 0;
}

int main(int argc, char **argv)
{
	size_t top = 10;
	const char *format = NULL;
	int i = 1, status = 2;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-n") == 0)
			top = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "-F") == 0)
			format = argv[i + 1];
		else
			break;
	}
	if (i >= argc || (argv[i][0] == '-' && argv[i][1] != '\0')) {
		fprintf(stderr, "usage: pc-top [-n COUNT] [-F FORMAT] FILE...\n");
		return 1;
	}

	/* The registry holds the loaders: the built-in ones plus plugins.
	 * It must outlive every profile that uses it. */
	pc_registry *reg = NULL;
	pc_profile *p = NULL;
	if (pc_registry_new(&reg) != PC_OK) {
		report(pc_last_error(), "registry");
		goto out;
	}
	const char *plugins = getenv("PROFCORE_PLUGIN_PATH");
	if (plugins && pc_registry_load_plugins(reg, plugins) != PC_OK) {
		report(pc_registry_error(reg), "plugins");
		goto out;
	}
	if (pc_profile_new(&p, reg) != PC_OK) {
		report(pc_last_error(), "profile");
		goto out;
	}
	for (; i < argc; i++)
		if (pc_profile_load_file(p, argv[i], format, NULL) != PC_OK) {
			report(pc_profile_error(p), argv[i]);
			goto out;
		}
	if (print_top(p, top) != 0) {
		report(pc_profile_error(p), "attribution");
		goto out;
	}
	status = 0;
out:
	pc_profile_free(p);
	pc_registry_free(reg);
	return status;
}
