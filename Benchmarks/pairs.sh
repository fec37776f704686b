# Shared by Benchmarks/speed.sh and Benchmarks/site.sh (sourced from the project root, with
# $runs set): `pair` runs a floor and ours alternately and prints one table row. Sets $out,
# a temporary folder the caller removes.
out=$(mktemp -d)
cpu() {  # cpu COMMAND...: runs it once; prints "cpu_seconds wall_seconds peak_kb exit_status"
  python3 Benchmarks/cputime.py "$out/time" "$@" 2>"$out/stderr"
  cat "$out/time"
}
summary() {  # summary FILE COLUMN: "median min max" of a column of numbers
  awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f %.3f", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
# (A ratio has two decimals, three below 0.1: 0.017 is 59× faster, 0.024 is 42×.)
decimals() { awk -v r="$1" 'BEGIN { printf (r < 0.1 ? "%.3f" : "%.2f"), r }'; }
# pair LABEL TARGET CLOCK FLOOR_LABEL -- FLOOR_COMMAND... -- OUR_COMMAND...
# CLOCK is 1 for CPU time, 2 for wall time. Prints one table row.
pair() {
  local label=$1 target=$2 clock=$3 floor_label=$4
  shift 5
  local floor_command=() ours_command=()
  while [ "$1" != -- ]; do floor_command+=("$1"); shift; done
  shift
  ours_command=("$@")
  : >"$out/floor"; : >"$out/ours"; : >"$out/ratios"
  for ((r = 0; r < runs; r++)); do
    [ -n "${prepare:-}" ] && eval "$prepare"
    read -r fc fw fkb _ <<<"$(cpu "${floor_command[@]}")"
    [ -n "${prepare:-}" ] && eval "$prepare"
    read -r oc ow okb status <<<"$(cpu "${ours_command[@]}")"
    [ "$status" = 0 ] || { echo "error: $label failed: $(head -c 300 "$out/stderr")"; exit 1; }
    echo "$fc $fw $fkb" >>"$out/floor"
    echo "$oc $ow $okb" >>"$out/ours"
    if [ "$clock" = 1 ]; then echo "$oc $fc"; else echo "$ow $fw"; fi | awk '{ print ($2 > 0 ? $1 / $2 : 0) }' >>"$out/ratios"
  done
  read -r om olo ohi <<<"$(summary "$out/ours" "$clock")"
  read -r fm flo fhi <<<"$(summary "$out/floor" "$clock")"
  read -r _ rlo rhi <<<"$(summary "$out/ratios" 1)"
  local okb fkb ratio met
  last_ours_kb=$(summary "$out/ours" 3 | awk '{ print $3 }')
  last_floor_kb=$(summary "$out/floor" 3 | awk '{ print $3 }')
  okb=$(summary "$out/ours" 3 | awk '{ print int($3 / 1024) }')
  fkb=$(summary "$out/floor" 3 | awk '{ print int($3 / 1024) }')
  ratio=$(decimals "$(awk -v a="$om" -v b="$fm" 'BEGIN { print (b > 0 ? a / b : 0) }')")
  met=$(awk -v r="$ratio" -v t="${target#≤ }" 'BEGIN { print (t == "" || r <= t + 0 ? "yes" : "no") }')
  [ -n "$target" ] || met=—
  printf '| %s | %s (%s–%s) | %s | %s (%s–%s) | %s× (%s–%s) | %s | %s | %s | %s |\n' \
    "$label" "$om" "$olo" "$ohi" "$floor_label" "$fm" "$flo" "$fhi" "$ratio" \
    "$(decimals "$rlo")" "$(decimals "$rhi")" "$okb" "$fkb" "${target:-—}" "$met"
}

