/* util.c - see util.h. */
#define _GNU_SOURCE             /* program_invocation_short_name, for OutSet's messages */
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
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

/* The words for the last EFBIG of util_read_file_max in this thread. */
static _Thread_local char read_why[128];

static char *too_large(FILE *f, char *buf, unsigned long long size, int known, size_t max)
{
	if (known)
		snprintf(read_why, sizeof read_why, "file too large: %llu bytes, the limit is %zu", size, max);
	else
		snprintf(read_why, sizeof read_why, "file too large: more than %zu bytes, the limit is %zu",
			 max, max);
	free(buf);
	fclose(f);
	errno = EFBIG;
	return NULL;
}

char *util_read_file_max(const char *path, size_t *len, size_t max)
{
	read_why[0] = '\0';
	if (max > SIZE_MAX / 2)
		max = SIZE_MAX / 2;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	int have = fstat(fileno(f), &st) == 0;
	if (have && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;         /* not the EIO that reading it would give */
		return NULL;
	}
	if (have && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		return too_large(f, NULL, (unsigned long long)st.st_size, 1, max);
	/* read at most max + 1 bytes: one more than allowed tells a file too long */
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	size_t got;
	while (n <= max && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n > max)
			return too_large(f, buf, 0, 0, max);
		if (cap - n - 1 == 0)
			buf = xrealloc(buf, cap = cap * 2 > max + 2 ? max + 2 : cap * 2);
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

char *util_read_file(const char *path, size_t *len)
{
	return util_read_file_max(path, len, UTIL_READ_MAX);
}

const char *util_read_why(int err)
{
	return err == EFBIG && read_why[0] ? read_why : strerror(err);
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
	int marker;             /* index of the marker in files, -1: the last one */
	pid_t pid;              /* the process that owns the temporaries (not a forked child) */
	OutSet *next;           /* the open sets, for the signal handler */
};

/* The sets opened and not yet committed or aborted: the one global of this
 * file, because a signal handler has no other way to find the temporaries.
 * It changes only with the signals below held back. */
static OutSet *open_sets;
static const int clean_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT };
#define NSIGNALS ((int)(sizeof clean_signals / sizeof *clean_signals))

static const char *tool_name(void)
{
	return program_invocation_short_name;
}

/* Removes the temporaries of every open set of this process (only unlink and
 * getpid: async-signal-safe); also run at exit(), for a tool that gives up
 * with a set still open. */
static void unlink_temporaries(void)
{
	pid_t self = getpid();
	for (OutSet *set = open_sets; set; set = set->next)
		for (int i = 0; i < set->len && set->pid == self; i++)
			unlink(set->files[i].tmp);
}

/* The signal handler: the temporaries, then the signal's default action. */
static void remove_temporaries(int sig)
{
	unlink_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);             /* held back until the handler returns */
}

/* Installs the handler for each signal the tool left at its default action,
 * and the exit handler. */
