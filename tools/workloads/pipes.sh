# Unmovable buffers held and partly freed: pipes left full by writers
# whose readers never read (each pipe holds 64 KB of pipe buffers), and
# socket buffers of a unix socket; then half the writers are killed.
i=0
pids=""
while [ $i -lt 48 ]; do
	(dd if=/dev/zero bs=4k count=16 2>/dev/null | sleep 1000) &
	pids="$pids $!"
	i=$((i + 1))
done
sleep 2
n=0
for p in $pids; do
	n=$((n + 1))
	[ $((n % 2)) = 0 ] && kill $p 2>/dev/null
done
sleep 1
