/* order.h - a loader's events in the input's order, kept as windows of
 * the profile's timeline (order.c): for captures whose samples or
 * instructions come in the order they happened and that the loader does
 * not count itself (SWO PC samples, QEMU's translation blocks).  The
 * events of the open window are counted per (segment, address) and go
 * to the profile (pc_profile_add_window, which also counts them as its
 * samples) when it spans what the profile asks (pc_profile_window_span)
 * and the loader says a window may end there.  Memory: the distinct
 * addresses of one window.  Private. */
#ifndef PC_ORDER_H
#define PC_ORDER_H

#include "pc_base.h"

typedef struct pc_order pc_order;

/** An order for p (its events from 0): PC_OK or PC_ENOMEM. */
PC_INTERNAL int pc_order_new(pc_order **o, pc_profile *p);
/** Frees o; what it has not flushed is lost. */
PC_INTERNAL void pc_order_free(pc_order *o);
/** count > 0 events at (segment, address), the next ones of the order. */
PC_INTERNAL int pc_order_add(pc_order *o, uint32_t segment, uint64_t address, uint64_t count);
/** n events that take places in the order but have no address (an SWO
 *  sleep sample): no window counts them. */
PC_INTERNAL void pc_order_skip(pc_order *o, uint64_t n);
/** A window may end here: the open one goes to the profile when it
 *  spans the span.  PC_OK, or the profile's error. */
PC_INTERNAL int pc_order_boundary(pc_order *o);
/** The open window goes to the profile, whatever it spans (the end of
 *  the input).  PC_OK, or the profile's error. */
PC_INTERNAL int pc_order_flush(pc_order *o);
/** The events of the order so far. */
PC_INTERNAL uint64_t pc_order_pos(const pc_order *o);
/** The events the open window takes before pc_order_boundary ends it
 *  (0: the next boundary does): a loader may count that many its own
 *  way and add them, in any order, before its next boundary. */
PC_INTERNAL uint64_t pc_order_room(const pc_order *o);

#endif
