/* test_diag.c - unit tests of diag.h: diagnostics collected as data, the
 * error limit, printing with the source line and a caret (tabs kept, a source
 * given again replacing the first, no source, a long line cut to a window
 * around the caret), printing sorted by position on a flush, repeated
 * diagnostics shown once, and the NUL-byte check of a file's text.
 *
 * Each test is a function run by main (check.h); the last line is
 * "diag: N passed, M failed"; the exit status is 1 if anything failed. */

#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixtures.h"
#include "../diag.h"
#include "../util.h"

/* ---- diag ---- */

static void test_diag_collect(void)
{
	Diags *d = diags_new(NULL);
	diag_error(d, "f.yaml", 2, 5, "bad %s", "thing");
	diag_warning(d, "g.yaml", 7, 1, "odd");
	diag_note(d, NULL, 0, 0, "just so you know");
	CHECK(diags_count(d) == 3 && diags_errors(d) == 1, "count %d errors %d, want 3 and 1",
	      diags_count(d), diags_errors(d));
	const Diag *g = diags_get(d, 0);
	CHECK(str_eq(g->file, "f.yaml") && g->line == 2 && g->col == 5 && g->sev == DIAG_ERROR &&
		  str_eq(g->msg, "bad thing"),
	      "fields of the first diagnostic");
	g = diags_get(d, 1);
	CHECK(g->sev == DIAG_WARNING && str_eq(g->msg, "odd") && g->line == 7,
	      "fields of the warning");
	g = diags_get(d, 2);
	CHECK(g->sev == DIAG_NOTE && g->file == NULL && g->line == 0, "fields of the note");
	diags_free(d);
	diags_free(NULL);
}

/* The first error from a diagnostic on: warnings skipped, NULL past the last. */
static void test_diag_first_error(void)
{
	Diags *d = diags_new(NULL);
	diag_warning(d, "g.yaml", 1, 1, "odd");
	diag_error(d, "f.yaml", 2, 5, "first");
	diag_error(d, "f.yaml", 3, 1, "second");
	const Diag *a = diags_first_error(d, 0), *b = diags_first_error(d, 2), *c = diags_first_error(d, 3);
	CHECK(a && str_eq(a->msg, "first") && b && str_eq(b->msg, "second") && !c,
	      "first errors from 0, 2 and 3: %s, %s, %s", a ? a->msg : "none", b ? b->msg : "none", c ? c->msg : "none");
	diags_free(d);
}

static void test_diag_error_limit(void)
{
	Diags *d = diags_new(NULL);
	for (int i = 0; i < 150; i++)
		diag_error(d, "f", i + 1, 1, "error %d", i);
	CHECK(diags_count(d) == 100, "%d of 150 errors kept, want 100", diags_count(d));
	CHECK(diags_errors(d) >= 100, "errors counted %d", diags_errors(d));
	diags_free(d);
}

/* The text diags_print writes for diagnostic i of d. */
static char *print_to_string(const Diags *d, int i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return xstrdup("(open_memstream failed)");
	diags_print(d, diags_get(d, i), f);
	fclose(f);
	return buf;
}

