/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_MBOX_H
#define GFPAUDIT_PATCHES_MBOX_H

#include "patches/maintainers.h"

/* What is added to a file git format-patch wrote; NULL fields add nothing. */
struct mbox_edit {
	const struct addr_list *to, *cc;
	const char *subject; /* for the cover letter's SUBJECT HERE */
	const char *blurb;   /* for the cover letter's BLURB HERE */
	const char *notes;   /* below the "---": read, never applied */
	const char *base;    /* the base-commit: hash */
};

/* Rewrite file with e's additions.  0, or -1 with the error printed. */
int mbox_rewrite(const char *file, const struct mbox_edit *e);

/*
 * The To: and Cc: of a message: the addresses given on the command line
 * (user_to, user_cc), then those of the maintainers (to, cc).  Each
 * address once (compared without its name, ignoring case), in To: when
 * anyone put it there.
 */
void mbox_recipients(const struct addr_list *user_to,
		     const struct addr_list *user_cc,
		     const struct addr_list *to, const struct addr_list *cc,
		     struct addr_list *out_to, struct addr_list *out_cc);

#endif
