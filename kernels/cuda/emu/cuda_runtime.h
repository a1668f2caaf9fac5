// emu/cuda_runtime.h -- just enough of CUDA to run the kernels of ../*.cuh
// on the CPU, for checking their results where there is no GPU.
//
// Every CUDA thread of a block is a std::thread; __syncthreads() is a
// std::barrier over the block; blocks run one after another, so a
// function-scope `static` array is exactly a per-block __shared__ array.
// Only what the kernels in this directory use is provided.  Timing means
// nothing here.
#pragma once

#include <barrier>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

#define SMSIM_HOST_EMULATION 1

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static __attribute__((aligned(16)))

struct uint3 {
    unsigned x, y, z;
};

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct alignas(16) float4 {
    float x, y, z, w;
};

inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

inline std::barrier<> *smsim_emu_barrier = nullptr;
inline std::vector<float> smsim_emu_dyn_smem;

inline void __syncthreads() { smsim_emu_barrier->arrive_and_wait(); }

inline float *smsim_emu_dynamic_smem() { return smsim_emu_dyn_smem.data(); }

// kernel<<<grid, block, dyn_smem>>>(args...)  ==  emu_launch(grid, block, dyn_smem, kernel, args...)
template <typename F, typename... Args>
void emu_launch(dim3 grid, dim3 block, size_t dyn_smem_bytes, F kernel, Args... args)
{
    blockDim = block;
    gridDim = grid;
    smsim_emu_dyn_smem.assign(dyn_smem_bytes / sizeof(float) + 4, 0.0f);
    const unsigned nthreads = block.x * block.y * block.z;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                std::barrier<> bar(nthreads);
                smsim_emu_barrier = &bar;
                std::vector<std::thread> threads;
                threads.reserve(nthreads);
                for (unsigned tz = 0; tz < block.z; ++tz)
                    for (unsigned ty = 0; ty < block.y; ++ty)
                        for (unsigned tx = 0; tx < block.x; ++tx)
                            threads.emplace_back([=]() {
                                threadIdx = uint3{tx, ty, tz};
                                blockIdx = uint3{bx, by, bz};
                                kernel(args...);
                            });
                for (std::thread &t : threads)
                    t.join();
                smsim_emu_barrier = nullptr;
            }
}
