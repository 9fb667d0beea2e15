#!/usr/bin/env bash
# The PTX-variant run on a lent GPU (issue 5), as committed under results/:
# builds, dumps every OpenCL program (PTX variants included, with offline SASS)
# and both compilers' PTX, then times every PTX variant beside its source build
# and the CUDA build. Usage (device tool): OUT=<dir> scripts/device_variants_run.sh
set -u
: "${OUT:?set OUT to the folder that comes back}"
B=${B:-/tmp/gpucmp-build}
source scripts/device_setup.sh
{ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR=${GPUCMP_WERROR:-OFF} &&
  timeout 300 cmake --build "$B" -j16 --target gpucmp-bench gpucmp-ptx; } > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
"$B/gpucmp-bench" --list-devices > "$OUT/devices.txt" 2>&1
mkdir -p "$OUT/dump"
timeout 90 "$B/gpucmp-ptx" dump --api opencl --out "$OUT/dump/opencl" > "$OUT/dump.log" 2>&1
echo "dump opencl rc=$?"
"$B/gpucmp-ptx" dump --api cuda --out "$OUT/dump/cuda" >> "$OUT/dump.log" 2>&1
tar czf "$OUT/dump.tgz" -C "$OUT" dump && rm -rf "$OUT/dump"
run() {  # run <name> <timeout> <gpucmp-bench args...>
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$B/gpucmp-bench" --benchmark_repetitions=3 --samples 10 \
    --benchmark_out="$OUT/$name.json" --benchmark_out_format=json "$@" > "$OUT/$name.log" 2>&1
  echo "$name rc=$?"
}
run variants-matrixmul 200 --mm-n 2048,4096 --benchmark_filter='^matrixMul/(cuda|opencl)/tile'
run variants-parboil 200 --size standard \
  --benchmark_filter='^(cp/(cuda|opencl)/unrollx8(/|-ptx|-auto)|mriq/(cuda|opencl)/precise|mrifhd/(cuda|opencl)/precise)'
grep -h "ERROR\|error" "$OUT"/variants-*.log | head -20
