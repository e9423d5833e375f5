// Part of FlexHeap: loads the iostall library (per-thread I/O-stall accounting).
#ifndef SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP
#define SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP

#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class outputStream;

// The JVM side of iostall (iostall/include/iostall.h). The library is dlopen()ed
// only with UseFlexHeap, so a JDK without it, or a host without BPF or delay
// accounting, still runs: FlexHeap then decides on GC cost alone.
class FlexHeapIOStall : public AllStatic {
  static void* _handle;     // the iostall instance, null if unavailable
  static const char* _backend;
  static char _reason[256];

 public:
  // Load the library and open the backend named by FlexHeapIOStallBackend.
  static void initialize();
  static bool is_available() { return _handle != nullptr; }
  static const char* backend() { return _backend; }
  static const char* reason() { return _reason; }

  static void register_thread(pid_t tid);
  static void unregister_thread(pid_t tid);
  // Monotonic stall ns over all threads ever registered; 0 when unavailable.
  static uint64_t total_stall_ns();
  static bool valid_backend_name(const char* name);
};

#endif // SHARE_GC_G1_FLEXHEAP_FLEXHEAPIOSTALL_HPP
