// The accuracy of Eigen 3's packet exp, tanh and log over every f32 input (all
// 2^32 bit patterns), against the double-precision std functions, in ulp
// of the correctly rounded result: the other side of
// benches/eigen_activations.sh's speed comparison (tensor_expr's bounds are
// in `math`'s documentation and `cargo run --release --example accuracy`).
//
//   c++ -O2 -march=native -DNDEBUG -I"$EIGEN_DIR" benches/eigen_accuracy.cpp -o eigen_accuracy
//   ./eigen_accuracy
#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

using Column = Eigen::Array<float, Eigen::Dynamic, 1>;

// One ulp of f32 at the magnitude of `r` (the spacing below the next power
// of two, as tests/common/accuracy.rs measures it).
static double ulp_f32(double r) {
  float f = static_cast<float>(std::fabs(r));
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t exponent = bits >> 23;
  uint32_t ulp_bits = exponent == 0 ? 1 : (exponent > 23 ? (exponent - 23) << 23 : 1u << (exponent - 1));
  float ulp;
  std::memcpy(&ulp, &ulp_bits, 4);
  return ulp;
}

struct Worst {
  double ulp = 0;
  float at = 0;
  void see(double ours, double reference, float x) {
    double error = std::isnan(ours) != std::isnan(reference) ? INFINITY : std::fabs(ours - reference) / ulp_f32(reference);
    if (error > ulp) {
      ulp = error;
      at = x;
    }
  }
};

int main() {
  const int batch = 1 << 20;
  Column x(batch), exp_x(batch), tanh_x(batch), log_x(batch);
  Worst exp_worst, exp_normal_worst, tanh_worst, tanh_wide_worst, log_worst, log_normal_worst;
  uint64_t tanh_beyond_one = 0;
  for (uint64_t start = 0; start < (1ull << 32); start += batch) {
    for (int i = 0; i < batch; ++i) {
      uint32_t bits = static_cast<uint32_t>(start + i);
      std::memcpy(&x[i], &bits, 4);
    }
    exp_x = x.exp();
    tanh_x = x.tanh();
    log_x = x.log();
    for (int i = 0; i < batch; ++i) {
      float v = x[i];
      if (std::isnan(v)) continue;
      double exp_reference = std::exp(static_cast<double>(v));
      exp_worst.see(exp_x[i], exp_reference, v);
      // Where e^x is a normal float, below Eigen's overflow at 88.376.
      if (exp_reference >= 1.17549435e-38 && v < 88.37f) exp_normal_worst.see(exp_x[i], exp_reference, v);
      double tanh_reference = std::tanh(static_cast<double>(v));
      tanh_worst.see(tanh_x[i], tanh_reference, v);
      // Away from the tiny inputs, whose products underflow.
      if (std::fabs(v) >= 1e-3f) tanh_wide_worst.see(tanh_x[i], tanh_reference, v);
      if (std::fabs(tanh_x[i]) > 1.0f) ++tanh_beyond_one;
      if (v > 0 && std::isfinite(v)) {
        double reference = std::log(static_cast<double>(v));
        log_worst.see(log_x[i], reference, v);
        if (v >= 1.17549435e-38f) log_normal_worst.see(log_x[i], reference, v);
      }
    }
  }
  std::printf("eigen exp: %.2f ulp at %g (normal results below 88.37: %.2f ulp at %g)\n", exp_worst.ulp, exp_worst.at,
              exp_normal_worst.ulp, exp_normal_worst.at);
  std::printf("eigen tanh: %.2f ulp at %g (|x| >= 1e-3: %.2f ulp at %g); |tanh x| > 1 for %llu inputs\n",
              tanh_worst.ulp, tanh_worst.at, tanh_wide_worst.ulp, tanh_wide_worst.at,
              static_cast<unsigned long long>(tanh_beyond_one));
  std::printf("eigen log: %.2f ulp at %g (normal inputs: %.2f ulp at %g)\n", log_worst.ulp, log_worst.at,
              log_normal_worst.ulp, log_normal_worst.at);
  return 0;
}
