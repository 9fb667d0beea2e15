#include "transport.h"

#include <climits>
#include <stdexcept>

namespace gpucmp::mpi {

namespace {
constexpr int kStatusTag = 1 << 20;  // above every transfer index
constexpr int kDoublesTag = kStatusTag + 1;

int checked_int(long long v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw std::length_error(std::string("MPI split: ") + what +
                            " beyond an int: " + std::to_string(v));
  return int(v);
}
}  // namespace

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void barrier() { MPI_Barrier(MPI_COMM_WORLD); }

void broadcast(nlohmann::json& command) {
  std::string text = world_rank() == 0 ? command.dump() : std::string();
  int bytes = int(text.size());
  MPI_Bcast(&bytes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  text.resize(std::size_t(bytes));
  MPI_Bcast(text.data(), bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (world_rank() != 0) command = nlohmann::json::parse(text);
}

// A rectangle of a row-major array as one MPI datatype: a subarray of
// elements of elem_bytes bytes.
struct RectExchange::Type {
  MPI_Datatype element = MPI_DATATYPE_NULL;
  MPI_Datatype rect = MPI_DATATYPE_NULL;
  Type(const HostArray& a, const Rect& r) {
    MPI_Type_contiguous(checked_int(static_cast<long long>(a.elem_bytes), "element bytes"),
                        MPI_BYTE, &element);
    const int sizes[2] = {checked_int(a.height, "rows"), checked_int(a.width, "columns")};
    const int sub[2] = {checked_int(r.h, "rows"), checked_int(r.w, "columns")};
    const int starts[2] = {checked_int(r.y, "row"), checked_int(r.x, "column")};
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, element, &rect);
    MPI_Type_commit(&rect);
  }
  ~Type() {
    MPI_Type_free(&rect);
    MPI_Type_free(&element);
  }
  Type(const Type&) = delete;
  Type& operator=(const Type&) = delete;
};

RectExchange::RectExchange() = default;

RectExchange::~RectExchange() {
  if (!requests_.empty()) MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void RectExchange::post(const std::vector<PartTransfer>& transfers, bool outputs, int peer,
                        bool sending) {
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const PartTransfer& t = transfers[i];
    if (t.output != outputs || t.rect.empty()) continue;
    types_.push_back(std::make_unique<Type>(t.array, t.rect));
    MPI_Request request = MPI_REQUEST_NULL;
    if (sending)
      MPI_Isend(t.array.data, 1, types_.back()->rect, peer, int(i), MPI_COMM_WORLD, &request);
    else
      MPI_Irecv(t.array.data, 1, types_.back()->rect, peer, int(i), MPI_COMM_WORLD, &request);
    requests_.push_back(request);
  }
}

void RectExchange::send(const std::vector<PartTransfer>& transfers, bool outputs, int peer) {
  post(transfers, outputs, peer, true);
}

void RectExchange::receive(const std::vector<PartTransfer>& transfers, bool outputs, int peer) {
  post(transfers, outputs, peer, false);
}

void RectExchange::wait() {
  if (!requests_.empty()) MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  requests_.clear();
  types_.clear();
}

std::vector<Status> gather_status(const Status& mine) {
  const int n = world_size();
  std::vector<int> codes(std::size_t(n), 0);
  MPI_Allgather(&mine.code, 1, MPI_INT, codes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<Status> all(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) all[r].code = codes[r];
  if (world_rank() != 0) {
    if (mine.code != Status::ok)
      MPI_Send(mine.message.data(), int(mine.message.size()), MPI_CHAR, 0, kStatusTag,
               MPI_COMM_WORLD);
    return all;
  }
  all[0].message = mine.message;
  for (int r = 1; r < n; ++r) {
    if (codes[r] == Status::ok) continue;
    MPI_Status probe;
    MPI_Probe(r, kStatusTag, MPI_COMM_WORLD, &probe);
    int bytes = 0;
    MPI_Get_count(&probe, MPI_CHAR, &bytes);
    all[r].message.resize(std::size_t(bytes));
    MPI_Recv(all[r].message.data(), bytes, MPI_CHAR, r, kStatusTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  return all;
}

void send_doubles(const std::vector<double>& values, int peer) {
  MPI_Send(values.data(), int(values.size()), MPI_DOUBLE, peer, kDoublesTag, MPI_COMM_WORLD);
}

std::vector<double> receive_doubles(int count, int peer) {
  std::vector<double> values(static_cast<std::size_t>(count));
  MPI_Recv(values.data(), count, MPI_DOUBLE, peer, kDoublesTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return values;
}

}  // namespace gpucmp::mpi
