/* fuzz_cgrasim.c - libFuzzer harness of the fast simulator's command files
 * (cgrasim/cs_cmd.h): the input is a command file, run on the design
 * rtl_out/cgra_4x4 (or $FUZZ_CGRASIM_DESIGN, from the repository's root, as
 * fuzz/run.sh runs) loaded afresh for each input, with at most 2,000 cycles.
 * The files a command names (a bitstream, a stream to drive, a recording)
 * live in a private temporary folder, emptied after each input: an input
 * naming a path with '/' is skipped, so that nothing outside it is read or
 * written. Whatever the commands, the run ends with a status of 0, 1 or 2;
 * diagnostics and printed lines go to the sink. */
#include "fuzz.h"

#include <dirent.h>
#include <unistd.h>

#include "../cgrasim/cs.h"
#include "../cgrasim/cs_cmd.h"

static char folder[64];

static void empty_folder(void)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			char *p = xasprintf("%s/%s", folder, e->d_name);
			remove(p);
			free(p);
		}
	if (d)
		closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memchr(data, '/', size))
		return 0;
	if (!folder[0]) {
		snprintf(folder, sizeof folder, "/tmp/fuzz_cgrasim.XXXXXX");
		FUZZ_CHECK(mkdtemp(folder), "no temporary folder");
		fflush(stdout);
		FUZZ_CHECK(freopen("/dev/null", "w", stdout), "stdout not to /dev/null");
	}
	const char *design = getenv("FUZZ_CGRASIM_DESIGN") ? getenv("FUZZ_CGRASIM_DESIGN") : "rtl_out/cgra_4x4";
	Diags *d = fuzz_diags();
	Cs *s = cs_load(design, d);
	if (!s) {
		fuzz_show(d);
		FUZZ_CHECK(s, "cannot read the design %s (make rtl DESIGN=cgra_4x4)", design);
	}
	char *path = xasprintf("%s/in.cmd", folder);
	FILE *f = fopen(path, "wb");
	FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
	CsCmdOptions o = { .quiet = 1, .max_cycles = 2000, .diag_out = fuzz_sink() };
	int status = cs_cmd_run(s, path, &o);
	FUZZ_CHECK(status >= 0 && status <= 2, "status %d", status);
	cs_free(s);
	diags_free(d);
	free(path);
	empty_folder();
	return 0;
}
