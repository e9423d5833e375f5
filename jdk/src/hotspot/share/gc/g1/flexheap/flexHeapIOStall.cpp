// Part of FlexHeap: loads the iostall library (per-thread I/O-stall accounting).
#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/iostall.h"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/arguments.hpp"
#include "gc/shared/gc_globals.hpp"
#include "runtime/globals.hpp"
#include "runtime/os.hpp"

#include <string.h>

typedef int (*iostall_api_version_fn)(void);
typedef struct iostall* (*iostall_open_fn)(enum iostall_backend, char*, size_t);
typedef const char* (*iostall_backend_name_fn)(const struct iostall*);
typedef int (*iostall_tid_fn)(struct iostall*, pid_t);
typedef uint64_t (*iostall_total_ns_fn)(struct iostall*);


void* FlexHeapIOStall::_handle = nullptr;
const char* FlexHeapIOStall::_backend = "none";
char FlexHeapIOStall::_reason[256] = "not initialized";

static iostall_tid_fn _register = nullptr;
static iostall_tid_fn _unregister = nullptr;
static iostall_total_ns_fn _total_ns = nullptr;

bool FlexHeapIOStall::valid_backend_name(const char* name) {
  return name != nullptr &&
         (strcmp(name, "auto") == 0 || strcmp(name, "bpf") == 0 ||
          strcmp(name, "delayacct") == 0 || strcmp(name, "none") == 0);
}

static enum iostall_backend backend_from_name(const char* name) {
  if (strcmp(name, "bpf") == 0)       return IOSTALL_BPF;
  if (strcmp(name, "delayacct") == 0) return IOSTALL_DELAYACCT;
  if (strcmp(name, "none") == 0)      return IOSTALL_NONE;
  return IOSTALL_AUTO;
}

void FlexHeapIOStall::initialize() {
  if (strcmp(FlexHeapIOStallBackend, "none") == 0) {
    jio_snprintf(_reason, sizeof(_reason), "disabled by -XX:FlexHeapIOStallBackend=none");
    return;
  }
  char path[JVM_MAXPATHLEN];
  if (FlexHeapIOStallLibrary != nullptr && FlexHeapIOStallLibrary[0] != '\0') {
    jio_snprintf(path, sizeof(path), "%s", FlexHeapIOStallLibrary);
  } else {
    jio_snprintf(path, sizeof(path), "%s%slibiostall.so", Arguments::get_dll_dir(), os::file_separator());
  }
  char ebuf[512];
  void* lib = os::dll_load(path, ebuf, sizeof(ebuf));
  if (lib == nullptr) {
    jio_snprintf(_reason, sizeof(_reason), "cannot load %s: %s", path, ebuf);
    return;
  }
  iostall_api_version_fn version = CAST_TO_FN_PTR(iostall_api_version_fn, os::dll_lookup(lib, "iostall_api_version"));
  iostall_open_fn open = CAST_TO_FN_PTR(iostall_open_fn, os::dll_lookup(lib, "iostall_open"));
  iostall_backend_name_fn name = CAST_TO_FN_PTR(iostall_backend_name_fn, os::dll_lookup(lib, "iostall_backend_name"));
  _register = CAST_TO_FN_PTR(iostall_tid_fn, os::dll_lookup(lib, "iostall_register"));
  _unregister = CAST_TO_FN_PTR(iostall_tid_fn, os::dll_lookup(lib, "iostall_unregister"));
  _total_ns = CAST_TO_FN_PTR(iostall_total_ns_fn, os::dll_lookup(lib, "iostall_total_ns"));
  if (version == nullptr || open == nullptr || name == nullptr ||
      _register == nullptr || _unregister == nullptr || _total_ns == nullptr) {
    jio_snprintf(_reason, sizeof(_reason), "%s lacks the iostall API", path);
    return;
  }
  if (version() != IOSTALL_API_VERSION) {
    jio_snprintf(_reason, sizeof(_reason), "%s has iostall API %d, need %d", path, version(), IOSTALL_API_VERSION);
    return;
  }
  char why[200] = "";
  struct iostall* st = open(backend_from_name(FlexHeapIOStallBackend), why, sizeof(why));
  if (st == nullptr) {
    jio_snprintf(_reason, sizeof(_reason), "backend %s unavailable: %s", FlexHeapIOStallBackend, why);
    return;
  }
  _backend = name(st);
  if (strcmp(_backend, "none") == 0) {
    jio_snprintf(_reason, sizeof(_reason), "no stall source: %s", why);
    return;   // keep _handle null: nothing to read
  }
  jio_snprintf(_reason, sizeof(_reason), "%s", why);
  _handle = st;
}

void FlexHeapIOStall::register_thread(pid_t tid) {
  if (_handle != nullptr) {
    int rc = _register((struct iostall*)_handle, tid);
    if (rc != 0) {
      log_debug(gc, flexheap)("iostall: cannot track thread %d (%d)", (int)tid, rc);
    }
  }
}

void FlexHeapIOStall::unregister_thread(pid_t tid) {
  if (_handle != nullptr) {
    _unregister((struct iostall*)_handle, tid);
  }
}

uint64_t FlexHeapIOStall::total_stall_ns() {
  return _handle != nullptr ? _total_ns((struct iostall*)_handle) : 0;
}
