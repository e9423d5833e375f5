#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
#

"""Real services as harness workloads: an OpenSearch node under opensearch-benchmark, and
Spark SQL (local[2]).

`--workload opensearch:<name>` / `--workload spark:<name>` select them (see parse_workload);
the runner hands a RunConfig whose `service` is set to run_service_once (service.py), which
starts the service inside the run's budget cgroup and device profile with the policy's heap
flags written into the service's own configuration, health-checks it, drives the workload,
stops it and cleans up, and writes the usual run folder (summary.json, samples.csv, gc.log).
"""

from __future__ import annotations

from .base import Service, ServiceUnavailable, parse_workload, is_service_workload  # noqa: F401
