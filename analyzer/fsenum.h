/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FSENUM_H
#define GFPAUDIT_FSENUM_H

#include <stddef.h>

/*
 * Every .c and .h file under a tree, from the file system (not git:
 * Debian's linux-source ships a .gitignore that ignores everything).
 * Symbolic links are not followed (they only alias files that are
 * scanned at their real path); a link that loops, and directories that
 * cannot be read, get a warning.  Paths are relative, sorted.
 */
struct file_list {
	char **paths;
	size_t n, alloc;
	size_t warnings;
};

int fsenum_tree(const char *tree, struct file_list *out);
void file_list_free(struct file_list *l);

#endif
