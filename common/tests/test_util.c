/* test_util.c - unit tests of the small utilities: util.h (atomic output
 * sets, mkdir -p, whole-file reading, path joining, FNV-1a, xasprintf), the
 * seeded random generator (rng.h) and the Verilog writing helpers (vwrite.h:
 * literals, ranges, keywords, indented lines).
 *
 * Each test is a function run by main (check.h); the last line is
 * "util: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fixtures.h"
#include "../rng.h"
#include "../util.h"
#include "../vwrite.h"

/* ---- util ---- */

/* A fresh temporary folder; the caller removes it. */
static char *make_temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ = xasprintf("%s/test_util.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(templ)) {
		free(templ);
		return NULL;
	}
	return templ;
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Entries of dir other than . and .. (-1 if it cannot be read). */
static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int file_has(const char *path, const char *want)
{
	char *text = util_read_file(path, NULL);
	int ok = text && strcmp(text, want) == 0;
	free(text);
	return ok;
}

/* stderr sent to /dev/null until quiet_end (for error messages expected
 * here); what quiet_end needs back. */
typedef struct Quiet {
	int saved, null;
} Quiet;

static Quiet quiet_begin(void)
{
	fflush(stderr);
	Quiet q = { dup(2), open("/dev/null", O_WRONLY) };
	if (q.null >= 0)
		dup2(q.null, 2);
	return q;
}

static void quiet_end(Quiet q)
{
	fflush(stderr);
	if (q.saved >= 0) {
		dup2(q.saved, 2);
		close(q.saved);
	}
	if (q.null >= 0)
		close(q.null);
}

/* outset_open with its error message (expected here) sent to /dev/null. */
static FILE *outset_open_quietly(OutSet *set, const char *path)
{
	Quiet q = quiet_begin();
	FILE *f = outset_open(set, path);
	quiet_end(q);
	return f;
}

static void test_outset_commit_abort(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	char *a = util_path_join(dir, "a.v"), *b = util_path_join(dir, "b.yaml");
	OutSet *set = outset_new();
	FILE *fa = outset_open(set, a), *fb = outset_open(set, b);
	CHECK(fa && fb, "outset_open failed");
	if (fa && fb) {
		fputs("module a;\n", fa);
		fputs("b: 1\n", fb);
		CHECK(!file_exists(a) && !file_exists(b), "files appear before commit");
	}
	CHECK(outset_commit(set) == 0, "outset_commit failed");
	CHECK(file_has(a, "module a;\n") && file_has(b, "b: 1\n"), "committed contents");
	CHECK(dir_entries(dir) == 2, "%d entries after commit, want 2", dir_entries(dir));
	remove(a);
	remove(b);

	set = outset_new();
	fa = outset_open(set, a);
	fb = outset_open(set, b);
	if (fa && fb) {
		fputs("x", fa);
		fputs("y", fb);
	}
	outset_abort(set);
	CHECK(!file_exists(a) && !file_exists(b) && dir_entries(dir) == 0,
	      "files or temporaries remain after abort");

	/* a temporary a killed run left goes when the file is opened again; a running process's stays */
	char *dead = xasprintf("%s.tmp2147480000", a), *alive = xasprintf("%s.tmp%ld", a, (long)getppid());
	fclose(fopen(dead, "w"));
	fclose(fopen(alive, "w"));
	set = outset_new();
	outset_open(set, a);
	outset_abort(set);
	CHECK(!file_exists(dead) && file_exists(alive) && dir_entries(dir) == 1,
	      "the dead run's temporary removed, the running one's kept (%d entries)", dir_entries(dir));
	remove(alive);
	free(dead);
	free(alive);

	set = outset_new();
	char *missing = util_path_join(dir, "no/such/dir/f");
	CHECK(outset_open_quietly(set, missing) == NULL, "outset_open into a missing folder");
	outset_abort(set);
	free(missing);
	free(a);
	free(b);
	rmdir(dir);
	free(dir);
}

