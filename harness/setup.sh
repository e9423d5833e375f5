#!/usr/bin/env bash
# Creates (or reuses) the harness venv under the repo's ignored build/venv and
# installs the harness with its test extras. Prints the venv path on success.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
venv="${FLEXHEAP_VENV:-$repo/build/venv}"
python="${PYTHON:-python3}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "setup: creating venv $venv" >&2
    "$python" -m venv "$venv"
fi
# Reinstall only when pyproject.toml changed since the last install.
stamp="$venv/.flexheap-harness-installed"
if [[ ! -f "$stamp" || "$here/pyproject.toml" -nt "$stamp" ]]; then
    echo "setup: installing harness and deps into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet -e "$here[test]" >&2
    touch "$stamp"
fi
echo "$venv"
