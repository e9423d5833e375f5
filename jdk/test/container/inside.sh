#!/bin/sh
# inside.sh CGROUP ns|plain CMD...: run CMD in the v1 memory cgroup CGROUP; with
# "ns" also in new PID, mount and cgroup namespaces with the cgroup file systems
# (every v1 controller, as Docker mounts them, and the v2 mount) mounted afresh
# at /sys/fs/cgroup, as a container runtime starts a container.
cg=$1 mode=$2; shift 2
echo $$ > "$cg/cgroup.procs" || exit 125
[ "$mode" = plain ] && exec "$@"
exec unshare --pid --fork --mount --cgroup --mount-proc --propagation private sh -c '
  umount -R /sys/fs/cgroup && mount -t tmpfs cgroup_root /sys/fs/cgroup || exit 125
  for c in cpu cpuacct cpuset memory blkio pids devices freezer; do
    mkdir /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c || exit 125
  done
  mkdir /sys/fs/cgroup/unified && mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified || exit 125
  exec "$@"' sh "$@"
