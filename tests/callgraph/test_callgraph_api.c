/* The public call-graph API on a profile built by hand: Proff-style arcs
 * with a two-routine cycle and a self-recursive member; every number is
 * worked out in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#include "../common/pc_test.h"

enum { R, MAIN, A, B, C }; /* rows, in address order */

static void add_sym(pc_profile *p, const char *name, uint64_t addr)
{
	pc_symbol s;
	memset(&s, 0, sizeof s);
	s.name = name;
	s.segment = PC_NOSEG;
	s.address = 0x1000 + addr;
	s.kind = PC_SYM_TEXT;
	s.flags = PC_SYMF_FUNC;
	assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
}

static void add_arc(pc_profile *p, uint64_t from, uint64_t to, uint64_t n,
		    double h, double f)
{
	pc_arc a;
	memset(&a, 0, sizeof a);
	a.from_segment = a.to_segment = PC_NOSEG;
	a.from = from == 0x900 ? 0x10 : 0x1000 + from;
	a.to = 0x1000 + to;
	a.count = n;
	a.htime = h;
	a.ftime = f;
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
}

static pc_profile *build(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	assert_non_null(p);
	add_sym(p, "R", 0x000);
	add_sym(p, "main", 0x100);
	add_sym(p, "a", 0x200);
	add_sym(p, "b", 0x300);
	add_sym(p, "c", 0x400);
	add_sym(p, "end", 0x500); /* so that c has an extent */
	add_arc(p, 0x010, 0x100, 1, 1000, 100); /* R -> main       */
	add_arc(p, 0x120, 0x200, 2, 600, 200);  /* main -> a       */
	add_arc(p, 0x220, 0x300, 3, 500, 250);  /* a -> b          */
	add_arc(p, 0x320, 0x200, 1, 100, 50);   /* b -> a (cycle)  */
	add_arc(p, 0x330, 0x300, 4, 80, 40);    /* b -> b (self)   */
	add_arc(p, 0x140, 0x400, 1, 300, 300);  /* main -> c       */
	add_arc(p, 0x900, 0x100, 9, 9, 9);      /* from 0x10, below every
						   symbol: dropped */
	return p;
}

static void test_nodes(void **state)
{
	(void)state;
	pc_profile *p = build();
	pc_callgraph *g = NULL;
	assert_int_equal(pc_profile_callgraph(&g, p, NULL), PC_OK);
	assert_int_equal(pc_callgraph_dropped_arcs(g), 1);
	assert_int_equal(pc_callgraph_cycle_count(g), 1);
	size_t rows = test_rows(p);
	assert_int_equal(rows, 6);
	assert_int_equal(pc_callgraph_node_count(g), rows + 1);
	size_t cyc = 99;
	assert_int_equal(pc_callgraph_cycle_node(&cyc, g, 1), PC_OK);
	assert_int_equal(cyc, rows);
	size_t none = 99;
	assert_int_equal(pc_callgraph_cycle_node(&none, g, 2), PC_ENOTFOUND);
	assert_int_equal(none, 0);

	pc_cg_node n;
	/* main: entered once from R; inclusive 1000, flat 100 */
	assert_int_equal(pc_callgraph_node_at(&n, g, MAIN), PC_OK);
	assert_string_equal(n.name, "main");
	assert_int_equal(n.is_cycle, 0);
	assert_int_equal(n.row, MAIN);
	assert_int_equal(n.has_next, 0); /* in no cycle */
	assert_int_equal(n.calls, 1);
	assert_int_equal(n.self_calls, 0);
	assert_int_equal(n.cycle, 0);
	assert_true(n.htime == 1000 && n.ftime == 100);
	/* own time without samples = flat time; main's children: the cycle
	 * (250 + 290, all 2 calls from main) and c (300) */
	assert_true(n.time == 100 && n.self == 100 && n.children == 840);
	/* a: called 2 + 1 times (main, b); only main's calls enter the
	 * cycle from outside: H 600; flat 200 + 50 */
	assert_int_equal(pc_callgraph_node_at(&n, g, A), PC_OK);
	assert_int_equal(n.calls, 3);
	assert_int_equal(n.self_calls, 0);
	assert_int_equal(n.cycle, 1);
	assert_true(n.htime == 600 && n.ftime == 250);
	/* b: 3 calls from a, 4 from itself; entered only from inside */
	assert_int_equal(pc_callgraph_node_at(&n, g, B), PC_OK);
	assert_int_equal(n.calls, 3);
	assert_int_equal(n.self_calls, 4);
	assert_int_equal(n.cycle, 1);
	assert_true(n.htime == 0 && n.ftime == 290);
	/* the cycle: 2 calls from outside, 3 + 1 inside (self-calls of a
	 * member are not counted), H 600, F 540; members a then b */
	assert_int_equal(pc_callgraph_node_at(&n, g, cyc), PC_OK);
	assert_null(n.name);
	assert_int_equal(n.is_cycle, 1);
	assert_int_equal(n.row, 0);
	assert_int_equal(n.calls, 2);
	assert_int_equal(n.self_calls, 4);
	assert_true(n.htime == 600 && n.ftime == 540);
	assert_true(n.time == 540 && n.self == 540 && n.children == 0);
	assert_int_equal(n.has_next, 1);
	assert_int_equal(n.next_member, A);
	assert_int_equal(pc_callgraph_node_at(&n, g, A), PC_OK);
	assert_int_equal(n.has_next, 1);
	assert_int_equal(n.next_member, B);
	assert_int_equal(pc_callgraph_node_at(&n, g, B), PC_OK);
	assert_int_equal(n.has_next, 0); /* the last member */
	assert_int_equal(n.next_member, 0);

	/* gprof's index by total time: main and R tie at 940, main has
	 * more calls; then the cycle 540, c 300, b 290, a 250, end 0 */
	static const size_t want[] = {2, 1, 6, 5, 4, 7};
	for (size_t i = 0; i < rows; i++) {
		assert_int_equal(pc_callgraph_node_at(&n, g, i), PC_OK);
		assert_int_equal(n.index, want[i]);
	}
	assert_int_equal(pc_callgraph_node_at(&n, g, cyc), PC_OK);
	assert_int_equal(n.index, 3);
	assert_true(pc_callgraph_total(g) == 940);
	assert_true(pc_callgraph_run_htime(g) == 1000);
	assert_int_equal(pc_callgraph_node_at(&n, g, cyc + 1), PC_ENOTFOUND);
	pc_callgraph_free(g);
	pc_profile_free(p);
}

