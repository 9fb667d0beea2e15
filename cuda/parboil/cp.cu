// cp: Coulombic potential on a lattice plane (Parboil CP). Atoms are float4
// (x, y, dz^2, q) in constant memory; 16 x 8 thread blocks by default (the
// kernels read blockDim: any block tiling the grid). Pairs with
// opencl/parboil/cp.cl.
#include <cstring>

#include "math_mode.h"
#include "parboil_kernels.h"
#include "workloads/parboil/cp.h"

namespace gpucmp::cuda::GPUCMP_MATH_NS {

namespace {

__constant__ float4 atominfo[cp::kAtomsPerChunk];

// base: one lattice point per thread.
__global__ void cp_base(int numatoms, float gridspacing, float* energygrid) {
  const int xi = blockIdx.x * blockDim.x + threadIdx.x;
  const int yi = blockIdx.y * blockDim.y + threadIdx.y;
  const int width = gridDim.x * blockDim.x;
  const float x = gridspacing * xi;
  const float y = gridspacing * yi;
  float energy = 0.0f;
  for (int n = 0; n < numatoms; ++n) {
    const float dx = x - atominfo[n].x;
    const float dy = y - atominfo[n].y;
    energy += atominfo[n].w * (1.0f / sqrtf(dx * dx + dy * dy + atominfo[n].z));
  }
  energygrid[width * yi + xi] += energy;
}

// unrollx8: eight lattice points per thread, blockDim.x (16) apart along x, so
// that each warp's loads and stores stay coalesced; dy^2 + dz^2 once per atom.
// atom(n) reads atom n: from the constant bank (the kernel as written) or, in
// the -ldg control, from global memory through the read-only path.
template <class Atom>
__device__ __forceinline__ void unrollx8_points(int numatoms, float gridspacing, float* energygrid,
                                                Atom atom) {
  const int xi = blockIdx.x * blockDim.x * cp::kUnrollX + threadIdx.x;
  const int yi = blockIdx.y * blockDim.y + threadIdx.y;
  const int width = gridDim.x * blockDim.x * cp::kUnrollX;
  const float x = gridspacing * xi;
  const float y = gridspacing * yi;
  const float step = gridspacing * blockDim.x;
  float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f, e4 = 0.0f, e5 = 0.0f, e6 = 0.0f, e7 = 0.0f;
  for (int n = 0; n < numatoms; ++n) {
    const float4& a = atom(n);  // the constant bank: each field its own load, as written
    const float dy = y - a.y;
    const float dyz2 = dy * dy + a.z;
    const float q = a.w;
    const float dx0 = x - a.x;
    const float dx1 = dx0 + step;
    const float dx2 = dx1 + step;
    const float dx3 = dx2 + step;
    const float dx4 = dx3 + step;
    const float dx5 = dx4 + step;
    const float dx6 = dx5 + step;
    const float dx7 = dx6 + step;
    e0 += q * (1.0f / sqrtf(dx0 * dx0 + dyz2));
    e1 += q * (1.0f / sqrtf(dx1 * dx1 + dyz2));
    e2 += q * (1.0f / sqrtf(dx2 * dx2 + dyz2));
    e3 += q * (1.0f / sqrtf(dx3 * dx3 + dyz2));
    e4 += q * (1.0f / sqrtf(dx4 * dx4 + dyz2));
    e5 += q * (1.0f / sqrtf(dx5 * dx5 + dyz2));
    e6 += q * (1.0f / sqrtf(dx6 * dx6 + dyz2));
    e7 += q * (1.0f / sqrtf(dx7 * dx7 + dyz2));
  }
  float* out = energygrid + width * yi + xi;
  out[0 * blockDim.x] += e0;
  out[1 * blockDim.x] += e1;
  out[2 * blockDim.x] += e2;
  out[3 * blockDim.x] += e3;
  out[4 * blockDim.x] += e4;
  out[5 * blockDim.x] += e5;
  out[6 * blockDim.x] += e6;
  out[7 * blockDim.x] += e7;
}

struct ConstantAtom {
  __device__ const float4& operator()(int n) const { return atominfo[n]; }
};

// __ldg: ld.global.nc, LDG.E.128.CONSTANT in the SASS, the load NVIDIA's
// OpenCL JIT makes of a __constant kernel argument.
struct GlobalAtom {
  const float4* __restrict__ atoms;
  __device__ float4 operator()(int n) const { return __ldg(atoms + n); }
};

__global__ void cp_unrollx8(int numatoms, float gridspacing, float* energygrid) {
  unrollx8_points(numatoms, gridspacing, energygrid, ConstantAtom{});
}

// The by-value form: a chunk of atoms as one kernel argument, read from the
// parameters' constant bank (__grid_constant__: no copy into local memory);
// its array size is the chunk every NVIDIA launch of the form takes on both
// APIs (cp::byvalue_atoms: 1024 atoms from 32764 bytes of parameters).
struct AtomChunk {
  float4 atom[cp::kByValueAtoms];
};
static_assert(sizeof(AtomChunk) == 16 * cp::kByValueAtoms);

struct ParameterAtom {
  const AtomChunk& chunk;
  __device__ const float4& operator()(int n) const { return chunk.atom[n]; }
};

// The prefetch form: atom n+1 loaded into registers before atom n's points
// are computed (the last step reloads its own atom: no read past the count).
// unrollx8_points asks for the atoms in order, 0, 1, ..., numatoms - 1.
template <class Atom>
struct PrefetchedAtom {
  Atom atom;
  int last;
  float4 next;
  __device__ PrefetchedAtom(Atom a, int numatoms) : atom(a), last(numatoms - 1), next(a(0)) {}
  __device__ float4 operator()(int n) {
    const float4 held = next;
    next = atom(min(n + 1, last));
    return held;
  }
};

__global__ void cp_unrollx8_byvalue(int numatoms, float gridspacing, float* energygrid,
                                    const __grid_constant__ AtomChunk chunk) {
  unrollx8_points(numatoms, gridspacing, energygrid, ParameterAtom{chunk});
}

__global__ void cp_unrollx8_prefetch(int numatoms, float gridspacing, float* energygrid) {
  unrollx8_points(numatoms, gridspacing, energygrid,
                  PrefetchedAtom<ConstantAtom>(ConstantAtom{}, numatoms));
}

__global__ void cp_unrollx8_ldg(int numatoms, float gridspacing, float* energygrid,
                                const float4* __restrict__ atoms) {
  unrollx8_points(numatoms, gridspacing, energygrid, GlobalAtom{atoms});
}

cudaError_t set_atoms(const float* device_atoms, int count, cudaStream_t stream) {
  return cudaMemcpyToSymbolAsync(atominfo, device_atoms, sizeof(float4) * count, 0,
                                 cudaMemcpyDeviceToDevice, stream);
}

void launch(bool unrollx8, int count, float spacing, float* energy, int nx, int ny, int block_x,
            int block_y, cudaStream_t stream) {
  const dim3 block(block_x, block_y);
  if (unrollx8) {
    const dim3 grid(nx / (block_x * cp::kUnrollX), ny / block_y);
    cp_unrollx8<<<grid, block, 0, stream>>>(count, spacing, energy);
  } else {
    const dim3 grid(nx / block_x, ny / block_y);
    cp_base<<<grid, block, 0, stream>>>(count, spacing, energy);
  }
}

void launch_ldg(int count, float spacing, float* energy, const float* atoms, int nx, int ny,
                int block_x, int block_y, cudaStream_t stream) {
  const dim3 block(block_x, block_y);
  const dim3 grid(nx / (block_x * cp::kUnrollX), ny / block_y);
  cp_unrollx8_ldg<<<grid, block, 0, stream>>>(count, spacing, energy,
                                              reinterpret_cast<const float4*>(atoms));
}

void launch_byvalue(int count, float spacing, float* energy, const float* chunk, int nx, int ny,
                    int block_x, int block_y, cudaStream_t stream) {
  AtomChunk arg;
  std::memcpy(&arg, chunk, sizeof arg);
  const dim3 block(block_x, block_y);
  const dim3 grid(nx / (block_x * cp::kUnrollX), ny / block_y);
  cp_unrollx8_byvalue<<<grid, block, 0, stream>>>(count, spacing, energy, arg);
}

void launch_prefetch(int count, float spacing, float* energy, int nx, int ny, int block_x,
                     int block_y, cudaStream_t stream) {
  const dim3 block(block_x, block_y);
  const dim3 grid(nx / (block_x * cp::kUnrollX), ny / block_y);
  cp_unrollx8_prefetch<<<grid, block, 0, stream>>>(count, spacing, energy);
}

const void* kernel(bool unrollx8) {
  return unrollx8 ? reinterpret_cast<const void*>(cp_unrollx8)
                  : reinterpret_cast<const void*>(cp_base);
}

const void* kernel_ldg() { return reinterpret_cast<const void*>(cp_unrollx8_ldg); }

const void* kernel_form(cp::Form form) {
  if (form == cp::Form::byvalue) return reinterpret_cast<const void*>(cp_unrollx8_byvalue);
  if (form == cp::Form::prefetch) return reinterpret_cast<const void*>(cp_unrollx8_prefetch);
  return reinterpret_cast<const void*>(cp_unrollx8);
}

}  // namespace

const CpKernels kCp = {set_atoms,  launch,         kernel,          launch_ldg,
                       kernel_ldg, launch_byvalue, launch_prefetch, kernel_form};

}  // namespace gpucmp::cuda::GPUCMP_MATH_NS