static void install_handler(void)
{
	static int installed;
	if (installed)
		return;
	installed = 1;
	atexit(unlink_temporaries);
	for (int i = 0; i < NSIGNALS; i++) {
		struct sigaction old, sa = { 0 };
		if (sigaction(clean_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		sa.sa_handler = remove_temporaries;
		sigemptyset(&sa.sa_mask);
		for (int j = 0; j < NSIGNALS; j++)
			sigaddset(&sa.sa_mask, clean_signals[j]);
		sigaction(clean_signals[i], &sa, NULL);
	}
}

/* Holds the signals back (the mask before in old), or restores old. */
static void hold_signals(sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	for (int i = 0; i < NSIGNALS; i++)
		sigaddset(&s, clean_signals[i]);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void release_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

OutSet *outset_new(void)
{
	OutSet *set = xcalloc(1, sizeof(OutSet));
	set->marker = -1;
	set->pid = getpid();
	install_handler();
	sigset_t old;
	hold_signals(&old);
	set->next = open_sets;
	open_sets = set;
	release_signals(&old);
	return set;
}

/* Removes the temporaries of path (PATH.tmpPID) that a process no longer
 * running left behind: one killed by SIGKILL, which no handler sees. A
 * temporary of a running process (another run writing the same files) stays. */
static void remove_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path) + (slash == path), path) : xstrdup(".");
	const char *base = slash ? slash + 1 : path;
	size_t n = strlen(base);
	DIR *dp = opendir(dir);
	struct dirent *e;
	while (dp && (e = readdir(dp)) != NULL) {
		const char *s = e->d_name;
		if (strncmp(s, base, n) != 0 || strncmp(s + n, ".tmp", 4) != 0 || !isdigit((unsigned char)s[n + 4]))
			continue;
		char *end;
		long pid = strtol(s + n + 4, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *stale = xasprintf("%s/%s", dir, s);
		unlink(stale);
		free(stale);
	}
	if (dp)
		closedir(dp);
	free(dir);
}

static FILE *open_file(OutSet *set, const char *path, int marker)
{
	remove_stale(path);
	if (marker && set->marker >= 0)
		ICE("outset_open_marker: a second marker '%s'", path);
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	sigset_t old;
	hold_signals(&old);     /* the handler must not miss a temporary just made */
	FILE *f = fopen(tmp, "w");
	if (!f) {
		int err = errno;
		release_signals(&old);
		fprintf(stderr, "%s: error: %s: cannot write: %s\n", tool_name(), path, strerror(err));
		free(tmp);
		return NULL;
	}
	if (set->len == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 4;
		set->files = xrealloc(set->files, (size_t)set->cap * sizeof *set->files);
	}
	if (marker)
		set->marker = set->len;
	set->files[set->len++] = (struct OutFile){ xstrdup(path), tmp, f };
	release_signals(&old);
	return f;
}

FILE *outset_open(OutSet *set, const char *path)
{
	return open_file(set, path, 0);
}

FILE *outset_open_marker(OutSet *set, const char *path)
{
	return open_file(set, path, 1);
}

/* Unlinks the set from the open sets and frees it. */
static void outset_free(OutSet *set)
{
	sigset_t old;
	hold_signals(&old);
	for (OutSet **p = &open_sets; *p; p = &(*p)->next)
		if (*p == set) {
			*p = set->next;
			break;
		}
	release_signals(&old);
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
		set->files[i].f = NULL;
		unlink(set->files[i].tmp);
	}
	outset_free(set);
}

/* Flushes and closes a file; 0, or an errno value (EIO for an earlier write
 * error whose cause is gone). */
static int close_file(FILE *f)
{
	int err = ferror(f) ? EIO : 0;
	if (fflush(f) != 0)
		err = errno;
	if (fclose(f) != 0 && !err)
		err = errno;
	return err;
}

/* Closes every file of the set; 0 if all were written. */
static int close_all(OutSet *set)
{
	int bad = 0;
	for (int i = 0; i < set->len; i++) {
		struct OutFile *o = &set->files[i];
		int err = close_file(o->f);
		o->f = NULL;
		if (err) {
			fprintf(stderr, "%s: error: %s: cannot write: %s\n", tool_name(), o->path, strerror(err));
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* Renames the files into place, the marker last after its old copy is gone;
 * on a failure removes the files renamed so far. 0 on success. */
static int rename_all(OutSet *set)
{
	int m = set->marker >= 0 ? set->marker : set->len - 1;
	if (set->len == 0)
		return 0;
	/* alone, the marker is replaced by its rename at once: no need to remove it */
	if (set->len > 1 && unlink(set->files[m].path) != 0 && errno != ENOENT) {
		fprintf(stderr, "%s: error: %s: cannot replace: %s\n", tool_name(), set->files[m].path,
			strerror(errno));
		return -1;
	}
	for (int k = 0; k < set->len; k++) {
		int i = k < m ? k : k + 1 < set->len ? k + 1 : m;   /* the marker last */
		if (rename(set->files[i].tmp, set->files[i].path) == 0)
			continue;
		fprintf(stderr, "%s: error: %s: cannot write: %s\n", tool_name(), set->files[i].path,
			strerror(errno));
		for (int j = 0; j < k; j++)
			unlink(set->files[j < m ? j : j + 1].path);
		return -1;
	}
	return 0;
}

int outset_commit(OutSet *set)
{
	sigset_t old;
	hold_signals(&old);
	int status = close_all(set) == 0 && rename_all(set) == 0 ? 0 : -1;
	for (int i = 0; i < set->len && status != 0; i++)
		unlink(set->files[i].tmp);
	release_signals(&old);
	outset_free(set);
	return status;
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
	if (!dir[0]) {
		errno = ENOENT;         /* as mkdir("") */
		return -1;
	}
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

char *util_exe_path(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	return xstrdup(exe);
}