static void test_edges(void **state)
{
	(void)state;
	pc_profile *p = build();
	pc_callgraph *g = NULL;
	assert_int_equal(pc_profile_callgraph(&g, p, NULL), PC_OK);
	assert_int_equal(pc_callgraph_edge_count(g), 6);
	static const struct {
		size_t parent, child;
		uint64_t count;
		double self, children, h, f;
	} want[] = {
		{R, MAIN, 1, 100, 840, 1000, 100},
		{MAIN, A, 2, 540, 0, 600, 200}, /* the cycle's time, 2/2 */
		{A, B, 3, 0, 0, 500, 250},      /* inside the cycle      */
		{B, A, 1, 0, 0, 100, 50},
		{B, B, 4, 0, 0, 80, 40},
		{MAIN, C, 1, 300, 0, 300, 300},
	};
	for (size_t i = 0; i < 6; i++) {
		pc_cg_edge e;
		assert_int_equal(pc_callgraph_edge_at(&e, g, i), PC_OK);
		assert_int_equal(e.parent, want[i].parent);
		assert_int_equal(e.child, want[i].child);
		assert_int_equal(e.count, want[i].count);
		assert_true(e.self == want[i].self);
		assert_true(e.children == want[i].children);
		assert_true(e.htime == want[i].h && e.ftime == want[i].f);
	}
	pc_cg_edge e;
	assert_int_equal(pc_callgraph_edge_at(&e, g, 6), PC_ENOTFOUND);
	pc_callgraph_free(g);
	pc_profile_free(p);
}

static void test_options(void **state)
{
	(void)state;
	pc_profile *p = build();
	pc_callgraph_options o = PC_CALLGRAPH_OPTIONS_INIT;
	pc_callgraph *g = NULL;
	/* no samples: "samples" gives every routine 0 own time */
	o.time = PC_CALLGRAPH_TIME_SAMPLES;
	assert_int_equal(pc_profile_callgraph(&g, p, &o), PC_OK);
	assert_true(pc_callgraph_total(g) == 0);
	pc_callgraph_free(g);
	o.version = 0;
	assert_int_equal(pc_profile_callgraph(&g, p, &o), PC_EUSAGE);
	assert_null(g);
	assert_string_equal(pc_profile_error(p)->message,
			    "pc_callgraph_options.version 0: expected 1 (PC_CALLGRAPH_OPTIONS_INIT)");
	pc_profile_free(p);
	pc_callgraph_free(NULL);
	assert_int_equal(pc_callgraph_node_count(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