static void test_util_mkdir_and_read(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	char *deep = xasprintf("%s/x/y/z", dir);
	CHECK(util_mkdir_p(deep) == 0 && file_exists(deep), "util_mkdir_p nested");
	CHECK(util_mkdir_p(deep) == 0, "util_mkdir_p on an existing folder");
	CHECK(util_mkdir_p("") == -1 && errno == ENOENT, "util_mkdir_p of an empty path fails as mkdir does");
	char *slash = xasprintf("%s/x/w/", dir);
	CHECK(util_mkdir_p(slash) == 0 && file_exists(slash), "util_mkdir_p with a trailing slash");
	char *file = util_path_join(deep, "f.bin");
	FILE *f = fopen(file, "wb");
	size_t big = 10000;
	for (size_t i = 0; f && i < big; i++)
		fputc(i == 5 ? 0 : 'a' + (int)(i % 26), f);
	if (f)
		fclose(f);
	size_t len = 0;
	char *text = util_read_file(file, &len);
	CHECK(text && len == big && text[len] == '\0' && text[5] == 0 && text[6] == 'g' &&
		      text[big - 1] == 'a' + (int)((big - 1) % 26),
	      "util_read_file of %zu bytes gave %zu", big, len);
	free(text);
	CHECK(util_read_file(dir, NULL) == NULL, "reading a folder gives text");
	char *none = util_path_join(dir, "missing");
	CHECK(util_read_file(none, &len) == NULL, "reading a missing file");
	static const char *const made[] = { "x/y/z/f.bin", "x/y/z", "x/y", "x/w", "x", "" };
	int cleaned = 1;
	for (int i = 0; i < COUNT(made); i++) {
		char *p = util_path_join(dir, made[i]);
		cleaned &= remove(p) == 0;
		free(p);
	}
	CHECK(cleaned, "%s did not hold exactly what the test made", dir);
	free(none);
	free(file);
	free(slash);
	free(deep);
	free(dir);
}

/* Writes text to path (a plain fopen: the old files of a set). */
static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* outset_commit with its error messages (expected here) sent to /dev/null. */
static int outset_commit_quietly(OutSet *set)
{
	Quiet q = quiet_begin();
	int r = outset_commit(set);
	quiet_end(q);
	return r;
}

/* The marker of a set is renamed last, its old copy removed first: a rename
 * that fails (here onto a folder) leaves no marker and none of the files the
 * commit renamed, whichever file it is. */
static void test_outset_marker_and_rollback(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	const char *names[] = { "a.v", "design.yaml", "c.map" };
	char *p[3];
	for (int i = 0; i < 3; i++)
		p[i] = util_path_join(dir, names[i]);
	for (int blocked = 0; blocked < 3; blocked++) {
		for (int i = 0; i < 3; i++)
			put_file(p[i], "old\n");
		remove(p[blocked]);
		mkdir(p[blocked], 0777);        /* a rename onto a folder fails */
		OutSet *set = outset_new();
		FILE *f0 = outset_open(set, p[0]), *f1 = outset_open_marker(set, p[1]);
		FILE *f2 = outset_open(set, p[2]);
		if (CHECK(f0 && f1 && f2, "outset_open failed")) {
			fputs("new\n", f0);
			fputs("new\n", f1);
			fputs("new\n", f2);
		}
		CHECK(outset_commit_quietly(set) != 0, "commit onto the folder %s succeeded", names[blocked]);
		CHECK(!file_exists(p[1]) || blocked == 1, "the marker stayed after a failed commit (%s blocked)",
		      names[blocked]);
		for (int i = 0; i < 3; i++)
			CHECK(i == blocked || !file_has(p[i], "new\n"), "%s written by a failed commit (%s blocked)",
			      names[i], names[blocked]);
		CHECK(dir_entries(dir) <= 3, "temporaries left after a failed commit (%s blocked): %d entries",
		      names[blocked], dir_entries(dir));
		rmdir(p[blocked]);
		for (int i = 0; i < 3; i++)
			remove(p[i]);
	}
	/* without outset_open_marker the last file opened is the marker */
	put_file(p[2], "old\n");
	mkdir(p[0], 0777);
	OutSet *set = outset_new();
	FILE *fa = outset_open(set, p[0]), *fc = outset_open(set, p[2]);
	if (fa && fc)
		fputs("new\n", fc);
	CHECK(outset_commit_quietly(set) != 0 && !file_exists(p[2]), "the last file opened is not the marker");
	rmdir(p[0]);
	/* a failed write (abort) leaves the old set whole */
	for (int i = 0; i < 3; i++)
		put_file(p[i], "old\n");
	set = outset_new();
	for (int i = 0; i < 3; i++) {
		FILE *f = i == 1 ? outset_open_marker(set, p[i]) : outset_open(set, p[i]);
		if (f)
			fputs("new\n", f);
	}
	outset_abort(set);
	for (int i = 0; i < 3; i++)
		CHECK(file_has(p[i], "old\n"), "%s changed by an aborted set", names[i]);
	CHECK(dir_entries(dir) == 3, "temporaries left after abort");
	/* a complete commit replaces all three */
	set = outset_new();
	for (int i = 0; i < 3; i++) {
		FILE *f = i == 1 ? outset_open_marker(set, p[i]) : outset_open(set, p[i]);
		if (f)
			fputs("new\n", f);
	}
	CHECK(outset_commit(set) == 0, "outset_commit failed");
	for (int i = 0; i < 3; i++) {
		CHECK(file_has(p[i], "new\n"), "%s not replaced by a commit", names[i]);
		remove(p[i]);
		free(p[i]);
	}
	CHECK(dir_entries(dir) == 0, "%s not empty at the end", dir);
	rmdir(dir);
	free(dir);
}

