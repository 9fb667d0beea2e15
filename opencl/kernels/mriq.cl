// mriq: Parboil MRI-Q. ComputePhiMag writes PhiMag into the packed k-values;
// ComputeQ sums one constant-memory tile of k-values per launch, one voxel per
// work-item, the k loop unrolled x2 by hand. Pairs with cuda/mriq.cu.
#define TWO_PI 6.2831853071795864769f

typedef struct {
  float Kx, Ky, Kz, PhiMag;
} KValuesQ;

__kernel void ComputePhiMag(__global const float* phiR, __global const float* phiI,
                            __global KValuesQ* kv, int numK) {
  const int k = get_global_id(0);
  if (k < numK) kv[k].PhiMag = phiR[k] * phiR[k] + phiI[k] * phiI[k];
}

__kernel void ComputeQ(int numK, int numX, __global const float* x, __global const float* y,
                       __global const float* z, __global float* Qr, __global float* Qi,
                       __constant KValuesQ* ck) {
  const int t = get_global_id(0);
  if (t >= numX) return;
  const float sX = x[t], sY = y[t], sZ = z[t];
  float sQr = Qr[t], sQi = Qi[t];
  int k = 0;
  for (; k + 1 < numK; k += 2) {
    const float expArg0 = TWO_PI * (ck[k].Kx * sX + ck[k].Ky * sY + ck[k].Kz * sZ);
    sQr += ck[k].PhiMag * cos(expArg0);
    sQi += ck[k].PhiMag * sin(expArg0);
    const float expArg1 = TWO_PI * (ck[k + 1].Kx * sX + ck[k + 1].Ky * sY + ck[k + 1].Kz * sZ);
    sQr += ck[k + 1].PhiMag * cos(expArg1);
    sQi += ck[k + 1].PhiMag * sin(expArg1);
  }
  if (k < numK) {
    const float expArg = TWO_PI * (ck[k].Kx * sX + ck[k].Ky * sY + ck[k].Kz * sZ);
    sQr += ck[k].PhiMag * cos(expArg);
    sQi += ck[k].PhiMag * sin(expArg);
  }
  Qr[t] = sQr;
  Qi[t] = sQi;
}
