/*
 * ref.c -- published SGEMM throughput at 4096, the numbers `smsim
 * validate` sets simulated ones beside.  Copied from
 * src/models/ref/sgemm_published.csv (itself a copy of
 * ../shared/data/sgemm_published.csv), source column kept; the test
 * suite checks the two agree.  Kernel 0 is cuBLAS: a reference line,
 * not a model.
 */
#include "config.h"

#include "models/ref.h"

static const RefRow rows[] = {
    { "a6000", 1, 4096, 309.0,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 2, 4096, 1986.5,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 3, 4096, 2980.3,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 4, 4096, 8474.7,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 5, 4096, 15971.7,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 7, 4096, 16213.4,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 8, 4096, 16459.2,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 11, 4096, 17278.3,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 6, 4096, 18237.3,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 9, 4096, 19721.0,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 10, 4096, 21779.3,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a6000", 0, 4096, 23249.6,
      "siboehm/SGEMM_CUDA@60cba6f9b20a198116c76f18de8047f44df8c8b8 README.md <!-- benchmark_results --> table; PRIMARY: final upstream table (numbers unchanged since b64882f 2023-03-04; first committed in 4820c60 under a wrong 'A100' heading)" },
    { "a100", 1, 4096, 292.1,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 2, 4096, 3119.0,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 3, 4096, 5451.9,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 4, 4096, 10368.6,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 5, 4096, 14155.1,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 8, 4096, 15086.2,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 7, 4096, 15171.3,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 6, 4096, 15296.5,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 9, 4096, 16344.1,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 10, 4096, 17806.7,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
    { "a100", 0, 4096, 19029.5,
      "siboehm/SGEMM_CUDA@c09b35070029c41b38d1be4c299f4627f0a40bad README.md <!-- benchmark_results --> table; A100 PRIMARY: last A100 table 2023-02-26 (K9 BM=BN=64,BK=16,TM=TN=4; K10 BM=64,BN=128,BK=16,WM=32,WN=64,WNITER=1,TM=TN=4,128 thr); A100 SKU not stated" },
};

const RefRow *
ref_rows (guint *n)
{
    *n = G_N_ELEMENTS (rows);
    return rows;
}
