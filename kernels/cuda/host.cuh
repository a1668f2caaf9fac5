// host.cuh -- what the host programs here (harness.cu, probes.cu) share:
// a CUDA call that fails ends the program naming the call, and the device
// line each prints first.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    cudaGetErrorString(err_));                                           \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

// Print "device N: NAME (cc X.Y, S SMs)" for the current device.
static inline void print_device()
{
    int dev = 0;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("device %d: %s (cc %d.%d, %d SMs)\n", dev, prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);
}
