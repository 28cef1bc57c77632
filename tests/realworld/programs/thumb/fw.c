/* A tiny Cortex-M3 firmware for the live corpus: every function symbol of
 * Thumb code has bit 0 set in its ELF st_value (0x8025 for a function at
 * 0x8024).  Built by tests/realworld/check_programs.py with
 * arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -g -O1 -nostdlib. */
volatile int sink;
static const unsigned table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

static __attribute__((noinline)) int helper(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += i * x;
	return s;
}

__attribute__((noinline)) int work_a(int n)
{
	return helper(n) + (int)table[n & 7];
}

__attribute__((noinline)) int work_b(int n)
{
	int r = 0;
	while (n--)
		r ^= work_a(n);
	return r;
}

__attribute__((noinline)) void SysTick_Handler(void)
{
	sink += 0x12345678;
}

void Reset_Handler(void)
{
	for (;;)
		sink = work_b(sink);
}

__attribute__((section(".isr_vector"), used)) void (*const vectors[])(void) = {
	(void (*)(void))0x20001000, Reset_Handler, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, SysTick_Handler};
