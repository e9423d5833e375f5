#!/usr/bin/env bash
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
# The JDK we ship (issue 63.4): `./flexheap dist`, then
#   - the tarball's name, its .sha256 (sha256sum -c), its entries (one top-level
#     directory; the JVM, lib/libiostall.so, LICENSE, README.md, legal/; owner
#     0:0, one mtime, no absolute or escaping names or links)
#   - unpacked into a fresh directory under /var/tmp: no link leaves it, no text
#     file or RUNPATH names the build machine's paths, the CDS archives map
#   - a FlexHeap JVM from there, with the build tree and the base JDK hidden
#     (mount namespace, as root): the example program of the Kubernetes manifest
#     runs, FlexHeap logs decisions, PrintFlagsFinal shows UseFlexHeap, and
#     libiostall is the unpacked one ("shared library load of <dir>/lib/
#     libiostall.so was successful", -Xlog:os) with a stall source or a
#     "No I/O stall source" that does not say it could not load it
#   - the same checks fail on that directory without lib/libiostall.so or
#     without lib/server/libjvm.so, and on listings lacking them
#   - a second dist into another directory gives the same bytes
#   - deploy/Dockerfile: its COPY source (the FLEXHEAP_TARBALL default) matches
#     the tarball dist wrote, its unpack stage run here without Docker (paths
#     moved under a temp root) gives a JDK that starts, the libraries
#     libiostall.so needs come from the packages it installs; hadolint when
#     Debian has it (else SKIP with the reason)
#   - deploy/kubernetes/flexheap-example.yaml against the Kubernetes 1.35 schema
#     (kubernetes-validate 1.37.0, strict: unknown fields fail; its own venv in
#     build/), and two misspelled copies must be rejected; what the manifest must
#     say (memory limit, resizePolicy NotRequired, the probe's capabilities,
#     -XX:+UseFlexHeap) checked on it and refused on a copy that lacks it
# Usage: jdk/test/dist/run.sh   (root for the hidden-tree run; else that part runs without hiding)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../../common.sh"
root="$FLEXHEAP_ROOT"
W="$root/build/test-dist"
K8S_VERSION=1.35.0                 # in-place pod resize is stable from 1.35
VALIDATOR="kubernetes-validate==1.37.0"
venv="$root/build/kubernetes-validate-venv"
manifest="$root/deploy/kubernetes/flexheap-example.yaml"
dockerfile="$root/deploy/Dockerfile"

PASS=0 FAIL=0 SKIP=0 FAILED=()
t_pass() { PASS=$((PASS + 1)); echo "PASS $1${2:+: $2}"; }
t_fail() { FAIL=$((FAIL + 1)); FAILED+=("$1"); echo "FAIL $1: $2"; [ -z "${3:-}" ] || tail -n 15 "$3" | sed 's/^/  | /'; return 0; }
t_skip() { SKIP=$((SKIP + 1)); echo "SKIP $1: $2"; }

