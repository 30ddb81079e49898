/* yamlr.h - YAML documents read with libyaml into a tree that keeps the source
 * position of every node, so that checkers can say file:line:col of a problem.
 * Mappings keep their keys in document order; duplicate keys are an error. */
#ifndef COMMON_YAMLR_H
#define COMMON_YAMLR_H

#include "arena.h"
#include "diag.h"

typedef enum { YN_SCALAR, YN_MAP, YN_SEQ } YNodeKind;
typedef enum { YS_PLAIN, YS_SINGLE, YS_DOUBLE, YS_LITERAL, YS_FOLDED, YS_OTHER } YScalarStyle;

typedef struct YNode YNode;
struct YNode {
	YNodeKind kind;
	const char *file;
	int line, col;      /* 1-based position of the node's first character */
	const char *value;  /* scalar text ("" for others) */
	YScalarStyle style;
	int len;            /* pairs of a map, items of a sequence */
	YNode **keys;       /* map keys (scalars) */
	YNode **vals;       /* map values */
	YNode **items;      /* sequence items */
};

typedef struct YDoc {
	Arena *arena;
	const char *file;
	const char *text;
	YNode *root;        /* NULL for an empty document */
} YDoc;

/* The largest YAML file read: 16 MiB (a spec, collateral, a sweep); a larger
 * one is refused, "file too large: N bytes, the limit is 16777216". */
#define YAML_READ_MAX ((size_t)16 << 20)

/* Reads and parses path (at most YAML_READ_MAX bytes); registers its text with
 * d. NULL if the file cannot be read or is not well-formed YAML (the errors
 * are reported to d). */
__give YDoc *ydoc_load_file(const char *path, __keep Diags *d);
/* Same for text already in memory, named file in messages. */
__give YDoc *ydoc_load_string(const char *file, const char *text, __keep Diags *d);
void ydoc_free(__take YDoc *doc);

/* Reads the root mapping of a spec into ctx, reporting what is wrong. */
typedef void (*YRootRead)(void *ctx, const YNode *root);
/* The part every spec reader shares: loads the one document of path (of
 * text, named path, when text is not NULL) into *doc, then hands its root to
 * read(ctx, root) if it is a mapping that has key (any mapping when key is
 * NULL), or reports "expected WHAT" at the root (at 1:1 for an empty
 * document). Returns 1 if the document loaded and no error was reported
 * meanwhile. *doc is set before read runs; NULL if the document did not
 * load, it is the caller's to free either way. */
int ydoc_read(const char *path, const char *text, const char *key, const char *what, YRootRead read,
	      void *ctx, __give YDoc **doc, __keep Diags *d);

/* The value of key in a map (NULL if absent or map is not a map). */
YNode *ymap_get(const YNode *map, const char *key);
/* The key node of key (for positions), or NULL. */
YNode *ymap_key(const YNode *map, const char *key);
/* Reports every key of map not in allowed (a NULL-terminated list); returns the
 * number of such keys. what names the map in the message. */
int ymap_check_keys(const YNode *map, const char *const *allowed, const char *what, Diags *d);
/* Reports an error at node n's position. */
void ynode_error(Diags *d, const YNode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports an error unless n has kind k; returns 1 if it does. what names the
 * expected thing, e.g. "a mapping of input names to types". */
int ynode_expect(const YNode *n, YNodeKind k, const char *what, Diags *d);

/* Source position of the character at (tline, tcol) (0-based line and column
 * within the scalar's text) of scalar n: exact for literal block scalars ('|')
 * without an indentation indicator, for single-line quoted scalars and for
 * plain scalars folded over several lines; approximate (the right line at
 * least) for folded ('>') scalars and multi-line quoted ones. */
void yscalar_pos(const YDoc *doc, const YNode *n, int tline, int tcol, int *line, int *col);

/* The same for many characters of one scalar: ypos_init does the work once
 * (for plain scalars, one walk of the source), ypos_get is then O(1). */
typedef struct YPosMap {
	const YDoc *doc;
	const YNode *n;
	int indent;             /* block scalars */
	int *lines, *cols;      /* plain scalars: per character of the text */
	int len;
} YPosMap;
void ypos_init(YPosMap *m, const YDoc *doc, const YNode *n);
void ypos_get(const YPosMap *m, int tline, int tcol, int *line, int *col);
void ypos_free(YPosMap *m);

/* Parses a scalar as a number (decimal, 0x, 0b, optional sign and fraction for
 * doubles); 0 on success. */
int yscalar_int(const YNode *n, long long *out);
int yscalar_double(const YNode *n, double *out);

/* Readers of spec values that report what is wrong at the node:
 * an integer in [lo, hi] (dflt when n is NULL), true/false (false when n is
 * NULL), one of a NULL-terminated list of words (its index, or -1). Each
 * returns 0 (or -1) after reporting an error. */
int yread_int(Diags *d, const YNode *n, const char *what, long lo, long hi, long dflt, int *out);
int yread_bool(Diags *d, const YNode *n, const char *what, int *out);
int yread_choice(Diags *d, const YNode *n, const char *what, const char *const *words);

#endif
