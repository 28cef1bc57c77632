/* timeline.h - the input's order in bounded memory (timeline.c): a data
 * structure of its own, used by profile.c (pc_profile_add_window and the
 * pc_profile_window_* readers) and statistics.c (pc_profile_merge);
 * private. */
#ifndef PC_TIMELINE_H
#define PC_TIMELINE_H

#include "pc_base.h"

#define PC_TL_SPAN 4096 /* events a window spans at first */

typedef struct pc_tlcell {
	uint32_t segment;
	uint64_t address;
	uint64_t count;
} pc_tlcell;

typedef struct pc_timeline pc_timeline;
/** NULL when out of memory. */
PC_INTERNAL pc_timeline *pc_timeline_new(void);
PC_INTERNAL void pc_timeline_free(pc_timeline *t);
/** The next window (first < end, n triples): PC_OK, PC_ENOMEM, or
 *  PC_EUSAGE when it does not begin where the last one ended
 *  (pc_timeline_end).  One at 0 after others drops the order. */
PC_INTERNAL int pc_timeline_add(pc_timeline *t, uint64_t first, uint64_t end,
				const uint32_t *segments, const uint64_t *addresses,
				const uint64_t *counts, size_t n);
/** The span the next window should have (t may be NULL: the first). */
PC_INTERNAL uint64_t pc_timeline_span(const pc_timeline *t);
PC_INTERNAL uint64_t pc_timeline_end(const pc_timeline *t);
/** No order: several ordered inputs. */
PC_INTERNAL void pc_timeline_drop(pc_timeline *t);
PC_INTERNAL int pc_timeline_dropped(const pc_timeline *t);
/** pc_profile_merge: dst gets src's windows when it has none of its own;
 *  two orders cannot be combined, and dst then keeps none.  PC_OK or
 *  PC_ENOMEM. */
PC_INTERNAL int pc_timeline_copy(pc_timeline *dst, const pc_timeline *src);
/** The number of windows (0 for NULL or dropped). */
PC_INTERNAL size_t pc_timeline_count(const pc_timeline *t);
/** Window i < pc_timeline_count(t): its range and its n cells. */
PC_INTERNAL const pc_tlcell *pc_timeline_window(const pc_timeline *t, size_t i,
						uint64_t *first, uint64_t *end, size_t *n);

#endif
