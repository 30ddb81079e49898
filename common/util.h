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

/* Whole-file reading, bounded: a file of more than max bytes is refused with
 * errno EFBIG, and reading stops at max + 1 bytes, so an endless input
 * (/dev/zero, a pipe) costs at most max bytes of memory. Returns NULL with
 * errno set if the file cannot be read (EISDIR for a folder); the text is
 * NUL-terminated, its length in *len (len may be NULL). util_read_file uses
 * UTIL_READ_MAX; yamlr reads YAML with the smaller YAML_READ_MAX (yamlr.h). */
#define UTIL_READ_MAX ((size_t)64 << 20)
__give char *util_read_file(const char *path, size_t *len);
__give char *util_read_file_max(const char *path, size_t *len, size_t max);
/* Why the last util_read_file* of this thread failed with err, in words for a
 * message after the file's name: for EFBIG "file too large: N bytes, the limit
 * is M" ("more than M bytes" when the file's size is not known beforehand),
 * for anything else strerror(err). The string is valid until the next read. */
const char *util_read_why(int err);

/* 64-bit FNV-1a over bytes, chainable through h (start with UTIL_FNV_INIT). */
#define UTIL_FNV_INIT 0xcbf29ce484222325ULL
uint64_t util_fnv1a(uint64_t h, const void *data, size_t n);

/* Output files written to a temporary name (PATH.tmpPID) and renamed only
 * when every file of the set is complete, so that a failing tool leaves
 * nothing behind. One file of the set is its marker, the file make takes as
 * "the step is done" (canal's design.yaml): the one opened by
 * outset_open_marker, else the last one opened. A commit of several files
 * removes the old marker before it renames anything and renames the marker
 * last (a single file simply replaces the old one in its rename), so a marker
 * never stands beside files of another run, whenever the tool stops; a rename
 * that fails removes what the commit renamed before it. SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE and SIGABRT (those the tool leaves at their default action) remove
 * every open set's temporaries, then end the process as the signal would; so
 * does exit() with a set still open. A commit runs with those signals held
 * back, so a signal never cuts it in half. Opening a file removes the
 * temporaries of it that processes no longer running left (SIGKILL, which
 * nothing can catch). Use from one thread. Messages are
 * "TOOL: error: PATH: what" on stderr. */
typedef struct OutSet OutSet;
__give OutSet *outset_new(void);
/* Opens path's temporary; NULL (message printed) if it cannot. */
FILE *outset_open(__keep OutSet *set, const char *path);
/* outset_open for the set's marker (at most one per set). */
FILE *outset_open_marker(__keep OutSet *set, const char *path);
/* Closes and renames every file, the marker last; 0 on success. On failure
 * (a file that could not be written or renamed; message printed) removes
 * every temporary and every file renamed, and the old marker is gone if a
 * rename was tried, so that make redoes the step; returns -1. */
int outset_commit(__take OutSet *set);
/* Removes every temporary; the files of an earlier run stay as they were. */
void outset_abort(__take OutSet *set);

/* Joins a folder and a file name into a new string. */
__give char *util_path_join(const char *dir, const char *name);
/* Creates a folder and its parents; 0 on success. */
int util_mkdir_p(const char *dir);
/* 1 if path names a directory. */
int util_is_dir(const char *path);
/* The running program's own file (/proc/self/exe), or NULL if it cannot be
 * found. */
__give char *util_exe_path(void);
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
