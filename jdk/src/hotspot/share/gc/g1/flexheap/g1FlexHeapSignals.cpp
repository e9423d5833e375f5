// Part of FlexHeap: the inputs of the cost model that G1 and the OS provide.
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.hpp"
#include "gc/g1/g1ConcurrentMark.hpp"
#include "gc/g1/g1ConcurrentMarkThread.hpp"
#include "gc/g1/g1ConcurrentRefine.hpp"
#include "gc/g1/g1ServiceThread.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/os.hpp"
#include "runtime/thread.hpp"

#include <stdio.h>
#include <string.h>

class G1FlexHeapCPUClosure : public ThreadClosure {
 public:
  static const uint MaxThreads = 256;
  const Thread* _threads[MaxThreads];
  jlong _cpu[MaxThreads];
  uint _n;
  G1FlexHeapCPUClosure() : _n(0) {}
  void do_thread(Thread* t) override {
    if (t != nullptr && _n < MaxThreads) {
      _threads[_n] = t;
      _cpu[_n] = os::thread_cpu_time(t);
      _n++;
    }
  }
};

void G1FlexHeapConcurrentCPU::sample(G1CollectedHeap* g1h, jlong* delta_ns, uint* active_threads) {
  G1FlexHeapCPUClosure cl;
  g1h->concurrent_mark()->threads_do(&cl);
  cl.do_thread(g1h->concurrent_mark()->cm_thread());
  g1h->concurrent_refine()->threads_do(&cl);
  cl.do_thread(g1h->service_thread());

  jlong sum = 0;
  uint active = 0;
  for (uint i = 0; i < cl._n; i++) {
    jlong prev = -1;
    for (uint j = 0; j < _num_prev; j++) {
      if (_prev[j].thread == cl._threads[i]) { prev = _prev[j].cpu_ns; break; }
    }
    // A thread started since the last sample (refinement threads come and
    // go) counts from zero: its whole CPU time falls into this interval.
    jlong d = cl._cpu[i] - MAX2(prev, (jlong)0);
    if (cl._cpu[i] >= 0 && d > 0) {
      sum += d;
      active++;
    }
  }
  for (uint i = 0; i < cl._n; i++) {
    _prev[i].thread = cl._threads[i];
    _prev[i].cpu_ns = cl._cpu[i];
  }
  _num_prev = cl._n;
  *delta_ns = sum;
  *active_threads = active;
}

char G1FlexHeapPageCache::_stat_path[256] = "";
const char* G1FlexHeapPageCache::_key = "Cached:";

// Mount point of the hierarchy with the given filesystem type (and, for v1,
// the "memory" option) from /proc/self/mountinfo.
static bool find_cgroup_mount(bool v2, char* mount, size_t len) {
  FILE* f = os::fopen("/proc/self/mountinfo", "r");
  if (f == nullptr) return false;
  char line[1024];
  bool found = false;
  while (!found && fgets(line, sizeof(line), f) != nullptr) {
    // ... mount-point opts - fstype source super-opts
    char mnt[512], fstype[64], super[512];
    const char* sep = strstr(line, " - ");
    if (sep == nullptr) continue;
    if (sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1) continue;
    if (sscanf(sep + 3, "%63s %*s %511s", fstype, super) != 2) continue;
    if (v2 && strcmp(fstype, "cgroup2") == 0) {
      found = true;
    } else if (!v2 && strcmp(fstype, "cgroup") == 0 &&
               (strstr(super, ",memory") != nullptr || strncmp(super, "memory", 6) == 0)) {
      found = true;
    }
    if (found) jio_snprintf(mount, len, "%s", mnt);
  }
  fclose(f);
  return found;
}

void G1FlexHeapPageCache::initialize() {
  // /proc/self/cgroup: "N:memory:/path" (v1) or "0::/path" (v2). A v1 memory
  // controller takes precedence: then v2 does not account memory.
  FILE* f = os::fopen("/proc/self/cgroup", "r");
  if (f == nullptr) return;
  char line[1024], v1path[512] = "", v2path[512] = "";
  bool v1 = false, v2 = false;
  while (fgets(line, sizeof(line), f) != nullptr) {
    line[strcspn(line, "\n")] = '\0';
    char* c1 = strchr(line, ':');
    if (c1 == nullptr) continue;
    char* c2 = strchr(c1 + 1, ':');
    if (c2 == nullptr) continue;
    *c2 = '\0';
    const char* controllers = c1 + 1;
    const char* path = c2 + 1;
    if (controllers[0] == '\0' && strncmp(line, "0:", 2) == 0) {
      v2 = true; jio_snprintf(v2path, sizeof(v2path), "%s", path);
    } else {
      // controllers may be a list, e.g. "cpu,cpuacct"
      char list[256];
      jio_snprintf(list, sizeof(list), ",%s,", controllers);
      if (strstr(list, ",memory,") != nullptr) {
        v1 = true; jio_snprintf(v1path, sizeof(v1path), "%s", path);
      }
    }
  }
  fclose(f);
  char mount[512];
  if (v1 && find_cgroup_mount(false, mount, sizeof(mount))) {
    if (strcmp(v1path, "/") != 0) {
      jio_snprintf(_stat_path, sizeof(_stat_path), "%s%s/memory.stat", mount, v1path);
      _key = "cache ";
    }
  } else if (v2 && find_cgroup_mount(true, mount, sizeof(mount))) {
    if (strcmp(v2path, "/") != 0) {
      jio_snprintf(_stat_path, sizeof(_stat_path), "%s%s/memory.stat", mount, v2path);
      _key = "file ";
    }
  }
  // In the root cgroup the system-wide figure is the same thing.
  if (_stat_path[0] != '\0' && !os::file_exists(_stat_path)) {
    _stat_path[0] = '\0';
  }
  if (_stat_path[0] == '\0') {
    _key = "Cached:";
  }
}

size_t G1FlexHeapPageCache::bytes() {
  const bool meminfo = _stat_path[0] == '\0';
  FILE* f = os::fopen(meminfo ? "/proc/meminfo" : _stat_path, "r");
  if (f == nullptr) return 0;
  char line[256];
  size_t key_len = strlen(_key);
  julong value = 0;
  while (fgets(line, sizeof(line), f) != nullptr) {
    if (strncmp(line, _key, key_len) == 0) {
      value = (julong)strtoull(line + key_len, nullptr, 10);
      break;
    }
  }
  fclose(f);
  return meminfo ? (size_t)(value * K) : (size_t)value;   // meminfo is in kB
}
