#include "byvalue_chunk.h"

#include "errors.h"

namespace gpucmp::byvalue {

int records_on(const DeviceInfo& dev, const Shape& s) {
  const bool stated = dev.max_parameter_bytes > 0;
  const long long limit = stated ? dev.max_parameter_bytes : kCudaParameterBytes;
  const int n = records_fitting(limit, s);
  if (n == 0)
    throw Unavailable(std::string(s.what) + ": the device's kernel arguments may take " +
                      std::to_string(limit) + " bytes (CL_DEVICE_MAX_PARAMETER_SIZE), not one " +
                      s.record + " (" + std::to_string(s.record_bytes) +
                      " bytes) after the other " + std::to_string(s.other_bytes));
  return n;
}

}  // namespace gpucmp::byvalue
