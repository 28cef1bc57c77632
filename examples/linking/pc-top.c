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

/* Most samples first, then by name. */
static int by_count_desc(const void *a, const void *b)
{
	const pc_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

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
	    pc_profile_totals(p, &t) != PC_OK)
		return -1;

	size_t n = pc_profile_row_count(p);
	pc_row *rows = calloc(n ? n : 1, sizeof *rows);
	if (!rows)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (pc_profile_row_at(p, i, &rows[i]) != PC_OK) {
			free(rows);
			return -1;
		}
	qsort(rows, n, sizeof *rows, by_count_desc);

	printf("%.2f samples, %.2f attributed\n", t.total, t.attributed);
	for (size_t i = 0; i < n && i < top && rows[i].count > 0; i++)
		printf("%6.2f%% %10.2f  %s\n",
		       t.total > 0 ? 100.0 * rows[i].count / t.total : 0.0,
		       rows[i].count, rows[i].name); /* name: owned by p */
	free(rows);
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
	pc_registry *reg;
	pc_registry_new(&reg);
	pc_profile *p = NULL;
	if (!reg)
		goto out;
	const char *plugins = getenv("PROFCORE_PLUGIN_PATH");
	if (plugins && pc_registry_load_plugins(reg, plugins) != PC_OK) {
		report(pc_registry_error(reg), "plugins");
		goto out;
	}
	if (pc_profile_new(&p, reg))
		goto out;
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
