/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_WALK_H
#define GFPAUDIT_WALK_H

#include "analyzer/lexscan.h"
#include "analyzer/walker.h"

/*
 * Run every registered classifier over LF's sites (w->tu may be NULL in
 * lexical mode).  Sites must be sorted by offset (the token scan makes
 * them so).
 */
void walk_file(struct walk_ctx *w, struct lexfile *lf);

int walker_classifier_count(void);

#endif
