// Experiment: which form of the single-pass decoupled look-back scan
// (cuda/agpu/scan_onepass.cu's algorithm) runs fastest on the GPU at n = 2^28
// int32, beside CUB's DeviceScan::InclusiveSum and a device copy of the same
// bytes. The knobs of one form:
//   BLOCK  threads of a tile's block (the suite's onepass: 256; CUB's on sm_90: 128)
//   ALPHA  words per thread (a tile is ALPHA x BLOCK words)
//   MINB   __launch_bounds__'s minimum blocks per SM (0: none)
//   LOOK   0: warp 0 looks back 32 tiles a round by ballots, __nanosleep back-off
//          (the suite's CUDA onepass); 1: the same without sleeping; 2: threads
//          0..31 each spin on their own tile's word, thread 0 combines them in
//          order (the suite's OpenCL onepass without its sleeps); 3: LOOK 2
//          with the OpenCL onepass's sleeps (1245 ns before the first round's
//          polls, 648 ns between polls)
//   LD     0: plain 16-byte loads; 1: __ldg (ld.global.nc); 2: __ldcs (evict-first)
//   ST     0: plain 16-byte stores; 1: __stcs (evict-first)
//   GUARD  0: no bounds checks (the buffers carry a tile of padding); 1: every
//          16-byte access checked against n, as the suite's load4/store4;
//          2: checked only in the last tile (a block-uniform branch, as CUB's
//          full and partial tiles)
//   WAIT   the look-back's sleeps (LOOK 0): 0: the suite's back-off (32 ns,
//          doubling to 512, between polls); 1: CUB's sm_90 int32 tuning
//          (fixed_delay_constructor_t<648, 1245>: 1245 ns before the first
//          poll, 648 ns between polls)
//   XPOSE  0: the load and store transposes through shared memory ordered by
//          __syncwarp (each warp its own chunks); 1: by __syncthreads, as the
//          OpenCL onepass must (OpenCL 1.2 has no warp-level barrier)
//   BSCAN  0: the block's scan by warp shuffles (__shfl_up_sync) and one
//          __syncthreads over the warps' totals (the suite's CUDA onepass);
//          1: the OpenCL onepass's: each thread's total in shared memory, a
//          serial sum over its segment of 16 threads, the 16 segments' sums,
//          two __syncthreads (NVIDIA's OpenCL offers no shuffles; BLOCK 256)
// `./forms opencl` runs only the forms that step from the suite's CUDA
// onepass to the OpenCL onepass's structure, one knob at a time.
// Each form is validated word for word against the CPU's scan, then timed:
// median of 21 launches (CUDA events around each, status memset included as
// in the suite). Build and run:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o forms forms.cu && ./forms
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cub/cub.cuh>
#include <random>
#include <string>
#include <vector>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

