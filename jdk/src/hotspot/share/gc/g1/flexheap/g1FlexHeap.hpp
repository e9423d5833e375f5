// Part of FlexHeap: the G1 side. Gathers the signals of an interval at the
// end of every pause, asks the controller, and applies its decision with G1's
// own expand and shrink.
#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP

#include "gc/shared/gc_globals.hpp"
#include "memory/allStatic.hpp"
#include "utilities/globalDefinitions.hpp"

class FlexHeapController;
class G1CollectedHeap;
class G1FlexHeapConcurrentCPU;
class JavaThread;

class G1FlexHeap : public AllStatic {
 public:
  enum PauseKind { Young, Full, Remark };

 private:
  static FlexHeapController* _controller;
  static G1FlexHeapConcurrentCPU* _conc_cpu;
  static jlong _last_pause_end_ns;
  static uint64_t _last_stall_ns;
  static size_t _used_at_pause_start;

  static const char* kind_name(PauseKind kind);
  static size_t apply_grow(G1CollectedHeap* g1h, size_t bytes, PauseKind kind);
  static size_t apply_shrink(G1CollectedHeap* g1h, size_t bytes, PauseKind kind);

 public:
  // Called from G1CollectedHeap::initialize(): loads iostall, finds the
  // memory cgroup, starts the proactive GC task.
  static void initialize(G1CollectedHeap* g1h);

  // Java threads register their kernel tid for I/O-stall accounting.
  static void on_java_thread_start(JavaThread* thread);
  static void on_java_thread_exit(JavaThread* thread);

  // Heap occupancy when a young or full pause starts (S_used of growSlack).
  static void record_pause_start(G1CollectedHeap* g1h);

  // The unified decision point (paper 4.1): end of every young, mixed, full
  // and remark pause. Replaces G1HeapSizingPolicy's expansion and shrinking.
  static void resize_at_pause_end(G1CollectedHeap* g1h, PauseKind kind, size_t allocation_word_size);
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAP_HPP
