/* keys.h - which of profcat's -O options go to which consumer
 * (cli/keys.c). */
#ifndef PC_CLI_KEYS_H
#define PC_CLI_KEYS_H

#include "profcore_plugin.h"

#include <stdio.h>

/** A new bag holding the entries of all that loader l declares (every
 *  entry for a loader built for ABI 1, which declares none); NULL when
 *  out of memory.  Free with pc_options_free. */
pc_options *pc_cli_loader_options(const pc_loader *l, const pc_options *all);
/** Copies into ropts (unless set there already) each entry of lopts that
 *  the report or export reads (keys), and each that none of the n
 *  loaders declares: the library then refuses it, naming it and the
 *  keys known.  Entries only loaders read stay with them, and so does
 *  load-address, which the fit check reads too.  0, or PC_ENOMEM. */
int pc_cli_merge_options(pc_options *ropts, const pc_options *lopts,
			 const pc_option_decl *keys, const pc_loader *const *ls,
			 size_t n);
/** The fit check's settings from profcat's -O keys (the string edge of
 *  pc_profile_fit): the attribution keys (gprof-symspecs aside: the fit
 *  judges the whole capture) into *attrib, load-address into *fit, whose
 *  attrib points at *attrib.  PC_EUSAGE with the message (naming the key
 *  and pc_profile_fit) in msg, or PC_ENOMEM. */
int pc_cli_fit_options(const pc_options *all, pc_fit_options *fit,
		       pc_attrib_options *attrib, char *msg, size_t cap);
/** --rate HZ / -O rate=HZ (every capture loader takes it,
 *  pc_profile_load_stream): after the capture name was loaded into p, a
 *  warning line when it stated another rate (meta rate.stated), which
 *  the given one replaced (the user's rate corrects a wrong one); said
 *  once a run, for the first such capture. */
void pc_cli_rate_stated(const pc_profile *p, const pc_options *lopts,
			const char *name);
/** profcat --list-formats -v: under each loader, report and export, the
 *  keys of its own table (type, choices, default, help), or "(no -O
 *  keys)". */
void pc_cli_list_keys(FILE *f, const pc_option_decl *keys);
/** The CLI's advice after a library message (may be ""): which profcat
 *  option lists the names that an unknown option, export, report or
 *  loader could have been. */
const char *pc_cli_option_advice(const char *message);

#endif
