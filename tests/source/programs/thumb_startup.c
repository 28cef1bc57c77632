/* thumb_startup.c - the C part of fixtures/thumb-startup.elf (see
 * thumb_startup.s): SystemInit, called by the assembly Reset_Handler,
 * and main, the last function of the program's code. */
volatile unsigned ticks, sink;
unsigned data_word = 42;
unsigned bss_words[16];

void SystemInit(void)
{
	ticks = 0;
}

int main(void)
{
	for (unsigned i = 0;; i++) {
		unsigned x = i + data_word + bss_words[i & 15];
		for (int k = 0; k < 8; k++)
			x = x * 2654435761u + (unsigned)k;
		sink = x;
	}
}
