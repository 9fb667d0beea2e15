// mriq: Parboil MRI-Q. ComputePhiMag writes PhiMag into the packed k-values;
// ComputeQ sums one constant-memory tile of k-values per launch, one voxel per
// work-item, the k loop unrolled x2 by hand, in one of three forms
// (mri::KLoop, harness/workloads/parboil/mri.h); ComputeQByValue (-DK_BYVALUE=N)
// takes its k-values as a by-value argument instead (mri::KFrom). Pairs with
// cuda/parboil/mriq.cu.
#define TWO_PI 6.2831853071795864769f
#define TILE_Q 1024  // mri::kTileQ

typedef struct {
  float Kx, Ky, Kz, PhiMag;
} KValuesQ;

__kernel void ComputePhiMag(__global const float* phiR, __global const float* phiI,
                            __global KValuesQ* kv, int numK) {
  const int k = get_global_id(0);
  if (k < numK) kv[k].PhiMag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
}

// One k-value's contribution to (sQr, sQi). static: see mrifhd.cl.
// -DK_VALUES_VEC4 (variants *-vec4): the k-value read as one float4, which
// tells the compiler it is 16-byte aligned (it is: 16-byte records from a
// buffer's start), so that it may load it with one 128-bit load instead of four
// 32-bit ones (CUDA's -ldg control reads its k-values so).
static inline void accumulate(__constant KValuesQ* kv, float sX, float sY, float sZ, float* sQr,
                              float* sQi) {
#ifdef K_VALUES_VEC4
  const float4 k = *(__constant const float4*)kv;
  const float expArg = TWO_PI * (k.x * sX + k.y * sY + k.z * sZ);
  *sQr += k.w * cos(expArg);
  *sQi += k.w * sin(expArg);
#else
  const float expArg = TWO_PI * (kv->Kx * sX + kv->Ky * sY + kv->Kz * sZ);
  *sQr += kv->PhiMag * cos(expArg);
  *sQi += kv->PhiMag * sin(expArg);
#endif
}

#if defined(K_LOOP_PREFETCH) || defined(K_BYVALUE)
// accumulate of a k-value held in registers (the prefetch form) or passed by
// value (the by-value form).
static inline void accumulate_held(KValuesQ kv, float sX, float sY, float sZ, float* sQr,
                                   float* sQi) {
  const float expArg = TWO_PI * (kv.Kx * sX + kv.Ky * sY + kv.Kz * sZ);
  *sQr += kv.PhiMag * cos(expArg);
  *sQi += kv.PhiMag * sin(expArg);
}
#endif

// numK: the k-values in this tile (<= TILE_Q). The loop's form is chosen by
// -DK_LOOP_COUNT_ONLY (variants uniform-tile*) or -DK_LOOP_PREFETCH (variants
// *-prefetch), as in cuda/parboil/mriq.cu.
__kernel void ComputeQ(int numK, int numX, __global const float* x, __global const float* y,
                       __global const float* z, __global float* Qr, __global float* Qi,
                       __constant KValuesQ* ck) {
  const int t = get_global_id(0);
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
#if defined(K_LOOP_PREFETCH)
  int k = numK % 2;  // the odd one first, then pairs, each loaded one step ahead
  if (k) accumulate(&ck[0], sX, sY, sZ, &sQr, &sQi);
  if (k < numK) {
    KValuesQ n0 = ck[k], n1 = ck[k + 1];
    for (; k < TILE_Q && k < numK; k += 2) {
      const KValuesQ a0 = n0, a1 = n1;
      const int next = min(k + 2, numK - 2);  // the last step reloads its own pair
      n0 = ck[next];
      n1 = ck[next + 1];
      accumulate_held(a0, sX, sY, sZ, &sQr, &sQi);
      accumulate_held(a1, sX, sY, sZ, &sQr, &sQi);
    }
  }
#elif !defined(K_LOOP_COUNT_ONLY)
  int k = numK % 2;  // the odd one first, then pairs
  if (k) accumulate(&ck[0], sX, sY, sZ, &sQr, &sQi);
  for (; k < TILE_Q && k < numK; k += 2) {
    accumulate(&ck[k], sX, sY, sZ, &sQr, &sQi);
    accumulate(&ck[k + 1], sX, sY, sZ, &sQr, &sQi);
  }
#else
  int k = 0;  // pairs, then the odd one
  for (; k + 1 < numK; k += 2) {
    accumulate(&ck[k], sX, sY, sZ, &sQr, &sQi);
    accumulate(&ck[k + 1], sX, sY, sZ, &sQr, &sQi);
  }
  if (k < numK) accumulate(&ck[k], sX, sY, sZ, &sQr, &sQi);
#endif
  Qr[t] = sQr;
  Qi[t] = sQi;
}

#ifdef K_BYVALUE
// The by-value form (mri::KFrom::byvalue): the launch's k-values are one kernel
// argument, K_BYVALUE records (at most CL_DEVICE_MAX_PARAMETER_SIZE bytes with
// the others: set by the host from the device, mri::byvalue_k), which NVIDIA's
// driver puts in the parameters' constant bank, where the kernel reads it.
// numK: the k-values in this
// chunk (<= K_BYVALUE); the origin's loop (the odd one first, then pairs)
// bounded by the chunk, so the k-values add in the order of ComputeQ's. Pairs
// with mriq.cu's ComputeQByValue (a __grid_constant__ parameter).
typedef struct {
  KValuesQ k[K_BYVALUE];
} KChunkQ;

__kernel void ComputeQByValue(int numK, int numX, __global const float* x,
                              __global const float* y, __global const float* z,
                              __global float* Qr, __global float* Qi, KChunkQ chunk) {
  const int t = get_global_id(0);
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
  int k = numK % 2;
  if (k) accumulate_held(chunk.k[0], sX, sY, sZ, &sQr, &sQi);
  for (; k < K_BYVALUE && k < numK; k += 2) {
    accumulate_held(chunk.k[k], sX, sY, sZ, &sQr, &sQi);
    accumulate_held(chunk.k[k + 1], sX, sY, sZ, &sQr, &sQi);
  }
  Qr[t] = sQr;
  Qi[t] = sQi;
}
#endif
