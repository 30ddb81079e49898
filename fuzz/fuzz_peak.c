/* fuzz_peak.c - libFuzzer harness of PE specs (peak/peak.h): the input is
 * a PE spec or an IR file, read, checked and lowered by peak_load_string as
 * `bin/peak` reads one. A spec that loads then goes through everything peak
 * does before rule synthesis: two cycles of the functional model on values
 * drawn from the input's hash, its Verilog, and its info file, which the
 * compiler's reader (collateral/peinfo.h) must accept, since the compiler
 * reads no spec. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/peinfo.h"
#include "../common/bv.h"
#include "../common/rng.h"
#include "../peak/peak.h"
#include "../peak/peak_collateral.h"
#include "../peak/peak_eval.h"
#include "../peak/peak_verilog.h"

/* Two cycles of the model from random inputs, fields and params. */
static void run_model(const PeakSpec *s, Rng *rng)
{
	PeakValues pv;
	peak_values_init(&pv, s);
	for (int c = 0; c < PEAK_OUTPUT; c++)
		for (int i = 0; i < s->nports[c]; i++)
			if (c != PEAK_STATE)
				pv.v[c][i] = rng_bits(rng, s->ports[c][i].type.width);
	uint64_t *next = xcalloc((size_t)s->nports[PEAK_STATE] + 1, sizeof *next);
	for (int cycle = 0; cycle < 2; cycle++) {
		peak_eval(s, &pv, next, NULL);
		memcpy(pv.v[PEAK_STATE], next, (size_t)s->nports[PEAK_STATE] * sizeof *next);
	}
	free(next);
	peak_values_free(&pv);
}

/* The info file peak writes for s, read back as the compiler reads it. */
static void check_info(const PeakSpec *s, const char *text)
{
	char *info = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&info, &len);
	peak_write_info(s, text, f);
	fclose(f);
	Diags *d = diags_new(NULL);
	PeInfo *p = peinfo_load_string("pe.info.yaml", info, NULL, NULL, d);
	if (!p)
		fuzz_show(d);
	FUZZ_CHECK(p, "peak wrote an info file its reader refuses:\n%s", info);
	FUZZ_CHECK(p->inst_width == s->inst_width, "instruction of %d bits, read back as %d", s->inst_width,
		   p->inst_width);
	peinfo_free(p);
	diags_free(d);
	free(info);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "pe.yaml", data, size);
	PeakFile *f = text ? peak_load_string("pe.yaml", text, d) : NULL;
	Rng rng;
	rng_seed(&rng, util_fnv1a(UTIL_FNV_INIT, data, size));
	for (int i = 0; f && i < f->nspecs; i++) {
		const PeakSpec *s = f->specs[i];
		run_model(s, &rng);
		if (s->kind != PEAK_PE)
			continue;
		peak_emit_verilog(s, fuzz_sink());
		check_info(s, text);
	}
	peak_file_free(f);
	diags_free(d);
	free(text);
	return 0;
}
