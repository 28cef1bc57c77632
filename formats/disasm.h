/* disasm.h - formats/disasm.c's internal entry points (tests). */
#ifndef PC_DISASM_H
#define PC_DISASM_H

#include <stddef.h>

#include "internal.h"

/** -r disasm -F json of each of the n functions p->targets[targets[i]]
 *  (attribution targets: the flat rows' "row"), written into k one after
 *  another, separated by ',' (Capstone opened once; the HTML report's
 *  Source tab).  PC_OK, or the first function's error (recorded on p: no
 *  Capstone, no program code; a later function that cannot be shown is
 *  left out). */
PC_INTERNAL int pc_disasm_json_each(pc_profile *p, const pc_options *o, const size_t *targets,
				    size_t n, pc_sink *k);

/** In a build that opens Capstone at its first use (PC_CAPSTONE_DLOPEN):
 *  opens the shared library soname and takes the functions -r disasm uses
 *  from it, as each -r disasm does with PC_CAPSTONE_SONAME, then
 *  closes it again: PC_OK, or PC_EUNSUPPORTED with the one-line message
 *  -r disasm gives in msg.  Elsewhere PC_EUNSUPPORTED, msg "". */
int pc_disasm_load_capstone(const char *soname, char *msg, size_t msglen);

#endif
