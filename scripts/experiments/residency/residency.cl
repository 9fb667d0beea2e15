// How many work-groups of 64 work-items, each with PAD bytes of __local
// memory, NVIDIA's OpenCL keeps resident at once (the same kernel as
// residency.cu). Work-item 0 of each group counts the group in on `live`,
// keeps the largest count in `peak`, spins, and counts it out.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void residency(
    __global int* live, __global int* peak, __global float* sink, int spins) {
  __local float pad[PAD / 4 > 0 ? PAD / 4 : 1];
  const int lid = get_local_id(0);
  for (int i = lid; i < PAD / 4; i += 64) pad[i] = (float)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    const int now = atomic_inc(live) + 1;
    atomic_max(peak, now);
  }
  float a = pad[(lid * 7) % (PAD / 4 > 0 ? PAD / 4 : 1)];
  for (int i = 0; i < spins; ++i) a = a * 0.9999f + 0.001f;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) atomic_dec(live);
  sink[get_global_id(0)] = a;
}
