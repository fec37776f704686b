# Sourced by the benchmark scripts: `measure COMMAND...` runs COMMAND $runs times under
# /usr/bin/time (output to /dev/null) and prints "median_cpu min max peak_kb status", CPU
# time being user + sys in seconds (steadier than wall time on a shared machine). Needs
# $data (a folder for the timing file) and $runs.
measure() {  # measure COMMAND...: "median_cpu min max peak_kb status" over $runs runs
  local cpus=() peak=0 status=0
  for ((r = 0; r < runs; r++)); do
    /usr/bin/time -o "$data/.time" -f "%U %S %M %x" "$@" >/dev/null 2>&1 || true
    read -r user sys kb code < <(tail -1 "$data/.time" | sed 's/^Command exited with non-zero status [0-9]*//')
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')")
    peak=$kb; status=$code
  done
  printf '%s\n' "${cpus[@]}" | sort -n | awk -v peak="$peak" -v status="$status" '
    { v[NR] = $1 } END { printf "%.2f %.2f %.2f %d %d\n", v[int((NR + 1) / 2)], v[1], v[NR], peak, status }'
}
