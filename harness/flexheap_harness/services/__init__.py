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
