/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_QUERIES_H
#define GFPAUDIT_QUERIES_H

struct canned_query {
	const char *name;
	const char *summary;
	const char *sql;
};

extern const struct canned_query canned_queries[];
const struct canned_query *find_canned_query(const char *name);

#endif
