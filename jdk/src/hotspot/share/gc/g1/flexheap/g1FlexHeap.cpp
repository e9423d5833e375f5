// Part of FlexHeap: the G1 side. Gathers the signals of an interval at the
// end of every pause, asks the controller, and applies its decision with G1's
// own expand and shrink.
#include "gc/g1/flexheap/flexHeapController.hpp"
#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/g1FlexHeap.hpp"
#include "gc/g1/flexheap/g1FlexHeapProactiveGCTask.hpp"
#include "gc/g1/flexheap/g1FlexHeapSignals.hpp"
#include "gc/g1/g1CollectedHeap.inline.hpp"
#include "gc/g1/g1GCPhaseTimes.hpp"
#include "gc/g1/g1HeapSizingPolicy.hpp"
#include "gc/g1/g1Policy.hpp"
#include "gc/g1/g1ServiceThread.hpp"
#include "gc/shared/gc_globals.hpp"
#include "gc/shared/gcId.hpp"
#include "jfr/jfrEvents.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/globals_extension.hpp"
#include "runtime/javaThread.hpp"
#include "runtime/os.hpp"
#include "runtime/osThread.hpp"
#include "runtime/safepoint.hpp"
#include "services/threadService.hpp"

FlexHeapController* G1FlexHeap::_controller = nullptr;
G1FlexHeapConcurrentCPU* G1FlexHeap::_conc_cpu = nullptr;
jlong G1FlexHeap::_last_pause_end_ns = 0;
uint64_t G1FlexHeap::_last_stall_ns = 0;
size_t G1FlexHeap::_used_at_pause_start = 0;

void G1FlexHeap::initialize(G1CollectedHeap* g1h) {
  assert(UseFlexHeap, "only with UseFlexHeap");
  if (!FlexHeapIOStall::valid_backend_name(FlexHeapIOStallBackend)) {
    log_warning(gc, flexheap)("FlexHeapIOStallBackend=%s is not one of auto, bpf, delayacct, none; using auto",
                              FlexHeapIOStallBackend);
    FLAG_SET_ERGO(FlexHeapIOStallBackend, "auto");
  }
  FlexHeapConfig cfg;
  cfg.history_length = FlexHeapHistoryLength;
  cfg.min_scale = FlexHeapMinScaleFactor;
  cfg.max_scale = FlexHeapMaxScaleFactor;
  cfg.expand_percent = (double)G1ExpandByPercentOfAvailable;
  cfg.static_step_percent = FlexHeapStaticStepPercent;
  cfg.cost_as_rate = FlexHeapCostAsRate;
  cfg.negligible_percent = FlexHeapNegligibleCostPercent;
  // The controller is plain C++, unit tested outside HotSpot: static storage.
  alignas(FlexHeapController) static char controller_storage[sizeof(FlexHeapController)];
  _controller = ::new (controller_storage) FlexHeapController(cfg);
  _conc_cpu = new G1FlexHeapConcurrentCPU();

  FlexHeapIOStall::initialize();
  G1FlexHeapPageCache::initialize();
  _last_pause_end_ns = os::javaTimeNanos();
  _last_stall_ns = FlexHeapIOStall::total_stall_ns();

  if (FlexHeapIOStall::is_available()) {
    log_info(gc, flexheap)("I/O stall source: %s (%s)", FlexHeapIOStall::backend(), FlexHeapIOStall::reason());
  } else {
    // Said once: the controller still runs, on GC cost alone.
    log_warning(gc, flexheap)("No I/O stall source (%s); FlexHeap sizes the heap on GC cost alone",
                              FlexHeapIOStall::reason());
  }
  log_info(gc, flexheap)("Page cache (S_io) from %s; max heap %zuM, min heap %zuM, %u cores",
                         G1FlexHeapPageCache::source(), MaxHeapSize / M, MinHeapSize / M,
                         (uint)os::active_processor_count());
  if (FlexHeapProactiveGCInterval > 0) {
    g1h->service_thread()->register_task(new G1FlexHeapProactiveGCTask());
  }
}

