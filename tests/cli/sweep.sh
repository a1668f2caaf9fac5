#!/bin/sh
# `smsim sweep`: a 2,000-point occupancy sweep gives the same CSV with
# -j 1, -j 2 and as 4 shards merged; rows hold the values worked out by
# hand; run mode gives the same CSV whatever -j and the same figures as
# `smsim run`; nothing of the progress bar reaches a file.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

grid="--gpu a100 --mode occupancy --vary threads=32,64,96,128,256,320,512,640,768,1024
      --vary regs=16,24,32,33,37,48,64,96,128,255 --vary smem=0,1024,8192,32768,49152
      --vary carveout=-1,0,50,100"
# shellcheck disable=SC2086
"$SMSIM" sweep $grid -j 1 -o one.csv 2>err
[ ! -s err ] || fail "stderr is not a terminal, yet: $(cat err)"
[ "$(wc -l <one.csv)" -eq 2001 ] || fail "2000 points, a header: $(wc -l <one.csv) lines"
[ ! -e one.csv.journal ] || fail "the journal outlives a finished sweep"
# shellcheck disable=SC2086
"$SMSIM" sweep $grid -j 2 -o two.csv
cmp one.csv two.csv || fail "-j 1 and -j 2 differ"
for i in 1 2 3 4; do
    # shellcheck disable=SC2086
    "$SMSIM" sweep $grid --shard $i/4 -o shard$i.csv
done
head -1 shard3.csv | grep -qx '# smsim sweep shard 3/4 of 2000 points, sweep [0-9a-f]\{64\}' ||
    fail "shard line: $(head -1 shard3.csv)"
# Every shard of one sweep carries the same fingerprint.
[ "$(sed -n '1s/.*, sweep //p' shard1.csv)" = "$(sed -n '1s/.*, sweep //p' shard4.csv)" ] ||
    fail "shards 1 and 4 of one sweep carry different fingerprints"
"$SMSIM" sweep --merge shard4.csv shard2.csv shard1.csv shard3.csv -o merged.csv
cmp one.csv merged.csv || fail "4 shards merged differ from the whole sweep"

# By hand (occ.h rules, A100): 33 registers x 32 = 1056, rounded to 1280
# per warp; 16384 per sub-partition hold 12 warps, 48 per SM; a
# 512-thread block is 16 warps: 3 blocks, 48 of 64 warps, 75 %.
grep -q '^[0-9]*,512,33,0,-1,3,48,75.00,registers,' one.csv || fail "512 threads, 33 regs"
# 32 registers, 256 threads (8 warps), 32768 B static: 32768 + 1024
# reserve = 33792 B per block; 164 KB (167936 B) hold 4 blocks: 32
# warps, 50 % (PMPP's example; the README's).
grep -q '^[0-9]*,256,32,32768,-1,4,32,50.00,shared_mem,' one.csv || fail "PMPP example"
# 255 registers on 1024 threads: 261120 > 65536 per block: an error row.
grep -q '^[0-9]*,1024,255,0,-1,,,,,,.*65536' one.csv || fail "error row"

# Run mode: -j 1 and -j 2 agree, and a point equals `smsim run`.
cat >points.csv <<'CSV'
kernel,size
vecadd,2048
stream,4096
pmpp-tiled,64
CSV
run="--gpu a6000 --points points.csv --vary mem.dram_latency_cycles=300,600"
# shellcheck disable=SC2086
"$SMSIM" sweep $run -j 1 -o r1.csv
# shellcheck disable=SC2086
"$SMSIM" sweep $run -j 2 >r2.csv
cmp r1.csv r2.csv || fail "run mode: -j 1 and -j 2 differ"
head -1 r1.csv | grep -q '^point,kernel,size,mem.dram_latency_cycles,cycles,time_ms,gflops,.*,stalls.long_scoreboard,.*,error$' ||
    fail "run-mode header: $(head -1 r1.csv)"
"$SMSIM" run --gpu a6000 --kernel pmpp-tiled --size 64 --set mem.dram_latency_cycles=600 \
    --format json >run.json
cycles=$(sed -n 's/^ *"cycles" : \([0-9]*\),$/\1/p' run.json)
grep -q "^5,pmpp-tiled,64,600,$cycles," r1.csv || fail "point 5 is not smsim run's $cycles cycles"
# The shipped hypothetical SMs, by hand.  256 KB of shared memory: a
# 256-thread block with 120000 B dynamic + 1024 reserve = 121024,
# rounded to 128 B: 121088; 262144 B hold 2 (the A100's 167936, 1):
# 16 of 64 warps, 25 %.
"$SMSIM" sweep --config "$top_srcdir/examples/a100-256k-smem.ini" --mode occupancy \
    --vary threads=256 --vary regs=32 --vary dyn_smem=120000 >big.csv
grep -qx '0,256,32,120000,2,16,25.00,shared_mem,[0-9.]*,' big.csv || fail "256 KB: $(cat big.csv)"
# 8 schedulers: 64 registers x 32 = 2048 per warp; 65536 / 8 = 8192
# per sub-partition hold 4 warps, 32 per SM; 3-warp blocks: 10 blocks,
# 30 of 64 warps, 46.88 %.
"$SMSIM" sweep --config "$top_srcdir/examples/h100-8-schedulers.ini" --mode occupancy \
    --vary threads=96 --vary regs=64 >eight.csv
grep -qx '0,96,64,10,30,46.88,registers,[0-9.]*,' eight.csv || fail "8 schedulers: $(cat eight.csv)"
# A points file may mix kernels, each row with its own parameter (16 is
# below stream's BLOCK range, 32..1024, but the row is vecadd's).  By
# hand: vecadd's 16-thread blocks are one warp; the A6000's 16 blocks
# per SM hold 16 of its 48 warps, 33.33 %.  stream's 256 threads are 8
# warps: 6 blocks fill the 48, 100 %.
printf 'kernel,size,param.BLOCK\nvecadd,1024,16\nstream,1024,256\n' >mixed.csv
"$SMSIM" sweep --gpu a6000 --mode occupancy --points mixed.csv >mixed.out
grep -q '^0,vecadd,1024,16,16,16,33.33,blocks,' mixed.out || fail "vecadd, BLOCK 16: $(cat mixed.out)"
grep -q '^1,stream,1024,256,6,48,100.00,' mixed.out || fail "stream, BLOCK 256: $(cat mixed.out)"
# Units, as --help says: a pointer chase of 2000 loads over 16 KB in
# 128 B steps misses L1 on the 128 lines of its first lap alone, so
# l1_hit_rate is 1872 / 2000 = 0.936 (a fraction), while one 1-warp
# block in the A6000's 16 block slots of its 48 warp slots is
# theoretical_occupancy 16 / 48 = 33.3333 (a percentage).
"$SMSIM" sweep --help >help
grep -q "hit rates as fractions" help || fail "sweep --help does not give the hit rates' unit"
grep -q "occupancies in %" help || fail "sweep --help does not give the occupancies' unit"
"$SMSIM" sweep -j 1 --gpu a6000 --vary kernel=pchase --vary size=2000 \
    --vary param.WS=16384 >units.csv
col() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
                           NR == 2 { print $c }' units.csv; }
[ "$(col l1_hit_rate)" = 0.936 ] || fail "pchase l1_hit_rate: $(col l1_hit_rate)"
[ "$(col theoretical_occupancy)" = 33.3333 ] ||
    fail "pchase theoretical_occupancy: $(col theoretical_occupancy)"
echo "sweep: 2000 points alike with -j 1, -j 2 and 4 shards; run mode alike"
