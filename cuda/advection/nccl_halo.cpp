#include "nccl_halo.h"

#include <string>

#include "errors.h"
#include "handles.h"

#ifdef GPUCMP_HAVE_NCCL
#include <nccl.h>
#endif

namespace gpucmp::cuda {

#ifdef GPUCMP_HAVE_NCCL

namespace {
void check_nccl(ncclResult_t r, const char* call) {
  if (r != ncclSuccess) throw ApiError(std::string(call) + ": " + ncclGetErrorString(r));
}
}  // namespace

struct NcclHalo::Impl {
  advection::HaloPart part;
  int nx = 0;
  ncclComm_t comm = nullptr;
  Event done = make_order_event();
  ~Impl() {
    if (comm) ncclCommDestroy(comm);
  }
};

NcclHalo::NcclHalo(const advection::HaloPart& part, int nx, HaloLink& link)
    : impl_(std::make_unique<Impl>()) {
  impl_->part = part;
  impl_->nx = nx;
  ncclUniqueId id{};
  if (link.part() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  link.broadcast(&id, sizeof id);
  check_nccl(ncclCommInitRank(&impl_->comm, link.parts(), id, link.part()), "ncclCommInitRank");
}

NcclHalo::~NcclHalo() = default;

void NcclHalo::start(float* f, cudaStream_t) {
  Impl& s = *impl_;
  const auto rows = [&](const advection::RowRange& r) {
    return f + std::size_t(r.first - s.part.resident.first) * std::size_t(s.nx);
  };
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (const advection::HaloTrade& t : advection::halo_trades(s.part)) {
    const std::size_t count = std::size_t(t.send.count) * std::size_t(s.nx);
    check_nccl(ncclSend(rows(t.send), count, ncclFloat, t.peer, s.comm, edge_stream()), "ncclSend");
    check_nccl(ncclRecv(rows(t.recv), count, ncclFloat, t.peer, s.comm, edge_stream()), "ncclRecv");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  check(cudaEventRecord(s.done.get(), edge_stream()), "cudaEventRecord", "halo done");
}

void NcclHalo::finish(float*, cudaStream_t compute) {
  check(cudaStreamWaitEvent(compute, impl_->done.get(), 0), "cudaStreamWaitEvent", "halo done");
}

#else

struct NcclHalo::Impl {};

NcclHalo::NcclHalo(const advection::HaloPart&, int, HaloLink&) {
  throw Unavailable(
      "the CUDA two-GPU rows trade halos through NCCL, and this build has none (CMake looks in "
      "the CUDA toolkit and NCCL_HOME)");
}
NcclHalo::~NcclHalo() = default;
void NcclHalo::start(float*, cudaStream_t) {}
void NcclHalo::finish(float*, cudaStream_t) {}

#endif

}  // namespace gpucmp::cuda
