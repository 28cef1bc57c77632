/*
 * struct_layout.c - prints the size and field offsets of every public
 * struct the Python bindings mirror with ctypes, so that the bindings'
 * test can check them field for field against the C compiler's layout.
 * Output: one line per struct, "NAME SIZE FIELD:OFFSET ...".
 */
#include <profcore_plugin.h>

#include <stddef.h>
#include <stdio.h>

#define F(T, f) printf(" %s:%zu", #f, offsetof(T, f))

int main(void)
{
	printf("pc_error %zu", sizeof(pc_error));
	F(pc_error, code); F(pc_error, file); F(pc_error, offset); F(pc_error, message);
	printf("\npc_symbol %zu", sizeof(pc_symbol));
	F(pc_symbol, name); F(pc_symbol, file); F(pc_symbol, section);
	F(pc_symbol, segment); F(pc_symbol, address); F(pc_symbol, size);
	F(pc_symbol, kind); F(pc_symbol, binding); F(pc_symbol, flags);
	printf("\npc_region %zu", sizeof(pc_region));
	F(pc_region, segment); F(pc_region, low); F(pc_region, high);
	F(pc_region, cls); F(pc_region, label);
	printf("\npc_histogram %zu", sizeof(pc_histogram));
	F(pc_histogram, segment); F(pc_histogram, low); F(pc_histogram, high);
	F(pc_histogram, nbins); F(pc_histogram, counts); F(pc_histogram, unit);
	printf("\npc_arc %zu", sizeof(pc_arc));
	F(pc_arc, from_segment); F(pc_arc, from); F(pc_arc, to_segment);
	F(pc_arc, to); F(pc_arc, count); F(pc_arc, htime); F(pc_arc, ftime);
	printf("\npc_row %zu", sizeof(pc_row));
	F(pc_row, symbol); F(pc_row, name); F(pc_row, segment); F(pc_row, address);
	F(pc_row, end); F(pc_row, count); F(pc_row, calls); F(pc_row, self_calls);
	printf("\npc_totals %zu", sizeof(pc_totals));
	F(pc_totals, total); F(pc_totals, in_program); F(pc_totals, attributed);
	F(pc_totals, outside); F(pc_totals, excluded);
	printf("\npc_cg_node %zu", sizeof(pc_cg_node));
	F(pc_cg_node, row); F(pc_cg_node, is_cycle); F(pc_cg_node, name); F(pc_cg_node, cycle);
	F(pc_cg_node, index); F(pc_cg_node, listed); F(pc_cg_node, calls);
	F(pc_cg_node, self_calls); F(pc_cg_node, time); F(pc_cg_node, self);
	F(pc_cg_node, children); F(pc_cg_node, htime); F(pc_cg_node, ftime);
	F(pc_cg_node, has_next); F(pc_cg_node, next_member);
	printf("\npc_cg_edge %zu", sizeof(pc_cg_edge));
	F(pc_cg_edge, parent); F(pc_cg_edge, child); F(pc_cg_edge, count);
	F(pc_cg_edge, self); F(pc_cg_edge, children); F(pc_cg_edge, htime);
	F(pc_cg_edge, ftime);
	printf("\npc_loader %zu", sizeof(pc_loader));
	F(pc_loader, abi_version); F(pc_loader, name); F(pc_loader, description);
	F(pc_loader, roles); F(pc_loader, extensions); F(pc_loader, probe);
	F(pc_loader, load); F(pc_loader, order); F(pc_loader, options);
	printf("\npc_option_decl %zu", sizeof(pc_option_decl));
	F(pc_option_decl, name); F(pc_option_decl, type); F(pc_option_decl, choices);
	F(pc_option_decl, default_value); F(pc_option_decl, help);
	printf("\nPC_REGION_COUNT %d\n", (int)PC_REGION_COUNT);
	return 0;
}
