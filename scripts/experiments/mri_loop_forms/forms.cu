// Experiment: which form of MRI-Q's k loop (constant-memory tile of k-values)
// is fastest on the GPU at Parboil's 32^3 (numK 3072) and 64^3 (numK 2048)
// shapes. Each form is timed as a pipeline (per tile: copy to constant memory +
// launch), median of 21 pipelines, CUDA events. Build twice:
//   nvcc -O3 -arch=sm_90 -o forms forms.cu
//   nvcc -O3 -arch=sm_90 --use_fast_math -o forms-fast forms.cu
// Run: ./forms  (prints one line per form and shape; checks every form against
// the first one's output).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int kTile = 1024, kBlock = 256;
constexpr float kTwoPi = 6.2831853071795864769f;
struct KV {
  float Kx, Ky, Kz, PhiMag;
};
__constant__ KV ck[kTile];

__device__ __forceinline__ void acc(const KV& k, float x, float y, float z, float& r, float& i) {
  const float e = kTwoPi * (k.Kx * x + k.Ky * y + k.Kz * z);
  r += k.PhiMag * cosf(e);
  i += k.PhiMag * sinf(e);
}

#define PROLOGUE                                       \
  const int t = blockIdx.x * blockDim.x + threadIdx.x; \
  if (t >= numX) return;                               \
  const float sX = x[t], sY = y[t], sZ = z[t];         \
  float r = Qr[t], im = Qi[t];
#define ARGS \
  int numK, int numX, const float *x, const float *y, const float *z, float *Qr, float *Qi

// origin: leftover first, x2, bounded by the tile size and the count (LDC c[0x3][R]).
__global__ void origin(ARGS) {
  PROLOGUE
  int k = numK % 2;
  if (k) acc(ck[0], sX, sY, sZ, r, im);
  for (; k < kTile && k < numK; k += 2) {
    acc(ck[k], sX, sY, sZ, r, im);
    acc(ck[k + 1], sX, sY, sZ, r, im);
  }
  Qr[t] = r;
  Qi[t] = im;
}
// count_only: x2 bounded by the count, leftover last (ULDC c[0x3][UR]).
__global__ void count_only(ARGS) {
  PROLOGUE
  int k = 0;
  for (; k + 1 < numK; k += 2) {
    acc(ck[k], sX, sY, sZ, r, im);
    acc(ck[k + 1], sX, sY, sZ, r, im);
  }
  if (k < numK) acc(ck[k], sX, sY, sZ, r, im);
  Qr[t] = r;
  Qi[t] = im;
}
// origin_x4: the origin's bounds, x4.
__global__ void origin_x4(ARGS) {
  PROLOGUE
  int k = 0;
  for (; k < numK % 4; ++k) acc(ck[k], sX, sY, sZ, r, im);
  for (; k < kTile && k < numK; k += 4) {
    acc(ck[k], sX, sY, sZ, r, im);
    acc(ck[k + 1], sX, sY, sZ, r, im);
    acc(ck[k + 2], sX, sY, sZ, r, im);
    acc(ck[k + 3], sX, sY, sZ, r, im);
  }
  Qr[t] = r;
  Qi[t] = im;
}
// origin_2acc: the origin's loop with two pairs of accumulators (shorter add chains).
__global__ void origin_2acc(ARGS) {
  PROLOGUE
  float r1 = 0.0f, i1 = 0.0f;
  int k = numK % 2;
  if (k) acc(ck[0], sX, sY, sZ, r, im);
  for (; k < kTile && k < numK; k += 2) {
    acc(ck[k], sX, sY, sZ, r, im);
    acc(ck[k + 1], sX, sY, sZ, r1, i1);
  }
  Qr[t] = r + r1;
  Qi[t] = im + i1;
}
// count_only_x4: x4 bounded by the count.
__global__ void count_only_x4(ARGS) {
  PROLOGUE
  int k = 0;
  for (; k + 3 < numK; k += 4) {
    acc(ck[k], sX, sY, sZ, r, im);
    acc(ck[k + 1], sX, sY, sZ, r, im);
    acc(ck[k + 2], sX, sY, sZ, r, im);
    acc(ck[k + 3], sX, sY, sZ, r, im);
  }
  for (; k < numK; ++k) acc(ck[k], sX, sY, sZ, r, im);
  Qr[t] = r;
  Qi[t] = im;
}

using Kernel = void (*)(ARGS);
struct Form {
  const char* name;
  Kernel k;
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

}  // namespace

int main() {
  const Form forms[] = {{"origin", origin},
                        {"count_only", count_only},
                        {"origin_x4", origin_x4},
                        {"origin_2acc", origin_2acc},
                        {"count_only_x4", count_only_x4}};
  for (const auto& shape : {std::pair{3072, 32}, std::pair{2048, 64}}) {
    const int numK = shape.first, edge = shape.second;
    const int numX = edge * edge * edge;
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    std::vector<KV> kv(numK);
    for (auto& k : kv) k = {u(rng) * edge, u(rng) * edge, u(rng) * edge, u(rng) + 0.5f};
    std::vector<float> hx(numX), hy(numX), hz(numX);
    for (int i = 0; i < numX; ++i) {
      hx[i] = u(rng);
      hy[i] = u(rng);
      hz[i] = u(rng);
    }
    float *x, *y, *z, *qr, *qi;
    KV* dkv;
    for (float** p : {&x, &y, &z, &qr, &qi}) check(cudaMalloc(p, numX * 4), "cudaMalloc");
    check(cudaMalloc(&dkv, numK * sizeof(KV)), "cudaMalloc");
    cudaMemcpy(x, hx.data(), numX * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hy.data(), numX * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(z, hz.data(), numX * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dkv, kv.data(), numK * sizeof(KV), cudaMemcpyHostToDevice);
    std::vector<float> first;
    for (const Form& f : forms) {
      auto pipeline = [&] {
        cudaMemsetAsync(qr, 0, numX * 4);
        cudaMemsetAsync(qi, 0, numX * 4);
        for (int s = 0; s < numK; s += kTile) {
          const int c = std::min(kTile, numK - s);
          cudaMemcpyToSymbolAsync(ck, dkv + s, c * sizeof(KV), 0, cudaMemcpyDeviceToDevice);
          f.k<<<(numX + kBlock - 1) / kBlock, kBlock>>>(c, numX, x, y, z, qr, qi);
        }
      };
      pipeline();
      check(cudaDeviceSynchronize(), f.name);
      std::vector<float> out(numX);
      cudaMemcpy(out.data(), qr, numX * 4, cudaMemcpyDeviceToHost);
      double maxd = 0, maxr = 0;
      if (first.empty()) first = out;
      for (int i = 0; i < numX; ++i) {
        maxd = std::max(maxd, double(std::fabs(out[i] - first[i])));
        maxr = std::max(maxr, double(std::fabs(first[i])));
      }
      cudaEvent_t a, b;
      cudaEventCreate(&a);
      cudaEventCreate(&b);
      std::vector<float> ms;
      for (int rep = 0; rep < 21; ++rep) {
        cudaEventRecord(a);
        for (int i = 0; i < 10; ++i) pipeline();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        ms.push_back(t / 10);
      }
      std::sort(ms.begin(), ms.end());
      std::printf(
          "numK %d numX %d %-14s median %.4f ms  min %.4f  max %.4f  max|d|/max|ref| %.2e\n", numK,
          numX, f.name, ms[10], ms[0], ms[20], maxd / maxr);
    }
    for (float* p : {x, y, z, qr, qi}) cudaFree(p);
    cudaFree(dkv);
  }
  return 0;
}
