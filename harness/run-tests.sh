#!/usr/bin/env bash
# Runs the harness test suite in the harness venv (created on first use).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$(bash "$here/setup.sh")"
cd "$here"
exec "$venv/bin/python" -m pytest -q "$@"
