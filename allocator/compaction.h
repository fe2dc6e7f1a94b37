/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_COMPACTION_H
#define GFPAUDIT_ALLOCATOR_COMPACTION_H

#include "allocator/mmzone.h"

struct compact_result {
	unsigned long migrated, failed;
};

/*
 * Whole-zone compaction, as `echo 1 > /proc/sys/vm/compact_memory` runs
 * it (mm/compaction.c compact_zone): a migrate scanner from the zone start
 * isolates allocated MOVABLE pages, a free scanner from the zone end takes
 * free pages from blocks that are suitable_migration_target() (MOVABLE
 * blocks, free pages below pageblock_order), until the scanners meet.
 * Unmovable and reclaimable pages stay.  zone->migrate_cb is told of
 * every move.  Under mobility_disabled block types mean nothing, so any
 * block is a target.
 */
void compact_zone(struct zone *zone, struct compact_result *res);

#endif
