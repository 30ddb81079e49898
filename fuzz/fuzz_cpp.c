/* fuzz_cpp.c - libFuzzer harness of the C++ a generator runs when it
 * compiles (compiler/front/hl_parse_cpp.c and the statements of
 * hl_parse.c): the input is a run of C++ statements (loops, ifs, blocks,
 * functions, arrays, strings, integer and floating-point variables),
 * placed between a fixed prologue that declares an image, two Vars and a
 * Func, and an epilogue that defines the Func from an int k when the
 * statements declare one, and runs through hl_parse as `cgrac --check`
 * does, then bounds inference. The front harness mutates whole programs;
 * this one keeps the fuzzer on the statement parser and the interpreter of
 * C++ values, with a dictionary of C++. Diagnostics go to a sink (fuzz.h). */
#include "fuzz.h"

#include "../compiler/front/front.h"

#define APP_NAME "app.hl"

static const char PROLOGUE[] = "ImageParam in(UInt(16), 2, \"in\");\nVar x(\"x\"), y(\"y\");\nFunc f(\"f\");\n";
static const char EPILOGUE[] = "\nf(x, y) = in(x, y) + u16(k);\nf.bound(x, 0, 4).bound(y, 0, 4);\n"
			       "hw_accelerate(f);\nstream_to_accelerator(in);\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Diags *d = fuzz_diags();
	char *body = fuzz_text(d, APP_NAME, data, size);
	if (!body) {
		diags_free(d);
		return 0;
	}
	size_t n = strlen(PROLOGUE) + size + strlen(EPILOGUE) + 1;
	char *text = xmalloc(n);
	snprintf(text, n, "%s%s%s", PROLOGUE, body, EPILOGUE);
	HProgram *p = hl_parse(APP_NAME, text, d);
	if (p) {
		HRegions r;
		if (hl_bounds(p, &r, d))
			hl_bounds_free(&r);
	}
	hl_free(p);
	diags_free(d);
	free(text);
	free(body);
	return 0;
}