void G1FlexHeap::on_java_thread_start(JavaThread* thread) {
  if (!thread->is_hidden_from_external_view() && thread->osthread() != nullptr) {
    FlexHeapIOStall::register_thread((pid_t)thread->osthread()->thread_id());
  }
}

void G1FlexHeap::on_java_thread_exit(JavaThread* thread) {
  if (!thread->is_hidden_from_external_view() && thread->osthread() != nullptr) {
    FlexHeapIOStall::unregister_thread((pid_t)thread->osthread()->thread_id());
  }
}

void G1FlexHeap::record_pause_start(G1CollectedHeap* g1h) {
  _used_at_pause_start = g1h->used();
}

const char* G1FlexHeap::kind_name(PauseKind kind) {
  switch (kind) {
    case Young:  return "young";
    case Full:   return "full";
    case Remark: return "remark";
  }
  return "unknown";
}

size_t G1FlexHeap::apply_grow(G1CollectedHeap* g1h, size_t bytes, PauseKind kind) {
  size_t before = g1h->capacity();
  double expand_ms = 0.0;
  g1h->expand(bytes, g1h->workers(), &expand_ms);
  if (kind == Young) {
    g1h->phase_times()->record_expand_heap_time(expand_ms);
  }
  return g1h->capacity() - before;
}

size_t G1FlexHeap::apply_shrink(G1CollectedHeap* g1h, size_t bytes, PauseKind kind) {
  size_t before = g1h->capacity();
  g1h->shrink(bytes);
  // Full GC and Remark schedule the concurrent uncommit themselves right after.
  if (kind == Young) {
    g1h->uncommit_regions_if_necessary();
  }
  return before - g1h->capacity();
}

