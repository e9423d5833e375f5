#!/usr/bin/env bash
# The services suite: plumbing unit tests, then an OpenSearch and a Spark smoke run on the
# FlexHeap JDK in budgeted cgroups (skipped only when an artifact cannot be fetched).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$(bash "$here/../harness/setup.sh")"
cd "$here/tests"
exec "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "$@"
