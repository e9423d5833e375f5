// Part of FlexHeap: the inputs of the cost model that G1 and the OS provide.
#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP

#include "memory/allStatic.hpp"
#include "memory/allocation.hpp"
#include "utilities/globalDefinitions.hpp"

class G1CollectedHeap;

// CPU time of G1's concurrent threads (marking workers and their controller,
// refinement threads, service thread): the sum for Eq. 3 and how many ran.
class G1FlexHeapConcurrentCPU : public CHeapObj<mtGC> {
  static const uint MaxThreads = 256;
  struct Entry { const void* thread; jlong cpu_ns; };
  Entry _prev[MaxThreads];
  uint _num_prev;

 public:
  G1FlexHeapConcurrentCPU() : _num_prev(0) {}
  // CPU ns used since the previous call, and the number of threads that ran.
  void sample(G1CollectedHeap* g1h, jlong* delta_ns, uint* active_threads);
};

// S_io: page-cache bytes charged to the JVM's memory cgroup (v1 "cache",
// v2 "file"), or the system's "Cached" from /proc/meminfo outside a cgroup.
class G1FlexHeapPageCache : public AllStatic {
  static char _stat_path[256];   // memory.stat of our cgroup, "" for /proc/meminfo
  static const char* _key;       // the memory.stat key to read
 public:
  static void initialize();
  static const char* source() { return _stat_path[0] != '\0' ? _stat_path : "/proc/meminfo"; }
  static size_t bytes();
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPSIGNALS_HPP
