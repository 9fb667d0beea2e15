#!/usr/bin/env bash
# The SASS that ran, for both APIs (issue 12, deliverable 2), on a lent GPU.
# Usage (device tool): OUT=<dir> scripts/device_sass_run.sh   (B: build folder, default /tmp/gpucmp-build)
# Comes back in $OUT:
#   sass.tgz       sass/<program>.opencl-jit.sass   (driver JIT, cubin from the compute cache: what ran)
#                  sass/<program>.opencl-ptxas.sass (offline ptxas on the same PTX: not what ran)
#                  sass/<kernel>.cuda.sass          (nvcc's cubin of the executable)
#                  sass/SOURCES.txt                 (each file's first line: where it came from)
#   jit-cache.tgz  jit-cache/: the driver's raw compute cache of the OpenCL dump (test fixtures:
#                  unpack under tests/fixtures/jit_cache/gpu/)
#   dump.tgz       both dumps as written (PTX, build logs, .jit.cubin)
#   *.log          build and dump logs
set -u
shopt -s nullglob
: "${OUT:?set OUT to the folder that comes back}"
B=${B:-/tmp/gpucmp-build}
source scripts/device_setup.sh
{ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_WERROR="${GPUCMP_WERROR:-OFF}" &&
  timeout 400 cmake --build "$B" -j16 --target gpucmp-ptx; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"  # cuobjdump, ptxas
work=$(mktemp -d)
timeout 300 "$B/gpucmp-ptx" dump --api opencl --out "$work/dump/opencl" --jit-cache "$work/jit-cache" \
  > "$OUT/dump-opencl.log" 2>&1
echo "dump opencl rc=$? ($(grep -c 'no driver-JIT cubin' "$OUT/dump-opencl.log") programs without a JIT cubin)"
timeout 60 "$B/gpucmp-ptx" dump --api cuda --out "$work/dump/cuda" > "$OUT/dump-cuda.log" 2>&1
echo "dump cuda rc=$?"
mkdir -p "$work/sass"
for f in "$work"/dump/opencl/*.ptx; do
  name=$(basename "$f" .ptx)
  [ -f "${f%.ptx}.sass" ] && cp "${f%.ptx}.sass" "$work/sass/$name.opencl-jit.sass"
  [ -f "${f%.ptx}.ptxas.sass" ] && cp "${f%.ptx}.ptxas.sass" "$work/sass/$name.opencl-ptxas.sass"
done
for f in "$work"/dump/cuda/*.sass; do
  [ -f "$f" ] && cp "$f" "$work/sass/$(basename "$f" .sass).cuda.sass"
done
for f in "$work"/sass/*.sass; do echo "$(basename "$f"): $(head -1 "$f")"; done > "$work/sass/SOURCES.txt"
# A first look: shared loads of the tile16 matrixMul in each SASS.
for f in "$work"/sass/matrixMul-tile16.*.sass "$work"/sass/matrixmul.cuda.sass; do
  [ -f "$f" ] && echo "$(basename "$f"): LDS $(grep -cE ' LDS ' "$f"), LDS.128 $(grep -c 'LDS.128' "$f")"
done
tar czf "$OUT/sass.tgz" -C "$work" sass
tar czf "$OUT/jit-cache.tgz" -C "$work" jit-cache
tar czf "$OUT/dump.tgz" -C "$work" dump
ls -l "$OUT"
