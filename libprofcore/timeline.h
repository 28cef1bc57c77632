/* timeline.h - the input's order in bounded memory (timeline.c); private. */
#ifndef PC_TIMELINE_H
#define PC_TIMELINE_H

#include "internal.h"

typedef struct pc_timeline pc_timeline;
PC_INTERNAL void pc_timeline_free(pc_timeline *t);
/** 1 when several ordered inputs went into p: no one order is kept. */
PC_INTERNAL int pc_timeline_dropped(const pc_profile *p);
/** pc_profile_merge: dst gets src's order when it has none of its own;
 *  two orders cannot be combined, and the merged profile keeps none.
 *  PC_OK or PC_ENOMEM (set on dst). */
PC_INTERNAL int pc_timeline_merge(pc_profile *dst, const pc_profile *src);

#endif
