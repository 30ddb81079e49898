/* check.h - the check framework of the C test programs (those of common/
 * and collateral/, test_lake, test_canal, ...): a table of named test
 * functions, CHECK recording a pass or a failure with a message, and the
 * closing line "<suite>: N passed, M failed". Header-only: each test program
 * includes it once. */
#ifndef COMMON_TESTS_CHECK_H
#define COMMON_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../util.h"

static const char *current_test = "?";
static int n_passed, n_failed;

static int check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));

static int check(int ok, const char *fmt, ...)
{
	if (ok) {
		n_passed++;
		return 1;
	}
	n_failed++;
	printf("FAIL %s: ", current_test);
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 0;
}

/* CHECK(cond, fmt, ...): records cond; on failure prints the message. */
#define CHECK(cond, ...) check((cond) ? 1 : 0, __VA_ARGS__)

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct TestCase {
	const char *name;
	void (*fn)(void);
} TestCase;

/* Runs every test, prints the closing line; returns the exit status. */
static int __attribute__((unused)) check_run(const char *suite, const TestCase *tests, int n)
{
	for (int i = 0; i < n; i++) {
		current_test = tests[i].name;
		tests[i].fn();
	}
	printf("%s: %d passed, %d failed\n", suite, n_passed, n_failed);
	return n_failed ? 1 : 0;
}

/* ---- text helpers for tests of readers ---- */

/* text with the first occurrence of from replaced by to (new string). */
static inline char *text_replace1(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		return xstrdup(text);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* The line and column of the first occurrence of what in text. */
static inline void text_position(const char *text, const char *what, int *line, int *col)
{
	const char *at = strstr(text, what);
	*line = 1;
	*col = 1;
	for (const char *p = text; at && p < at; p++) {
		if (*p == '\n')
			(*line)++, *col = 1;
		else
			(*col)++;
	}
}

#endif
