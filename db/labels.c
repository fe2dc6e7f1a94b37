// SPDX-License-Identifier: GPL-2.0
/* The lifetime and context labels of sites (see labels.h). */
#include "db/labels.h"

#include <stddef.h>
#include <string.h>

const char *const site_lifetime_names[LIFETIME_COUNT] = {
#define SITE_LIFETIME_NAME(e, s) [LIFETIME_##e] = s,
	SITE_LIFETIMES(SITE_LIFETIME_NAME)
#undef SITE_LIFETIME_NAME
};

const char *const site_context_names[CONTEXT_COUNT] = {
#define SITE_CONTEXT_NAME(e, s) [CONTEXT_##e] = s,
	SITE_CONTEXTS(SITE_CONTEXT_NAME)
#undef SITE_CONTEXT_NAME
};

static int index_of(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int site_lifetime_of(const char *name)
{
	return index_of(site_lifetime_names, LIFETIME_COUNT, name);
}

int site_context_of(const char *name)
{
	return index_of(site_context_names, CONTEXT_COUNT, name);
}
