// SPDX-License-Identifier: GPL-2.0
/*
 * The GFP base masks of every kernel version gfpaudit reads (2.6.24 on):
 * shared by the gfp_param classifier, which reports a site only when it
 * hard-codes one, and by the suggest-param patch, which replaces it.
 */
#include "lib/gfpmask.h"

#include <ctype.h>
#include <string.h>

static const char *const base_masks[] = {
	"GFP_ATOMIC",
	"GFP_HIGHUSER",
	"GFP_HIGHUSER_MOVABLE",
	"GFP_HIGHUSER_PAGECACHE", /* 2.6.24 .. 2.6.25 */
	"GFP_KERNEL",
	"GFP_KERNEL_ACCOUNT",
	"GFP_NOFS",
	"GFP_NOFS_PAGECACHE", /* 2.6.24 .. 2.6.25 */
	"GFP_NOIO",
	"GFP_NOWAIT",
	"GFP_PGTABLE_KERNEL",
	"GFP_PGTABLE_USER",
	"GFP_TEMPORARY", /* 2.6.24 .. 4.13 */
	"GFP_TRANSHUGE",
	"GFP_TRANSHUGE_LIGHT",
	"GFP_USER",
	"GFP_USER_PAGECACHE", /* 2.6.24 .. 2.6.25 */
	NULL,
};

int gfp_is_base_mask(const char *name, size_t len)
{
	size_t i;

	if (len < 5 || memcmp(name, "GFP_", 4))
		return 0;
	for (i = 0; base_masks[i]; i++)
		if (strlen(base_masks[i]) == len &&
		    !memcmp(base_masks[i], name, len))
			return 1;
	return 0;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of the comment or literal at text[i], 0 when there is none. */
static size_t skip_len(const char *text, size_t len, size_t i)
{
	size_t k;

	if (i + 1 < len && text[i] == '/' && text[i + 1] == '*') {
		for (k = i + 2; k + 1 < len; k++)
			if (text[k] == '*' && text[k + 1] == '/')
				return k + 2 - i;
		return len - i;
	}
	if (i + 1 < len && text[i] == '/' && text[i + 1] == '/') {
		for (k = i; k < len && text[k] != '\n'; k++)
			;
		return k - i;
	}
	if (text[i] == '"' || text[i] == '\'') {
		for (k = i + 1;
		     k < len && text[k] != text[i] && text[k] != '\n'; k++)
			if (text[k] == '\\')
				k++;
		return (k < len ? k + 1 : len) - i;
	}
	return 0;
}

int gfp_count_base_masks(const char *text, size_t len, size_t *off)
{
	size_t i = 0, n;
	int count = 0;

	while (i < len) {
		n = skip_len(text, len, i);
		if (n) {
			i += n;
			continue;
		}
		if (!ident_char(text[i])) {
			i++;
			continue;
		}
		n = i;
		while (i < len && ident_char(text[i]))
			i++;
		if (gfp_is_base_mask(text + n, i - n) && !count++ && off)
			*off = n;
	}
	return count;
}
