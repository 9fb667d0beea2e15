// mrifhd: Parboil MRI-FHD. ComputeRhoPhi writes RhoPhiR/I into the packed
// k-values; ComputeFH sums one constant-memory tile per launch, one voxel per
// work-item, the k loop unrolled x4 by hand, in one of three forms
// (mri::KLoop, harness/workloads/parboil/mri.h); ComputeFHByValue
// (-DK_BYVALUE=N) takes its k-values as a by-value argument instead
// (mri::KFrom). Pairs with cuda/parboil/mrifhd.cu.
#define TWO_PI 6.2831853071795864769f
#define TILE_FH 512  // mri::kTileFH

typedef struct {
  float Kx, Ky, Kz, RhoPhiR, RhoPhiI;
} KValuesFH;

__kernel void ComputeRhoPhi(__global const float* phiR, __global const float* phiI,
                            __global const float* dR, __global const float* dI,
                            __global KValuesFH* kv, int numK) {
  const int k = get_global_id(0);
  if (k < numK) {
    kv[k].RhoPhiR = phiR[k] * dR[k] + phiI[k] * dI[k];
    kv[k].RhoPhiI = phiR[k] * dI[k] - phiI[k] * dR[k];
  }
}

// One k-value's contribution to (rFH, iFH). static: a C99 `inline` definition
// alone provides no external one, so with -cl-opt-disable (nothing inlined)
// the build failed with "Unresolved extern function 'accumulate'".
static inline void accumulate(__constant KValuesFH* kv, float sX, float sY, float sZ,
                              float* rFH, float* iFH) {
  const float expArg = TWO_PI * (kv->Kx * sX + kv->Ky * sY + kv->Kz * sZ);
  const float cArg = cos(expArg);
  const float sArg = sin(expArg);
  *rFH += kv->RhoPhiR * cArg - kv->RhoPhiI * sArg;
  *iFH += kv->RhoPhiI * cArg + kv->RhoPhiR * sArg;
}

#ifdef K_VALUES_VEC4
// One k-value's contribution from its five values (the float4 form).
static inline void accumulate_values(float kx, float ky, float kz, float rhoR, float rhoI,
                                     float sX, float sY, float sZ, float* rFH, float* iFH) {
  const float expArg = TWO_PI * (kx * sX + ky * sY + kz * sZ);
  const float cArg = cos(expArg);
  const float sArg = sin(expArg);
  *rFH += rhoR * cArg - rhoI * sArg;
  *iFH += rhoI * cArg + rhoR * sArg;
}
#endif

#if defined(K_LOOP_PREFETCH) || defined(K_BYVALUE)
// accumulate of a k-value held in registers (the prefetch form) or passed by
// value (the by-value form).
static inline void accumulate_held(KValuesFH kv, float sX, float sY, float sZ, float* rFH,
                                   float* iFH) {
  const float expArg = TWO_PI * (kv.Kx * sX + kv.Ky * sY + kv.Kz * sZ);
  const float cArg = cos(expArg);
  const float sArg = sin(expArg);
  *rFH += kv.RhoPhiR * cArg - kv.RhoPhiI * sArg;
  *iFH += kv.RhoPhiI * cArg + kv.RhoPhiR * sArg;
}
#endif

