// The cubic semi-Lagrangian step of GPU Challenge 2010, as the
// problem states it, in one place for the CPU reference and the tests (the
// kernels in cuda/advection/ and opencl/advection/ follow it line for line).
//
// 1-D: the value at cell i after one step is the cubic through four
// neighbours, evaluated at the departure offset xi = -u dt/dx (in cells):
//   u >= 0 (xi <= 0): f_{i-2}, f_{i-1}, f_i, f_{i+1}, coefficients c3p, c2, c1p, c0
//   u <  0 (xi >  0): f_{i-1}, f_i, f_{i+1}, f_{i+2}, coefficients c3m, c2, c1m, c0
//   f = c3 xi^3 + c2 xi^2 + c1 xi + c0.
// The branch-free form of the paper: f = fp - dif * xi (xi^2 - 1) * (u < 0),
// fp the u >= 0 cubic and dif = c3p - c3m (fp - fm = dif xi (xi^2 - 1),
// because c1p - c1m = -(c3p - c3m)).
// 2-D: the 1-D step in x on the five rows y-2 .. y+2 at the cell's xi_x,
// then once in y over those five values at the cell's xi_y.
#pragma once

namespace gpucmp::advection {

// The four cubic coefficients of one upwind side over five neighbours
// f[0..4] = f_{i-2} .. f_{i+2}.
template <class T>
struct Cubic {
  T c3, c2, c1, c0;
};

template <class T>
Cubic<T> cubic_plus(const T* f) {  // u >= 0: f_{i-2} .. f_{i+1}
  return {f[3] / 6 - f[2] / 2 + f[1] / 2 - f[0] / 6, f[3] / 2 - f[2] + f[1] / 2,
          f[3] / 3 + f[2] / 2 - f[1] + f[0] / 6, f[2]};
}

template <class T>
Cubic<T> cubic_minus(const T* f) {  // u < 0: f_{i-1} .. f_{i+2}
  return {-f[1] / 6 + f[2] / 2 - f[3] / 2 + f[4] / 6, f[3] / 2 - f[2] + f[1] / 2,
          -f[1] / 3 - f[2] / 2 + f[3] - f[4] / 6, f[2]};
}

template <class T>
T evaluate(const Cubic<T>& c, T xi) {
  return ((c.c3 * xi + c.c2) * xi + c.c1) * xi + c.c0;
}

// The two-branch 1-D step at departure offset xi (xi > 0: u < 0).
template <class T>
T step_1d(const T* f, T xi) {
  return xi > 0 ? evaluate(cubic_minus(f), xi) : evaluate(cubic_plus(f), xi);
}

// The same step as weights on f_{i-2} .. f_{i+2} (the Lagrange weights of
// the upwind side's four points at xi; the other point's weight is 0):
// sum_k w[k] f[k] = step_1d(f, xi). The `weights` variant's form.
template <class T>
void upwind_weights(T xi, T* w) {
  const T sixth = T(1) / 6, half = T(1) / 2;
  if (xi > 0) {  // points -1, 0, 1, 2
    w[0] = 0;
    w[1] = -xi * (xi - 1) * (xi - 2) * sixth;
    w[2] = (xi + 1) * (xi - 1) * (xi - 2) * half;
    w[3] = -(xi + 1) * xi * (xi - 2) * half;
    w[4] = (xi + 1) * xi * (xi - 1) * sixth;
  } else {  // points -2, -1, 0, 1
    w[0] = -(xi + 1) * xi * (xi - 1) * sixth;
    w[1] = (xi + 2) * xi * (xi - 1) * half;
    w[2] = -(xi + 2) * (xi + 1) * (xi - 1) * half;
    w[3] = (xi + 2) * (xi + 1) * xi * sixth;
    w[4] = 0;
  }
}

}  // namespace gpucmp::advection
