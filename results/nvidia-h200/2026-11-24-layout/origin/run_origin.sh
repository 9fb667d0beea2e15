#!/usr/bin/env bash
# Rodinia's lavaMD (CUDA, float; built from its public source with nvcc -O3
# -arch=sm_90, cudaThreadSynchronize mapped to cudaDeviceSynchronize) beside
# gpucmp's lavamd (AoS, the same boxes and particles per box), boxes1d 10..70:
# each kernel's duration from ncu at the clocks the runs use.
set -u
D=$(cd "$(dirname "$0")" && pwd)
: "${OUT:?}" "${BENCH:?}"
for b in 10 20 30 40 50 60 70; do
  ncu --clock-control none --metrics gpu__time_duration.sum --csv "$D/lavaMD" -boxes1d $b \
    > "$OUT/rodinia-lavamd-$b.csv" 2> "$OUT/rodinia-lavamd-$b.log"
  echo "rodinia boxes1d $b rc=$?"
  ncu --clock-control none --metrics gpu__time_duration.sum --csv -k regex:lavamd_kernel -c 3 \
    "$BENCH" --benchmark_filter="^lavamd/cuda/base/boxes1d:$b/layout:aos" --lavamd-boxes $b \
    --lavamd-layout aos --samples 1 --startup off > "$OUT/gpucmp-lavamd-$b.csv" 2> "$OUT/gpucmp-lavamd-$b.log"
  echo "gpucmp boxes1d $b rc=$?"
done
