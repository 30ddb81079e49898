/* test_diag.c - unit tests of diag.h: diagnostics collected as data, the
 * error limit, printing with the source line and a caret (tabs kept, a source
 * given again replacing the first, no source), and printing sorted by position
 * on a flush.
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

static const TestCase tests[] = {
	{ "diag_collect", test_diag_collect },
	{ "diag_error_limit", test_diag_error_limit },
	{ "diag_print_caret", test_diag_print_caret },
	{ "diag_print_tab_and_replace", test_diag_print_tab_and_replace },
	{ "diag_print_without_source", test_diag_print_without_source },
	{ "diag_prints_sorted_on_flush", test_diag_prints_sorted_on_flush },
};

int main(void)
{
	return check_run("diag", tests, COUNT(tests));
}
