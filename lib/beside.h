/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LIB_BESIDE_H
#define GFPAUDIT_LIB_BESIDE_H

#include <pthread.h>

/*
 * FN(ARG) on another thread while this one goes on, for work that only
 * reads what both threads share (the link step's solves).  When no thread
 * can start, beside_finish() runs it on this one: the result is the same
 * either way, only later.
 */
struct beside {
	pthread_t th;
	int started;
	void *(*fn)(void *);
	void *arg;
};

void beside_start(struct beside *b, void *(*fn)(void *), void *arg);
/* Wait for FN(ARG), or run it here if it did not start. */
void beside_finish(struct beside *b);

#endif