/* Splits s into at most 3 lines in place; returns how many there are. */
static int split_lines(char *s, char *lines[3])
{
	int n = 0;
	while (*s && n < 3) {
		lines[n++] = s;
		char *nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	return n;
}

static void test_diag_print_caret(void)
{
	Diags *d = diags_new(NULL);
	diags_add_source(d, "f.yaml", "a: 1\nb:  xyz\nc: 3\n");
	diag_error(d, "f.yaml", 2, 5, "msg");
	char *out = print_to_string(d, 0);
	char *l[3];
	int n = split_lines(out, l);
	CHECK(n == 3, "%d lines printed, want 3", n);
	if (n == 3) {
		CHECK(str_eq(l[0], "f.yaml:2:5: error: msg"), "first line \"%s\"", l[0]);
		char *text = strstr(l[1], "b:  xyz");
		CHECK(text && str_eq(text, "b:  xyz"), "second line \"%s\" lacks the source", l[1]);
		char *caret = strchr(l[2], '^');
		CHECK(text && caret && caret - l[2] == (text - l[1]) + 4 && caret[1] == '\0',
		      "caret line \"%s\" not under column 5 of \"%s\"", l[2], l[1]);
		CHECK(text && caret && strspn(l[2] + (text - l[1]), " ") == 4,
		      "caret line \"%s\" pads with other than spaces", l[2]);
	}
	free(out);
	diags_free(d);
}

static void test_diag_print_tab_and_replace(void)
{
	Diags *d = diags_new(NULL);
	diags_add_source(d, "t.yaml", "old\n");
	diags_add_source(d, "t.yaml", "\tx: 1\r\n");
	diag_error(d, "t.yaml", 1, 2, "tabbed");
	char *out = print_to_string(d, 0);
	CHECK(str_eq(out, "t.yaml:1:2: error: tabbed\n    1 | \tx: 1\n      | \t^\n"),
	      "tab-indented caret or replaced source, got \"%s\"", out);
	free(out);
	diags_free(d);
}

static void test_diag_print_without_source(void)
{
	static const struct {
		const char *file;
		int line, col;
		const char *want;
	} cases[] = {
		{ "g.yaml", 3, 1, "g.yaml:3:1: error: m\n" },
		{ "f.yaml", 9, 2, "f.yaml:9:2: error: m\n" }, /* f.yaml has 2 lines */
		{ "g.yaml", 0, 0, "g.yaml: error: m\n" },
		{ NULL, 0, 0, "error: m\n" },
	};
	Diags *d = diags_new(NULL);
	diags_add_source(d, "f.yaml", "a\nb\n");
	for (int i = 0; i < COUNT(cases); i++) {
		diag_error(d, cases[i].file, cases[i].line, cases[i].col, "m");
		char *out = print_to_string(d, i);
		CHECK(str_eq(out, cases[i].want), "printed \"%s\", want \"%s\"", out, cases[i].want);
		free(out);
	}
	diags_free(d);
}

/* Nothing is printed before a flush; a flush prints in position order. */
static void test_diag_prints_sorted_on_flush(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!CHECK(f != NULL, "open_memstream failed"))
		return;
	Diags *d = diags_new(f);
	diag_warning(d, "w.c", 4, 2, "careful");
	diag_error(d, "w.c", 2, 7, "first");
	diag_error(d, "w.c", 4, 1, "second");
	fflush(f);
	CHECK(len == 0, "printed before the flush: \"%s\"", buf);
	diags_flush(d);
	fflush(f);
	CHECK(str_eq(buf, "w.c:2:7: error: first\nw.c:4:1: error: second\nw.c:4:2: warning: careful\n"),
	      "printed \"%s\"", buf);
	diags_free(d);
	fclose(f);
	free(buf);
}

/* A long line is shown as a window of at most 120 characters around the
 * caret, "..." where it is cut, the caret under the same character. */
static void test_diag_print_long_line(void)
{
	enum { N = 100000 };
	char *text = xmalloc(N + 64);
	for (int i = 0; i < N; i++)
		text[i] = (char)('a' + i % 26);
	memcpy(text + 50000, "HERE", 4);
	strcpy(text + N, "\nshort line\n");
	Diags *d = diags_new(NULL);
	diags_add_source(d, "long.hl", text);
	diag_error(d, "long.hl", 1, 50001, "in the middle");
	diag_error(d, "long.hl", 1, 3, "near the start");
	diag_error(d, "long.hl", 1, N - 1, "near the end");
	diag_error(d, "long.hl", 1, N + 1, "just past the end");
	diag_error(d, "long.hl", 2, 7, "a short line");
	static const struct {
		const char *pre, *post, *at; /* "..." marks, the text at the caret */
	} want[] = {
		{ "...", "...", "HERE" }, { "", "...", "cdef" }, { "...", "", "cd" }, { "...", "", "" },
		{ "", "", "line" },
	};
	for (int i = 0; i < COUNT(want); i++) {
		char *out = print_to_string(d, i);
		char *l[3];
		int n = split_lines(out, l);
		if (!CHECK(n == 3, "case %d: %d lines printed, want 3", i, n)) {
			free(out);
			continue;
		}
		char *src = strstr(l[1], "| ") + 2, *car = strstr(l[2], "| ") + 2;
		size_t len = strlen(src), pre = strlen(want[i].pre), post = strlen(want[i].post);
		CHECK(len <= 120 + pre + post, "case %d: %zu characters shown", i, len);
		CHECK(strncmp(src, want[i].pre, pre) == 0 && (pre || strncmp(src, "...", 3) != 0),
		      "case %d: start of \"%.20s\"", i, src);
		CHECK(len >= post && strcmp(src + len - post, want[i].post) == 0 &&
			  (post || len < 3 || strcmp(src + len - 3, "...") != 0),
		      "case %d: end of \"...%s\"", i, len > 20 ? src + len - 20 : src);
		char *caret = strchr(car, '^');
		CHECK(caret && caret[1] == '\0' && (size_t)(caret - car) <= len &&
			  strncmp(src + (caret - car), want[i].at, strlen(want[i].at)) == 0,
		      "case %d: caret at \"%.6s\"", i, caret ? src + (caret - car) : "(none)");
		free(out);
	}
	diags_free(d);
	free(text);
}