/* A child opens a set, writes to it and then is ended by sig (0: calls
 * exit(3) instead); the status it ended with. */
static int child_with_open_set(const char *dir, int sig)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		OutSet *set = outset_new();
		char *a = util_path_join(dir, "a.v"), *b = util_path_join(dir, "b.yaml");
		FILE *fa = outset_open(set, a), *fb = outset_open(set, b);
		free(a);
		free(b);
		if (!fa || !fb)
			_exit(9);
		fputs("half", fa);
		fflush(fa);
		if (sig)
			raise(sig);
		exit(3);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return status;
}

/* SIGINT, SIGTERM and exit() with a set open remove its temporaries; the
 * process still ends by the signal. */
static void test_outset_signals(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, 0 };
	for (int i = 0; i < COUNT(sigs); i++) {
		int st = child_with_open_set(dir, sigs[i]);
		if (sigs[i])
			CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "signal %d: the child did not end by it (%d)",
			      sigs[i], st);
		else
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "exit: status %d", st);
		CHECK(dir_entries(dir) == 0, "signal %d: %d files left", sigs[i], dir_entries(dir));
	}
	rmdir(dir);
	free(dir);
}

/* Reading is bounded: a file over the limit fails with EFBIG and a message
 * giving its size and the limit; /dev/zero stops at the limit. */
static void test_util_read_bound(void)
{
	char *dir = make_temp_dir();
	if (!CHECK(dir != NULL, "mkdtemp failed"))
		return;
	char *p = util_path_join(dir, "ten");
	put_file(p, "0123456789");
	size_t len = 0;
	char *text = util_read_file_max(p, &len, 10);
	CHECK(text && len == 10, "a file of exactly the limit refused");
	free(text);
	errno = 0;
	text = util_read_file_max(p, &len, 9);
	CHECK(!text && errno == EFBIG, "a file over the limit read (errno %d)", errno);
	CHECK(str_eq(util_read_why(EFBIG), "file too large: 10 bytes, the limit is 9"), "message '%s'",
	      util_read_why(EFBIG));
	errno = 0;
	text = util_read_file_max("/dev/zero", &len, 100000);
	CHECK(!text && errno == EFBIG, "/dev/zero read (errno %d)", errno);
	CHECK(str_eq(util_read_why(EFBIG), "file too large: more than 100000 bytes, the limit is 100000"),
	      "message '%s'", util_read_why(EFBIG));
	text = util_read_file("/dev/zero", &len);
	CHECK(!text && errno == EFBIG, "/dev/zero read by util_read_file (errno %d)", errno);
	CHECK(str_eq(util_read_why(ENOENT), strerror(ENOENT)), "util_read_why of another errno");
	remove(p);
	free(p);
	rmdir(dir);
	free(dir);
}

static void test_util_strings_and_hash(void)
{
	static const struct {
		const char *s;
		uint64_t want;
	} fnv[] = {
		{ "", 0xcbf29ce484222325ULL },
		{ "a", 0xaf63dc4c8601ec8cULL },
		{ "foobar", 0x85944171f73967e8ULL },
	};
	for (int i = 0; i < COUNT(fnv); i++) {
		uint64_t h = util_fnv1a(UTIL_FNV_INIT, fnv[i].s, strlen(fnv[i].s));
		CHECK(h == fnv[i].want, "fnv1a(\"%s\") = 0x%llx, want 0x%llx", fnv[i].s, U64(h),
		      U64(fnv[i].want));
	}
	uint64_t chained = util_fnv1a(util_fnv1a(UTIL_FNV_INIT, "foo", 3), "bar", 3);
	CHECK(chained == 0x85944171f73967e8ULL, "chained fnv1a differs");
	static const struct {
		const char *dir, *name, *want;
	} joins[] = { { "a", "b", "a/b" }, { "a/", "b", "a/b" }, { "", "b", "b" }, { "/", "b", "/b" } };
	for (int i = 0; i < COUNT(joins); i++) {
		char *p = util_path_join(joins[i].dir, joins[i].name);
		CHECK(str_eq(p, joins[i].want), "util_path_join(\"%s\", \"%s\") = \"%s\"",
		      joins[i].dir, joins[i].name, p);
		free(p);
	}
	char *s = xasprintf("%d-%s", 12, "ab");
	CHECK(str_eq(s, "12-ab"), "xasprintf");
	free(s);
	double t0 = util_now(), t1 = util_now();
	CHECK(t1 >= t0 && t0 > 0, "util_now is not monotonic");
}

