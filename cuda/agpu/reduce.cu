// The AGPU model's reductions (harness/workloads/agpu/reduce.h): tree,
// cascading and pipeline, templated on the operator (word_ops.h: int32 summed
// as unsigned, modulo 2^32; float; the affine16 product). Pairs with
// opencl/agpu/reduce.cl, line for line.
#include <cstdint>

#include "reduce_kernels.h"
#include "word_ops.h"

namespace gpucmp::cuda {

namespace {
constexpr int kBlock = reduce::kBlock;
constexpr int kTileWords = reduce::kTileWords;

// The block's tree over the threads' values: neighbours first (sums[i] +
// sums[i + stride], i a multiple of 2 x stride), so every addition joins two
// adjacent ranges, left + right, and the tree keeps the words' order; the
// total for every thread.
template <class Op, class T = typename Op::T>
__device__ T block_tree(T* sums, T mine) {
  const int tx = threadIdx.x;
  sums[tx] = mine;
  __syncthreads();
  for (int stride = 1; stride < kBlock; stride *= 2) {
    const int i = 2 * stride * tx;
    if (i < kBlock) sums[i] = Op::combine(sums[i], sums[i + stride]);
    __syncthreads();
  }
  return sums[0];
}

// tree: one word per thread (beyond n: the identity), one partial per block.
template <class Op, class T = typename Op::T>
__global__ void reduce_tree(const T* in, T* partials, size_t n) {
  __shared__ T sums[kBlock];
  const size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x;
  const T total = block_tree<Op>(sums, i < n ? in[i] : Op::identity());
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// cascading: each thread sums the 4-word vectors gid, gid + threads, ... (and
// thread gid the word 4 x (n / 4) + gid where that is below n), then the
// block's tree; one partial per block. The order
// is strided: right for a commutative operator only.
template <class Op, class T = typename Op::T, class T4 = typename Op::T4>
__global__ void reduce_cascading(const T* in, T* partials, size_t n) {
  __shared__ T sums[kBlock];
  const T4* in4 = reinterpret_cast<const T4*>(in);
  const size_t vectors = n / 4, threads = (size_t)gridDim.x * kBlock;
  T x = Op::identity(), y = Op::identity(), z = Op::identity(), w = Op::identity();
  for (size_t v = (size_t)blockIdx.x * kBlock + threadIdx.x; v < vectors; v += threads) {
    const T4 q = in4[v];
    x = Op::combine(x, q.x);
    y = Op::combine(y, q.y);
    z = Op::combine(z, q.z);
    w = Op::combine(w, q.w);
  }
  // The last n % 4 words (no whole vector): one each to the first threads.
  const size_t tail = vectors * 4 + (size_t)blockIdx.x * kBlock + threadIdx.x;
  if (tail < n) x = Op::combine(x, in[tail]);
  const T total = block_tree<Op>(sums, Op::combine(Op::combine(x, y), Op::combine(z, w)));
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// The sum of n words by one block, each thread a strided share (the second
// launch of cascading: the partials, order free).
template <class Op, class T = typename Op::T>
__global__ void reduce_strided_block(const T* in, T* out, size_t n) {
  __shared__ T sums[kBlock];
  T mine = Op::identity();
  for (size_t i = threadIdx.x; i < n; i += kBlock) mine = Op::combine(mine, in[i]);
  const T total = block_tree<Op>(sums, mine);
  if (threadIdx.x == 0) out[0] = total;
}

// pipeline: block b sums words [b * segment, min(n, (b + 1) * segment)) in
// order, tile by tile: the tile's kBlock x kTileWords words read coalesced
// into shared memory, thread t adding words t * kTileWords .. + kTileWords - 1
// (kTileWords odd: the 32 threads of a warp read 32 banks), the block's tree
// over the threads' sums, thread 0 appending it to the block's running value.
template <class Op, class T = typename Op::T>
__global__ void reduce_pipeline(const T* in, T* partials, size_t n, size_t segment) {
  __shared__ T tile[kBlock * kTileWords];
  __shared__ T sums[kBlock];
  const int tx = threadIdx.x;
  const size_t first = (size_t)blockIdx.x * segment;
  const size_t last = min(n, first + segment);
  T running = Op::identity();
  for (size_t base = first; base < last; base += kBlock * kTileWords) {
    for (int k = 0; k < kTileWords; ++k) {
      const size_t i = base + (size_t)k * kBlock + tx;
      tile[k * kBlock + tx] = i < last ? in[i] : Op::identity();
    }
    __syncthreads();
    T mine = Op::identity();
    for (int k = 0; k < kTileWords; ++k) mine = Op::combine(mine, tile[tx * kTileWords + k]);
    const T total = block_tree<Op>(sums, mine);
    if (tx == 0) running = Op::combine(running, total);
    __syncthreads();  // sums and tile are rewritten by the next tile
  }
  if (tx == 0) partials[blockIdx.x] = running;
}

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

template <class Op, class T = typename Op::T>
void tree(const T* in, T* a, T* b, T* out, size_t n, cudaStream_t stream) {
  // Passes until one partial is left, the last written to out.
  const T* from = in;
  T* to = a;
  for (size_t m = n;;) {
    const size_t blocks = ceil_div(m, kBlock);
    T* dest = blocks == 1 ? out : to;
    reduce_tree<Op><<<unsigned(blocks), kBlock, 0, stream>>>(from, dest, m);
    if (blocks == 1) return;
    from = to;
    to = to == a ? b : a;
    m = blocks;
  }
}

template <class Op, class T = typename Op::T>
void cascading(const T* in, T* a, T* out, size_t n, int blocks, cudaStream_t stream) {
  reduce_cascading<Op><<<unsigned(blocks), kBlock, 0, stream>>>(in, a, n);
  reduce_strided_block<Op><<<1, kBlock, 0, stream>>>(a, out, size_t(blocks));
}

template <class Op, class T = typename Op::T>
void pipeline(const T* in, T* a, T* out, size_t n, int blocks, cudaStream_t stream) {
  const size_t tile = size_t(kBlock) * kTileWords;
  const size_t segment = ceil_div(ceil_div(n, size_t(blocks)), tile) * tile;
  const size_t used = ceil_div(n, segment);
  reduce_pipeline<Op><<<unsigned(used), kBlock, 0, stream>>>(in, a, n, segment);
  reduce_pipeline<Op><<<1, kBlock, 0, stream>>>(a, out, used, ceil_div(used, tile) * tile);
}

template <class Op>
void run(const std::string& algorithm, const void* in, void* a, void* b, void* out, size_t n,
         int blocks, cudaStream_t stream) {
  using T = typename Op::T;
  const T* x = static_cast<const T*>(in);
  if (algorithm == "tree")
    tree<Op>(x, static_cast<T*>(a), static_cast<T*>(b), static_cast<T*>(out), n, stream);
  else if (algorithm == "cascading")
    cascading<Op>(x, static_cast<T*>(a), static_cast<T*>(out), n, blocks, stream);
  else
    pipeline<Op>(x, static_cast<T*>(a), static_cast<T*>(out), n, blocks, stream);
}
}  // namespace

void launch_reduce(const std::string& algorithm, reduce::Type type, const void* in, void* a,
                   void* b, void* out, std::size_t n, int blocks, cudaStream_t stream) {
  agpu_ops::with_op(
      type, [&](auto op) { run<decltype(op)>(algorithm, in, a, b, out, n, blocks, stream); });
}

}  // namespace gpucmp::cuda
