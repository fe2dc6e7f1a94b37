// SPDX-License-Identifier: GPL-2.0
/* Work beside the calling thread (beside.h). */
#include "lib/beside.h"

void beside_start(struct beside *b, void *(*fn)(void *), void *arg)
{
	b->fn = fn;
	b->arg = arg;
	b->started = !pthread_create(&b->th, NULL, fn, arg);
}

void beside_finish(struct beside *b)
{
	if (b->started)
		pthread_join(b->th, NULL);
	else
		b->fn(b->arg);
	b->started = 0;
}
