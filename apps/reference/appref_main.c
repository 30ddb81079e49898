/* appref_main.c - bin/appref: the independent C references of the application
 * suite, their input generator and an image comparer.
 *
 *   appref list
 *   appref info APP
 *   appref run APP IN -o OUT
 *   appref gen APP|WxHxC -o OUT [--yaml FILE] [--pattern random|blocks] [--range LO HI]
 *              [--seed N]
 *   appref cmp A B
 *
 * info prints "input WxHxC output WxHxC"; run computes APP's output from IN
 * with the C reference (ref_<app>.c); gen writes a deterministic input of APP's
 * size or the size given (gen.h; the options apply in order, so --yaml first and the others
 * override it; by default random, 0..255, seed 1); cmp compares two images
 * sample by sample (exit 0 when equal, 1 when not). Images are .pgm/.ppm, or
 * .raw where the size is known (run's input and output, gen's output). Exit
 * status 2 on a usage or file error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "ref.h"

static const RefApp *const apps[] = {
	&ref_brighten_blur, &ref_gaussian, &ref_cascade, &ref_harris, &ref_unsharp, &ref_upsample,
};

const RefApp *ref_app(int i)
{
	return i >= 0 && i < (int)(sizeof apps / sizeof apps[0]) ? apps[i] : NULL;
}

const RefApp *ref_find(const char *name)
{
	for (int i = 0; ref_app(i); i++)
		if (strcmp(ref_app(i)->name, name) == 0)
			return ref_app(i);
	return NULL;
}

static int usage(FILE *out, int status)
{
	fprintf(out,
		"usage: appref list\n"
		"       appref info APP\n"
		"       appref run APP IN -o OUT\n"
		"       appref gen APP|WxHxC -o OUT [--yaml FILE] [--pattern random|blocks] "
		"[--range LO HI] [--seed N]\n"
		"       appref cmp A B\n"
		"C references of the application suite, their input generator, and an image\n"
		"comparer (exit 0 when equal, 1 when not, 2 on error).\n");
	return status;
}

static const RefApp *find_app(const char *name)
{
	const RefApp *app = ref_find(name);
	if (!app)
		fprintf(stderr, "error: unknown application '%s' (appref list names them)\n", name);
	return app;
}

static int has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), m = strlen(ext);
	return n > m && strcmp(path + n - m, ext) == 0;
}

/* Reads IN for app: .raw of the app's input size, else PGM/PPM. */
static RefImage *read_input(const RefApp *app, const char *path)
{
	if (has_ext(path, ".raw"))
		return refimg_read_raw(path, app->in_w, app->in_h, app->in_c);
	RefImage *in = refimg_read(path);
	if (in && (in->w != app->in_w || in->h != app->in_h || in->c != app->in_c || in->d != 1)) {
		fprintf(stderr, "error: %s: %dx%dx%d, but %s takes %dx%dx%d\n", path, in->w, in->h,
			in->c, app->name, app->in_w, app->in_h, app->in_c);
		refimg_free(in);
		return NULL;
	}
	return in;
}

static int cmd_run(int argc, char **argv)
{
	if (argc != 5 || strcmp(argv[3], "-o") != 0)
		return usage(stderr, 2);
	const RefApp *app = find_app(argv[1]);
	RefImage *in = app ? read_input(app, argv[2]) : NULL;
	if (!in)
		return 2;
	RefImage *out = refimg_new(app->out_w, app->out_h, app->out_c);
	if (!out)
		abort();
	app->run(in, out);
	int status = refimg_write(argv[4], out) == 0 ? 0 : 2;
	refimg_free(in);
	refimg_free(out);
	return status;
}

static int number(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "error: '%s' is not a number in %ld..%ld\n", s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* One option of gen at argv[*i] (they apply in order); advances *i past its
 * values. 0 on success, else an exit status. */
static int gen_option(int argc, char **argv, int *i, GenSettings *s, const char **out)
{
	const char *opt = argv[*i];
	int values = strcmp(opt, "--range") == 0 ? 2 : 1;
	if (*i + values >= argc)
		return usage(stderr, 2);
	const char *v = argv[*i + 1];
	long lo, hi;
	int bad = 0;
	if (strcmp(opt, "-o") == 0) {
		*out = v;
	} else if (strcmp(opt, "--yaml") == 0) {
		bad = gen_read_settings(v, s) != 0;
	} else if (strcmp(opt, "--pattern") == 0) {
		int p = gen_pattern(v);
		bad = p < 0;
		s->pattern = bad ? s->pattern : (GenPattern)p;
	} else if (strcmp(opt, "--seed") == 0) {
		bad = number(v, 0, 2147483647, &lo) != 0;
		s->seed = bad ? s->seed : (uint64_t)lo;
	} else if (strcmp(opt, "--range") == 0) {
		bad = number(v, 0, 65535, &lo) != 0 || number(argv[*i + 2], lo, 65535, &hi) != 0;
		s->lo = bad ? s->lo : (int)lo;
		s->hi = bad ? s->hi : (int)hi;
	} else {
		return usage(stderr, 2);
	}
	if (bad)
		fprintf(stderr, "error: bad %s\n", opt);
	*i += values + 1;
	return bad ? 2 : 0;
}

static int cmd_gen(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr, 2);
	int w, h, c;
	char end;
	const RefApp *app = ref_find(argv[1]);
	if (app)
		w = app->in_w, h = app->in_h, c = app->in_c;
	else if (sscanf(argv[1], "%dx%dx%d%c", &w, &h, &c, &end) != 3) {
		fprintf(stderr, "error: '%s' is neither an application (appref list) nor WxHxC\n",
			argv[1]);
		return 2;
	}
	GenSettings s = { GEN_RANDOM, 0, 255, 1 };
	const char *out = NULL;
	for (int i = 2; i < argc;) {
		int status = gen_option(argc, argv, &i, &s, &out);
		if (status)
			return status;
	}
	if (!out)
		return usage(stderr, 2);
	RefImage *im = gen_image(&s, w, h, c);
	if (!im) {
		fprintf(stderr, "error: bad image size %dx%dx%d\n", w, h, c);
		return 2;
	}
	int status = refimg_write(out, im) == 0 ? 0 : 2;
	refimg_free(im);
	return status;
}

static int cmd_cmp(int argc, char **argv)
{
	if (argc != 3)
		return usage(stderr, 2);
	RefImage *a = refimg_read(argv[1]);
	RefImage *b = a ? refimg_read(argv[2]) : NULL;
	int status = 2;
	if (b)
		status = refimg_compare(a, b, stdout) == 0 ? 0 : 1;
	refimg_free(a);
	refimg_free(b);
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr, 2);
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
		return usage(stdout, 0);
	if (strcmp(cmd, "list") == 0 && argc == 2) {
		for (int i = 0; ref_app(i); i++)
			printf("%s\n", ref_app(i)->name);
		return 0;
	}
	if (strcmp(cmd, "info") == 0 && argc == 3) {
		const RefApp *app = find_app(argv[2]);
		if (!app)
			return 2;
		printf("input %dx%dx%d output %dx%dx%d\n", app->in_w, app->in_h, app->in_c,
		       app->out_w, app->out_h, app->out_c);
		return 0;
	}
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "gen") == 0)
		return cmd_gen(argc - 1, argv + 1);
	if (strcmp(cmd, "cmp") == 0)
		return cmd_cmp(argc - 1, argv + 1);
	return usage(stderr, 2);
}
