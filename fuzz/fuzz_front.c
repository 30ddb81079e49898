/* fuzz_front.c - libFuzzer harness of the compiler's front end
 * (compiler/front/front.h): the input is an application, parsed and checked
 * by hl_parse as `cgrac APP.hl --check` does; a program that passes then
 * goes through the rest of the front end but the interpreter: bounds
 * inference, the value range of its output, and the printing of every
 * definition; then the accelerator's view and the lowering (compiler/lower/:
 * preparation, index streams, the loop nest). No back end, no collateral.
 * Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../compiler/front/front.h"
#include "../compiler/lower/lower.h"

#define APP_NAME "app.hl"

/* What the compiler does with a parsed program before lowering it. */
static void front_end(const HProgram *p, Diags *d)
{
	HRegions r;
	if (hl_bounds(p, &r, d))
		hl_bounds_free(&r);
	if (p->output >= 0) {
		RangeCtx c;
		range_init(&c, p);
		range_func(&c, p->output);
		range_free(&c);
	}
	vec_foreach(&p->funcs, f) {
		const HFunc *fn = &p->funcs.data[f];
		vec_foreach(&fn->defs, k) free(he_str(p, fn->defs.data[k].value));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *text = fuzz_text(d, APP_NAME, data, size);
	HProgram *p = text ? hl_parse(APP_NAME, text, d) : NULL;
	if (p) {
		front_end(p, d);
		LProgram L;
		memset(&L, 0, sizeof L);
		if (hl_accel_view(p, d))
			hl_lower(&L, p, d);
		if (L.p)
			hl_lower_free(&L);
	}
	hl_free(p);
	diags_free(d);
	free(text);
	return 0;
}
