# Page-cache heavy: files written to tmpfs (movable page cache), a third
# of them removed again.
i=0
while [ $i -lt 60 ]; do
	dd if=/dev/zero of=/tmp/f$i bs=64k count=16 2>/dev/null
	i=$((i + 1))
done
rm -f /tmp/f1* /tmp/f2*
