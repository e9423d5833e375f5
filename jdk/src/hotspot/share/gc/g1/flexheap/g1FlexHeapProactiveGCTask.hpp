// Part of FlexHeap: proactive GC during mutator I/O stalls (paper 4.4, end).
#ifndef SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP
#define SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP

#include "gc/g1/g1ServiceThread.hpp"

// When mutators block on I/O they stop allocating, so the next GC, and with it
// FlexHeap's next decision, can be far away. Every FlexHeapProactiveGCInterval
// this task samples the allocation rate and the mutator stall time; after
// FlexHeapProactiveLowIntervals consecutive intervals whose rate fell below
// half the recent average while stalls were high, it requests a concurrent
// cycle: its concurrent-start pause and its Remark are decision points, and
// marking lets Remark free the old regions an idle phase leaves behind.
class G1FlexHeapProactiveGCTask : public G1ServiceTask {
  static const uint MaxWindow = 100;
  double _window[MaxWindow];   // recent busy-interval allocation rates (bytes/s)
  uint _window_count;
  uint _window_next;
  jlong _last_ns;
  jlong _last_allocated;
  uint64_t _last_stall_ns;
  uint _streak;                // consecutive low-allocation, high-stall intervals
  bool _primed;

  static jlong total_allocated_bytes();
  double window_average() const;
  void push_rate(double rate);
  void request_gc(double rate, double avg, double stall_ratio);

 public:
  G1FlexHeapProactiveGCTask();
  void execute() override;
};

#endif // SHARE_GC_G1_FLEXHEAP_G1FLEXHEAPPROACTIVEGCTASK_HPP
