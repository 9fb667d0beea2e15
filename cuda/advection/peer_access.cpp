#include "peer_access.h"

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "check.h"
#include "errors.h"

namespace gpucmp::cuda {

namespace {

struct Holders {
  std::mutex mutex;
  std::map<std::pair<int, int>, int> count;  // (device, peer) -> holders
};
Holders& holders() {
  static Holders h;
  return h;
}

}  // namespace

PeerAccess::PeerAccess(int device, int peer) {
  if (device == peer) return;  // a GPU's own memory: nothing to enable
  Holders& h = holders();
  const std::lock_guard<std::mutex> lock(h.mutex);
  int& n = h.count[{device, peer}];
  if (n == 0) {
    int can = 0;
    check(cudaDeviceCanAccessPeer(&can, device, peer), "cudaDeviceCanAccessPeer", "advection halo");
    if (!can)
      throw Unavailable("GPU " + std::to_string(device) + " cannot access GPU " +
                        std::to_string(peer) +
                        "'s memory (cudaDeviceCanAccessPeer 0): no peer-to-peer halos there");
    check(cudaDeviceEnablePeerAccess(peer, 0), "cudaDeviceEnablePeerAccess", "advection halo");
  }
  ++n;
  device_ = device;
  peer_ = peer;
}

PeerAccess::PeerAccess(PeerAccess&& o) noexcept
    : device_(std::exchange(o.device_, -1)), peer_(std::exchange(o.peer_, -1)) {}

PeerAccess& PeerAccess::operator=(PeerAccess&& o) noexcept {
  if (this != &o) {
    release();
    device_ = std::exchange(o.device_, -1);
    peer_ = std::exchange(o.peer_, -1);
  }
  return *this;
}

PeerAccess::~PeerAccess() { release(); }

void PeerAccess::release() noexcept {
  if (device_ < 0) return;
  Holders& h = holders();
  const std::lock_guard<std::mutex> lock(h.mutex);
  if (--h.count[{device_, peer_}] == 0) {
    // A destructor reports nothing: a failure here (a sticky error of the
    // row that failed) leaves the access as it was.
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && cudaSetDevice(device_) == cudaSuccess) {
      if (cudaDeviceDisablePeerAccess(peer_) != cudaSuccess) (void)cudaGetLastError();
      (void)cudaSetDevice(current);
    }
  }
  device_ = peer_ = -1;
}

}  // namespace gpucmp::cuda
