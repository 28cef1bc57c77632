/* A cc65 NES program for tests/traces/check_mame.py: loops of several
 * sizes (wait's two-instruction loop folds in MAME's trace; fill's and
 * sum's bodies are longer than its 64-line window), then done(), where
 * the test's breakpoint stops the trace. */
unsigned char buf[64];
unsigned int total;

void fill(unsigned char v)
{
	unsigned char i;
	for (i = 0; i < 64; ++i)
		buf[i] = v + i;
}

unsigned int sum(void)
{
	unsigned char i;
	unsigned int s = 0;
	for (i = 0; i < 64; ++i)
		s += buf[i];
	return s;
}

void wait(void)
{
	unsigned char i = 0;
	do {
		++i;
	} while (i);
}

void done(void)
{
}

int main(void)
{
	unsigned char n;
	for (n = 0; n < 12; ++n) {
		fill(n);
		total += sum();
		wait();
	}
	done();
	for (;;)
		wait();
	return 0;
}
