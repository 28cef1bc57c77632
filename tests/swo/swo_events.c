/* swo_events - prints every ITM/DWT event the swo loader decodes from a
 * file, one canonical line each (tests/swo/gen_streams.py writes the same
 * lines from its packet definitions):
 *
 *     swo_events FILE [key=value ...]
 *     swo_events --samples FILE [key=value ...]
 *     swo_events --probe FILE...
 *
 * With --samples the loader runs without the hook (its fast path for runs
 * of PC samples) and the profile is printed instead: "SAMPLE ADDR COUNT"
 * in address order, "CONTEXT NAME COUNT", "LOST OFFSET AFTER".  With
 * --probe it prints "CONFIDENCE FILE" for each file the loader's probe
 * claims (the first 4096 bytes, as the registry hands them).
 * The loader is compiled in here with its test hook (swo_run's trace
 * callback); the profile it fills is discarded.  Exit 0 when the load
 * succeeded, 1 with the error on stderr otherwise (the events decoded
 * before the error are printed all the same). */
#define pc_loader_swo pc_loader_swo_events
#include "../../loaders/swo.c"

static void line(void *ctx, const swo_event *e)
{
	FILE *f = ctx;
	static const char *const fn[4] = {"?", "ENTER", "EXIT", "RETURN"};
	switch (e->kind) {
	case SWO_SYNC: fprintf(f, "SYNC\n"); break;
	case SWO_OVERFLOW: fprintf(f, "OVERFLOW\n"); break;
	case SWO_LTS:
		fprintf(f, "LTS tc=%u ts=%llu\n", e->id, (unsigned long long)e->value);
		break;
	case SWO_GTS1:
		fprintf(f, "GTS1 bytes=%u ts=0x%llx wrap=%u clkch=%u\n", e->size,
			(unsigned long long)e->value, e->fn & 1, e->fn >> 1);
		break;
	case SWO_GTS2:
		fprintf(f, "GTS2 bytes=%u ts=0x%llx\n", e->size, (unsigned long long)e->value);
		break;
	case SWO_EXT:
		fprintf(f, "EXT sh=%u ex=0x%llx\n", e->id, (unsigned long long)e->value);
		break;
	case SWO_SWIT:
		fprintf(f, "SW port=%u size=%u data=0x%llx\n", e->id, e->size,
			(unsigned long long)e->value);
		break;
	case SWO_EVCNT:
		fprintf(f, "EVCNT 0x%02llx\n", (unsigned long long)e->value);
		break;
	case SWO_EXC: fprintf(f, "EXC %u %s\n", e->id, fn[e->fn & 3]); break;
	case SWO_PC: fprintf(f, "PC 0x%08llx\n", (unsigned long long)e->value); break;
	case SWO_SLEEP: fprintf(f, "SLEEP\n"); break;
	case SWO_DT_PC:
		fprintf(f, "DATA cmp=%u pc=0x%08llx\n", e->id, (unsigned long long)e->value);
		break;
	case SWO_DT_ADDR:
		fprintf(f, "DATA cmp=%u addr=0x%04llx\n", e->id, (unsigned long long)e->value);
		break;
	case SWO_DT_VALUE:
		fprintf(f, "DATA cmp=%u %s size=%u value=0x%llx\n", e->id, e->fn ? "write" : "read",
			e->size, (unsigned long long)e->value);
		break;
	case SWO_HW_RESERVED:
		fprintf(f, "HWRESERVED id=%u size=%u\n", e->id, e->size);
		break;
	default: fprintf(f, "RESERVED 0x%02x\n", e->id); break;
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--probe")) {
		for (int i = 2; i < argc; i++) {
			unsigned char head[4096];
			FILE *f = fopen(argv[i], "rb");
			if (!f)
				return 2;
			size_t n = fread(head, 1, sizeof head, f);
			fclose(f);
			int c = swo_probe(head, n, argv[i]);
			if (c)
				printf("%d %s\n", c, argv[i]);
		}
		return 0;
	}
	int samples = argc > 1 && !strcmp(argv[1], "--samples");
	if (samples)
		argv++, argc--;
	if (argc < 2) {
		fprintf(stderr, "usage: swo_events [--samples] FILE [key=value ...]\n");
		return 2;
	}
	pc_profile *p;
	pc_stream *s;
	pc_options *o;
	if (pc_profile_new(&p, NULL) || pc_options_new(&o))
		return 2;
	for (int i = 2; i < argc; i++)
		if (pc_options_parse(o, argv[i]))
			return 2;
	if (pc_stream_open_file(&s, argv[1])) {
		fprintf(stderr, "%s\n", pc_last_error()->message);
		return 1;
	}
	int rc = swo_run(p, s, o, samples ? NULL : line, stdout);
	if (!rc && samples) {
		uint64_t a, n;
		for (size_t i = 0; pc_profile_sample_at(NULL, &a, &n, p, i) == PC_OK; i++)
			printf("SAMPLE 0x%08llx %llu\n", (unsigned long long)a, (unsigned long long)n);
		const char *name;
		for (size_t i = 0; pc_profile_context_at(&name, &n, p, i) == PC_OK; i++)
			printf("CONTEXT %s %llu\n", name, (unsigned long long)n);
		int64_t off;
		for (size_t i = 0; pc_profile_lost_at(&off, &n, p, i) == PC_OK; i++)
			printf("LOST %lld %llu\n", (long long)off, (unsigned long long)n);
		printf("SLEEP %llu\n", (unsigned long long)pc_profile_class_samples(p, PC_REGION_SLEEP));
	}
	if (rc) {
		const pc_error *e = pc_stream_error(s);
		if (!e)
			e = pc_profile_error(p);
		fprintf(stderr, "%s:%lld: %s\n", argv[1], (long long)(e ? e->offset : -1),
			e ? e->message : "?");
	}
	pc_stream_free(s);
	pc_options_free(o);
	pc_profile_free(p);
	return rc ? 1 : 0;
}
