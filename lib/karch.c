// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel architecture names (see karch.h): the lookups generated from
 * its tables.
 */
#include "lib/karch.h"

#include <fnmatch.h>
#include <stddef.h>
#include <string.h>
#include <sys/utsname.h>

/* The host and alias tables name arches by enum, so a typo does not build. */
enum karch {
#define KARCH_ENUM(name, triple, t64, t32) KARCH_##name,
	KARCH_TABLE(KARCH_ENUM)
#undef KARCH_ENUM
	KARCH_COUNT
};

static const struct karch_row {
	const char *name;
	const char *triple, *triple64, *triple32;
	/* "--target=" pasted on, so that check allocates nothing */
	const char *opt, *opt64, *opt32;
} arches[KARCH_COUNT] = {
#define KARCH_ROW(n, t, t64, t32)                                         \
	[KARCH_##n] = { #n, t, t64, t32, "--target=" t, "--target=" t64,  \
			"--target=" t32 },
	KARCH_TABLE(KARCH_ROW)
#undef KARCH_ROW
};

static const struct karch_alias {
	const char *name;
	enum karch arch;
	int bits;
} aliases[] = {
#define KARCH_ALIAS(n, a, b) { #n, KARCH_##a, b },
	KARCH_ALIAS_TABLE(KARCH_ALIAS)
#undef KARCH_ALIAS
};

static const struct karch_host {
	const char *pattern;
	enum karch arch;
} hosts[] = {
#define KARCH_HOST(p, a) { p, KARCH_##a },
	KARCH_HOST_TABLE(KARCH_HOST)
#undef KARCH_HOST
};

/* ", arm, arm64, ..." built by the preprocessor; users skip the ", ". */
#define KARCH_NAME(n, ...) ", " #n
static const char list_names[] = KARCH_TABLE(KARCH_NAME);
static const char list_all[] = KARCH_TABLE(KARCH_NAME)
	KARCH_ALIAS_TABLE(KARCH_NAME);
#undef KARCH_NAME

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct karch_row *find(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

static const struct karch_alias *find_alias(const char *name)
{
	size_t i;

	for (i = 0; name && i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].name, name))
			return &aliases[i];
	return NULL;
}

int karch_known(const char *name)
{
	return find(name) != NULL;
}

int karch_known_alias(const char *name)
{
	return find(name) || find_alias(name);
}

const char *karch_list(int with_aliases)
{
	return (with_aliases ? list_all : list_names) + 2;
}

const char *karch_triple(const char *name)
{
	const struct karch_row *r = find(name);

	return r ? r->triple : NULL;
}

/*
 * As check has always chosen: -m32 takes the 32-bit triple or none (a
 * 64-bit-only arch has no 32-bit kernel), -m64 on a 32-bit-only arch
 * takes the one it has, and no -m takes the arch's default.
 */
const char *karch_target_option(const char *name, int bits)
{
	const struct karch_alias *al = find_alias(name);
	const struct karch_row *r = al ? &arches[al->arch] : find(name);

	if (!r)
		return NULL;
	if (al)
		bits = al->bits;
	if (bits == 32)
		return *r->triple32 ? r->opt32 : NULL;
	if (bits == 64)
		return *r->triple64 ? r->opt64 : *r->triple32 ? r->opt32 : NULL;
	return r->opt;
}

const char *karch_of_machine(const char *machine)
{
	size_t i;

	for (i = 0; machine && i < ARRAY_SIZE(hosts); i++)
		if (!fnmatch(hosts[i].pattern, machine, 0))
			return arches[hosts[i].arch].name;
	return NULL;
}

const char *karch_host(void)
{
	static struct utsname u;
	const char *a;

	if (uname(&u))
		return NULL;
	a = karch_of_machine(u.machine);
	return a ? a : u.machine;
}
