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

#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/flexheap/iostall.h"
#include "gc/shared/gc_globals.hpp"
#include "jvm_io.h"
#include "logging/log.hpp"
#include "runtime/arguments.hpp"
#include "runtime/atomic.hpp"
#include "runtime/globals.hpp"
#include "runtime/os.hpp"

#include <string.h>

typedef int (*iostall_api_version_fn)(void);
typedef struct iostall* (*iostall_open_fn)(enum iostall_backend, char*, size_t);
typedef const char* (*iostall_backend_name_fn)(const struct iostall*);

// The values of -XX:FlexHeapIOStallBackend, one table for the flag check and the open.
static const struct {
  const char* name;
  enum iostall_backend backend;
} backend_names[] = {
  { "auto",      IOSTALL_AUTO },
  { "bpf",       IOSTALL_BPF },
  { "delayacct", IOSTALL_DELAYACCT },
  { "psi",       IOSTALL_PSI },
  { "none",      IOSTALL_NONE },
};

static int backend_index(const char* name) {
  for (size_t i = 0; name != nullptr && i < ARRAY_SIZE(backend_names); i++) {
    if (strcmp(name, backend_names[i].name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

bool FlexHeapIOStall::valid_backend_name(const char* name) {
  return backend_index(name) >= 0;
}

static enum iostall_backend backend_from_name(const char* name) {
  int i = backend_index(name);
  assert(i >= 0, "flag checked at startup: %s", name);
  return i >= 0 ? backend_names[i].backend : IOSTALL_AUTO;
}

FlexHeapIOStall::FlexHeapIOStall() :
  _handle(nullptr), _backend("none"), _register_failures(0),
  _register(nullptr), _unregister(nullptr), _total_ns(nullptr) {
  jio_snprintf(_reason, sizeof(_reason), "not initialized");
  open();
  assert(_handle == nullptr || (_register != nullptr && _unregister != nullptr && _total_ns != nullptr),
         "an open backend has the whole API");
}

void FlexHeapIOStall::open() {
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
  tid_fn reg = CAST_TO_FN_PTR(tid_fn, os::dll_lookup(lib, "iostall_register"));
  tid_fn unreg = CAST_TO_FN_PTR(tid_fn, os::dll_lookup(lib, "iostall_unregister"));
  total_ns_fn total = CAST_TO_FN_PTR(total_ns_fn, os::dll_lookup(lib, "iostall_total_ns"));
  if (version == nullptr || open == nullptr || name == nullptr ||
      reg == nullptr || unreg == nullptr || total == nullptr) {
    jio_snprintf(_reason, sizeof(_reason), "%s lacks the iostall API", path);
    return;
  }
  if (version() != IOSTALL_API_VERSION) {
    jio_snprintf(_reason, sizeof(_reason), "%s has iostall API %d, need %d", path, version(), IOSTALL_API_VERSION);
    return;
  }
  char why[400] = "";
  struct iostall* st = open(backend_from_name(FlexHeapIOStallBackend), why, sizeof(why));
  if (st == nullptr) {
    jio_snprintf(_reason, sizeof(_reason), "backend %s unavailable: %s", FlexHeapIOStallBackend, why);
    return;
  }
  _backend = name(st);
  if (_backend == nullptr || strcmp(_backend, "none") == 0) {
    _backend = "none";
    jio_snprintf(_reason, sizeof(_reason), "no stall source: %s", why);
    return;   // keep _handle null: nothing to read
  }
  jio_snprintf(_reason, sizeof(_reason), "%s", why);
  _register = reg;
  _unregister = unreg;
  _total_ns = total;
  _handle = st;
}

bool FlexHeapIOStall::is_slow() const {
  // delayacct's total is a background refresh's, psi's a file read: both are
  // sampled off the pause (G1FlexHeapSignals).
  return strcmp(_backend, "delayacct") == 0 || strcmp(_backend, "psi") == 0;
}

void FlexHeapIOStall::register_thread(pid_t tid) {
  if (_handle != nullptr) {
    int rc = _register(_handle, tid);
    if (rc != 0) {
      // Said once: C_io then misses those threads' stalls. Each one at debug level.
      if (Atomic::add(&_register_failures, 1u) == 1) {
        log_warning(gc, flexheap)("iostall (%s) cannot track thread %d (error %d): the I/O stall of threads it "
                                  "cannot track is not counted; further failures only with -Xlog:gc+flexheap=debug",
                                  _backend, (int)tid, rc);
      } else {
        log_debug(gc, flexheap)("iostall: cannot track thread %d (%d)", (int)tid, rc);
      }
    }
  }
}

void FlexHeapIOStall::unregister_thread(pid_t tid) {
  if (_handle != nullptr) {
    _unregister(_handle, tid);
  }
}

uint64_t FlexHeapIOStall::total_stall_ns() {
  return _handle != nullptr ? _total_ns(_handle) : 0;
}
