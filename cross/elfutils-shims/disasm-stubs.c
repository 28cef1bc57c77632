/* disasm-stubs.c: the backends' instruction decoders for a mingw-w64 build
 * of elfutils (scripts/cross.sh mingw).  libcpu, which holds them, is built
 * from tables that a host program generates at build time; profcore never
 * calls ebl_disasm (its -r disasm is Capstone's), so libdw.a is linked with
 * these instead: each reports that it cannot decode (-1). */
#include <stddef.h>
#include <stdint.h>
#include <libasm.h>

#define PC_DISASM_STUB(name)                                                  \
	int name(Ebl *ebl, const uint8_t **startp, const uint8_t *end,        \
		 GElf_Addr addr, const char *fmt, DisasmOutputCB_t outcb,     \
		 DisasmGetSymCB_t symcb, void *outcbarg, void *symcbarg);     \
	int name(Ebl *ebl, const uint8_t **startp, const uint8_t *end,        \
		 GElf_Addr addr, const char *fmt, DisasmOutputCB_t outcb,     \
		 DisasmGetSymCB_t symcb, void *outcbarg, void *symcbarg)      \
	{                                                                     \
		(void)ebl; (void)startp; (void)end; (void)addr; (void)fmt;    \
		(void)outcb; (void)symcb; (void)outcbarg; (void)symcbarg;     \
		return -1;                                                    \
	}

PC_DISASM_STUB(i386_disasm)
PC_DISASM_STUB(x86_64_disasm)
PC_DISASM_STUB(bpf_disasm)
PC_DISASM_STUB(riscv_disasm)