/* ---- rng ---- */

static void test_rng_reproducible(void)
{
	Rng a, b, c;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	rng_seed(&c, 43);
	int same = 1, equal_c = 0;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
		same &= x == y;
		equal_c += x == z;
	}
	CHECK(same, "the same seed gives different sequences");
	CHECK(equal_c == 0, "seeds 42 and 43 agree on %d of 1000 outputs", equal_c);
	Rng zero;
	rng_seed(&zero, 0);
	CHECK(zero.s[0] | zero.s[1] | zero.s[2] | zero.s[3], "seed 0 gives an all-zero state");
	CHECK(rng_next(&zero) != rng_next(&zero), "seed 0 repeats itself");
}

static void test_rng_below(void)
{
	static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, (1ULL << 63) + 1, ~0ULL };
	Rng r;
	rng_seed(&r, 7);
	for (int i = 0; i < COUNT(ns); i++) {
		uint64_t seen_or = 0;
		int ok = 1;
		for (int k = 0; k < 2000; k++) {
			uint64_t x = rng_below(&r, ns[i]);
			ok &= x < ns[i];
			seen_or |= x;
		}
		CHECK(ok, "rng_below(%llu) returned a value >= n", U64(ns[i]));
		if (ns[i] == 1)
			CHECK(seen_or == 0, "rng_below(1) returned nonzero");
		if (ns[i] == 2)
			CHECK(seen_or == 1, "rng_below(2) never returned 1");
	}
	double lo = 1, hi = 0;
	for (int k = 0; k < 2000; k++) {
		double d = rng_double(&r);
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
	}
	CHECK(lo >= 0 && hi < 1 && hi - lo > 0.9, "rng_double range [%g, %g]", lo, hi);
}

static void test_rng_bits(void)
{
	static const int widths[] = { 1, 2, 7, 32, 63, 64 };
	Rng r;
	rng_seed(&r, 99);
	for (int i = 0; i < COUNT(widths); i++) {
		int w = widths[i];
		uint64_t mask = ref_mask(w), seen_or = 0, seen_and = ~0ULL;
		int ok = 1;
		for (int k = 0; k < 2000; k++) {
			uint64_t x = rng_bits(&r, w);
			ok &= (x & ~mask) == 0;
			seen_or |= x;
			seen_and &= x;
		}
		CHECK(ok, "rng_bits(%d) set bits above the width", w);
		CHECK(seen_or == mask && (seen_and & mask) == 0,
		      "rng_bits(%d) never set or never cleared some bit (or 0x%llx, and 0x%llx)", w,
		      U64(seen_or), U64(seen_and));
	}
}

/* ---- vwrite ---- */

static void test_vwrite_literals(void)
{
	static const struct {
		uint64_t v;
		int w;
		const char *want;
	} lits[] = {
		{ 1, 1, "1'b1" },
		{ 0, 1, "1'b0" },
		{ 3, 1, "1'b1" },
		{ 0x11, 16, "16'h0011" },
		{ 5, 3, "3'h5" },
		{ 0x1ff, 8, "8'hff" },
		{ ~0ULL, 64, "64'hffffffffffffffff" },
	};
	char buf[32];
	for (int i = 0; i < COUNT(lits); i++)
		CHECK(str_eq(vw_literal(buf, lits[i].v, lits[i].w), lits[i].want),
		      "vw_literal(0x%llx, %d) = \"%s\", want \"%s\"", U64(lits[i].v), lits[i].w, buf,
		      lits[i].want);
	static const struct {
		int w;
		const char *want;
	} ranges[] = { { 1, "" }, { 2, "[1:0] " }, { 16, "[15:0] " }, { 64, "[63:0] " } };
	for (int i = 0; i < COUNT(ranges); i++)
		CHECK(str_eq(vw_range(buf, ranges[i].w), ranges[i].want),
		      "vw_range(%d) = \"%s\", want \"%s\"", ranges[i].w, buf, ranges[i].want);
}

