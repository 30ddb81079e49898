/* fuzz_lake.c - libFuzzer harness of MEM specs (lake/lake.h): the input is a
 * memory-tile spec, read and checked by lake_load_string as `lake check`
 * reads one. A spec that loads then goes through what `lake SPEC -o DIR`
 * does: the controllers and registers derived (lake_info), the Verilog and
 * the SMT-LIB model written, and the info file, which the compiler's reader
 * (collateral/meminfo.h) must accept and write back to the same text.
 * Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/meminfo.h"
#include "../lake/lake.h"

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

/* The info file lake writes for mi, read back as the compiler reads it. */
static void check_info(const MemInfo *mi)
{
	char *text = info_text(mi);
	Diags *d = diags_new(NULL);
	MemInfo *back = meminfo_load_string("mem.info.yaml", text, d);
	if (!back)
		fuzz_show(d);
	FUZZ_CHECK(back, "lake wrote an info file its reader refuses:\n%s", text);
	char *again = info_text(back);
	FUZZ_CHECK(strcmp(text, again) == 0, "the info file read back is written differently:\n%s\n----\n%s", text,
		   again);
	free(again);
	meminfo_free(back);
	diags_free(d);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "mem.yaml", data, size);
	LakeFile *f = text ? lake_load_string("mem.yaml", text, d) : NULL;
	if (f) {
		MemInfo *mi = lake_info(f->spec);
		lake_verilog(mi, fuzz_sink());
		lake_smt2(mi, fuzz_sink());
		check_info(mi);
		meminfo_free(mi);
	}
	lake_file_free(f);
	diags_free(d);
	free(text);
	return 0;
}
