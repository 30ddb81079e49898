/* fuzz_meminfo.c - libFuzzer harness of a memory tile's collateral reader
 * (collateral/meminfo.h): the input is a <mem>.info.yaml, read by
 * meminfo_load_string as the compiler, verif and lake's commands read it
 * (the reader re-derives the controllers and registers and refuses a file
 * that disagrees). A file that loads must be written back as text that
 * loads to the same text again. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/meminfo.h"

/* mi's info file as text (the caller frees it). */
static char *info_text(const MemInfo *mi)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	meminfo_write(mi, f);
	fclose(f);
	return text;
}

static void round_trip(const MemInfo *mi)
{
	char *text = info_text(mi);
	Diags *d = diags_new(NULL);
	MemInfo *back = meminfo_load_string("mem.info.yaml", text, d);
	if (!back)
		fuzz_show(d);
	FUZZ_CHECK(back, "an info file written from a loaded one is refused:\n%s", text);
	char *again = info_text(back);
	FUZZ_CHECK(strcmp(text, again) == 0, "written, read and written again differently:\n%s\n----\n%s", text,
		   again);
	mem_config_bits(back);
	free(again);
	meminfo_free(back);
	diags_free(d);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "mem.info.yaml", data, size);
	MemInfo *mi = text ? meminfo_load_string("mem.info.yaml", text, d) : NULL;
	if (mi)
		round_trip(mi);
	meminfo_free(mi);
	diags_free(d);
	free(text);
	return 0;
}
