// Access from the current GPU to a peer GPU's memory (cudaDeviceEnablePeerAccess),
// held for as long as a PeerAccess lives. The process counts the holders of
// each (device, peer) pair: the first enables the access, the last disables
// it, so no call ever enables an access that is already on (an API error
// that compute-sanitizer reports) and none outlives its users (a device
// reset between rows, as the startup rows make, finds it off).
#pragma once

namespace gpucmp::cuda {

class PeerAccess {
 public:
  PeerAccess() = default;
  // From `device` (the calling thread's current GPU) to `peer`. Throws
  // Unavailable where the GPUs cannot access each other's memory.
  PeerAccess(int device, int peer);
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;
  PeerAccess(PeerAccess&& o) noexcept;
  PeerAccess& operator=(PeerAccess&& o) noexcept;
  // Releases the hold; the last holder disables the access (on `device`,
  // made current for the call).
  ~PeerAccess();

 private:
  void release() noexcept;
  int device_ = -1, peer_ = -1;
};

}  // namespace gpucmp::cuda
