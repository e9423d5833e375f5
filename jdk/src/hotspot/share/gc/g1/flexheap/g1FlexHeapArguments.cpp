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

#include "gc/g1/flexheap/g1FlexHeapArguments.hpp"
#include "gc/g1/flexheap/flexHeapIOStall.hpp"
#include "gc/g1/jvmFlagConstraintsG1.hpp"
#include "gc/shared/gcConfig.hpp"
#include "gc/shared/gc_globals.hpp"
#include "logging/log.hpp"
#include "runtime/globals_extension.hpp"
#include "utilities/defaultStream.hpp"

#include <string.h>

static bool flexheap_policy_is(ccstr value, const char* name) {
  return value != nullptr && strcmp(value, name) == 0;
}

bool G1FlexHeapArguments::is_paper_policy() {
  return flexheap_policy_is(FlexHeapPolicy, "paper");
}

JVMFlag::Error FlexHeapPolicyConstraintFunc(ccstr value, bool verbose) {
  if (flexheap_policy_is(value, "balance") || flexheap_policy_is(value, "paper")) {
    return JVMFlag::SUCCESS;
  }
  JVMFlag::printError(verbose,
                      "FlexHeapPolicy (%s) must be one of: balance, paper\n",
                      value != nullptr ? value : "");
  return JVMFlag::VIOLATES_CONSTRAINT;
}

JVMFlag::Error FlexHeapIOStallBackendConstraintFunc(ccstr value, bool verbose) {
  if (FlexHeapIOStall::valid_backend_name(value)) {
    return JVMFlag::SUCCESS;
  }
  JVMFlag::printError(verbose,
                      "FlexHeapIOStallBackend (%s) must be one of: auto, bpf, delayacct, psi, none\n",
                      value != nullptr ? value : "");
  return JVMFlag::VIOLATES_CONSTRAINT;
}

JVMFlag::Error FlexHeapMaxScaleFactorConstraintFunc(double value, bool verbose) {
  if (value < FlexHeapMinScaleFactor) {
    JVMFlag::printError(verbose,
                        "FlexHeapMaxScaleFactor (%f) must be greater than or "
                        "equal to FlexHeapMinScaleFactor (%f)\n",
                        value, FlexHeapMinScaleFactor);
    return JVMFlag::VIOLATES_CONSTRAINT;
  }
  return JVMFlag::SUCCESS;
}

void G1FlexHeapArguments::select_gc() {
  if (!UseFlexHeap) {
    return;
  }
  // The collector flags are still as given on the command line here.
  const bool chosen = UseSerialGC || UseParallelGC || UseG1GC || UseZGC ||
                      UseShenandoahGC || UseEpsilonGC;
  if (!chosen && FLAG_IS_DEFAULT(UseG1GC)) {
    FLAG_SET_ERGO(UseG1GC, true);
    log_info(gc)("UseFlexHeap selects the G1 collector");
  }
}

jint G1FlexHeapArguments::initialize() {
  if (!UseFlexHeap) {
    return JNI_OK;
  }
  if (!UseG1GC) {
    jio_fprintf(defaultStream::error_stream(),
                "-XX:+UseFlexHeap requires the G1 collector (-XX:+UseG1GC); it cannot be used with %s\n",
                GCConfig::hs_err_name());
    return JNI_EINVAL;
  }
  return JNI_OK;
}

bool G1FlexHeapArguments::set_default_max_ram_percentage() {
  if (!UseFlexHeap || !UseG1GC || !FLAG_IS_DEFAULT(MaxRAMPercentage)) {
    return false;
  }
  FLAG_SET_ERGO(MaxRAMPercentage, FlexHeapMaxRAMPercentage);
  return true;
}
