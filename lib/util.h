/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_UTIL_H
#define GFPAUDIT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Exit codes, documented in docs/cli.md. */
enum {
	EXIT_OK = 0,
	EXIT_FINDINGS = 1, /* a findings policy failed (check, validate) */
	EXIT_USAGE = 2,	   /* usage or input error */
	EXIT_INTERNAL = 3, /* internal error (database, out of memory) */
	/* validate: no check failed, but one of a file proved nothing */
	EXIT_INCONCLUSIVE = 4,
};

extern const char *progname;
/* The running command (cli/gfpaudit.c sets it), for error_msg(). */
extern const char *cmdname;

/* "gfpaudit: <msg>" on stderr. */
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* error_msg() then exit(code). */
void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string; buf is always NUL-terminated once used. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_reset(struct strbuf *sb);
void sb_release(struct strbuf *sb);
char *sb_detach(struct strbuf *sb);

/*
 * Read a whole file.  Returns 0 and a NUL-terminated buffer in *out (length
 * in *len), or -1 with errno set.
 */
int read_whole_file(const char *path, char **out, size_t *len);

/* 64-bit FNV-1a: the shard a path falls in, which must not move. */
uint64_t fnv1a64(const void *data, size_t len);

/*
 * A hash eight bytes a step, where fnv1a64() takes one: identifiers'
 * (analyzer/names.c) and a file's content (files.hash).  The loads are
 * in the host's byte order; a database from another build is analysed
 * again anyway.  Inline: it is the hash of every identifier scanned.
 */
static inline uint64_t hash64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

/*
 * memmem() for a needle whose first byte is rare in C source ("GFP"):
 * memchr() skips to each candidate many bytes a step, where glibc's
 * memmem() looks at every byte.  Returns the match or NULL.
 */
static inline const char *mem_find(const char *h, size_t hl, const char *n,
				   size_t nl)
{
	const char *end = h + hl, *p = h;

	if (!nl)
		return h;
	while ((size_t)(end - p) >= nl &&
	       (p = memchr(p, n[0], (size_t)(end - p) - nl + 1))) {
		if (!memcmp(p + 1, n + 1, nl - 1))
			return p;
		p++;
	}
	return NULL;
}

/*
 * Do the N bytes at P spell the string S?  Without strlen(S): the
 * token tests run millions of times a scan, mostly to answer no at
 * the first byte.
 */
static inline int mem_is(const char *p, size_t n, const char *s)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!s[k] || s[k] != p[k])
			return 0;
	return !s[n];
}

/* Current UTC time as ISO 8601 ("2026-12-03T07:27:01Z"). */
void iso8601_now(char buf[32]);

/* The value of hex digit C, or -1. */
int hex_digit(unsigned char c);
int str_has_prefix(const char *s, const char *prefix);
int str_has_suffix(const char *s, const char *suffix);
/* First whole-identifier occurrence of WORD in TEXT (may be NULL), or NULL. */
const char *str_find_word(const char *text, const char *word);

/*
 * A relative path is safe to create under an output directory when it is not
 * absolute and has no ".." component.
 */
int path_is_safe_relative(const char *path);

#endif
