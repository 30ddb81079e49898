/* util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static _Noreturn void out_of_memory(size_t n)
{
	fprintf(stderr, "fatal: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void util_ice(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: internal error: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

char *util_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;         /* not the EIO that reading it would give */
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

uint64_t util_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct OutFile {
	char *path, *tmp;
	FILE *f;
};

struct OutSet {
	struct OutFile *files;
	int len, cap;
};

OutSet *outset_new(void)
{
	return xcalloc(1, sizeof(OutSet));
}

FILE *outset_open(OutSet *set, const char *path)
{
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "error: cannot write '%s': %s\n", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	if (set->len == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 4;
		set->files = xrealloc(set->files, (size_t)set->cap * sizeof *set->files);
	}
	set->files[set->len++] = (struct OutFile){ xstrdup(path), tmp, f };
	return f;
}

static void outset_free(OutSet *set)
{
	for (int i = 0; i < set->len; i++) {
		free(set->files[i].path);
		free(set->files[i].tmp);
	}
	free(set->files);
	free(set);
}

void outset_abort(OutSet *set)
{
	if (!set)
		return;
	for (int i = 0; i < set->len; i++) {
		if (set->files[i].f)
			fclose(set->files[i].f);
		remove(set->files[i].tmp);
	}
	outset_free(set);
}

int outset_commit(OutSet *set)
{
	int bad = 0;
	for (int i = 0; i < set->len; i++) {
		struct OutFile *o = &set->files[i];
		if (ferror(o->f) | fclose(o->f)) {
			fprintf(stderr, "error: failed writing '%s'\n", o->path);
			bad = 1;
		}
		o->f = NULL;
	}
	for (int i = 0; i < set->len && !bad; i++) {
		if (rename(set->files[i].tmp, set->files[i].path) != 0) {
			fprintf(stderr, "error: cannot rename to '%s': %s\n", set->files[i].path,
				strerror(errno));
			bad = 1;
		}
	}
	if (bad) {
		outset_abort(set);
		return -1;
	}
	outset_free(set);
	return 0;
}

char *util_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	if (n == 0)
		return xstrdup(name);
	return xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

int util_mkdir_p(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int r = mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
	struct stat st;
	if (r == 0 && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)))
		r = -1; /* the path exists but is no folder */
	free(p);
	return r;
}

double util_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int util_parse_number(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	if (!*s)
		return -1;
	uint64_t v = 0;
	int overflow = 0;
	for (; *s; s++) {
		int d = isdigit((unsigned char)*s) ? *s - '0'
			: isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10 : 99;
		if (d >= base)
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = 1;
		else
			v = v * (uint64_t)base + (uint64_t)d;
	}
	if (overflow || v < lo || v > hi)
		return -2;
	*out = v;
	return 0;
}

uint64_t util_option_number(const char *tool, const char *option, const char *value, uint64_t lo, uint64_t hi)
{
	uint64_t v;
	if (util_parse_number(value, lo, hi, &v) != 0) {
		fprintf(stderr, "%s: %s expects a number from %llu to %llu, got '%s'\n", tool, option,
			(unsigned long long)lo, (unsigned long long)hi, value);
		exit(2);
	}
	return v;
}

int util_is_identifier(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ICE("sb_printf: bad format '%s'", fmt);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

int util_why(char *why, size_t whylen, const char *fmt, ...)
{
	if (why && whylen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return 0;
}

int util_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
