/* fuzz_configmap.c - libFuzzer harness of config.map's reader
 * (collateral/configmap.h): the input is the file, read by
 * configmap_load_string as the compiler's bitstream stage reads it; a map
 * that loads must find every field by its target and hold only fields
 * within a 32-bit register, no two sharing a bit of one register.
 * Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../collateral/configmap.h"

static void walk(const ConfigMap *m)
{
	for (int i = 0; i < m->nfields; i++) {
		const CfgField *f = &m->fields[i];
		FUZZ_CHECK(configmap_find(m, f->target) == i, "field %d '%s' found as %d", i, f->target,
			   configmap_find(m, f->target));
		FUZZ_CHECK(0 <= f->lo && f->lo <= f->hi && f->hi <= 31, "field %d: bits %d to %d", i, f->lo, f->hi);
	}
	/* no shared bits: the fields of each register, by bit masks (quadratic: fuzz inputs are small) */
	for (int i = 0; i < m->nfields && m->nfields <= 2000; i++)
		for (int k = i + 1; k < m->nfields; k++) {
			const CfgField *a = &m->fields[i], *b = &m->fields[k];
			FUZZ_CHECK(a->address != b->address || a->hi < b->lo || b->hi < a->lo, "fields %d and %d overlap", i, k);
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, "config.map", data, size);
	ConfigMap *m = text ? configmap_load_string("config.map", text, d) : NULL;
	if (m)
		walk(m);
	configmap_free(m);
	diags_free(d);
	free(text);
	return 0;
}
