#include "mri_byvalue.h"

#include <algorithm>
#include <cstddef>

namespace gpucmp::mri {

int byvalue_k(Kind kind, const DeviceInfo& dev) {
  return byvalue::records_on(dev, byvalue_shape(kind));
}

int commands_per_launch(Kind kind, int numK, const Variant& v, const DeviceInfo& dev) {
  if (v.from == KFrom::byvalue) {
    const int per = byvalue_k(kind, dev);
    return 2 + (numK + per - 1) / per;
  }
  const int tile = kind == Kind::q ? kTileQ : kTileFH;
  return 3 + 2 * ((numK + tile - 1) / tile);
}

std::vector<float> unfactored_records(const Dataset& d, Kind kind) {
  const auto per = std::size_t(record_floats(kind));
  std::vector<float> out(std::size_t(d.numK) * per, 0.0f);
  for (std::size_t k = 0; k < std::size_t(d.numK); ++k) {
    out[k * per + 0] = d.kx[k];
    out[k * per + 1] = d.ky[k];
    out[k * per + 2] = d.kz[k];
  }
  return out;
}

void fill_byvalue_records(const Dataset& d, Kind kind, int per_launch, std::vector<float>& out) {
  const auto per = std::size_t(record_floats(kind));
  const std::size_t chunks = (std::size_t(d.numK) + per_launch - 1) / std::size_t(per_launch);
  out.resize(chunks * std::size_t(per_launch) * per);
  std::fill(out.begin() + std::ptrdiff_t(std::size_t(d.numK) * per), out.end(), 0.0f);
  for (std::size_t k = 0; k < std::size_t(d.numK); ++k) {
    float* r = out.data() + k * per;
    r[0] = d.kx[k];
    r[1] = d.ky[k];
    r[2] = d.kz[k];
    if (kind == Kind::q) {
      r[3] = d.phiR[k] * d.phiR[k] + d.phiI[k] * d.phiI[k];
    } else {
      r[3] = d.phiR[k] * d.dR[k] + d.phiI[k] * d.dI[k];
      r[4] = d.phiR[k] * d.dI[k] - d.phiI[k] * d.dR[k];
    }
  }
}

std::vector<float> byvalue_records(const Dataset& d, Kind kind, int per_launch) {
  std::vector<float> out;
  fill_byvalue_records(d, kind, per_launch, out);
  return out;
}

}  // namespace gpucmp::mri
