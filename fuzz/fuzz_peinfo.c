/* fuzz_peinfo.c - libFuzzer harness of a PE's collateral reader
 * (collateral/peinfo.h): the input is a <pe>.info.yaml, the separator byte
 * of fuzz.h and a <pe>.rules.yaml (no separator: the info file alone), read
 * and checked against each other by peinfo_load_string as the compiler
 * reads them. When they load, every rule is looked up by its operation and
 * its instruction encoded with random params and every input registered,
 * as the compiler's mapper does. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/peinfo.h"
#include "../common/bv.h"
#include "../common/rng.h"

static void use_rules(const PeInfo *p, Rng *rng)
{
	uint64_t *word = xcalloc((size_t)BITS_WORDS(p->inst_width) + 1, sizeof *word);
	for (int i = 0; i < p->nrules; i++) {
		const PeRule *r = &p->rules[i];
		FUZZ_CHECK(peinfo_rule(p, r->ir), "rule %d for '%s' not found", i, r->ir);
		uint64_t *params = xcalloc((size_t)r->nparams + 1, sizeof *params);
		for (int k = 0; k < r->nparams; k++)
			params[k] = rng_bits(rng, p->fields[r->params[k].index].width);
		FUZZ_CHECK(peinfo_encode(p, r, params, word), "rule %d refused params that fit", i);
		for (int k = 0; k < r->ninputs; k++)
			peinfo_register_input(p, r, k, word);
		free(params);
	}
	free(word);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *info = fuzz_text(d, "pe.info.yaml", data, size);
	char *rules = info ? fuzz_split(info) : NULL;
	PeInfo *p = info ? peinfo_load_string("pe.info.yaml", info, "pe.rules.yaml", rules, d) : NULL;
	if (p) {
		Rng rng;
		rng_seed(&rng, util_fnv1a(UTIL_FNV_INIT, data, size));
		for (int i = 0; i < p->nfields; i++)
			FUZZ_CHECK(peinfo_field(p, p->fields[i].name) >= 0, "field '%s' not found", p->fields[i].name);
		use_rules(p, &rng);
	}
	peinfo_free(p);
	diags_free(d);
	free(info);
	return 0;
}
