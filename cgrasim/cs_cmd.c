/* cs_cmd.c - command files on the fast simulator (see cs_cmd.h).
 *
 * The file is read whole first: every name it will read (expect, record,
 * print) is observed before the array is compiled, and a file that configures
 * the array again after clocking it (the connectivity bench's phases) keeps
 * every node exact, since the configuring cycles evaluate the whole array. */
#define _POSIX_C_SOURCE 200809L

#include "cs_cmd.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/vec.h"

#define MAX_LABEL 256

typedef struct Tok {
	char *s;
	int col;
} Tok;

/* A line of a command file, cut into words. */
typedef struct Line {
	int line;
	Tok *t;                 /* into Script.toks */
	int n;
} Line;

typedef struct Script {
	const char *path;
	char *text;
	Line *lines;
	int nlines;
	Tok *toks;              /* the words of every line */
} Script;

/* A signal a command names: expectations and mismatches keep the name it was
 * named by (a port or a node). */
typedef struct Sig {
	const char *name;
	int node, width, input;
	int care;
	uint64_t want;
	long key;               /* its place in the harness's order */
} Sig;

typedef struct Drive {
	const char *name;
	int node;
	uint64_t *v;
	long n, next;
} Drive;

typedef struct Record {
	int sig;
	char *file;
	VEC(uint64_t) v;
} Record;

typedef struct Run {
	Cs *s;
	Diags *d;
	const CsCmdOptions *o;
	const char *file;               /* where the current command is */
	int line;
	StrMap index;                   /* name -> Sig */
	VEC(Sig) sigs;
	VEC(Drive) drives;
	VEC(Record) records;
	int all_named;                  /* expect-all: every node and output is a Sig */
	long checks, compared, mismatches, writes, reads;
	char label[MAX_LABEL];
	int *sorted, sorted_len;        /* sigs in the harness's order, for check */
	/* the transcript (--expect-out): the commands again, every node expected
	 * before every clock edge */
	FILE *tx;
	uint64_t *tx_last;
	unsigned char *tx_known;
} Run;

/* Before a clock edge: an expectation for every node whose value changed
 * since the last, and a check. */
static int tx_check(Run *r)
{
	if (!r->tx)
		return 0;
	for (int n = 0; n < cs_nodes(r->s); n++) {
		uint64_t v;
		if (cs_get(r->s, n, &v))
			return -1;
		if (!r->tx_known[n] || r->tx_last[n] != v)
			fprintf(r->tx, "expect %s 0x%" PRIx64 "\n", cs_node_name(r->s, n), v);
		r->tx_known[n] = 1;
		r->tx_last[n] = v;
	}
	fprintf(r->tx, "check cycle %ld\n", cs_cycles(r->s));
	return 0;
}