/* The window does not cut a UTF-8 character in two. */
static void test_diag_print_long_line_utf8(void)
{
	StrBuf b = { 0 };
	for (int i = 0; i < 100; i++)
		sb_printf(&b, "\xc3\xa9");    /* U+00E9, two bytes each */
	sb_printf(&b, "X");
	for (int i = 0; i < 100; i++)
		sb_printf(&b, "\xc3\xa9");
	Diags *d = diags_new(NULL);
	diags_add_source(d, "u.hl", b.s);
	diag_error(d, "u.hl", 1, 201, "X");
	char *out = print_to_string(d, 0);
	char *l[3];
	if (CHECK(split_lines(out, l) == 3, "3 lines")) {
		char *src = strstr(l[1], "| ") + 2;
		CHECK(strncmp(src, "...\xc3", 4) == 0, "the window starts inside a character: \"%.8s\"", src);
		size_t len = strlen(src);
		CHECK(len > 4 && strcmp(src + len - 3, "...") == 0 && (unsigned char)src[len - 5] == 0xc3,
		      "the window ends inside a character");
	}
	free(out);
	free(b.s);
	diags_free(d);
}

/* A diagnostic equal to one already reported (a check on two copies of one
 * expression) counts but is shown once; notes and other messages are kept. */
static void test_diag_repeats_shown_once(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!CHECK(f != NULL, "open_memstream failed"))
		return;
	Diags *d = diags_new(f);
	diag_error(d, "a.hl", 4, 15, "non-affine");
	diag_error(d, "a.hl", 4, 15, "non-affine");
	diag_error(d, "a.hl", 4, 16, "non-affine");
	diag_error(d, "a.hl", 4, 15, "another");
	diag_error(d, "b.hl", 4, 15, "non-affine");
	diag_note(d, "a.hl", 2, 1, "declared here");
	diag_note(d, "a.hl", 2, 1, "declared here");
	diags_flush(d);
	diag_error(d, "a.hl", 4, 15, "non-affine");     /* after a flush as well */
	diags_flush(d);
	fflush(f);
	CHECK(diags_errors(d) == 6, "%d errors counted, want 6", diags_errors(d));
	CHECK(diags_count(d) == 6, "%d diagnostics kept, want 6", diags_count(d));
	CHECK(str_eq(buf, "a.hl:2:1: note: declared here\na.hl:2:1: note: declared here\n"
			  "a.hl:4:15: error: non-affine\na.hl:4:15: error: another\na.hl:4:16: error: non-affine\n"
			  "b.hl:4:15: error: non-affine\n"),
	      "printed \"%s\"", buf);
	diags_free(d);
	fclose(f);
	free(buf);
}

/* diags_check_nul: the first NUL byte of a text read whole, at its position. */
static void test_diag_check_nul(void)
{
	static const char text[] = "ab\ncd\0ef\0";
	Diags *d = diags_new(NULL);
	CHECK(diags_check_nul(d, "t.hl", text, 2) == 1 && diags_count(d) == 0, "no NUL in the first 2 bytes");
	CHECK(diags_check_nul(d, "t.hl", text, sizeof text - 1) == 0, "a NUL found");
	const Diag *g = diags_count(d) == 1 ? diags_get(d, 0) : NULL;
	CHECK(g && g->line == 2 && g->col == 3 && str_eq(g->msg, "the file contains a NUL byte"),
	      "reported at %d:%d", g ? g->line : 0, g ? g->col : 0);
	char *out = g ? print_to_string(d, 0) : NULL;
	CHECK(out && str_eq(out, "t.hl:2:3: error: the file contains a NUL byte\n    2 | cd\n      |   ^\n"),
	      "printed \"%s\"", out ? out : "");
	free(out);
	diags_free(d);
}

static const TestCase tests[] = {
	{ "diag_collect", test_diag_collect },
	{ "diag_first_error", test_diag_first_error },
	{ "diag_error_limit", test_diag_error_limit },
	{ "diag_print_caret", test_diag_print_caret },
	{ "diag_print_tab_and_replace", test_diag_print_tab_and_replace },
	{ "diag_print_without_source", test_diag_print_without_source },
	{ "diag_prints_sorted_on_flush", test_diag_prints_sorted_on_flush },
	{ "diag_print_long_line", test_diag_print_long_line },
	{ "diag_print_long_line_utf8", test_diag_print_long_line_utf8 },
	{ "diag_repeats_shown_once", test_diag_repeats_shown_once },
	{ "diag_check_nul", test_diag_check_nul },
};

int main(void)
{
	return check_run("diag", tests, COUNT(tests));
}
