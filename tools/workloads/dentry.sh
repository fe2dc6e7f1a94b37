# A dentry/inode burst, as updatedb's: many small directories and files
# (reclaimable dentry and shmem inode slabs), then a walk of /sys and
# /proc, then half the tree removed.
i=0
while [ $i -lt 40 ]; do
	mkdir -p /tmp/d$i
	j=0
	while [ $j -lt 50 ]; do
		: >/tmp/d$i/f$j
		j=$((j + 1))
	done
	i=$((i + 1))
done
find /sys /proc -maxdepth 4 >/dev/null 2>&1
rm -rf /tmp/d1* /tmp/d2*
