// SPDX-License-Identifier: GPL-2.0
/*
 * sitecols: print db/sites_cols.h, one column a line (name, type,
 * declaration, RULE or INTERNAL, tab-separated), so that
 * tests/t0007-sites-cols.sh can hold the schema, its documentation and
 * the rules' columns to the list.
 */
#include <stdio.h>

int main(void)
{
#define SITE_COL(name, type, decl, value, rule)                          \
	printf("%s\t%s\t%s\t%s\n", #name, #type, decl, #rule);
#include "db/sites_cols.h"
	return 0;
}