// numK: the k-values in this tile (<= TILE_FH). The loop's form is chosen by
// -DK_LOOP_COUNT_ONLY (variants uniform-tile*) or -DK_LOOP_PREFETCH (variants
// *-prefetch), as in cuda/parboil/mrifhd.cu, or -DK_VALUES_VEC4 (variants
// *-vec4, OpenCL's own): the origin's loop bounds with each four k-values (80
// bytes, 16-byte aligned from the tile's start) read as five float4, so that
// the compiler may use 128-bit loads; the fours come first and the numK % 4
// leftovers last, where the origin takes them first (which would leave the
// fours 4-byte aligned).
__kernel void ComputeFH(int numK, int numX, __global const float* x, __global const float* y,
                        __global const float* z, __global float* outR, __global float* outI,
                        __constant KValuesFH* ck) {
  const int t = get_global_id(0);
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float rFH = outR[t], iFH = outI[t];
#if defined(K_LOOP_PREFETCH)
  int k = 0;  // the numK % 4 leftovers first, then fours, each loaded one step ahead
  for (; k < numK % 4; ++k) accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
  if (k < numK) {
    KValuesFH n0 = ck[k], n1 = ck[k + 1], n2 = ck[k + 2], n3 = ck[k + 3];
    for (; k < TILE_FH && k < numK; k += 4) {
      const KValuesFH a0 = n0, a1 = n1, a2 = n2, a3 = n3;
      const int next = min(k + 4, numK - 4);  // the last step reloads its own four
      n0 = ck[next];
      n1 = ck[next + 1];
      n2 = ck[next + 2];
      n3 = ck[next + 3];
      accumulate_held(a0, sX, sY, sZ, &rFH, &iFH);
      accumulate_held(a1, sX, sY, sZ, &rFH, &iFH);
      accumulate_held(a2, sX, sY, sZ, &rFH, &iFH);
      accumulate_held(a3, sX, sY, sZ, &rFH, &iFH);
    }
  }
#elif defined(K_VALUES_VEC4)
  int k = 0;  // fours, then the leftovers
  for (; k < TILE_FH && k + 3 < numK; k += 4) {
    __constant const float4* f = (__constant const float4*)(ck + k);
    const float4 a = f[0], b = f[1], c = f[2], d = f[3], e = f[4];
    accumulate_values(a.x, a.y, a.z, a.w, b.x, sX, sY, sZ, &rFH, &iFH);
    accumulate_values(b.y, b.z, b.w, c.x, c.y, sX, sY, sZ, &rFH, &iFH);
    accumulate_values(c.z, c.w, d.x, d.y, d.z, sX, sY, sZ, &rFH, &iFH);
    accumulate_values(d.w, e.x, e.y, e.z, e.w, sX, sY, sZ, &rFH, &iFH);
  }
  for (; k < numK; ++k) accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
#elif !defined(K_LOOP_COUNT_ONLY)
  int k = 0;  // the numK % 4 leftovers first, then fours
  for (; k < numK % 4; ++k) accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
  for (; k < TILE_FH && k < numK; k += 4) {
    accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 1], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 2], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 3], sX, sY, sZ, &rFH, &iFH);
  }
#else
  int k = 0;  // fours, then the leftovers
  for (; k + 3 < numK; k += 4) {
    accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 1], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 2], sX, sY, sZ, &rFH, &iFH);
    accumulate(&ck[k + 3], sX, sY, sZ, &rFH, &iFH);
  }
  for (; k < numK; ++k) accumulate(&ck[k], sX, sY, sZ, &rFH, &iFH);
#endif
  outR[t] = rFH;
  outI[t] = iFH;
}

#ifdef K_BYVALUE
// The by-value form (mri::KFrom::byvalue), as mriq.cl's ComputeQByValue: the
// launch's k-values are one kernel argument of K_BYVALUE records (set by the
// host from CL_DEVICE_MAX_PARAMETER_SIZE, mri::byvalue_k). numK: the k-values in
// this chunk (<= K_BYVALUE); the origin's loop (the numK % 4 leftovers first,
// then fours) bounded by the chunk, so the k-values add in the order of
// ComputeFH's. Pairs with mrifhd.cu's ComputeFHByValue.
typedef struct {
  KValuesFH k[K_BYVALUE];
} KChunkFH;

__kernel void ComputeFHByValue(int numK, int numX, __global const float* x,
                               __global const float* y, __global const float* z,
                               __global float* outR, __global float* outI, KChunkFH chunk) {
  const int t = get_global_id(0);
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float rFH = outR[t], iFH = outI[t];
  int k = 0;
  for (; k < numK % 4; ++k) accumulate_held(chunk.k[k], sX, sY, sZ, &rFH, &iFH);
  for (; k < K_BYVALUE && k < numK; k += 4) {
    accumulate_held(chunk.k[k], sX, sY, sZ, &rFH, &iFH);
    accumulate_held(chunk.k[k + 1], sX, sY, sZ, &rFH, &iFH);
    accumulate_held(chunk.k[k + 2], sX, sY, sZ, &rFH, &iFH);
    accumulate_held(chunk.k[k + 3], sX, sY, sZ, &rFH, &iFH);
  }
  outR[t] = rFH;
  outI[t] = iFH;
}
#endif
