# Sourced by run.sh and test.sh: registers NVIDIA's OpenCL ICD when the driver
# library is present but the ICD loader does not know it (common in
# containers), keeping the ICDs already registered (PoCL) beside it.
_gpucmp_nv_lib=""
for _d in ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }} /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
  if [ -e "$_d/libnvidia-opencl.so.1" ]; then _gpucmp_nv_lib="$_d/libnvidia-opencl.so.1"; break; fi
done
if [ -n "$_gpucmp_nv_lib" ] && [ -z "${OCL_ICD_VENDORS:-}" ] &&
   ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  _gpucmp_icd_dir="${TMPDIR:-/tmp}/gpucmp-icd"
  mkdir -p "$_gpucmp_icd_dir"
  cp /etc/OpenCL/vendors/*.icd "$_gpucmp_icd_dir/" 2>/dev/null || true
  echo "$_gpucmp_nv_lib" > "$_gpucmp_icd_dir/nvidia.icd"
  export OCL_ICD_VENDORS="$_gpucmp_icd_dir"
  echo "gpu_env: registered NVIDIA's OpenCL ICD ($_gpucmp_nv_lib) via OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
fi
unset _gpucmp_nv_lib _gpucmp_icd_dir _d
