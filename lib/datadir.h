/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LIB_DATADIR_H
#define GFPAUDIT_LIB_DATADIR_H

/*
 * The tool's data directory (allocator and flag tables, rule files, the
 * companion .cocci): the first of
 *   $GFPAUDIT_DATADIR (or the older name $GFPAUDIT_RULES_DIR);
 *   EXE/../share/gfpaudit, for a binary installed under any prefix
 *   (git's RUNTIME_PREFIX way: DESTDIR staging and relocated trees work);
 *   the install directory compiled in (make's $(PREFIX)/share/gfpaudit);
 *   the source tree's data/ compiled in, for a binary of the build tree;
 * that holds MARKER.  NULL, after one line naming what was tried, when
 * none does.
 */
const char *gfp_datadir(const char *marker);

#endif
