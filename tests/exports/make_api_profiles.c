/* Writes exports of two profiles built with the library API, for
 * check_consumers.py to feed to the real consumers:
 *
 *   empty    the x86-64 test executable's symbols, no sample at all
 *   outside  the same symbols, samples only outside the program: 3 at
 *            0x100 (in no region: unknown) and 2 in a "vdso" region of
 *            class library
 *
 * usage: make_api_profiles ELF OUTDIR
 * writes OUTDIR/NAME.csv (the flat report as CSV) and OUTDIR/NAME.FORMAT
 * for every export format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profcore.h"
#include "profcore_plugin.h"

static int die(pc_profile *p, const char *what)
{
	const pc_error *e = pc_profile_error(p);
	fprintf(stderr, "make_api_profiles: %s: %s\n", what,
		e && e->message ? e->message : "failed");
	return 1;
}

static int write_all(pc_profile *p, const char *dir, const char *name)
{
	char path[4096];
	pc_options *o;
	if (pc_options_new(&o) || pc_options_set(o, "output-format", "csv"))
		return die(p, "options");
	char *buf;
	size_t len;
	snprintf(path, sizeof path, "%s/%s.csv", dir, name);
	if (pc_profile_render(&buf, &len, p, "flat", o))
		return die(p, "flat report");
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		return die(p, path);
	pc_free(buf);
	pc_options_free(o);
	for (size_t i = 0; pc_export_name_at(i); i++) {
		snprintf(path, sizeof path, "%s/%s.%s", dir, name,
			 pc_export_name_at(i));
		f = fopen(path, "wb");
		if (!f)
			return die(p, path);
		if (pc_profile_export_file(p, pc_export_name_at(i), NULL, f))
			return die(p, pc_export_name_at(i));
		if (fclose(f))
			return die(p, path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: make_api_profiles ELF OUTDIR\n");
		return 2;
	}
	pc_profile *p;
	pc_profile_new(&p, NULL);
	if (pc_profile_load_file(p, argv[1], NULL, NULL))
		return die(p, argv[1]);
	if (write_all(p, argv[2], "empty"))
		return 1;
	pc_region vdso = {PC_NOSEG, 0x7000000, 0x7001000, PC_REGION_LIBRARY,
			  "vdso"};
	if (pc_profile_add_region(p, &vdso) ||
	    pc_profile_add_sample(p, PC_NOSEG, 0x100, 3) ||
	    pc_profile_add_sample(p, PC_NOSEG, 0x7000010, 2))
		return die(p, "building the outside profile");
	if (write_all(p, argv[2], "outside"))
		return 1;
	pc_profile_free(p);
	return 0;
}
