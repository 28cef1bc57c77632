/* lines.h - shared by the addr2line corpus (check_addr2line.py) */
#define NOINLINE __attribute__((noinline))
#ifndef ENTRY
#define ENTRY _start
#endif
unsigned other(unsigned x);
unsigned step(unsigned x, unsigned k);
unsigned run(unsigned n);
void ENTRY(void);
