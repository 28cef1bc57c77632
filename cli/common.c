/* common.c - what profcat's commands share (common.h): the exit status
 * of a library status, the library's error line with its advice, the
 * fit check and the advice for a capture-rate conflict. */
#include "common.h"
#include "keys.h"
#include "output.h"

#include <stdio.h>
#include <string.h>

int pc_cli_status_exit(int st)
{
	switch (st) {
	case PC_OK: return 0;
	case PC_EIO: return PC_CLI_EXIT_IO;
	case PC_EUSAGE: case PC_ENOTFOUND: return PC_CLI_EXIT_USAGE;
	case PC_ENOMEM: return PC_CLI_EXIT_INTERNAL;
	default: return PC_CLI_EXIT_INPUT;
	}
}


const char *pc_cli_rate_advice(const char *message)
{
	if (message && strstr(message, " Hz cannot be added up"))
		return "; compare them with 'profcat rates', or give the right rate with -O rate=HZ";
	return "";
}


/* "profcat: [kind: ]FILE:OFFSET: message[advice]" (kind is "warning: "
 * or ""); the advice names the options that fix a problem the library
 * describes. */
void pc_cli_report_error(const char *kind, const pc_error *e)
{
	const char *advice = e ? pc_cli_rate_advice(e->message) : "";
	if (e && !*advice)
		advice = pc_cli_option_advice(e->message);
	pc_cli_error(kind, e, advice);
}


/* Does the capture fit the program (pc_profile_fit)?  A misfit is an
 * error (exit 1) unless --ignore-fit, a doubt a warning; the library
 * names the problem, this adds the option that fixes it.  names: the
 * capture's files, elf: the program is an ELF file. */
int pc_cli_fit(pc_profile *p, const pc_options *opts, const char *names, int elf,
	       int ignore)
{
	pc_fit f;
	/* the keys the fit check reads: the others are the report's or the
	 * loaders' */
	pc_fit_options fo;
	pc_attrib_options ao;
	char msg[1024];
	int st = pc_cli_fit_options(opts, &fo, &ao, msg, sizeof msg);
	if (st == PC_EUSAGE) {
		pc_error e = {st, NULL, -1, msg};
		pc_cli_report_error("", &e);
		return pc_cli_status_exit(st);
	}
	if (st) {
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	st = pc_profile_fit(&f, p, &fo);
	if (st) {
		pc_cli_report_error("", pc_profile_error(p));
		return pc_cli_status_exit(st);
	}
	if (!f.problem)
		return 0;
	char advice[256];
	/* a PROFIL .PRF is read as an .EXE image (buckets from address 0)
	 * unless -O com says .COM (from 0x100, ORG 100h): when 0x100 higher
	 * the histogram reaches the code's end (within fit.c's slack of 64
	 * bytes), that is the fix */
	int prf = 0;
	for (size_t i = 0; i < pc_profile_source_count(p); i++)
		prf |= !strcmp(pc_profile_source_format(p, i), "prf");
	if (prf && f.range_mismatch && !pc_options_get(opts, "com") &&
	    !pc_options_get(opts, "origin") && !pc_options_get(opts, "absolute") &&
	    f.hist_high < f.code_high && f.hist_high + 0x100 + 64 >= f.code_high) {
		fprintf(stderr, "profcat: %s%s%sthe histogram covers 0x%llx-0x%llx but the code of "
				"the program ends at 0x%llx: read as an .EXE image's (from 0); a .COM "
				"program's starts at 0x100 (ORG 100h), and there it covers the code: "
				"give -O com%s\n",
			f.verdict == PC_FIT_MISFIT && !ignore ? "" : "warning: ", names,
			*names ? ": " : "", (unsigned long long)f.hist_low,
			(unsigned long long)f.hist_high, (unsigned long long)f.code_high,
			f.verdict == PC_FIT_MISFIT && !ignore ? ", or --ignore-fit to report anyway" : "");
		return f.verdict == PC_FIT_MISFIT && !ignore ? PC_CLI_EXIT_INPUT : 0;
	}
	if (f.has_shift && !elf && f.shift_default && f.load_given)
		snprintf(advice, sizeof advice,
			 "give --load-address 0x%llx (code starts 0x100 bytes after the basepage or PSP)",
			 (unsigned long long)f.load_address);
	else if (f.has_shift && !elf && f.shift_min == f.shift_max)
		snprintf(advice, sizeof advice, "give --load-address 0x%llx",
			 (unsigned long long)f.load_address);
	else if (f.has_shift && !elf)
		snprintf(advice, sizeof advice,
			 "give --load-address with the address it was loaded at (0x%llx to 0x%llx fit)",
			 (unsigned long long)(f.load_address + (uint64_t)(f.shift_min - f.shift)),
			 (unsigned long long)(f.load_address + (uint64_t)(f.shift_max - f.shift)));
	else if (f.verdict == PC_FIT_DOUBT)
		snprintf(advice, sizeof advice,
			 "name the other code with -O regions=LOW-HIGH:CLASS if it is not the program's");
	else
		snprintf(advice, sizeof advice, "give the executable that wrote the capture");
	int refuse = f.verdict == PC_FIT_MISFIT && !ignore;
	fprintf(stderr, "profcat: %s%s%s%s: %s%s\n", refuse ? "" : "warning: ", names,
		*names ? ": " : "", f.problem, advice,
		f.verdict == PC_FIT_MISFIT && !ignore ? ", or --ignore-fit to report anyway" : "");
	return refuse ? PC_CLI_EXIT_INPUT : 0;
}
