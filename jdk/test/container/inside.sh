#!/bin/sh
#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
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
