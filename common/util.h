/* util.h - allocation that never returns NULL, whole-file reading, atomic output
 * files, FNV hashing and the internal-invariant check used across the project. */
#ifndef COMMON_UTIL_H
#define COMMON_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Ownership annotations in the manner of isl: they expand to nothing. */
#define __give
#define __take
#define __keep

/* Allocation: abort with a message on exhaustion. */
__give void *xmalloc(size_t n);
__give void *xcalloc(size_t count, size_t size);
__give void *xrealloc(__take void *p, size_t n);
__give char *xstrdup(const char *s);
__give char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Internal invariant failure: prints the code's file:line and aborts. */
_Noreturn void util_ice(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define ICE(...) util_ice(__FILE__, __LINE__, __VA_ARGS__)
#define ALWAYS(c) ((c) ? 1 : (util_ice(__FILE__, __LINE__, "assertion failed: %s", #c), 0))

/* Writes a one-line reason into why (if not NULL) for functions that report
 * failure as `0 with a reason in why`; returns 0. */
int util_why(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads a whole file; returns NULL (errno set: EISDIR for a folder) if it
 * cannot. *len may be NULL. */
__give char *util_read_file(const char *path, size_t *len);

/* 64-bit FNV-1a over bytes, chainable through h (start with UTIL_FNV_INIT). */
#define UTIL_FNV_INIT 0xcbf29ce484222325ULL
uint64_t util_fnv1a(uint64_t h, const void *data, size_t n);

/* Output files written to a temporary name and renamed only when every file of
 * the set is complete, so that a failing tool leaves nothing behind. */
typedef struct OutSet OutSet;
__give OutSet *outset_new(void);
/* Opens path's temporary; NULL (message printed) if it cannot. */
FILE *outset_open(__keep OutSet *set, const char *path);
/* Closes and renames every file; 0 on success. A file that fails to be written
 * removes every temporary; a rename that fails (rare: all files share their
 * folders' file system) leaves the files renamed before it in place. */
int outset_commit(__take OutSet *set);
/* Removes every temporary. */
void outset_abort(__take OutSet *set);

/* Joins a folder and a file name into a new string. */
__give char *util_path_join(const char *dir, const char *name);
/* Creates a folder and its parents; 0 on success. */
int util_mkdir_p(const char *dir);
/* 1 if path names a directory. */
int util_is_dir(const char *path);
/* 1 if s is a C-style identifier: a letter or '_', then letters, digits, '_'. */
int util_is_identifier(const char *s);
/* A number written on the command line: decimal, 0x hex or 0b binary digits
 * and nothing else (no sign, no blanks). 0 with *out set; -1 if s is not such
 * a number; -2 if it is one outside [lo, hi] (however many digits it has). */
int util_parse_number(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* The value of a numeric command-line option, read by util_parse_number; on
 * anything else prints "TOOL: OPTION expects a number from LO to HI, got
 * 'VALUE'" on stderr and exits with status 2. Every numeric option of the
 * tools is read through this. */
uint64_t util_option_number(const char *tool, const char *option, const char *value, uint64_t lo, uint64_t hi);
/* Seconds from a monotonic clock. */
double util_now(void);

/* A growing string: StrBuf b = { 0 }; sb_printf(&b, ...); use b.s; free(b.s). */
typedef struct StrBuf {
	char *s;
	size_t len, cap;
} StrBuf;
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
