// The kernel of residency.cl under CUDA: the largest number of 64-thread
// blocks, each with PAD bytes of shared memory, resident at once, with the
// driver's default carveout and with the smallest (cudaSharedmemCarveoutMaxL1),
// beside cudaOccupancyMaxActiveBlocksPerMultiprocessor.
// usage: residency_cu SPINS (the PAD sizes are compiled in: kPads).
#include <cstdio>
#include <cstdlib>

template <int PAD>
__global__ void __launch_bounds__(64) residency(int* live, int* peak, float* sink, int spins) {
  __shared__ float pad[PAD / 4 > 0 ? PAD / 4 : 1];
  const int lid = threadIdx.x;
  for (int i = lid; i < PAD / 4; i += 64) pad[i] = float(i);
  __syncthreads();
  if (lid == 0) atomicMax(peak, atomicAdd(live, 1) + 1);
  float a = pad[(lid * 7) % (PAD / 4 > 0 ? PAD / 4 : 1)];
  for (int i = 0; i < spins; ++i) a = a * 0.9999f + 0.001f;
  __syncthreads();
  if (lid == 0) atomicSub(live, 1);
  sink[blockIdx.x * 64 + lid] = a;
}

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "residency_cu: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <int PAD>
void probe(int spins, int units, int* live, int* peak, float* sink) {
  for (int carveout : {int(cudaSharedmemCarveoutDefault), int(cudaSharedmemCarveoutMaxL1)}) {
    check(cudaFuncSetAttribute(residency<PAD>, cudaFuncAttributePreferredSharedMemoryCarveout,
                               carveout),
          "cudaFuncSetAttribute");
    int occupancy = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, residency<PAD>, 64, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    int best = 0;
    for (int rep = 0; rep < 3; ++rep) {
      check(cudaMemset(live, 0, 4), "cudaMemset");
      check(cudaMemset(peak, 0, 4), "cudaMemset");
      residency<PAD><<<units * 32, 64>>>(live, peak, sink, spins);
      check(cudaDeviceSynchronize(), "residency kernel");
      int got = 0, left = -1;
      check(cudaMemcpy(&got, peak, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      check(cudaMemcpy(&left, live, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
      if (left != 0) check(cudaErrorUnknown, "the live count returning to 0");
      if (got > best) best = got;
    }
    std::printf(
        "cuda   shared %6d B, carveout %-7s: peak %5d blocks resident, %.2f per SM "
        "(occupancy API: %d)\n",
        PAD, carveout < 0 ? "default" : "max-L1", best, double(best) / units, occupancy);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: residency_cu SPINS\n");
    return 2;
  }
  const int spins = std::atoi(argv[1]);
  int units = 0;
  check(cudaDeviceGetAttribute(&units, cudaDevAttrMultiProcessorCount, 0), "attribute");
  int *live = nullptr, *peak = nullptr;
  float* sink = nullptr;
  check(cudaMalloc(&live, 4), "cudaMalloc");
  check(cudaMalloc(&peak, 4), "cudaMalloc");
  check(cudaMalloc(&sink, size_t(units) * 32 * 64 * 4), "cudaMalloc");
  std::printf("device SMs %d, %d blocks of 64, %d spins\n", units, units * 32, spins);
  probe<0>(spins, units, live, peak, sink);
  probe<2048>(spins, units, live, peak, sink);
  probe<8768>(spins, units, live, peak, sink);
  probe<17408>(spins, units, live, peak, sink);
  probe<33792>(spins, units, live, peak, sink);
  return 0;
}
