#!/usr/bin/env bash
# Long chaos runs through the CLI, one per backend, as reported in chaos/results/README.md.
#
#   chaos/results/run-long-runs.sh [DURATION] [BACKEND...]
#
# DURATION defaults to 12m; BACKENDs are sqlite postgres zookeeper s3 http (default: all).
# Builds the CLI jar (./fenceline) and the chaos module's test classes (for ServeBackend, which
# starts embedded PostgreSQL, a 3-server ZooKeeper ensemble, S3Proxy behind the
# conditional-write-serializing proxy, or the fake HTTP API), then for each backend runs
#   fenceline chaos --config <its fenceline.yaml> --duration DURATION --workers 6 --threads 4 \
#     --resources 24 --faults pause,kill,store --fault-every 1s --seed <fixed> \
#     --out chaos/results/<backend>
# (environment: CHAOS_WORKERS, CHAOS_THREADS, CHAOS_RESOURCES, CHAOS_FAULT_EVERY, CHAOS_WORK, and
# CHAOS_RESULTS for another results directory, e.g. for a trial run).
# and keeps report.md, epochs.svg, schedule.txt, the console output, the replayed check
# (replay.txt) and the history's size and digest there (history.jsonl.gz stays out of git).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
duration=${1:-12m}
shift || true
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(sqlite postgres zookeeper s3 http)

./fenceline --version >/dev/null
./mvnw -B -o -q -pl chaos -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$root/chaos/target/test-classpath.txt" \
  -Dspotless.check.skip -Dlicense.skip >/dev/null
# Copies, so that a rebuild in the working tree cannot change classes under a running JVM.
runtime=$(mktemp -d "${CHAOS_WORK:-/dev/shm}/fenceline-long-jars.XXXX")
cp -r "$root/chaos/target/test-classes" "$root/chaos/target/classes" "$root/chaos/target/s3-servers" "$runtime/"
cp "$root/cli/target/fenceline.jar" "$runtime/fenceline.jar"
cp="$runtime/test-classes:$runtime/classes:$(cat "$root/chaos/target/test-classpath.txt")"

seed_of() { case $1 in sqlite) echo 101;; postgres) echo 202;; zookeeper) echo 303;; s3) echo 404;; http) echo 505;; esac; }

for backend in "${backends[@]}"; do
  # On tmpfs where there is one: the runs measure fencing, not the disk (a SIGKILLed process loses
  # nothing the kernel has; the page cache survives it).
  work=$(mktemp -d "${CHAOS_WORK:-/dev/shm}/fenceline-long-$backend.XXXX")
  out="${CHAOS_RESULTS:-$root/chaos/results}/$backend"
  rm -rf "$out"
  server_pid=
  if [ "$backend" = sqlite ]; then
    mkdir -p "$work/published"
    cat >"$work/fenceline.yaml" <<YAML
stores:
  main:
    type: jdbc
    url: jdbc:sqlite:$work/fenceline.db
  files:
    type: vfs
    uri: file://$work/published
issuer: main
destinations:
  files:
    store: files
YAML
    config="$work/fenceline.yaml"
  else
    mkfifo "$work/stdin"
    java -Dfenceline.s3-servers="$runtime/s3-servers" -Dfenceline.s3proxy-heap=2g -cp "$cp" \
      dev.fenceline.chaos.backends.ServeBackend "$backend" "$work" <"$work/stdin" >"$work/serve.out" 2>"$work/serve.err" &
    server_pid=$!
    exec 9>"$work/stdin" # keeps the server's stdin open until we close it
    for _ in $(seq 1 240); do grep -q '^ready ' "$work/serve.out" && break; sleep 0.5; done
    grep -q '^ready ' "$work/serve.out" || { echo "backend $backend did not start:"; cat "$work/serve.err"; exit 1; }
    config=$(sed -n 's/^ready //p' "$work/serve.out")
  fi
  echo "== $backend: $config"
  status=0
  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local \
    java -jar "$runtime/fenceline.jar" chaos --config "$config" --duration "$duration" \
      --workers "${CHAOS_WORKERS:-6}" --threads "${CHAOS_THREADS:-4}" --resources "${CHAOS_RESOURCES:-24}" --faults pause,kill,store --fault-every "${CHAOS_FAULT_EVERY:-1s}" --seed "$(seed_of "$backend")" \
      --out "$out" | tee "$work/chaos.out" || status=$?
  if [ -n "$server_pid" ]; then exec 9>&-; wait "$server_pid" || true; fi
  cp "$work/chaos.out" "$out/console.txt"
  # The history checks the same when replayed through fenceline chaos check.
  java -jar "$runtime/fenceline.jar" chaos check "$out/history.jsonl" >"$out/replay.txt" || true
  # The history (tens of MB) stays out of git (see .gitignore); its size and digest are kept.
  (cd "$out" && wc -l history.jsonl && sha256sum history.jsonl) >"$out/history.txt"
  gzip -9 "$out/history.jsonl"
  rm -rf "$out/workers" "$out/fenceline-proxied.yaml"
  echo "== $backend: exit $status"
done