static void test_vwrite_keywords(void)
{
	static const struct {
		const char *name;
		int want;
	} cases[] = {
		{ "module", 1 }, { "wire", 1 },    { "logic", 1 },  { "always_ff", 1 },
		{ "xor", 1 },    { "tran", 1 },    { "wand", 1 },   { "supply0", 1 },
		{ "ref", 1 },    { "import", 1 },  { "cmos", 1 },   { "endprimitive", 1 },
		{ "foo", 0 },    { "Module", 0 },  { "", 0 },       { "in", 0 },
		{ "a", 0 },      { "data", 0 },    { "out", 0 },    { "wire_", 0 },
	};
	for (int i = 0; i < COUNT(cases); i++)
		CHECK(vw_is_keyword(cases[i].name) == cases[i].want, "vw_is_keyword(\"%s\") = %d",
		      cases[i].name, vw_is_keyword(cases[i].name));
}

static void test_vwrite_lines(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!CHECK(f != NULL, "open_memstream failed"))
		return;
	VWriter w;
	vw_init(&w, f);
	vw_line(&w, "module %s;", "m");
	vw_indent(&w);
	vw_line(&w, "wire a;");
	vw_dedent(&w);
	vw_line(&w, "endmodule");
	fclose(f);
	CHECK(str_eq(buf, "module m;\n    wire a;\nendmodule\n"), "vw_line output \"%s\"", buf);
	free(buf);
}

/* util_parse_number: the whole string a number, decimal, 0x or 0b, checked
 * against its range however many digits it has. */
static void test_util_parse_number(void)
{
	static const struct {
		const char *text;
		uint64_t lo, hi;
		int rc;
		uint64_t want;
	} cases[] = {
		{ "0", 0, 10, 0, 0 },
		{ "10", 0, 10, 0, 10 },
		{ "007", 0, 10, 0, 7 },
		{ "0x1F", 0, 100, 0, 31 },
		{ "0b101", 0, 100, 0, 5 },
		{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "0xffffffffffffffff", 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 0, UINT64_MAX, -2, 0 },
		{ "99999999999999999999", 0, 1000000, -2, 0 },
		{ "0x10000000000000000", 0, UINT64_MAX, -2, 0 },
		{ "2147483648", 0, 100000000, -2, 0 },
		{ "11", 0, 10, -2, 0 },
		{ "0", 1, 16, -2, 0 },
		{ "", 0, 10, -1, 0 },
		{ "-1", 0, 10, -1, 0 },
		{ "+1", 0, 10, -1, 0 },
		{ " 1", 0, 10, -1, 0 },
		{ "1 ", 0, 10, -1, 0 },
		{ "4x", 0, 10, -1, 0 },
		{ "1e5", 0, 1000000, -1, 0 },
		{ "0x", 0, 10, -1, 0 },
		{ "0b2", 0, 10, -1, 0 },
		{ "0xg", 0, 10, -1, 0 },
	};
	for (int i = 0; i < COUNT(cases); i++) {
		uint64_t v = 12345;
		int rc = util_parse_number(cases[i].text, cases[i].lo, cases[i].hi, &v);
		CHECK(rc == cases[i].rc && (rc ? v == 12345 : v == cases[i].want),
		      "util_parse_number('%s', %llu, %llu) = %d, %llu", cases[i].text, (unsigned long long)cases[i].lo,
		      (unsigned long long)cases[i].hi, rc, (unsigned long long)v);
	}
}

static const TestCase tests[] = {
	{ "util_parse_number", test_util_parse_number },
	{ "outset_commit_abort", test_outset_commit_abort },
	{ "outset_marker_and_rollback", test_outset_marker_and_rollback },
	{ "outset_signals", test_outset_signals },
	{ "util_read_bound", test_util_read_bound },
	{ "util_mkdir_and_read", test_util_mkdir_and_read },
	{ "util_strings_and_hash", test_util_strings_and_hash },
	{ "rng_reproducible", test_rng_reproducible },
	{ "rng_below", test_rng_below },
	{ "rng_bits", test_rng_bits },
	{ "vwrite_literals", test_vwrite_literals },
	{ "vwrite_keywords", test_vwrite_keywords },
	{ "vwrite_lines", test_vwrite_lines },
};

int main(void)
{
	return check_run("util", tests, COUNT(tests));
}
