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