namespace {

constexpr int kWarp = 32;
constexpr unsigned kFull = 0xffffffffU;
constexpr unsigned kAggregate = 1, kPrefix = 2;

__device__ __forceinline__ int swizzle(int c) { return c ^ ((c >> 3) & 7); }

template <int LD>
__device__ __forceinline__ uint4 load16(const unsigned* in, size_t i) {
  const uint4* p = reinterpret_cast<const uint4*>(in + i);
  if constexpr (LD == 1) return __ldg(p);
  if constexpr (LD == 2) return __ldcs(p);
  return *p;
}
template <int ST>
__device__ __forceinline__ void store16(unsigned* out, size_t i, uint4 v) {
  uint4* p = reinterpret_cast<uint4*>(out + i);
  if constexpr (ST == 1)
    __stcs(p, v);
  else
    *p = v;
}

__device__ __forceinline__ void publish(unsigned long long* status, size_t tile, unsigned flag,
                                        unsigned v) {
  *reinterpret_cast<volatile unsigned long long*>(status + tile) =
      (unsigned long long)flag << 32 | v;
}

// Warp 0's look-back (LOOK 0 and 1): the sum of every tile before `tile`.
template <bool SLEEP, int WAIT>
__device__ __forceinline__ unsigned look_warp(const unsigned long long* status, long long tile) {
  const int lane = threadIdx.x % kWarp;
  const volatile unsigned long long* words = status;
  unsigned exclusive = 0;
  long long base = tile - 1;
  if constexpr (SLEEP && WAIT == 1) __nanosleep(1245);
  for (;;) {
    const long long pred = base - lane;
    unsigned long long word;
    unsigned prefixes;
    unsigned backoff = WAIT == 1 ? 648 : 32;
    for (;;) {
      word = pred >= 0 ? words[pred] : (unsigned long long)kPrefix << 32;
      const unsigned flag = unsigned(word >> 32);
      const unsigned pending = __ballot_sync(kFull, flag == 0);
      prefixes = __ballot_sync(kFull, flag == kPrefix);
      const unsigned needed = prefixes ? prefixes ^ (prefixes - 1) : kFull;
      if ((pending & needed) == 0) break;
      if constexpr (SLEEP) {
        __nanosleep(backoff);
        if constexpr (WAIT == 0) backoff = min(2 * backoff, 512U);
      }
    }
    const int p = prefixes ? __ffs(int(prefixes)) - 1 : kWarp - 1;
    unsigned v = lane <= p ? unsigned(word) : 0;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(kFull, v, d);
    exclusive += v;
    if (prefixes) return exclusive;
    base -= kWarp;
  }
}

template <int LD>
__device__ __forceinline__ uint4 load16_guarded(const unsigned* in, size_t i, size_t n) {
  if (i + 4 <= n) return load16<LD>(in, i);
  return make_uint4(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
}
template <int ST>
__device__ __forceinline__ void store16_guarded(unsigned* out, size_t i, size_t n, uint4 v) {
  if (i + 4 <= n) return store16<ST>(out, i, v);
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

template <int XPOSE>
__device__ __forceinline__ void transpose_sync() {
  if constexpr (XPOSE == 1)
    __syncthreads();
  else
    __syncwarp();
}

template <int BLOCK, int ALPHA, int MINB, int LOOK, int LD, int ST, int GUARD, int WAIT, int XPOSE,
          int BSCAN>
__global__ void __launch_bounds__(BLOCK, MINB)
    scan_form(const unsigned* in, unsigned* out, unsigned long long* status, size_t n, size_t m) {
  constexpr int Q = ALPHA / 4, kWarps = BLOCK / kWarp, kSegment = 16;
  static_assert(BSCAN == 0 || BLOCK == kSegment * kSegment, "BSCAN 1 takes 256 threads");
  __shared__ uint4 chunks[BLOCK * Q];
  __shared__ unsigned warp_totals[kWarps];
  __shared__ unsigned totals[BSCAN == 1 ? BLOCK : 1];
  __shared__ unsigned segments[kSegment];
  __shared__ unsigned long long window[kWarp];
  __shared__ unsigned tile_id, tile_prefix;
  __shared__ int done;
  const int tx = threadIdx.x, lane = tx % kWarp, warp = tx / kWarp;
  if (tx == 0) tile_id = atomicAdd(reinterpret_cast<unsigned*>(status + m), 1U);
  __syncthreads();
  const size_t tile = tile_id;
  const size_t first = (tile * BLOCK + size_t(warp) * kWarp) * ALPHA;
  uint4* wc = chunks + warp * kWarp * Q;
  unsigned x[ALPHA];
  const bool partial = GUARD == 1 || (GUARD == 2 && tile == m - 1);
  if (partial) {
#pragma unroll
    for (int j = 0; j < Q; ++j)
      wc[swizzle(j * kWarp + lane)] =
          load16_guarded<LD>(in, first + 4 * size_t(j * kWarp + lane), n);
  } else {
#pragma unroll
    for (int j = 0; j < Q; ++j)
      wc[swizzle(j * kWarp + lane)] = load16<LD>(in, first + 4 * size_t(j * kWarp + lane));
  }
  transpose_sync<XPOSE>();
#pragma unroll
  for (int k = 0; k < Q; ++k) {
    const uint4 v = wc[swizzle(lane * Q + k)];
    x[4 * k] = v.x, x[4 * k + 1] = v.y, x[4 * k + 2] = v.z, x[4 * k + 3] = v.w;
  }
#pragma unroll
  for (int k = 1; k < ALPHA; ++k) x[k] += x[k - 1];
  // in_block: the thread's exclusive prefix within the tile; total: the
  // tile's sum (thread 0's at least, which publishes it).
  unsigned in_block = 0, total = 0;
  if constexpr (BSCAN == 0) {
    unsigned inclusive = x[ALPHA - 1];
#pragma unroll
    for (int d = 1; d < kWarp; d *= 2) {
      const unsigned left = __shfl_up_sync(kFull, inclusive, d);
      if (lane >= d) inclusive += left;
    }
    const unsigned lane_prefix = __shfl_up_sync(kFull, inclusive, 1);
    if (lane == kWarp - 1) warp_totals[warp] = inclusive;
    __syncthreads();
    unsigned warp_prefix = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      if (w == warp) warp_prefix = total;
      total += warp_totals[w];
    }
    in_block = warp_prefix + (lane > 0 ? lane_prefix : 0);
  } else {
    totals[tx] = x[ALPHA - 1];
    __syncthreads();
    const int segment = tx / kSegment;
    unsigned in_segment = 0;
    for (int i = segment * kSegment; i < tx; ++i) in_segment += totals[i];
    if (tx % kSegment == kSegment - 1) segments[segment] = in_segment + x[ALPHA - 1];
    __syncthreads();
    unsigned before_segment = 0;
    for (int i = 0; i < segment; ++i) before_segment += segments[i];
    if (tx == 0)
      for (int i = 0; i < kSegment; ++i) total += segments[i];
    in_block = before_segment + in_segment;
  }
  if constexpr (LOOK < 2) {
    if (warp == 0) {
      unsigned exclusive = 0;
      if (tile == 0) {
        if (lane == 0) publish(status, tile, kPrefix, total);
      } else {
        if (lane == 0) publish(status, tile, kAggregate, total);
        exclusive = look_warp<LOOK == 0, WAIT>(status, (long long)tile);
        if (lane == 0) publish(status, tile, kPrefix, exclusive + total);
      }
      if (lane == 0) tile_prefix = exclusive;
    }
    __syncthreads();
  } else {
    if (tx == 0) {
      publish(status, tile, tile == 0 ? kPrefix : kAggregate, total);
      tile_prefix = 0;
      done = tile == 0;
    }
    __syncthreads();
    long long next = (long long)tile - 1;
    while (!done) {
      if (tx < kWarp) {
        const long long pred = next - tx;
        unsigned long long word = (unsigned long long)kPrefix << 32;
        if (pred >= 0) {
          if (LOOK == 3 && next == (long long)tile - 1) __nanosleep(1245);
          for (;;) {
            word = *(volatile unsigned long long*)(status + pred);
            if (unsigned(word >> 32) != 0) break;
            if constexpr (LOOK == 3) __nanosleep(648);
          }
        }
        window[tx] = word;
      }
      __syncthreads();
      if (tx == 0) {
        unsigned sum = tile_prefix;
        int found = 0;
        for (int l = 0; l < kWarp && !found; ++l) {
          sum += unsigned(window[l]);
          found = unsigned(window[l] >> 32) == kPrefix;
        }
        tile_prefix = sum;
        done = found;
        if (found) publish(status, tile, kPrefix, sum + total);
      }
      next -= kWarp;
      __syncthreads();
    }
  }
  unsigned prefix = tile_prefix + in_block;
#pragma unroll
  for (int k = 0; k < ALPHA; ++k) x[k] += prefix;
#pragma unroll
  for (int k = 0; k < Q; ++k)
    wc[swizzle(lane * Q + k)] = make_uint4(x[4 * k], x[4 * k + 1], x[4 * k + 2], x[4 * k + 3]);
  transpose_sync<XPOSE>();
  if (partial) {
#pragma unroll
    for (int j = 0; j < Q; ++j)
      store16_guarded<ST>(out, first + 4 * size_t(j * kWarp + lane), n,
                          wc[swizzle(j * kWarp + lane)]);
  } else {
#pragma unroll
    for (int j = 0; j < Q; ++j)
      store16<ST>(out, first + 4 * size_t(j * kWarp + lane), wc[swizzle(j * kWarp + lane)]);
  }
}

struct Bench {
  size_t n;
  unsigned *in, *out;
  unsigned long long* status;
  std::vector<unsigned> want;
  cudaEvent_t a, b;
};

template <class F>
float median_ms(Bench& B, F launch) {
  std::vector<float> t;
  for (int r = 0; r < 21; ++r) {
    CHECK(cudaEventRecord(B.a));
    launch();
    CHECK(cudaEventRecord(B.b));
    CHECK(cudaEventSynchronize(B.b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, B.a, B.b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

bool valid(Bench& B) {
  std::vector<unsigned> got(B.n);
  CHECK(cudaMemcpy(got.data(), B.out, B.n * 4, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < B.n; ++i)
    if (got[i] != B.want[i]) {
      std::printf("  MISMATCH at %zu: got %u want %u\n", i, got[i], B.want[i]);
      return false;
    }
  return true;
}

template <int BLOCK, int ALPHA, int MINB, int LOOK, int LD, int ST, int GUARD = 0, int WAIT = 0,
          int XPOSE = 0, int BSCAN = 0>
void form(Bench& B) {
  const size_t tile = size_t(BLOCK) * ALPHA, m = (B.n + tile - 1) / tile;
  auto kernel = scan_form<BLOCK, ALPHA, MINB, LOOK, LD, ST, GUARD, WAIT, XPOSE, BSCAN>;
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLOCK, 0));
  auto launch = [&] {
    CHECK(cudaMemsetAsync(B.status, 0, (m + 1) * 8));
    kernel<<<unsigned(m), BLOCK>>>(B.in, B.out, B.status, B.n, m);
  };
  CHECK(cudaMemset(B.out, 0xff, B.n * 4));
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const bool ok = valid(B);
  const float ms = median_ms(B, launch);
  CHECK(cudaGetLastError());
  std::printf(
      "form block %3d alpha %2d minb %2d look %d ld %d st %d guard %d wait %d xpose %d bscan %d | "
      "regs %3d blocks/SM %2d | %8.1f us | %s\n",
      BLOCK, ALPHA, MINB, LOOK, LD, ST, GUARD, WAIT, XPOSE, BSCAN, attr.numRegs, per_sm, ms * 1e3,
      ok ? "valid" : "INVALID");
}

}  // namespace

// From the suite's CUDA onepass (256 threads, LOOK 0, evict-first loads and
// stores, guards in the last tile, CUB's waits) to the OpenCL onepass's
// structure (LOOK 3, plain loads and stores, transposes and block scan
// through shared memory with block barriers), one knob at a time, then all.
void opencl_steps(Bench& B) {
  for (int rep = 0; rep < 2; ++rep) {          // twice: the order's effect shows as a difference
    form<256, 32, 1, 0, 2, 1, 2, 1, 0, 0>(B);  // the suite's CUDA onepass, alpha 32
    form<256, 32, 1, 0, 0, 0, 2, 1, 0, 0>(B);  // plain loads and stores
    form<256, 32, 1, 3, 2, 1, 2, 1, 0, 0>(B);  // OpenCL's look-back, with its sleeps
    form<256, 32, 1, 0, 2, 1, 2, 1, 1, 0>(B);  // transposes ordered by __syncthreads
    form<256, 32, 1, 0, 2, 1, 2, 1, 0, 1>(B);  // the block scan through shared memory
    form<256, 32, 1, 0, 2, 1, 2, 1, 1, 1>(B);  // both shared-memory forms
    form<256, 32, 1, 3, 0, 0, 2, 1, 1, 1>(B);  // all of the OpenCL onepass's structure
    form<256, 16, 1, 0, 2, 1, 2, 1, 0, 0>(B);  // the same two at alpha 16
    form<256, 16, 1, 3, 0, 0, 2, 1, 1, 1>(B);
  }
}

int main(int argc, char** argv) {
  const bool only_opencl_steps = argc > 1 && std::string(argv[1]) == "opencl";
  Bench B;
  B.n = size_t(1) << 28;
  std::vector<unsigned> h(B.n);
  std::mt19937 rng(17);
  for (auto& w : h) w = rng();
  B.want.resize(B.n);
  unsigned s = 0;
  for (size_t i = 0; i < B.n; ++i) B.want[i] = s += h[i];
  constexpr size_t kPad = 512 * 32;  // the largest tile: GUARD 0 reads and writes past n
  CHECK(cudaMalloc(&B.in, (B.n + kPad) * 4));
  CHECK(cudaMalloc(&B.out, (B.n + kPad) * 4));
  CHECK(cudaMalloc(&B.status, (B.n / 256 + 2) * 8));
  CHECK(cudaMemcpy(B.in, h.data(), B.n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaEventCreate(&B.a));
  CHECK(cudaEventCreate(&B.b));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, n = 2^28 int32\n", prop.name);

  {  // CUB and the device copy: the references
    size_t temp = 0;
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp, B.in, B.out, B.n));
    void* d_temp;
    CHECK(cudaMalloc(&d_temp, temp));
    auto cub_scan = [&] { CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp, B.in, B.out, B.n)); };
    CHECK(cudaMemset(B.out, 0xff, B.n * 4));
    cub_scan();
    CHECK(cudaDeviceSynchronize());
    const bool ok = valid(B);
    std::printf(
        "cub InclusiveSum                                                     | %8.1f us | %s\n",
        median_ms(B, cub_scan) * 1e3, ok ? "valid" : "INVALID");
    std::printf(
        "device copy of n words                                               | %8.1f us |\n",
        median_ms(B, [&] {
          CHECK(cudaMemcpyAsync(B.out, B.in, B.n * 4, cudaMemcpyDeviceToDevice));
        }) * 1e3);
    CHECK(cudaFree(d_temp));
  }
  if (only_opencl_steps) {
    opencl_steps(B);
    return 0;
  }
  // The suite's forms: CUDA onepass (LOOK 0, GUARD 1), OpenCL onepass's structure (LOOK 2).
  form<256, 16, 1, 0, 1, 0, 1>(B);
  form<256, 32, 1, 0, 1, 0, 1>(B);
  form<256, 16, 1, 0, 1, 0, 0>(B);
  form<256, 32, 1, 0, 1, 0, 0>(B);
  form<256, 16, 1, 0, 1, 0, 2>(B);
  form<256, 32, 1, 0, 1, 0, 2>(B);
  form<256, 32, 1, 2, 1, 0, 1>(B);
  form<256, 32, 1, 2, 1, 0, 2>(B);
  // CUB's shape and waits: 128 threads, 3072-word tiles, 1245 ns then 648 ns.
  form<128, 24, 8, 0, 1, 0, 2, 0>(B);
  form<128, 24, 8, 0, 1, 0, 2, 1>(B);
  form<128, 24, 8, 0, 0, 0, 2, 1>(B);
  form<128, 24, 8, 0, 2, 1, 2, 1>(B);
  form<128, 32, 6, 0, 1, 0, 2, 1>(B);
  form<128, 32, 6, 0, 2, 1, 2, 1>(B);
  form<256, 16, 1, 0, 1, 0, 2, 1>(B);
  form<256, 32, 1, 0, 1, 0, 2, 1>(B);
  form<256, 32, 1, 0, 2, 1, 2, 1>(B);
  form<256, 16, 1, 0, 2, 1, 2, 1>(B);
  // Cache hints alone, and the OpenCL structure with them.
  form<128, 24, 8, 0, 2, 1, 2, 0>(B);
  form<128, 32, 6, 0, 2, 1, 2, 0>(B);
  form<256, 32, 1, 2, 2, 1, 2>(B);
  form<256, 16, 1, 2, 2, 1, 2>(B);
  // Other shapes, CUB's waits and hints.
  form<192, 24, 5, 0, 2, 1, 2, 1>(B);
  form<128, 16, 8, 0, 2, 1, 2, 1>(B);
  form<64, 32, 12, 0, 2, 1, 2, 1>(B);
  form<384, 16, 2, 0, 2, 1, 2, 1>(B);
  opencl_steps(B);
  return 0;
}