static int cmd_error(Run *r, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* An error at the current line, shown with the line and a caret (the files
 * read are registered with r->d as they are read). */
static int cmd_error(Run *r, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	diag_vreport(r->d, DIAG_ERROR, r->file, r->line, col, fmt, ap);
	va_end(ap);
	diags_flush(r->d);
	return -1;
}

/* ---- reading a file ---- */


/* Cuts text into lines of words; # starts a comment (the file is at most
 * UTIL_READ_MAX bytes, so are its words). */
static int split(Script *sc)
{
	VEC(Line) lines = { 0 };
	VEC(Tok) toks = { 0 };
	VEC(int) first = { 0 };
	char *p = sc->text;
	int no = 0;
	while (*p) {
		char *end = strchr(p, '\n');
		if (end)
			*end = 0;
		no++;
		char *hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		Line l = { .line = no };
		int at = toks.len;
		char *q = p;
		while (*q) {
			while (*q && isspace((unsigned char)*q))
				q++;
			if (!*q)
				break;
			vec_push(&toks, ((Tok){ q, (int)(q - p) + 1 }));
			l.n++;
			while (*q && !isspace((unsigned char)*q))
				q++;
			if (*q)
				*q++ = 0;
		}
		if (l.n) {
			vec_push(&lines, l);
			vec_push(&first, at);
		}
		if (!end)
			break;
		p = end + 1;
	}
	vec_foreach(&lines, i)
		lines.data[i].t = toks.data + first.data[i];
	vec_free(&first);
	sc->lines = lines.data;
	sc->nlines = lines.len;
	sc->toks = toks.data;
	return 1;
}

static void free_script(Script *sc);

static int load_script(Run *r, const char *path, Script *sc, int col)
{
	size_t len;
	memset(sc, 0, sizeof *sc);
	sc->path = path;
	sc->text = util_read_file(path, &len);
	if (!sc->text) {
		if (col)
			return cmd_error(r, col, "cannot read bitstream '%s': %s", path, util_read_why(errno)) + 1;
		fprintf(stderr, "cgrasim: cannot read '%s': %s\n", path, util_read_why(errno));
		return 0;
	}
	if (!diags_check_nul(r->d, path, sc->text, len)) {
		diags_flush(r->d);
		free_script(sc);
		return 0;
	}
	diags_add_source(r->d, path, sc->text);
	return split(sc);
}

static void free_script(Script *sc)
{
	free(sc->text);
	free(sc->lines);
	free(sc->toks);
	sc->text = NULL;
	sc->lines = NULL;
	sc->toks = NULL;
}

/* ---- signals and numbers ---- */

static uint64_t mask(int w)
{
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int sig(Run *r, const Tok *t)
{
	intptr_t k;
	if (strmap_get(&r->index, t->s, &k))
		return (int)k;
	CsSignal cs;
	if (!cs_signal(r->s, t->s, &cs)) {
		cmd_error(r, t->col, "no port or probe named '%s'", t->s);
		return -1;
	}
	Sig g = { 0 };
	g.name = xstrdup(t->s);
	g.node = cs.node;
	g.width = cs.width;
	g.input = cs.input;
	g.key = cs.port >= 0 ? cs.port : 1000000L + cs.node;
	vec_push(&r->sigs, g);
	strmap_put(&r->index, t->s, r->sigs.len - 1);
	return r->sigs.len - 1;
}

static int number(Run *r, const Tok *t, int width, uint64_t *v)
{
	const char *s = t->s;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2];
	char *end;
	errno = 0;
	*v = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
	if (!*s || *end || errno || s[0] == '-' || isspace((unsigned char)s[0]) || (*v & ~mask(width)))
		return cmd_error(r, t->col, "'%s' is not a number of %d bits", s, width) + 1;
	return 1;
}

/* A 32-bit word in hex, with or without 0x (bus addresses and data). */
static int word(Run *r, const Tok *t, uint32_t *v)
{
	const char *s = t->s;
	int pre = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	size_t len = strlen(s);
	if (!len || len > (pre ? 10u : 8u) || len == (size_t)(pre ? 2 : 0) ||
	    strspn(s + (pre ? 2 : 0), "0123456789abcdefABCDEF") != len - (pre ? 2 : 0))
		return cmd_error(r, t->col, "'%s' is not a 32-bit word in hex", s) + 1;
	*v = (uint32_t)strtoul(s + (pre ? 2 : 0), NULL, 16);
	return 1;
}

static int operands(Run *r, const Line *l, int n)
{
	if (l->n < n + 1) {
		const Tok *last = &l->t[l->n - 1];
		return cmd_error(r, last->col + (int)strlen(last->s), "'%s' needs %d operand%s (verif/README.md)", l->t[0].s,
				 n, n == 1 ? "" : "s") + 1;
	}
	if (l->n > n + 1)
		return cmd_error(r, l->t[n + 1].col, "unexpected '%s'", l->t[n + 1].s) + 1;
	return 1;
}

static char *relative(const char *dir, const char *name)
{
	return name[0] == '/' ? xstrdup(name) : xasprintf("%s%s", dir, name);
}

/* ---- commands ---- */

static int sim_error(Run *r, int col)
{
	return cmd_error(r, col, "%s", cs_error(r->s));
}

/* The cap on cycles (--max-cycles): n more cycles from now stay within it. */
static int within(Run *r, long n, int col)
{
	if (r->o->max_cycles > 0 && cs_cycles(r->s) + n > r->o->max_cycles)
		return cmd_error(r, col, "more than %ld cycles (--max-cycles)", r->o->max_cycles) + 1;
	return 1;
}

/* n cycles, checked one by one in the transcript. */
static int steps(Run *r, long n)
{
	if (!r->tx)
		return cs_step(r->s, n);
	for (long i = 0; i < n; i++) {
		if (tx_check(r) || cs_step(r->s, 1))
			return -1;
		fprintf(r->tx, "step\n");
	}
	return 0;
}

static void mismatch(Run *r, const char *what, uint64_t got, uint64_t want, int width)
{
	if (++r->mismatches <= r->o->max_report || r->o->max_report < 0) {
		int digits = (width + 3) / 4;
		printf("%s:%d: mismatch: %s is %0*" PRIx64 ", expected %0*" PRIx64 " (cycle %ld%s%s)\n", r->file, r->line,
		       what, digits, got, digits, want, cs_cycles(r->s), r->label[0] ? ", " : "", r->label);
	}
}

/* Signals in the harness's order: the array's outputs in port order, then
 * the nodes in graph order (vsim's port table). */
typedef struct Order {
	long key;
	int sig;
} Order;

static int by_key(const void *x, const void *y)
{
	const Order *a = x, *b = y;
	return (a->key > b->key) - (a->key < b->key);
}

static int check(Run *r)
{
	r->checks++;
	if (r->sorted_len != r->sigs.len) {
		Order *o = xmalloc((size_t)(r->sigs.len + 1) * sizeof(Order));
		for (int i = 0; i < r->sigs.len; i++)
			o[i] = (Order){ r->sigs.data[i].key, i };
		qsort(o, (size_t)r->sigs.len, sizeof(Order), by_key);
		r->sorted = xrealloc(r->sorted, (size_t)(r->sigs.len + 1) * sizeof(int));
		for (int i = 0; i < r->sigs.len; i++)
			r->sorted[i] = o[i].sig;
		free(o);
		r->sorted_len = r->sigs.len;
	}
	for (int k = 0; k < r->sigs.len; k++) {
		const Sig *g = &r->sigs.data[r->sorted[k]];
		if (!g->care)
			continue;
		uint64_t v;
		if (cs_get(r->s, g->node, &v))
			return sim_error(r, 1);
		r->compared++;
		if (v != g->want)
			mismatch(r, g->name, v, g->want, g->width);
	}
	return 0;
}

static int drive(Run *r, const char *name, int node, int width, const char *file, int col)
{
	size_t len;
	char *text = util_read_file(file, &len);
	if (!text)
		return cmd_error(r, col, "cannot read '%s': %s", file, util_read_why(errno));
	if (!diags_check_nul(r->d, file, text, len)) {
		diags_flush(r->d);
		free(text);
		return -1;
	}
	diags_add_source(r->d, file, text);
	VEC(uint64_t) v = { 0 };
	const char *outer = r->file;
	int outer_line = r->line;
	r->file = file;
	r->line = 0;
	char *p = text;
	int status = 0;
	while (*p && !status) {
		char *end = strchr(p, '\n');
		if (end)
			*end = 0;
		r->line++;
		char *a = p;
		while (*a && isspace((unsigned char)*a))
			a++;
		char *b = a;
		while (*b && !isspace((unsigned char)*b))
			b++;
		char *c = b;
		while (*c && isspace((unsigned char)*c))
			c++;
		if (a == b || *c) {
			status = cmd_error(r, *c ? (int)(c - p) + 1 : 1, "expected one hexadecimal value per line (a cycle)");
			break;
		}
		*b = 0;
		int pre = a[0] == '0' && (a[1] == 'x' || a[1] == 'X') && b - a > 2 ? 2 : 0;
		if (b - a - pre > 16 || strspn(a + pre, "0123456789abcdefABCDEF") != (size_t)(b - a - pre)) {
			status = cmd_error(r, (int)(a - p) + 1, "'%s' is not a hexadecimal number", a);
			break;
		}
		uint64_t x = strtoull(a + pre, NULL, 16);
		if (x & ~mask(width)) {
			status = cmd_error(r, (int)(a - p) + 1, "'%s' does not fit the %d-bit port %s", a, width, name);
			break;
		}
		vec_push(&v, x);
		if (!end)
			break;
		p = end + 1;
	}
	free(text);
	r->file = outer;
	r->line = outer_line;
	if (status) {
		vec_free(&v);
		return -1;
	}
	vec_foreach(&r->drives, i)
		if (r->drives.data[i].node == node) {
			free(r->drives.data[i].v);
			r->drives.data[i] = (Drive){ name, node, v.data, v.len, 0 };
			return 0;
		}
	vec_push(&r->drives, ((Drive){ name, node, v.data, v.len, 0 }));
	return 0;
}

static int run_cycles(Run *r, long n)
{
	double t0 = util_now(), last = t0;
	for (long k = 0; k < n; k++) {
		vec_foreach(&r->drives, i) {
			Drive *d = &r->drives.data[i];
			uint64_t v = d->next < d->n ? d->v[d->next] : 0;
			cs_set(r->s, d->node, v);
			if (r->tx)
				fprintf(r->tx, "set %s 0x%" PRIx64 "\n", d->name, v);
			d->next++;
		}
		if (cs_settle(r->s) || tx_check(r))
			return sim_error(r, 1);
		if (r->tx)
			fprintf(r->tx, "step\n");
		vec_foreach(&r->records, i) {
			Record *rec = &r->records.data[i];
			uint64_t v;
			cs_get(r->s, r->sigs.data[rec->sig].node, &v);
			vec_push(&rec->v, v);
		}
		if (cs_edge(r->s))
			return sim_error(r, 1);
		if (r->o->progress && (k & 4095) == 4095) {
			double now = util_now();
			if (now - last >= 1.0) {
				last = now;
				printf("cgrasim: run: %ld of %ld cycles (%.0f cycles/s)\n", k + 1, n, (k + 1) / (now - t0));
				fflush(stdout);
			}
		}
	}
	double s = util_now() - t0;
	if (!r->o->quiet)
		printf("%s:%d: run: %ld cycles in %.2f s (%.0f cycles/s)\n", r->file, r->line, n, s, s > 0 ? n / s : 0.0);
	return 0;
}

static int bitstream(Run *r, const char *file, int col)
{
	Script sc;
	if (!load_script(r, file, &sc, col))
		return -1;
	const char *outer = r->file;
	int outer_line = r->line, status = 0;
	r->file = file;
	for (int i = 0; i < sc.nlines && !status; i++) {
		const Line *l = &sc.lines[i];
		r->line = l->line;
		uint32_t a, d;
		if (l->n != 2 || strlen(l->t[0].s) != 8 || strlen(l->t[1].s) != 8) {
			status = cmd_error(r, 1, "expected 'AAAAAAAA DDDDDDDD'");
			break;
		}
		if (!within(r, 1, 1)) {
			status = -1;
			break;
		}
		if (!word(r, &l->t[0], &a) || !word(r, &l->t[1], &d)) {
			status = -1;
			break;
		}
		if (tx_check(r) || cs_write(r->s, a, d))
			status = sim_error(r, 1);
		if (r->tx)
			fprintf(r->tx, "write %08" PRIx32 " %08" PRIx32 "\n", a, d);
		r->writes++;
	}
	r->file = outer;
	r->line = outer_line;
	free_script(&sc);
	return status;
}

static int command(Run *r, const Line *l, const char *dir)
{
	const char *cmd = l->t[0].s;
	uint64_t v;
	if (!strcmp(cmd, "reset") || !strcmp(cmd, "flush")) {
		if (!operands(r, l, l->n > 1 ? 1 : 0))
			return -1;
		uint64_t n = !strcmp(cmd, "reset") ? 2 : 1;
		if ((l->n > 1 && !number(r, &l->t[1], 16, &n)) || !within(r, (long)n, 1))
			return -1;
		if (tx_check(r) || (!strcmp(cmd, "reset") ? cs_reset(r->s, (long)n) : cs_flush(r->s, (long)n)))
			return sim_error(r, 1);
		if (r->tx)
			fprintf(r->tx, "%s %" PRIu64 "\n", cmd, n);
	} else if (!strcmp(cmd, "write") || !strcmp(cmd, "read")) {
		uint32_t a, d;
		if (!operands(r, l, 2) || !word(r, &l->t[1], &a) || !word(r, &l->t[2], &d))
			return -1;
		if (!strcmp(cmd, "write")) {
			if (!within(r, 1, 1))
				return -1;
			if (tx_check(r) || cs_write(r->s, a, d))
				return sim_error(r, l->t[1].col);
			if (r->tx)
				fprintf(r->tx, "write %08" PRIx32 " %08" PRIx32 "\n", a, d);
			r->writes++;
		} else {
			uint32_t got = cs_read(r->s, a);
			r->reads++;
			r->compared++;
			if (got != d) {
				char what[64];
				snprintf(what, sizeof what, "config_rdata at %08" PRIx32, a);
				mismatch(r, what, got, d, 32);
			}
		}
	} else if (!strcmp(cmd, "bitstream")) {
		if (!operands(r, l, 1))
			return -1;
		char *file = relative(dir, l->t[1].s);
		int st = bitstream(r, file, l->t[1].col);
		free(file);
		return st;
	} else if (!strcmp(cmd, "set")) {
		if (!operands(r, l, 2))
			return -1;
		int g = sig(r, &l->t[1]);
		if (g < 0)
			return -1;
		if (!r->sigs.data[g].input)
			return cmd_error(r, l->t[1].col, "'%s' is not an input of the array", l->t[1].s);
		if (!number(r, &l->t[2], r->sigs.data[g].width, &v))
			return -1;
		cs_set(r->s, r->sigs.data[g].node, v);
		if (r->tx)
			fprintf(r->tx, "set %s 0x%" PRIx64 "\n", l->t[1].s, v);
	} else if (!strcmp(cmd, "step")) {
		uint64_t n = 1;
		if (!operands(r, l, l->n > 1 ? 1 : 0) || (l->n > 1 && !number(r, &l->t[1], 32, &n)) ||
		    !within(r, (long)n, 1))
			return -1;
		if (steps(r, (long)n))
			return sim_error(r, 1);
	} else if (!strcmp(cmd, "drive") || !strcmp(cmd, "record")) {
		if (!operands(r, l, 2))
			return -1;
		int g = sig(r, &l->t[1]);
		if (g < 0)
			return -1;
		char *file = relative(dir, l->t[2].s);
		int st = 0;
		if (!strcmp(cmd, "record")) {
			vec_foreach(&r->records, i)
				if (!strcmp(r->records.data[i].file, file))
					st = cmd_error(r, l->t[2].col, "'%s' is already recorded", file);
			if (!st) {
				Record rec = { g, file, { 0 } };
				vec_push(&r->records, rec);
				return 0;
			}
		} else if (!r->sigs.data[g].input) {
			st = cmd_error(r, l->t[1].col, "'%s' is not an input of the array", l->t[1].s);
		} else {
			st = drive(r, r->sigs.data[g].name, r->sigs.data[g].node, r->sigs.data[g].width, file, l->t[2].col);
		}
		free(file);
		return st;
	} else if (!strcmp(cmd, "run")) {
		if (!operands(r, l, 1) || !number(r, &l->t[1], 32, &v) || !within(r, (long)v, l->t[1].col))
			return -1;
		return run_cycles(r, (long)v);
	} else if (!strcmp(cmd, "expect")) {
		if (!operands(r, l, 2))
			return -1;
		int g = sig(r, &l->t[1]);
		if (g < 0)
			return -1;
		Sig *x = &r->sigs.data[g];
		if (x->input)
			return cmd_error(r, l->t[1].col, "'%s' is an input", l->t[1].s);
		x->care = strcmp(l->t[2].s, "x") != 0;
		x->want = 0;
		if (x->care && !number(r, &l->t[2], x->width, &x->want))
			return -1;
	} else if (!strcmp(cmd, "expect-all")) {
		if (!operands(r, l, 1))
			return -1;
		if (strcmp(l->t[1].s, "0") && strcmp(l->t[1].s, "x"))
			return cmd_error(r, l->t[1].col, "expect-all takes 0 or x");
		if (!r->all_named) {
			/* every output and node becomes a signal, in the harness's order */
			for (int k = 0; cs_port_name(r->s, 0, k); k++) {
				Tok t = { (char *)cs_port_name(r->s, 0, k), 1 };
				sig(r, &t);
			}
			for (int n = 0; n < cs_nodes(r->s); n++) {
				Tok t = { (char *)cs_node_name(r->s, n), 1 };
				sig(r, &t);
			}
			r->all_named = 1;
		}
		vec_foreach(&r->sigs, i)
			if (!r->sigs.data[i].input) {
				r->sigs.data[i].care = !strcmp(l->t[1].s, "0");
				r->sigs.data[i].want = 0;
			}
	} else if (!strcmp(cmd, "check")) {
		size_t at = 0;
		r->label[0] = 0;
		for (int i = 1; i < l->n && at < sizeof r->label; i++)
			at += (size_t)snprintf(r->label + at, sizeof r->label - at, "%s%s", i > 1 ? " " : "", l->t[i].s);
		return check(r);
	} else if (!strcmp(cmd, "print")) {
		if (!operands(r, l, 1))
			return -1;
		int g = sig(r, &l->t[1]);
		if (g < 0)
			return -1;
		if (cs_get(r->s, r->sigs.data[g].node, &v))
			return sim_error(r, 1);
		printf("%s:%d: %s = %" PRIx64 " (cycle %ld)\n", r->file, r->line, l->t[1].s, v, cs_cycles(r->s));
	} else {
		return cmd_error(r, l->t[0].col,
				 "unknown command '%s' (reset, flush, write, bitstream, read, set, step, drive, record, "
				 "run, expect, expect-all, check, print)",
				 cmd);
	}
	return 0;
}

/* What the file will read, observed before the array is compiled. */
static void observe(Run *r, const Script *sc)
{
	int clocked = 0;
	for (int i = 0; i < sc->nlines; i++) {
		const Line *l = &sc->lines[i];
		const char *c = l->t[0].s;
		if (!strcmp(c, "expect-all")) {
			cs_observe_all(r->s);
			return;
		}
		if ((!strcmp(c, "expect") || !strcmp(c, "record") || !strcmp(c, "print")) && l->n > 1) {
			CsSignal g;
			if (cs_signal(r->s, l->t[1].s, &g))
				cs_observe(r->s, g.node);
		}
		if (!strcmp(c, "step") || !strcmp(c, "run"))
			clocked = 1;
		if (clocked && (!strcmp(c, "write") || !strcmp(c, "bitstream") || !strcmp(c, "reset"))) {
			cs_observe_all(r->s);
			return;
		}
	}
}

/* The recorded streams, one value per line, into the output set. */
static int write_records(Run *r, OutSet *out)
{
	vec_foreach(&r->records, i) {
		Record *rec = &r->records.data[i];
		FILE *f = outset_open(out, rec->file);
		if (!f)
			return 0;
		int digits = (r->sigs.data[rec->sig].width + 3) / 4;
		for (int k = 0; k < rec->v.len; k++)
			fprintf(f, "%0*" PRIx64 "\n", digits, rec->v.data[k]);
	}
	return 1;
}

static void free_run(Run *r)
{
	vec_foreach(&r->sigs, i)
		free((char *)r->sigs.data[i].name);
	vec_free(&r->sigs);
	free(r->sorted);
	vec_foreach(&r->drives, i)
		free(r->drives.data[i].v);
	vec_free(&r->drives);
	vec_foreach(&r->records, i) {
		free(r->records.data[i].file);
		vec_free(&r->records.data[i].v);
	}
	vec_free(&r->records);
	strmap_free(&r->index);
	diags_free(r->d);
}

int cs_cmd_run(Cs *s, const char *path, const CsCmdOptions *o)
{
	Run run = { .s = s, .o = o, .file = path, .d = diags_new(o->diag_out ? o->diag_out : stderr) };
	Run *r = &run;
	strmap_init(&r->index);
	Script sc;
	if (!load_script(r, path, &sc, 0)) {
		free_run(r);
		return 2;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path + 1), path) : xstrdup("");
	observe(r, &sc);
	/* everything the run writes, renamed into place together when it ends well */
	OutSet *out = outset_new();
	FILE *vcd = o->trace ? outset_open(out, o->trace) : NULL;
	if (o->expect_out)
		r->tx = outset_open(out, o->expect_out);
	if ((o->trace && !vcd) || (o->expect_out && !r->tx)) {
		outset_abort(out);
		free(dir);
		free_script(&sc);
		free_run(r);
		return 2;
	}
	if (vcd)
		cs_trace(s, vcd);
	if (r->tx) {
		cs_observe_all(s);
		fprintf(r->tx, "# Written by cgrasim from %s on %s: the same commands, every node's value\n"
			       "# expected before every clock edge (cgrasim/README.md, \"Agreement\").\n",
			path, cs_design_name(s));
		r->tx_last = xcalloc((size_t)cs_nodes(s) + 1, sizeof(uint64_t));
		r->tx_known = xcalloc((size_t)cs_nodes(s) + 1, 1);
	}
	if (o->activity)
		cs_activity(s);
	double t0 = util_now();
	long c0 = cs_cycles(s);
	int status = 0;
	cs_strict_loops(s, o->strict_loops);
	for (int i = 0; i < sc.nlines && !status; i++) {
		r->file = path;
		r->line = sc.lines[i].line;
		if (command(r, &sc.lines[i], dir))
			status = 2;
		const char *w = cs_warning(s);
		if (w)
			fprintf(stderr, "%s:%d: warning: %s\n", path, r->line, w);
	}
	double secs = util_now() - t0;
	if (r->tx && !status && tx_check(r))
		status = 2;
	cs_trace(s, NULL);
	if (!status && o->activity) {
		FILE *f = outset_open(out, o->activity);
		if (f)
			cs_activity_write(s, f);
		else
			status = 2;
	}
	if (!status && !write_records(r, out))
		status = 2;
	if (status == 2)
		outset_abort(out);
	else if (outset_commit(out) != 0)
		status = 2;
	free(r->tx_last);
	free(r->tx_known);
	if (!status && !o->quiet) {
		long cycles = cs_cycles(s) - c0;
		printf("cgrasim: %ld checks, %ld values compared, %ld mismatch%s; %ld configuration writes, %ld reads; "
		       "%ld cycles in %.2f s (%.0f cycles/s)\n",
		       r->checks, r->compared, r->mismatches, r->mismatches == 1 ? "" : "es", r->writes, r->reads, cycles,
		       secs, secs > 0 ? cycles / secs : 0.0);
	}
	CsStats st;
	cs_stats(s, &st);
	if (!status && !o->quiet) {
		char util[256];
		cs_utilization(s, util, sizeof util);
		printf("cgrasim: compiled array: %d of %d PEs, %d of %d MEMs, %d registers, %d nodes, %d PE operations "
		       "(compiled in %.1f ms)\n",
		       st.pes, st.pes_total, st.mems, st.mems_total, st.regs, st.nodes, st.ops, 1000 * st.compile_s);
		printf("cgrasim: utilization: %s\n", util);
	}
	if (!status && r->mismatches)
		status = 1;
	free(dir);
	free_script(&sc);
	free_run(r);
	return status;
}
