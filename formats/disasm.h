/* disasm.h - formats/disasm.c's internal entry points (tests). */
#ifndef PC_DISASM_H
#define PC_DISASM_H

#include <stddef.h>

/** In a build that opens Capstone at its first use (PC_CAPSTONE_DLOPEN):
 *  opens the shared library soname and takes the functions -r disasm uses
 *  from it, as each -r disasm does with PC_CAPSTONE_SONAME, then
 *  closes it again: PC_OK, or PC_EUNSUPPORTED with the one-line message
 *  -r disasm gives in msg.  Elsewhere PC_EUNSUPPORTED, msg "". */
int pc_disasm_load_capstone(const char *soname, char *msg, size_t msglen);

#endif
