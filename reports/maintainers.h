/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_REPORTS_MAINTAINERS_H
#define GFPAUDIT_REPORTS_MAINTAINERS_H

#include "lib/maintainers.h"

#include <stddef.h>

/*
 * The subsystem a report files PATH (relative to the tree root) under:
 * the title of the most precise MAINTAINERS entry covering it
 * (maintainers_best(), get_maintainer.pl's first section), or, when M is
 * NULL or no entry covers it, its first two directories ("mm/kasan/",
 * "mm/", "(top level)").  Returns the title (owned by M) or BUF.
 */
const char *report_subsystem(const struct maintainers *m, const char *path,
			     char *buf, size_t n);

#endif
