/* styles.c - the "style" option. */
#include "styles.h"

#include <string.h>

int pc_style_get(pc_profile *p, const pc_options *o, pc_style *out)
{
	static const struct {
		const char *name;
		pc_style style;
	} names[] = {{"default", PC_STYLE_DEFAULT},
		     {"atari", PC_STYLE_ATARI},
		     {"ddj", PC_STYLE_DDJ},
		     {"prohst", PC_STYLE_PROHST},
		     {"gprof", PC_STYLE_GPROF}};
	const char *v = pc_options_get(o, "style");
	*out = PC_STYLE_DEFAULT;
	if (!v)
		return PC_OK;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(v, names[i].name) == 0) {
			*out = names[i].style;
			return PC_OK;
		}
	return pc_profile_fail(p, PC_EUSAGE,
			       "style must be default, atari, ddj, prohst or gprof, not '%s'", v);
}
