/* cgrac.c - the pipeline of the compiler after parsing (cgrac.h). */
#include <stdio.h>

#include "cgrac.h"

int cgrac_compile(const HProgram *p, const char *design, const char *out, const char *emit, int quiet,
		  Diags *d)
{
	(void)design, (void)out, (void)emit, (void)quiet;
	diag_error(d, p->file, 0, 0, "lowering is not built yet");
	return 0;
}
