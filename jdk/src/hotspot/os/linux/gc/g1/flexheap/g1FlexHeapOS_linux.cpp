/*
 * Copyright (c) 2026, FlexHeap contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  The FlexHeap contributors
 * designate this particular file as subject to the "Classpath" exception
 * as provided by Oracle in the LICENSE file that accompanied this code.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 */

#include "gc/g1/flexheap/g1FlexHeapOS.hpp"
#include "jvm_io.h"
#include "osContainer_linux.hpp"
#include "os_linux.hpp"
#include "runtime/os.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

// The memory cgroup's memory.stat ("" if none) and the keys of its page
// cache, file refaults and anonymous memory.
static char _stat_path[512] = "";
static const char* _cache_key = nullptr;
static const char* _refault_key = nullptr;
static const char* _anon_key = nullptr;

void G1FlexHeapOS::initialize() {
  assert(_stat_path[0] == '\0', "initialized once");
  // HotSpot's container support resolves our memory cgroup from
  // /proc/self/cgroup and /proc/self/mountinfo, inside cgroup namespaces
  // and for v1 mount roots too.
  const char* dir = OSContainer::memory_controller_path();
  if (dir == nullptr) {
    return;
  }
  jio_snprintf(_stat_path, sizeof(_stat_path), "%s/memory.stat", dir);
  // The v2 root has no memory.stat: the system-wide figures are the same thing.
  if (!os::file_exists(_stat_path)) {
    _stat_path[0] = '\0';
    return;
  }
  const bool v1 = strcmp(OSContainer::container_type(), "cgroupv1") == 0;
  // v1: the hierarchical totals, equal to "cache" in a leaf cgroup and right
  // at the root too; v2 figures are hierarchical.
  _cache_key = v1 ? "total_cache " : "file ";
  _refault_key = v1 ? "total_workingset_refault_file " : "workingset_refault_file ";
  _anon_key = v1 ? "total_rss " : "anon ";
}

const char* G1FlexHeapOS::page_cache_source() {
  return _stat_path[0] != '\0' ? _stat_path : "/proc/meminfo";
}

// The values of "key value" lines of a /proc or cgroup file; false if it
// cannot be read. Each key's found flag says whether its line was there.
static bool read_keys(const char* path, const char* const* keys, G1FlexHeapOS::Counter* values, uint n) {
  FILE* f = os::fopen(path, "r");
  for (uint i = 0; i < n; i++) {
    values[i].value = 0;
    values[i].found = false;
  }
  if (f == nullptr) {
    return false;
  }
  uint missing = n;
  char line[256];
  while (missing > 0 && fgets(line, sizeof(line), f) != nullptr) {
    for (uint i = 0; i < n; i++) {
      const size_t len = strlen(keys[i]);
      if (!values[i].found && strncmp(line, keys[i], len) == 0) {
        values[i].value = (uint64_t)strtoull(line + len, nullptr, 10);
        values[i].found = true;
        missing--;
        break;
      }
    }
  }
  fclose(f);
  return true;
}

// The memory cgroup's page cache, refaults and anonymous memory.
static void read_memory_stat(G1FlexHeapOS::Memory* m) {
  assert(_cache_key != nullptr && _refault_key != nullptr && _anon_key != nullptr, "set with the path");
  const char* keys[] = { _cache_key, _refault_key, _anon_key };
  G1FlexHeapOS::Counter values[3];
  read_keys(_stat_path, keys, values, 3);
  m->cache = values[0];
  m->refault_pages = values[1];
  m->outside = values[2];
}

// Without a memory cgroup: the machine's page cache (kB) and refaults, and
// our own anonymous memory.
static void read_system_memory(G1FlexHeapOS::Memory* m) {
  const char* cached_key = "Cached:";
  const char* refault_key = "workingset_refault_file ";
  read_keys("/proc/meminfo", &cached_key, &m->cache, 1);
  m->cache.value *= K;
  read_keys("/proc/vmstat", &refault_key, &m->refault_pages, 1);
  m->outside.value = 0;
  m->outside.found = false;
  os::Linux::meminfo_t info;
  if (os::Linux::query_process_memory_info(&info) && info.rssanon >= 0) {
    m->outside.value = (uint64_t)info.rssanon * K;
    m->outside.found = true;
  }
}

void G1FlexHeapOS::sample_memory(bool with_usage, Memory* m) {
  const bool cgroup = _stat_path[0] != '\0';
  if (cgroup) {
    read_memory_stat(m);
  } else {
    read_system_memory(m);
  }
  const char* read_key = "read_bytes: ";
  read_keys("/proc/self/io", &read_key, &m->read_bytes, 1);
  // The cgroup's usage includes the kernel memory it charges (page tables,
  // slab), which anonymous memory leaves out.
  if (with_usage && cgroup && m->cache.found) {
    const jlong usage = OSContainer::memory_usage_in_bytes();
    if (usage > 0 && (uint64_t)usage > m->cache.value) {
      m->outside.value = (uint64_t)usage - m->cache.value;
      m->outside.found = true;
    }
  }
}

size_t G1FlexHeapOS::memory_throttle_limit() {
  if (!OSContainer::is_containerized()) {
    return 0;
  }
  const jlong high = OSContainer::memory_throttle_limit_in_bytes();
  return high > 0 ? (size_t)high : 0;
}

size_t G1FlexHeapOS::resident_bytes(address start, size_t bytes) {
  const size_t page = os::vm_page_size();
  unsigned char vec[4096];
  size_t total = 0;
  for (size_t off = 0; off < bytes; off += sizeof(vec) * page) {
    const size_t len = MIN2(bytes - off, sizeof(vec) * page);
    if (::mincore(start + off, len, vec) != 0) {
      return total;
    }
    for (size_t i = 0; i < len / page; i++) {
      total += (vec[i] & 1) != 0 ? page : 0;
    }
  }
  return total;
}

// To the nanosecond, where os::getTimesSecs counts clock ticks. The kernel
// sums it over every thread (~0.2 us per thread, 350 us with 2000 threads),
// hence a sample off the pause rather than a read at it.
jlong G1FlexHeapOS::process_cpu_ns() {
  struct timespec ts;
  return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 ?
         (jlong)ts.tv_sec * NANOSECS_PER_SEC + ts.tv_nsec : -1;
}