rm -rf "$W"; mkdir -p "$W"
tmp=$(mktemp -d /var/tmp/flexheap-dist-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# --- the validator's venv (its PyYAML also reads the manifest below) ----------------
if [ "$("$venv/bin/kubernetes-validate" --version 2>/dev/null)" != "${VALIDATOR#*==}" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" && "$venv/bin/python" -m pip install --quiet "$VALIDATOR" > "$W/pip.log" 2>&1 \
    || { cat "$W/pip.log" >&2; die "cannot install $VALIDATOR into $venv"; }
fi
py="$venv/bin/python"

# --- ./flexheap dist --------------------------------------------------------------
start=$SECONDS
if ! (cd "$root" && ./flexheap dist) > "$W/dist.out" 2> "$W/dist.err"; then
  t_fail dist "./flexheap dist failed" "$W/dist.err"; echo "dist: $PASS passed, $FAIL failed, $SKIP skipped"; exit 1
fi
tarball=$(tail -1 "$W/dist.out")
name=$(basename "$tarball" .tar.gz)
t_pass dist "$(basename "$tarball") in $((SECONDS - start))s, $(du -h "$tarball" | cut -f1)"

jdk_release="$JDK_OUT/release"
want_version=$(sed -n 's/^JAVA_RUNTIME_VERSION="\([^"-]*\).*"$/\1/p' "$jdk_release")
want_rev=$(sed -n 's/^FLEXHEAP_REVISION="\(.*\)"$/\1/p' "$jdk_release")
base=$(sed -n 's/^FLEXHEAP_BASE="\(.*\)"$/\1/p' "$jdk_release")
re='^flexheap-jdk-([0-9]+(\.[0-9]+)*\+[0-9]+)-([0-9a-z]+(-dirty)?)-linux-(x64|aarch64|[a-z0-9_]+)$'
if [[ $name =~ $re ]] && [ "${BASH_REMATCH[1]}" = "$want_version" ] && [ "${BASH_REMATCH[3]}" = "$want_rev" ] \
   && [ "$(dirname "$tarball")" = "$root/build/dist" ] && [ -f "$tarball" ]; then
  t_pass name "version $want_version and revision $want_rev of $JDK_OUT, in build/dist"
else
  t_fail name "$tarball: want build/dist/flexheap-jdk-$want_version-$want_rev-linux-<arch>.tar.gz"
fi

# --- sha256 -------------------------------------------------------------------------
sum="$tarball.sha256"
if [ -f "$sum" ] && grep -qxE "[0-9a-f]{64}  $(basename "$tarball" | sed 's/[+.]/\\&/g')" "$sum" \
   && (cd "$(dirname "$tarball")" && sha256sum -c "$(basename "$sum")") > "$W/sha256.out" 2>&1; then
  t_pass sha256 "$(cat "$W/sha256.out")"
else
  t_fail sha256 "$sum missing, not one '<hash>  <name>' line, or sha256sum -c fails" "$W/sha256.out"
fi

# --- the entries ----------------------------------------------------------------------
# check_listing FILE TOP: what `tar -tvz --numeric-owner` says must hold; prints the problems.
check_listing() {
  awk -v top="$2" '
    { owner = $2; mtime = $4 " " $5; path = $6; target = ""
      if (substr($1, 1, 1) == "l") { for (i = 7; i <= NF; i++) if ($i == "->") target = $(i + 1) }
      if (owner != "0/0") { print "owner " owner ": " path; bad++ }
      if (first == "") first = mtime; else if (mtime != first) { print "mtime " mtime " (not " first "): " path; bad++ }
      if (substr(path, 1, length(top) + 1) != top "/") { print "outside " top "/: " path; bad++ }
      if (path ~ /(^|\/)\.\.(\/|$)/) { print "contains ..: " path; bad++ }
      if (target ~ /^\//) { print "absolute link: " path " -> " target; bad++ }
      have[path] = 1 }
    END {
      n = split("bin/java lib/server/libjvm.so lib/libiostall.so lib/modules lib/server/classes.jsa LICENSE README.md release legal/java.base/LICENSE", need, " ")
      for (i = 1; i <= n; i++) if (!((top "/" need[i]) in have)) { print "missing " top "/" need[i]; bad++ }
      exit bad > 0 }' "$1"
}
tar -tvzf "$tarball" --numeric-owner > "$W/listing"
if problems=$(check_listing "$W/listing" "$name"); then
  t_pass entries "$(wc -l < "$W/listing") entries under $name/, owner 0/0, one mtime ($(awk 'NR==1 {print $4, $5}' "$W/listing")), relative links"
else
  t_fail entries "$(head -5 <<< "$problems" | tr '\n' ';')"
fi
for drop in lib/libiostall.so lib/server/libjvm.so; do
  grep -v " $name/$drop\$" "$W/listing" > "$W/listing-without-${drop##*/}"
  if problems=$(check_listing "$W/listing-without-${drop##*/}" "$name"); then
    t_fail "entries-without-${drop##*/}" "the listing check passed a tarball without $drop"
  else
    t_pass "entries-without-${drop##*/}" "rejected: $problems"
  fi
done

# --- unpacked into a fresh directory ------------------------------------------------------
mkdir -p "$tmp/unpacked"
tar -xzf "$tarball" -C "$tmp/unpacked"
dir="$tmp/unpacked/$name"
if [ -x "$dir/bin/java" ] && cmp -s "$dir/LICENSE" "$root/LICENSE" && [ -d "$dir/legal/java.base" ] \
   && grep -q -- '-XX:+UseFlexHeap' "$dir/README.md" && grep -q "CAP_BPF" "$dir/README.md" \
   && grep -q "FlexHeap $want_rev" "$dir/README.md" && ! grep -q '@[A-Z_:a-zA-Z]*@' "$dir/README.md"; then
  t_pass unpack "$dir: LICENSE is the repository's, legal/ present, README names the flags, CAP_BPF and the revision"
else
  t_fail unpack "$dir: bin/java, LICENSE (= the repository's), legal/ or a complete README.md missing"
fi

# Relocation: links, release, text files, RUNPATHs. Prints the problems.
check_relocatable() {
  local d=$1 l t r f rp p hits bad=0
  while IFS= read -r -d '' l; do
    t=$(readlink "$l"); r=$(readlink -f "$l" || true)
    if [ "${t#/}" != "$t" ] || [ "${r#"$d"/}" = "$r" ] || [ ! -e "$r" ]; then echo "link ${l#"$d"/} -> $t"; bad=1; fi
  done < <(find "$d" -type l -print0)
  if grep -nE '^[A-Z_]+="/' "$d/release"; then bad=1; fi
  for p in "$root" "$JDK_OUT" "$FLEXHEAP_CACHE" ${base:+"$base"}; do
    hits=$(grep -rlIF -- "$p" "$d" || true)
    if [ -n "$hits" ]; then head -3 <<< "$hits" | sed "s|^|names $p: |"; bad=1; fi
  done
  while IFS= read -r -d '' f; do
    head -c 4 "$f" | grep -q $'^\x7fELF' || continue
    rp=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
    hits=$(tr ':' '\n' <<< "$rp" | grep -vE '^(\$ORIGIN|\$\{ORIGIN\}|$)' || true)
    if [ -n "$hits" ]; then echo "RUNPATH ${f#"$d"/}: $rp"; bad=1; fi
  done < <(find "$d/bin" "$d/lib" -type f \( -perm -u+x -o -name '*.so' \) -print0)
  return $bad
}
if problems=$(check_relocatable "$dir"); then
  t_pass relocatable "no link leaves $name/, no absolute path in release, no text file names $root, $FLEXHEAP_CACHE${base:+ or $base}, RUNPATHs are \$ORIGIN"
else
  t_fail relocatable "$(head -5 <<< "$problems" | tr '\n' ';')"
fi
cds_ok=1
for opt in -XX:+UseCompressedOops -XX:-UseCompressedOops; do
  env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS "$dir/bin/java" -Xshare:on "$opt" -version > "$W/cds$opt.out" 2>&1 || cds_ok=0
done
if [ $cds_ok -eq 1 ]; then t_pass cds "-Xshare:on maps both CDS archives from the unpacked directory"
else t_fail cds "-Xshare:on fails from $dir (archives bound to the build path?)" "$W/cds-XX:-UseCompressedOops.out"; fi

# --- a FlexHeap JVM from there --------------------------------------------------------------
# The example program of the Kubernetes manifest, in the temp dir (the build tree is hidden).
"$py" - "$manifest" "$tmp/FlexHeapExample.java" <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
cm = next(d for d in docs if d["kind"] == "ConfigMap")
open(sys.argv[2], "w").write(cm["data"]["FlexHeapExample.java"])
EOF
hide=()
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
  hide=("$root/build" "$FLEXHEAP_CACHE")
  [ -n "$base" ] && [ -d "$base" ] && hide+=("$base")
fi
# jvm_run DIR OUT ARGS...: DIR/bin/java ARGS with the hidden paths covered by empty tmpfs.
jvm_run() {
  local d=$1 out=$2; shift 2
  local cmd=(env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u JAVA_HOME -u CLASSPATH PATH=/usr/bin:/bin
             timeout -k 5 120 "$d/bin/java" "$@")
  echo "${cmd[*]}" > "$out.cmd"
  if [ ${#hide[@]} -gt 0 ]; then
    (cd "$tmp" && unshare --mount --propagation private -- sh -c \
      'n=$1; shift; while [ "$n" -gt 0 ]; do mount -t tmpfs -o size=1m,mode=000 flexheap-hidden "$1" || exit 90; shift; n=$((n-1)); done; exec "$@"' \
      sh "${#hide[@]}" "${hide[@]}" "${cmd[@]}") > "$out" 2>&1
  else
    (cd "$tmp" && "${cmd[@]}") > "$out" 2>&1
  fi
}
# check_jvm DIR TAG: the example runs on DIR's FlexHeap JVM; prints what it found, fails on a problem.
check_jvm() {
  local d=$1 out="$W/jvm-$2.out" rc=0 n lib
  jvm_run "$d" "$out" -XX:+UseFlexHeap -Xlog:gc+flexheap=info -Xlog:os=info -Xmx256m \
    -XX:ErrorFile="$tmp/hs_err_%p.log" "$tmp/FlexHeapExample.java" 4 32 || rc=$?
  n=$(grep -c ' decision state=' "$out" || true)
  lib=$(sed -n 's/.*shared library load of \(.*libiostall\.so\) was successful.*/\1/p' "$out" | head -1)
  if [ $rc -ne 0 ]; then echo "exit $rc"; return 1; fi
  if ! grep -q "FlexHeapExample done" "$out"; then echo "the program did not finish"; return 1; fi
  if [ "$n" -lt 3 ]; then echo "$n decision lines, want 3 or more"; return 1; fi
  if [ "$lib" != "$d/lib/libiostall.so" ]; then echo "libiostall loaded from '${lib:-nowhere}', not $d/lib/libiostall.so"; return 1; fi
  if grep -q "No I/O stall source (cannot load" "$out"; then echo "$(grep -m1 'No I/O stall source' "$out")"; return 1; fi
  local src; src=$(grep -m1 -oE 'I/O stall source: [a-z]+|No I/O stall source \(.*' "$out" | cut -c1-160)
  [ -n "$src" ] || { echo "no 'I/O stall source' line nor 'No I/O stall source' warning"; return 1; }
  echo "$n decision lines, libiostall from $lib, $src"
}
what=""; [ ${#hide[@]} -gt 0 ] && what=" (hidden: ${hide[*]})"
if res=$(check_jvm "$dir" unpacked); then t_pass jvm "$res$what"
else t_fail jvm "$res" "$W/jvm-unpacked.out"; fi
jvm_run "$dir" "$W/flags.out" -XX:+UseFlexHeap -XX:+PrintFlagsFinal -XshowSettings:properties -version || true
if grep -qE '^ *bool UseFlexHeap += true ' "$W/flags.out" \
   && grep -qxE " *java\.home = $(sed 's/[+.]/\\&/g' <<< "$dir")" "$W/flags.out"; then
  t_pass flags "PrintFlagsFinal: $(grep -m1 -E 'bool UseFlexHeap ' "$W/flags.out" | tr -s ' ' | cut -c1-80); java.home is the unpacked dir"
else
  t_fail flags "PrintFlagsFinal lacks 'bool UseFlexHeap = true' or java.home is not $dir" "$W/flags.out"
fi
# Negative controls: the same check on the unpacked JDK without its library, without its JVM.
for drop in lib/libiostall.so lib/server/libjvm.so; do
  mv "$dir/$drop" "$tmp/dropped"
  if res=$(check_jvm "$dir" "without-${drop##*/}"); then
    t_fail "jvm-without-${drop##*/}" "the JVM check passed without $drop: $res"
  else
    t_pass "jvm-without-${drop##*/}" "rejected: $res"
  fi
  mv "$tmp/dropped" "$dir/$drop"
done

# --- reproducible -----------------------------------------------------------------------------
start=$SECONDS
if again=$(FLEXHEAP_DIST_DIR="$tmp/dist2" bash "$root/jdk/dist.sh" 2> "$W/dist2.err" | tail -1) \
   && [ "$(basename "$again")" = "$(basename "$tarball")" ] && cmp -s "$tarball" "$again"; then
  t_pass reproducible "a second dist into another directory: the same $(stat -c %s "$tarball") bytes ($((SECONDS - start))s)"
else
  t_fail reproducible "a second dist gave ${again:-nothing}, which differs from $tarball" "$W/dist2.err"
fi
rm -rf "$tmp/dist2"

# --- deploy/Dockerfile ------------------------------------------------------------------------
df_arg=$(sed -n 's/^ARG FLEXHEAP_TARBALL=\(.*\)$/\1/p' "$dockerfile" | head -1)
df_copy=$(grep -m1 -E '^COPY \$\{FLEXHEAP_TARBALL\} \$\{FLEXHEAP_TARBALL\}\.sha256 ' "$dockerfile" || true)
# shellcheck disable=SC2053  # the ARG default is a glob, as COPY reads it
if [ -n "$df_arg" ] && [ -n "$df_copy" ] && [[ $(basename "$tarball") == $df_arg ]] \
   && grep -q "docker build -f deploy/Dockerfile .* build/dist\$" "$dockerfile" \
   && [ "$(grep -c '^FROM debian:12-slim' "$dockerfile")" -eq 2 ]; then
  t_pass dockerfile-copy "COPY's source $df_arg (context build/dist) matches $(basename "$tarball"); Debian 12 slim"
else
  t_fail dockerfile-copy "ARG FLEXHEAP_TARBALL='$df_arg' / COPY '${df_copy}' / context / FROM debian:12-slim do not fit $(basename "$tarball")"
fi
# The unpack stage without Docker: its COPY (the ARG's glob in build/dist) and its RUN, with
# / moved to $tmp/image; then what the final stage copies and points JAVA_HOME at must run.
img="$tmp/image"; mkdir -p "$img/dist" "$img/opt"
stage1=$(awk '/^FROM /{n++} n==1' "$dockerfile" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
run1=$(sed -n 's/^RUN //p' <<< "$stage1" | head -1)
java_home=$(sed -n 's/^ENV JAVA_HOME=\(.*\)$/\1/p' "$dockerfile")
copied=$(sed -n 's/^COPY --from=unpack \([^ ]*\) \([^ ]*\)$/\1 \2/p' "$dockerfile")
( shopt -s nullglob; cd "$root/build/dist"; for f in $df_arg $df_arg.sha256; do cp "$f" "$img/dist/"; done )
if [ -n "$run1" ] && (cd "$img/dist" && sh -c "$(sed "s|/opt/|$img/opt/|g" <<< "$run1")") > "$W/docker-unpack.out" 2>&1 \
   && [ "$copied" = "$java_home $java_home" ] && grep -qxF "ENV PATH=$java_home/bin:\$PATH" "$dockerfile" \
   && env -u JAVA_TOOL_OPTIONS "$img$java_home/bin/java" -XX:+UseFlexHeap -version > "$W/docker-java.out" 2>&1 \
   && grep -q "FlexHeap $want_rev" "$W/docker-java.out"; then
  t_pass dockerfile-unpack "the unpack stage's RUN (sha256sum -c, one tarball, tar --strip-components) gives $java_home, which runs: $(grep -m1 FlexHeap "$W/docker-java.out" | cut -c1-90)"
else
  t_fail dockerfile-unpack "the unpack stage (RUN: ${run1:0:60}...) or JAVA_HOME=$java_home / COPY --from=unpack '$copied' / PATH do not give a working JDK" "$W/docker-unpack.out"
fi
# The libraries lib/libiostall.so needs beyond glibc come from packages the image installs.
pkgs=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$dockerfile" | grep -oE 'apt-get install [^&]*' | tr ' ' '\n' | grep -vE '^(apt-get|install|-.*)$' || true)
missing=""
for lib in $(readelf -d "$dir/lib/libiostall.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  case "$lib" in libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) continue ;; esac
  pkg=$(dpkg -S "*/$lib" 2>/dev/null | head -1 | cut -d: -f1)
  grep -qx "${pkg:-?}" <<< "$pkgs" || missing+=" $lib (package ${pkg:-unknown})"
done
if [ -z "$missing" ] && [ -n "$pkgs" ]; then t_pass dockerfile-libs "libiostall.so's libraries come from: $(echo $pkgs)"
else t_fail dockerfile-libs "the image does not install:$missing (installs: $(echo $pkgs))"; fi
if command -v hadolint >/dev/null; then
  if hadolint "$dockerfile" > "$W/hadolint.out" 2>&1; then t_pass hadolint "no findings"
  else t_fail hadolint "findings" "$W/hadolint.out"; fi
elif apt-cache policy hadolint 2>/dev/null | grep -q 'Candidate: [0-9]' && [ "$(id -u)" -eq 0 ]; then
  apt-get install -y -qq hadolint > "$W/hadolint-install.out" 2>&1 || true
  if command -v hadolint >/dev/null && hadolint "$dockerfile" > "$W/hadolint.out" 2>&1; then t_pass hadolint "no findings"
  else t_fail hadolint "not installable or findings" "$W/hadolint.out"; fi
else
  t_skip hadolint "no hadolint package in this machine's Debian sources (apt-cache policy hadolint: no candidate)"
fi

# --- deploy/kubernetes ------------------------------------------------------------------------
kv() { "$venv/bin/kubernetes-validate" -k "$K8S_VERSION" --strict "$@"; }
schemas="$("$py" -c 'import kubernetes_validate, os; print(os.path.dirname(kubernetes_validate.__file__))')/kubernetes-json-schema"
if [ ! -d "$schemas/v$K8S_VERSION-local-strict" ]; then
  t_fail k8s-schema "kubernetes-validate $("$venv/bin/kubernetes-validate" --version) ships no v$K8S_VERSION strict schema ($(ls "$schemas" | sort -V | tail -2 | tr '\n' ' '))"
elif kv "$manifest" > "$W/k8s.out" 2>&1 && [ "$(grep -c '^INFO .* passed for resource' "$W/k8s.out")" -eq 2 ]; then
  t_pass k8s-schema "kubernetes-validate $("$venv/bin/kubernetes-validate" --version) --strict -k $K8S_VERSION: $(grep -o 'passed for resource [^ ]*' "$W/k8s.out" | sed 's/passed for resource //' | tr '\n' ' ')"
else
  t_fail k8s-schema "the manifest does not validate" "$W/k8s.out"
fi
for typo in "resizePolicy:/resizePolcy:" "capabilities:/capabilites:"; do
  bad="$tmp/${typo%%:*}-misspelled.yaml"
  sed "s/${typo}/" "$manifest" > "$bad"
  cmp -s "$bad" "$manifest" && die "the negative check changed nothing (${typo%%:*} not in the manifest)"
  if kv "$bad" > "$W/k8s-${typo%%:*}.out" 2>&1; then
    t_fail "k8s-rejects-${typo%%:*}" "a copy with ${typo#*/} validated" "$W/k8s-${typo%%:*}.out"
  else
    t_pass "k8s-rejects-${typo%%:*}" "$(grep -m1 -o "Additional properties.*" "$W/k8s-${typo%%:*}.out" || tail -1 "$W/k8s-${typo%%:*}.out")"
  fi
done
# What the schema cannot say: the manifest runs FlexHeap under a resizable limit.
check_manifest() {
  "$py" - "$1" "$dockerfile" <<'EOF'
import re, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
bad = []
deps = [d for d in docs if d["kind"] == "Deployment"]
if len(deps) != 1:
    sys.exit("want one Deployment, got %d" % len(deps))
pod = deps[0]["spec"]["template"]["spec"]
c = pod["containers"][0]
if not c.get("resources", {}).get("limits", {}).get("memory"):
    bad.append("no memory limit")
if {"resourceName": "memory", "restartPolicy": "NotRequired"} not in c.get("resizePolicy", []):
    bad.append("no resizePolicy memory/NotRequired")
caps = c.get("securityContext", {}).get("capabilities", {}).get("add", [])
if not {"BPF", "PERFMON"} <= set(caps):
    bad.append("capabilities.add lacks BPF and PERFMON: %s" % caps)
env = {e["name"]: e.get("value", "") for e in c.get("env", [])}
if "-XX:+UseFlexHeap" not in env.get("JAVA_TOOL_OPTIONS", "").split():
    bad.append("JAVA_TOOL_OPTIONS lacks -XX:+UseFlexHeap")
tag = re.search(r"docker build -f deploy/Dockerfile -t (\S+)", open(sys.argv[2]).read())
if not tag or c["image"] != tag.group(1):
    bad.append("image %s is not the tag deploy/Dockerfile says to build (%s)" % (c["image"], tag and tag.group(1)))
cms = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
for v in pod.get("volumes", []):
    if "configMap" in v:
        cm = cms.get(v["configMap"]["name"])
        for key in (cm or {}).get("data", {}):
            path = mounts.get(v["name"], "?") + "/" + key
            if path not in c.get("command", []) + c.get("args", []):
                bad.append("the command does not run %s" % path)
if bad:
    sys.exit("; ".join(bad))
print("memory limit %s, resizePolicy memory NotRequired, capabilities %s, JAVA_TOOL_OPTIONS %s, image %s"
      % (c["resources"]["limits"]["memory"], "+".join(caps), " ".join(env["JAVA_TOOL_OPTIONS"].split()[:1]), c["image"]))
EOF
}
if res=$(check_manifest "$manifest" 2>&1); then t_pass k8s-content "$res"
else t_fail k8s-content "$res"; fi
sed 's/restartPolicy: NotRequired/restartPolicy: RestartContainer/' "$manifest" > "$tmp/restart.yaml"
if res=$(check_manifest "$tmp/restart.yaml" 2>&1); then t_fail k8s-content-rejects-restart "passed: $res"
else t_pass k8s-content-rejects-restart "rejected: $res"; fi

echo "dist: $PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ] || echo "dist failed: ${FAILED[*]}"
[ "$FAIL" -eq 0 ]
