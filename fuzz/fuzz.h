/* fuzz.h - what the libFuzzer harnesses of fuzz/ share (fuzz/README.md):
 * the input as the text a tool would read, a stream that swallows what is
 * written to it (diagnostics are printed there, so their printing is fuzzed
 * too, yet nothing reaches the terminal per input), the split of one input
 * into two files, and the check that stops the fuzzer on a broken
 * invariant. Header-only: each harness includes it once. */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#define _GNU_SOURCE     /* fopencookie, open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/diag.h"
#include "../common/util.h"

/* The byte that splits an input holding two files (an info file and its
 * rules, a config.map and its routing.graph): ASCII's record separator,
 * which no YAML or line file may hold anyway. */
#define FUZZ_SEP '\x1e'

static inline ssize_t fuzz_swallow(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

/* One stream for the whole run, written to and never read. */
static inline FILE *fuzz_sink(void)
{
	static FILE *sink;
	if (!sink) {
		cookie_io_functions_t io = { .write = fuzz_swallow };
		sink = fopencookie(NULL, "w", io);
		setvbuf(sink, NULL, _IOFBF, 1 << 16);
	}
	return sink;
}

/* Diagnostics printed into the sink when flushed. */
static inline Diags *fuzz_diags(void)
{
	return diags_new(fuzz_sink());
}

/* The input as a NUL-terminated text; NULL when it holds a NUL byte, which
 * every reader of a file refuses first (diags_check_nul, reported to d). */
static inline char *fuzz_text(Diags *d, const char *name, const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	if (!diags_check_nul(d, name, text, size)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Cuts text at its first FUZZ_SEP: the text after it, or NULL if none. */
static inline char *fuzz_split(char *text)
{
	char *sep = strchr(text, FUZZ_SEP);
	if (!sep)
		return NULL;
	*sep = '\0';
	return sep + 1;
}

/* Shows on stderr the diagnostics d holds, before a failed FUZZ_CHECK. */
static inline void fuzz_show(const Diags *d)
{
	for (int i = 0; i < diags_count(d); i++)
		diags_print(d, diags_get(d, i), stderr);
}

/* A broken invariant (a generator's output its reader refuses, a round
 * trip that changes a file): a crash, so that libFuzzer keeps the input. */
#define FUZZ_CHECK(c, ...) \
	do { \
		if (!(c)) { \
			fprintf(stderr, "fuzz: %s:%d: check failed: %s: ", __FILE__, __LINE__, #c); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
