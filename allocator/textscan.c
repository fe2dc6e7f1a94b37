// SPDX-License-Identifier: GPL-2.0
/* Line and token scanning shared by the allocator's text parsers. */
#include <limits.h>
#include <string.h>

#include "allocator/textscan.h"
#include "lib/util.h"

bool next_line(const char *buf, size_t len, size_t *pos, struct scan *line)
{
	const char *nl;

	if (*pos >= len)
		return false;
	line->p = buf + *pos;
	nl = memchr(line->p, '\n', len - *pos);
	line->end = nl ? nl : buf + len;
	*pos = (size_t)(line->end - buf) + (nl ? 1 : 0);
	if (line->end > line->p && line->end[-1] == '\r')
		line->end--;
	return true;
}

void scan_skip_spaces(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t'))
		s->p++;
}

bool scan_at_end(struct scan *s)
{
	scan_skip_spaces(s);
	return s->p == s->end;
}

bool scan_lit(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	scan_skip_spaces(s);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

bool scan_ulong(struct scan *s, unsigned long *v)
{
	unsigned long x = 0;
	const char *start;

	scan_skip_spaces(s);
	start = s->p;
	while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
		unsigned int d = (unsigned int)(*s->p - '0');

		if (x > (ULONG_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		s->p++;
	}
	*v = x;
	return s->p > start;
}

bool scan_hex(struct scan *s, unsigned long *v)
{
	unsigned long x = 0;
	const char *start;
	int d;

	scan_skip_spaces(s);
	if (s->end - s->p >= 2 && s->p[0] == '0' &&
	    (s->p[1] == 'x' || s->p[1] == 'X'))
		s->p += 2;
	start = s->p;
	while (s->p < s->end && (d = hex_digit((unsigned char)*s->p)) >= 0) {
		if (x >> (sizeof(x) * CHAR_BIT - 4))
			return false;
		x = (x << 4) | (unsigned long)d;
		s->p++;
	}
	*v = x;
	return s->p > start;
}

bool scan_int(struct scan *s, int *v)
{
	unsigned long x;
	bool neg;

	scan_skip_spaces(s);
	neg = s->p < s->end && *s->p == '-';
	if (neg)
		s->p++;
	if (!scan_ulong(s, &x) || x > (unsigned long)INT_MAX)
		return false;
	*v = neg ? -(int)x : (int)x;
	return true;
}

bool scan_word(struct scan *s, char *buf, size_t n)
{
	size_t i = 0;

	scan_skip_spaces(s);
	while (s->p < s->end && *s->p != ' ' && *s->p != '\t' && *s->p != ',') {
		if (i + 1 < n)
			buf[i++] = *s->p;
		s->p++;
	}
	if (n)
		buf[i] = '\0';
	return i > 0;
}
