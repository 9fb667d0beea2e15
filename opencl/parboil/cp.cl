// cp: Coulombic potential on a lattice plane (Parboil CP). Atoms are float4
// (x, y, dz^2, q) in constant memory; 16 x 8 work-groups. Pairs with cuda/parboil/cp.cu.

// base: one lattice point per work-item.
__kernel void cp_base(int numatoms, float gridspacing, __global float* energygrid,
                      __constant float4* atominfo) {
  const int xi = get_global_id(0);
  const int yi = get_global_id(1);
  const int width = get_global_size(0);
  const float x = gridspacing * xi;
  const float y = gridspacing * yi;
  float energy = 0.0f;
  for (int n = 0; n < numatoms; ++n) {
    const float dx = x - atominfo[n].x;
    const float dy = y - atominfo[n].y;
    energy += atominfo[n].w * (1.0f / sqrt(dx * dx + dy * dy + atominfo[n].z));
  }
  energygrid[width * yi + xi] += energy;
}

// unrollx8: eight lattice points per work-item, get_local_size(0) (16) apart
// along x, so that loads and stores stay coalesced; dy^2 + dz^2 once per atom.
__kernel void cp_unrollx8(int numatoms, float gridspacing, __global float* energygrid,
                          __constant float4* atominfo) {
  const int xi = get_group_id(0) * get_local_size(0) * 8 + get_local_id(0);
  const int yi = get_global_id(1);
  const int width = get_global_size(0) * 8;
  const float x = gridspacing * xi;
  const float y = gridspacing * yi;
  const float step = gridspacing * get_local_size(0);
  float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f, e4 = 0.0f, e5 = 0.0f, e6 = 0.0f, e7 = 0.0f;
  for (int n = 0; n < numatoms; ++n) {
    const float dy = y - atominfo[n].y;
    const float dyz2 = dy * dy + atominfo[n].z;
    const float q = atominfo[n].w;
    const float dx0 = x - atominfo[n].x;
    const float dx1 = dx0 + step;
    const float dx2 = dx1 + step;
    const float dx3 = dx2 + step;
    const float dx4 = dx3 + step;
    const float dx5 = dx4 + step;
    const float dx6 = dx5 + step;
    const float dx7 = dx6 + step;
    e0 += q * (1.0f / sqrt(dx0 * dx0 + dyz2));
    e1 += q * (1.0f / sqrt(dx1 * dx1 + dyz2));
    e2 += q * (1.0f / sqrt(dx2 * dx2 + dyz2));
    e3 += q * (1.0f / sqrt(dx3 * dx3 + dyz2));
    e4 += q * (1.0f / sqrt(dx4 * dx4 + dyz2));
    e5 += q * (1.0f / sqrt(dx5 * dx5 + dyz2));
    e6 += q * (1.0f / sqrt(dx6 * dx6 + dyz2));
    e7 += q * (1.0f / sqrt(dx7 * dx7 + dyz2));
  }
  __global float* out = energygrid + width * yi + xi;
  const int s = get_local_size(0);
  out[0 * s] += e0;
  out[1 * s] += e1;
  out[2 * s] += e2;
  out[3 * s] += e3;
  out[4 * s] += e4;
  out[5 * s] += e5;
  out[6 * s] += e6;
  out[7 * s] += e7;
}

#if defined(CP_BYVALUE_ATOMS) || defined(CP_PREFETCH)
// The forms below (cp::Form, harness/workloads/parboil/cp.h) run unrollx8's
// arithmetic on one atom a = (x, y, dz^2, q) at a time: the eight points'
// sums in e, the same operations in the same order as cp_unrollx8's loop.
static inline float8 unrollx8_atom(float8 e, float4 a, float x, float y, float step) {
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
  e.s0 += q * (1.0f / sqrt(dx0 * dx0 + dyz2));
  e.s1 += q * (1.0f / sqrt(dx1 * dx1 + dyz2));
  e.s2 += q * (1.0f / sqrt(dx2 * dx2 + dyz2));
  e.s3 += q * (1.0f / sqrt(dx3 * dx3 + dyz2));
  e.s4 += q * (1.0f / sqrt(dx4 * dx4 + dyz2));
  e.s5 += q * (1.0f / sqrt(dx5 * dx5 + dyz2));
  e.s6 += q * (1.0f / sqrt(dx6 * dx6 + dyz2));
  e.s7 += q * (1.0f / sqrt(dx7 * dx7 + dyz2));
  return e;
}

// unrollx8's points and stores, as in cp_unrollx8.
#define UNROLLX8_POINTS                                                     \
  const int xi = get_group_id(0) * get_local_size(0) * 8 + get_local_id(0); \
  const int yi = get_global_id(1);                                          \
  const int width = get_global_size(0) * 8;                                 \
  const float x = gridspacing * xi;                                         \
  const float y = gridspacing * yi;                                         \
  const float step = gridspacing * get_local_size(0)

static inline void unrollx8_store(__global float* out, int s, float8 e) {
  out[0 * s] += e.s0;
  out[1 * s] += e.s1;
  out[2 * s] += e.s2;
  out[3 * s] += e.s3;
  out[4 * s] += e.s4;
  out[5 * s] += e.s5;
  out[6 * s] += e.s6;
  out[7 * s] += e.s7;
}
#endif

#ifdef CP_BYVALUE_ATOMS
// The by-value form: the launch's atoms are one kernel argument (at most
// CL_DEVICE_MAX_PARAMETER_SIZE bytes with the others: CP_BYVALUE_ATOMS, set
// by the host from the device, cp::byvalue_atoms), which NVIDIA's driver puts
// in the parameters' constant bank. Pairs with cp.cu's cp_unrollx8_byvalue
// (a __grid_constant__ parameter).
typedef struct {
  float4 atom[CP_BYVALUE_ATOMS];
} AtomChunk;

__kernel void cp_unrollx8_byvalue(int numatoms, float gridspacing, __global float* energygrid,
                                  AtomChunk chunk) {
  UNROLLX8_POINTS;
  float8 e = 0.0f;
  for (int n = 0; n < numatoms; ++n) e = unrollx8_atom(e, chunk.atom[n], x, y, step);
  unrollx8_store(energygrid + width * yi + xi, (int)get_local_size(0), e);
}
#endif

#ifdef CP_PREFETCH
// The prefetch form: atom n+1 loaded into registers before atom n's points
// are computed (the last step reloads its own atom: no read past the count).
// Pairs with cp.cu's cp_unrollx8_prefetch.
__kernel void cp_unrollx8_prefetch(int numatoms, float gridspacing, __global float* energygrid,
                                   __constant float4* atominfo) {
  UNROLLX8_POINTS;
  float8 e = 0.0f;
  float4 next = atominfo[0];
  for (int n = 0; n < numatoms; ++n) {
    const float4 a = next;
    next = atominfo[min(n + 1, numatoms - 1)];
    e = unrollx8_atom(e, a, x, y, step);
  }
  unrollx8_store(energygrid + width * yi + xi, (int)get_local_size(0), e);
}
#endif
