// Eigen 3's packet math on the activations bench's inputs, for
// benches/eigen_activations.sh: exp, tanh, logistic (sigmoid), log and a
// row softmax over a 64 x 1024 f32 array, each timed as benches/common
// times (the median of 21 batches of 20 calls), in ns per element.
#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

using Matrix = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename F> double time_ns_per_element(F f) {
  for (int i = 0; i < 5; ++i) f();
  std::vector<double> samples;
  for (int round = 0; round < 21; ++round) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) f();
    auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    samples.push_back(ns / (20.0 * 64 * 1024));
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int main() {
  Matrix x(64, 1024), positive(64, 1024), out(64, 1024);
  for (int k = 0; k < 64 * 1024; ++k) {
    x.data()[k] = std::sin(float(k) * 0.618f) * 6.0f;
    positive.data()[k] = 0.01f + std::fabs(std::sin(float(k) * 0.37f)) * 50.0f;
  }
  auto clobber = [] { asm volatile("" ::: "memory"); };
  std::printf("eigen exp %.3f\n", time_ns_per_element([&] { out = x.exp(); clobber(); }));
  std::printf("eigen tanh %.3f\n", time_ns_per_element([&] { out = x.tanh(); clobber(); }));
  std::printf("eigen sigmoid %.3f\n", time_ns_per_element([&] { out = x.logistic(); clobber(); }));
  std::printf("eigen ln %.3f\n", time_ns_per_element([&] { out = positive.log(); clobber(); }));
  std::printf("eigen softmax %.3f\n", time_ns_per_element([&] {
    for (int i = 0; i < 64; ++i) {
      auto row = x.row(i);
      float max = row.maxCoeff();
      out.row(i) = (row - max).exp();
      out.row(i) /= out.row(i).sum();
    }
    clobber();
  }));
  return 0;
}
