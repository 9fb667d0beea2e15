#include "rect_copy.h"

#include "check.h"
#include "session.h"

namespace gpucmp::opencl {

namespace {
struct RectGeometry {
  std::size_t origin[3];
  std::size_t region[3];
  std::size_t pitch;
};
RectGeometry geometry(long long width, const Rect& r) {
  const std::size_t pitch = std::size_t(width) * sizeof(float);
  return {{std::size_t(r.x) * sizeof(float), std::size_t(r.y), 0},
          {std::size_t(r.w) * sizeof(float), std::size_t(r.h), 1},
          pitch};
}
}  // namespace

void upload_rect(const Buffer& device, const std::vector<float>& host, long long width,
                 const Rect& r, const std::string& what) {
  if (r.empty()) return;
  const RectGeometry g = geometry(width, r);
  check(clEnqueueWriteBufferRect(session().queue(), device, CL_TRUE, g.origin, g.origin, g.region,
                                 g.pitch, 0, g.pitch, 0, host.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBufferRect", what);
}

void download_rect(std::vector<float>& host, const Buffer& device, long long width, const Rect& r,
                   const std::string& what) {
  if (r.empty()) return;
  const RectGeometry g = geometry(width, r);
  check(clEnqueueReadBufferRect(session().queue(), device, CL_TRUE, g.origin, g.origin, g.region,
                                g.pitch, 0, g.pitch, 0, host.data(), 0, nullptr, nullptr),
        "clEnqueueReadBufferRect", what);
}

}  // namespace gpucmp::opencl
