// SPDX-License-Identifier: MIT
// gemm.hip - a tiled single-precision GEMM, the payload of the rocprof
// hip-gemm example.  One kernel, sgemm_tiled, is launched three times to
// warm up and then `iterations` times under HIP events; a sample of the
// product is checked against a double-precision dot product on the host,
// so a wrong answer is a failed trial, not a fast one.
//
//   hipcc -O3 -o /tmp/hip_gemm examples/profiling/rocprof/hip-gemm/gemm.hip
//   /tmp/hip_gemm [n] [iterations]          (defaults: 512 20)
//
// Under rocprofv3 the kernel shows up as
// "sgemm_tiled(float const*, float const*, float*, int)" with
// iterations + 3 calls.
#include <hip/hip_runtime.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kTile = 16;
constexpr int kWarmups = 3;
constexpr int kSamples = 64;

#define GEMM_CHECK(call)                                                        \
    do {                                                                        \
        hipError_t status_ = (call);                                            \
        if (status_ != hipSuccess) {                                            \
            std::fprintf(stderr, "gemm: %s failed: %s\n", #call,               \
                         hipGetErrorString(status_));                           \
            std::exit(2);                                                       \
        }                                                                       \
    } while (0)

// A positive integer argument, or exit 2 naming it.
int parse_count(const char *text, const char *what)
{
    char *end = nullptr;
    errno = 0;
    long value = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 65536) {
        std::fprintf(stderr, "gemm: %s must be an integer from 1 to 65536, got '%s'\n", what,
                     text);
        std::exit(2);
    }
    return static_cast<int>(value);
}

}  // namespace

// c = a * b for n x n row-major matrices, one kTile x kTile block of c per
// work-group, staged through LDS.
__global__ void sgemm_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float tile_a[kTile][kTile];
    __shared__ float tile_b[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += kTile) {
        tile_a[ty][tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0f;
        tile_b[ty][tx] = (col < n && k0 + ty < n) ? b[(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k)
            sum += tile_a[ty][k] * tile_b[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = sum;
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        std::fprintf(stderr, "usage: %s [n] [iterations]\n", argv[0]);
        return 2;
    }
    const int n = argc > 1 ? parse_count(argv[1], "n") : 512;
    const int iterations = argc > 2 ? parse_count(argv[2], "iterations") : 20;
    const size_t elements = static_cast<size_t>(n) * static_cast<size_t>(n);

    int device = 0;
    hipDeviceProp_t props;
    GEMM_CHECK(hipGetDevice(&device));
    GEMM_CHECK(hipGetDeviceProperties(&props, device));
    std::printf("gemm: device=%d name=%s\n", device, props.name);
    std::printf("gemm: n=%d iterations=%d tile=%d\n", n, iterations, kTile);

    // Small exactly-representable values keep the float sums close to the
    // double reference.
    std::vector<float> a(elements), b(elements), c(elements);
    for (size_t i = 0; i < elements; ++i) {
        a[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.25f;
        b[i] = static_cast<float>(static_cast<int>(i % 5) - 2) * 0.5f;
    }

    float *da = nullptr, *db = nullptr, *dc = nullptr;
    GEMM_CHECK(hipMalloc(&da, elements * sizeof(float)));
    GEMM_CHECK(hipMalloc(&db, elements * sizeof(float)));
    GEMM_CHECK(hipMalloc(&dc, elements * sizeof(float)));
    GEMM_CHECK(hipMemcpy(da, a.data(), elements * sizeof(float), hipMemcpyHostToDevice));
    GEMM_CHECK(hipMemcpy(db, b.data(), elements * sizeof(float), hipMemcpyHostToDevice));

    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
    for (int i = 0; i < kWarmups; ++i)
        hipLaunchKernelGGL(sgemm_tiled, grid, block, 0, 0, da, db, dc, n);
    GEMM_CHECK(hipGetLastError());
    GEMM_CHECK(hipDeviceSynchronize());

    hipEvent_t start, stop;
    GEMM_CHECK(hipEventCreate(&start));
    GEMM_CHECK(hipEventCreate(&stop));
    GEMM_CHECK(hipEventRecord(start, 0));
    for (int i = 0; i < iterations; ++i)
        hipLaunchKernelGGL(sgemm_tiled, grid, block, 0, 0, da, db, dc, n);
    GEMM_CHECK(hipGetLastError());
    GEMM_CHECK(hipEventRecord(stop, 0));
    GEMM_CHECK(hipEventSynchronize(stop));
    float elapsed_ms = 0.0f;
    GEMM_CHECK(hipEventElapsedTime(&elapsed_ms, start, stop));
    GEMM_CHECK(hipMemcpy(c.data(), dc, elements * sizeof(float), hipMemcpyDeviceToHost));

    // A spread of entries, each against its dot product in double.
    double max_rel_err = 0.0;
    for (int s = 0; s < kSamples; ++s) {
        const size_t row = static_cast<size_t>(s) * 7919u % static_cast<size_t>(n);
        const size_t col = static_cast<size_t>(s) * 104729u % static_cast<size_t>(n);
        double want = 0.0;
        for (size_t k = 0; k < static_cast<size_t>(n); ++k)
            want += static_cast<double>(a[row * n + k]) * static_cast<double>(b[k * n + col]);
        const double err = std::fabs(c[row * n + col] - want) / std::fmax(1.0, std::fabs(want));
        max_rel_err = std::fmax(max_rel_err, err);
    }
    const double mean_ms = elapsed_ms / iterations;
    std::printf("gemm: mean_kernel_ms=%.4f\n", mean_ms);
    std::printf("gemm: gflops=%.2f\n", 2.0 * n * n * static_cast<double>(n) / (mean_ms * 1e6));
    std::printf("gemm: max_rel_err=%.3e\n", max_rel_err);

    GEMM_CHECK(hipEventDestroy(start));
    GEMM_CHECK(hipEventDestroy(stop));
    GEMM_CHECK(hipFree(da));
    GEMM_CHECK(hipFree(db));
    GEMM_CHECK(hipFree(dc));
    const bool ok = max_rel_err < 1e-5;
    std::printf("gemm: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
