/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_TEXTSCAN_H
#define GFPAUDIT_ALLOCATOR_TEXTSCAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A cursor over one line of a buffer that need not be NUL-terminated: the
 * text parsers (buddyinfo, pagetypeinfo, page_owner, trace) are pure
 * functions over (buf, len), so fuzz targets can call them directly.
 */
struct scan {
	const char *p, *end;
};

/* Next line of [*pos, len): sets *line (no '\n'); false at the end. */
bool next_line(const char *buf, size_t len, size_t *pos, struct scan *line);
void scan_skip_spaces(struct scan *s);
bool scan_at_end(struct scan *s); /* only spaces left */
/* Consume LIT (after leading spaces when SKIP); false if not there. */
bool scan_lit(struct scan *s, const char *lit);
/* Decimal unsigned long; false on no digits or overflow. */
bool scan_ulong(struct scan *s, unsigned long *v);
/* Hexadecimal after an optional 0x. */
bool scan_hex(struct scan *s, unsigned long *v);
/* Signed decimal int. */
bool scan_int(struct scan *s, int *v);
/* A word of non-space, non-comma chars into buf (truncated to n-1). */
bool scan_word(struct scan *s, char *buf, size_t n);

#endif
