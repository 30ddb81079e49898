/* fuzz_canal.c - libFuzzer harness of interconnect specs (canal/canal.h):
 * the input is a chip's spec, read and checked by canal_load_string as
 * `bin/canal` reads one, then its design name checked against two core
 * names and the kind of every tile asked. The spec is named as if it were
 * in canal/specs/, so that the shipped specs' core paths resolve when the
 * fuzzer runs from the repository's root (fuzz/run.sh). Diagnostics go to
 * a sink (fuzz.h). */
#include "fuzz.h"

#include "../canal/canal.h"

#define SPEC_NAME "canal/specs/fuzz.yaml"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, SPEC_NAME, data, size);
	CanalFile *f = text ? canal_load_string(SPEC_NAME, text, d) : NULL;
	if (f) {
		const CanalSpec *s = f->spec;
		canal_check_names(s, "pe_base", s->has_mem ? "pub" : NULL, d);
		int kinds[3] = { 0 };
		for (int y = 0; y <= s->rows; y++)
			for (int x = 0; x < s->cols; x++)
				kinds[canal_tile_kind(s, x, y)]++;
		FUZZ_CHECK(kinds[TILE_IO] == s->cols, "%d IO tiles in %d columns", kinds[TILE_IO], s->cols);
	}
	canal_file_free(f);
	diags_free(d);
	free(text);
	return 0;
}
