// Experiment: gpucmp's tiled matrixMul (cuda/sdk/matrixmul.cu's loop over tile
// offsets t) against the cuda-samples loop form (A and B walked by index
// ranges aBegin..aEnd with steps), each on random data in [-1, 1) and on the
// constant data cuda-samples uses (A = 1, B = 0.01): does a timing gap
// between gpucmp and cuda-samples come from the code or from the data?
// Median of 11 samples of 20 launches, CUDA events, n = 4096.
//   nvcc -O3 -arch=sm_90 -o mm_forms mm_forms.cu && ./mm_forms
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

template <int T>
__global__ void tile_offsets(float* C, const float* A, const float* B, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += T) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

template <int T>
__global__ void index_ranges(float* C, const float* A, const float* B, int n) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int a0 = n * T * blockIdx.y, a1 = a0 + n - 1;
  float sum = 0.0f;
  for (int a = a0, b = T * blockIdx.x; a <= a1; a += T, b += T * n) {
    As[ty][tx] = A[a + n * ty + tx];
    Bs[ty][tx] = B[b + n * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(blockIdx.y * T + ty) * n + blockIdx.x * T + tx] = sum;
}

template <int T>
float time_ms(void (*k)(float*, const float*, const float*, int), float* c, const float* a,
              const float* b, int n) {
  const dim3 grid(n / T, n / T), block(T, T);
  k<<<grid, block>>>(c, a, b, n);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int s = 0; s < 11; ++s) {
    cudaEventRecord(e0);
    for (int i = 0; i < 20; ++i) k<<<grid, block>>>(c, a, b, n);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t / 20);
  }
  std::sort(ms.begin(), ms.end());
  return ms[5];
}

int main() {
  const int n = 4096;
  const size_t bytes = size_t(n) * n * 4;
  float *a, *b, *c;
  cudaMalloc(&a, bytes);
  cudaMalloc(&b, bytes);
  cudaMalloc(&c, bytes);
  std::vector<float> ha(size_t(n) * n), hb(size_t(n) * n);
  for (const char* data : {"random", "constant"}) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (size_t i = 0; i < ha.size(); ++i) {
      ha[i] = data[0] == 'r' ? u(rng) : 1.0f;
      hb[i] = data[0] == 'r' ? u(rng) : 0.01f;
    }
    cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice);
    std::printf(
        "n %d %-8s tile32 tile_offsets %.3f ms  index_ranges %.3f ms | tile16 tile_offsets %.3f ms "
        " index_ranges %.3f ms\n",
        n, data, time_ms<32>(tile_offsets<32>, c, a, b, n),
        time_ms<32>(index_ranges<32>, c, a, b, n), time_ms<16>(tile_offsets<16>, c, a, b, n),
        time_ms<16>(index_ranges<16>, c, a, b, n));
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
