/* verify.c - cgrac --verify's folder, comparisons, fast simulator run and
 * table line (see verify.h). */
#define _XOPEN_SOURCE 700 /* nftw */

#include "verify.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "../verif/verif_app.h"

/* ---- an earlier run's outputs ---- */

/* path removed if there; 0 with a message if it is there and stays. */
static int remove_file(const char *path)
{
	if (remove(path) == 0 || errno == ENOENT)
		return 1;
	fprintf(stderr, "cgrac: error: %s: cannot remove an earlier run's file: %s\n", path, strerror(errno));
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove_file(path) ? 0 : -1;
}

int verify_clear(const char *out, const char *app)
{
	static const char *const flow[] = { "bs", "io.yaml", "report.yaml", "svg", "mapped.json", "place", "route",
					    "ubuf", "mem", "dfg.json", "lowered" };
	static const char *const images[] = { "golden", "lowered", "buffers" };
	static const char *const exts[] = { "pgm", "ppm", "raw", "npy" };
	char *path = util_path_join(out, "app.txt");
	int ok = remove_file(path);
	free(path);
	for (size_t i = 0; ok && i < sizeof flow / sizeof *flow; i++) {
		path = xasprintf("%s/%s.%s", out, app, flow[i]);
		ok = remove_file(path);
		free(path);
	}
	for (size_t i = 0; ok && i < sizeof images / sizeof *images; i++)
		for (size_t e = 0; ok && e < sizeof exts / sizeof *exts; e++) {
			path = xasprintf("%s/%s.%s", out, images[i], exts[e]);
			ok = remove_file(path);
			free(path);
		}
	path = util_path_join(out, "fast");
	if (ok && util_is_dir(path))
		ok = nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
	free(path);
	return ok;
}

/* ---- comparisons ---- */

int verify_corrupt(const char *path)
{
	size_t n;
	char *b = util_read_file(path, &n);
	FILE *f = b && n ? fopen(path, "wb") : NULL;
	int ok = f != NULL;
	if (ok) {
		b[n - 1] ^= 1;
		ok = fwrite(b, 1, n, f) == n;
		ok &= fclose(f) == 0;
	}
	if (!ok)
		fprintf(stderr, "cgrac: error: --corrupt-golden: cannot rewrite %s\n", path);
	free(b);
	return ok;
}

int verify_same(const char *a, const char *b)
{
	size_t na, nb;
	char *x = util_read_file(a, &na), *y = util_read_file(b, &nb);
	int same = x && y && na == nb && !memcmp(x, y, na);
	free(x);
	free(y);
	return same;
}

char *verify_failure(const Diags *d, int from, const char *what)
{
	const Diag *g = diags_first_error(d, from);
	return g ? xstrdup(g->msg) : xasprintf("%s failed (the messages above say why)", what);
}

/* ---- the fast simulator ---- */

/* bin/cgrasim beside this cgrac (build/san/bin/cgrasim beside the
 * sanitized one), or NULL with a message. */
static char *fast_simulator(void)
{
	char *self = util_exe_path();
	if (!self) {
		fprintf(stderr, "cgrac: error: --simulate: cannot find its own program (/proc/self/exe)\n");
		return NULL;
	}
	*strrchr(self, '/') = 0;
	char *path = xasprintf("%s/cgrasim", self);
	free(self);
	if (access(path, X_OK) != 0) {
		fprintf(stderr, "cgrac: error: --simulate: no fast simulator %s beside cgrac (make build)\n", path);
		free(path);
		return NULL;
	}
	return path;
}

char *verify_simulate(const char *out, const char *app, const char *design, int quiet)
{
	char *sim = fast_simulator();
	if (!sim)
		return xstrdup("SIM FAILED: no fast simulator beside cgrac (make build)");
	char *dir = util_path_join(out, "fast"), *io = xasprintf("%s/%s.io.yaml", out, app);
	char *activity = util_path_join(dir, "activity.yaml");
	VerifAppResult res;
	VerifAppOptions vo = { .io_yaml = io, .design = design, .fast = sim, .activity = activity, .out = dir,
			       .note = "fast simulator", .quiet = 1, .silent = 1, .result = &res };
	char *v;
	if (util_mkdir_p(dir) != 0)
		v = xasprintf("SIM FAILED: %s: cannot create the folder: %s", dir, strerror(errno));
	else if (verif_app_run(&vo) != 0)
		v = xasprintf("SIM FAILED: %s", res.summary);
	else if (res.util)
		v = xasprintf("bit-exact\tcycles=%lld\tpe_used=%d/%d\tpe_busy=%d", res.cycles, res.pes_used,
			      res.pes_total, res.pe_busy);
	else
		v = xasprintf("bit-exact\tcycles=%lld", res.cycles);
	if (!quiet)
		printf("%s\n", res.summary);
	free(sim);
	free(dir);
	free(io);
	free(activity);
	return v;
}

/* ---- the table line ---- */

int verify_write_line(const char *out, const FlowFigures *f, long ms, const char *verdict, const char *message)
{
	char *path = util_path_join(out, "app.txt"), *m = xstrdup(message ? message : "");
	for (char *c = m; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	OutSet *set = outset_new();
	FILE *fp = outset_open(set, path);
	if (fp && f)
		fprintf(fp, "%d\t%d\t%d\t%d+%d\t%.1f\t%lld\t", f->pes, f->mems, f->registers, f->tracks16, f->tracks1,
			f->clock_mhz, f->latency);
	else if (fp)
		fputs("-\t-\t-\t-\t-\t-\t", fp);
	if (fp && ms >= 0)
		fprintf(fp, "%ld\t%s%s\n", ms, verdict, m);
	else if (fp)
		fprintf(fp, "-\t%s%s\n", verdict, m);
	int ok = fp ? outset_commit(set) == 0 : (outset_abort(set), 0);
	free(path);
	free(m);
	return ok;
}