void G1FlexHeap::resize_at_pause_end(G1CollectedHeap* g1h, PauseKind kind, size_t allocation_word_size) {
  assert_at_safepoint_on_vm_thread();
  EventFlexHeapDecision event;  // timed: its duration is the decision's cost
  const jlong start_ns = os::javaTimeNanos();

  // The interval runs from the end of the previous pause to the end of this
  // one; mutators stopped when this safepoint began.
  jlong pause_begin_ns = SafepointTracing::start_of_safepoint();
  if (pause_begin_ns < _last_pause_end_ns || pause_begin_ns > start_ns) {
    pause_begin_ns = start_ns;
  }
  jlong conc_ns = 0;
  uint conc_threads = 0;
  _conc_cpu->sample(g1h, &conc_ns, &conc_threads);
  const uint64_t stall_now = FlexHeapIOStall::total_stall_ns();

  FlexHeapSample s;
  s.t_stw = (double)(start_ns - pause_begin_ns) / NANOSECS_PER_SEC;
  s.t_mut = (double)MAX2(pause_begin_ns - _last_pause_end_ns, (jlong)0) / NANOSECS_PER_SEC;
  s.conc_cpu = (double)conc_ns / NANOSECS_PER_SEC;
  s.conc_threads = conc_threads;
  s.cores = (unsigned)os::active_processor_count();
  s.mutators = (unsigned)MAX2(ThreadService::get_live_thread_count(), 1);
  s.io_available = FlexHeapIOStall::is_available();
  s.io_stall = (double)(stall_now - MIN2(_last_stall_ns, stall_now)) / NANOSECS_PER_SEC;
  s.committed = g1h->capacity();
  s.max_capacity = g1h->max_capacity();
  s.min_capacity = MinHeapSize;
  s.region_size = G1HeapRegion::GrainBytes;
  s.used = kind == Remark ? g1h->used() : MAX2(_used_at_pause_start, g1h->used());
  s.free_regions = g1h->num_free_regions();
  s.eden_target_regions = g1h->policy()->young_list_target_length();
  s.page_cache = G1FlexHeapPageCache::bytes();

  FlexHeapDecision d = _controller->decide(s);
  const jlong decided_ns = os::javaTimeNanos();

  // After a full GC, G1 expands to keep MinHeapFreeRatio free so that the
  // application can run at all. FlexHeap keeps that floor (no new
  // OutOfMemoryError) and tells the controller it was a grow.
  FlexHeapAction action = d.action;
  size_t request = d.bytes;
  bool floor_grow = false;
  if (kind == Full) {
    bool expand = false;
    size_t floor = g1h->_heap_sizing_policy->full_collection_resize_amount(expand, allocation_word_size);
    if (expand && floor > 0 && (action != FlexHeapAction::Grow || request < floor)) {
      action = FlexHeapAction::Grow;
      request = floor;
      floor_grow = true;
    }
  }
  size_t applied = 0;
  if (action == FlexHeapAction::Grow && request > 0) {
    applied = apply_grow(g1h, request, kind);
  } else if (action == FlexHeapAction::Shrink && request > 0) {
    applied = apply_shrink(g1h, request, kind);
  }
  FlexHeapAction applied_action = applied > 0 ? action : FlexHeapAction::None;
  if (applied_action != FlexHeapAction::None) {
    _controller->record_applied(applied_action, applied, s);
  }

  _last_stall_ns = stall_now;
  _last_pause_end_ns = os::javaTimeNanos();

  char reason[64];
  jio_snprintf(reason, sizeof(reason), "%s%s", d.reason, floor_grow ? ",fullGcFloor" : "");
  log_info(gc, flexheap)("GC(%u) decision state=%s action=%s bytes=%zu reason=%s C_gc=%.6f C_io=%.6f "
                         "C_tot_avg=%.6f committed=%zu S_io=%zu pause=%s",
                         GCId::current_or_undefined(), FlexHeapController::state_name(d.state),
                         FlexHeapController::action_name(applied_action),
                         applied, reason, d.c_gc, d.c_io, d.avg_tot, g1h->capacity(), s.page_cache,
                         kind_name(kind));
  if (event.should_commit()) {
    event.set_gcId(GCId::current_or_undefined());
    event.set_pause(kind_name(kind));
    event.set_state(FlexHeapController::state_name(d.state));
    event.set_action(FlexHeapController::action_name(applied_action));
    event.set_reason(reason);
    event.set_requested(request);
    event.set_applied(applied);
    event.set_gcCost(d.c_gc);
    event.set_ioCost(d.c_io);
    event.set_totalCostAverage(d.avg_tot);
    event.set_committed(g1h->capacity());
    event.set_pageCache(s.page_cache);
    event.set_ioStallAvailable(s.io_available);
    event.commit();
  }
  log_debug(gc, flexheap)("GC(%u) inputs T_stw=%.6f T_mut=%.6f conc_cpu=%.6f G=%u N=%u M=%u stall=%.6f io=%s "
                          "used=%zu free_regions=%zu eden_target=%zu committed=%zu max=%zu min=%zu",
                          GCId::current_or_undefined(), s.t_stw, s.t_mut, s.conc_cpu, s.conc_threads, s.cores, s.mutators,
                          s.io_stall, s.io_available ? FlexHeapIOStall::backend() : "none",
                          s.used, s.free_regions, s.eden_target_regions, s.committed, s.max_capacity,
                          s.min_capacity);
  log_debug(gc, flexheap)("GC(%u) costs C_stw=%.6f C_conc=%.6f C_gc=%.6f C_io=%.6f C_tot=%.6f "
                          "avg_gc=%.6f avg_io=%.6f avg_tot=%.6f prev_avg_tot=%.6f rel_gc=%.4f rel_io=%.4f "
                          "rel_tot=%.4f scale=%.3f costDown=%d growSlack=%d ioSlack=%d gcBias=%d "
                          "requested=%zu decide_us=%.1f total_us=%.1f",
                          GCId::current_or_undefined(), d.c_stw, d.c_conc, d.c_gc, d.c_io, d.c_tot,
                          d.avg_gc, d.avg_io, d.avg_tot, d.prev_avg_tot, d.rel_gc, d.rel_io, d.rel_tot,
                          d.scale, d.cost_down, d.grow_slack, d.io_slack, d.gc_bias, d.bytes,
                          (double)(decided_ns - start_ns) / 1000.0,
                          (double)(_last_pause_end_ns - start_ns) / 1000.0);
}
