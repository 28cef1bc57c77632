/* html_source.h - the Source tab's data of the HTML report
 * (html_source.c). */
#ifndef PC_HTML_SOURCE_H
#define PC_HTML_SOURCE_H

#include "internal.h"

/** Writes the JSON object of the Source tab (source text, inlined
 *  code, each function's hottest line, disassembly) of p into k:
 *  PC_OK (a view the profile cannot give is null with its reason),
 *  PC_ENOMEM, or PC_EUSAGE for a bad html-disasm. */
PC_INTERNAL int pc_html_source_json(pc_sink *k, pc_profile *p, const pc_options *o);

#endif
