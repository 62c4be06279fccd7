#!/usr/bin/env bash
# Prints the markdown table of fuzz runs per target from fuzz/logs/stats.tsv.
awk -F'\t' '{s[$2]+=$3; e[$2]+=$4; r[$2]++; if ($5!=0) f[$2]++} END {
  print "| target | runs | seconds | executions | stopped by a finding |"; print "|---|---|---|---|---|";
  n=split("json_value json_typed beve_value beve_typed pretty_minify beve_transcode beve_to_json value_roundtrip json_differential", t, " ");
  for (i=1;i<=n;i++) { k=t[i]; if (r[k]) { printf "| `%s` | %d | %d (%.2f h) | %d | %d |\n", k, r[k], s[k], s[k]/3600, e[k], f[k]+0; ts+=s[k]; te+=e[k] } }
  printf "| total | | %d (%.2f h) | %d | |\n", ts, ts/3600, te }' "$(dirname "$0")/logs/stats.tsv"
