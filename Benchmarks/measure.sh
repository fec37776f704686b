# Sourced by the benchmark scripts: `measure COMMAND...` runs COMMAND $runs times under
# Benchmarks/cputime.py (output to /dev/null) and prints "median_cpu min max peak_kb status", CPU
# time being user + sys in seconds (steadier than wall time on a shared machine). Needs
# $data (a folder for the timing file) and $runs.
measure() {  # measure COMMAND...: "median_cpu min max peak_kb status" over $runs runs
  local cpus=() peak=0 status=0
  for ((r = 0; r < runs; r++)); do
    python3 Benchmarks/cputime.py "$data/.time" "$@" 2>/dev/null
    read -r cpu _ kb code <"$data/.time"
    cpus+=("$cpu")
    peak=$kb; status=$code
  done
  printf '%s\n' "${cpus[@]}" | sort -n | awk -v peak="$peak" -v status="$status" '
    { v[NR] = $1 } END { printf "%.2f %.2f %.2f %d %d\n", v[int((NR + 1) / 2)], v[1], v[NR], peak, status }'
}
