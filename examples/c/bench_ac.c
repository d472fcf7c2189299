/*
 * The `retroanim bench ac` workload through the C ABI: N creatures on the sample
 * humanoid table, each issuing walk, run, turn, stop-turn, stop and stop-completely
 * commands at staggered times (one every 45 ticks), the whole world ticked at 30 Hz by
 * the batch call ra_ac_world_tick, after the same untimed warm-up ticks: the same work
 * as `retroanim bench ac`. All positions are read back once at the end with
 * ra_ac_world_positions; with a fourth argument `every`, after every tick too (what a
 * host drawing each frame does). Prints entity-ticks per second.
 *
 *   cargo build --release -p retroanim-ffi
 *   cc -O2 -I crates/ffi/include examples/c/bench_ac.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o bench_ac
 *   ./bench_ac assets/ac/records 10000 200          (tick only)
 *   ./bench_ac assets/ac/records 10000 200 every    (plus positions every tick)
 */
/* clock_gettime is POSIX, not C99. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "retroanim.h"

#define WALK_FORWARD 0x45000005u
#define RUN_FORWARD 0x44000007u
#define TURN_RIGHT 0x6500000Du
#define PERIOD 45u
/* Untimed ticks first, as `retroanim bench` does: the first commands allocate. */
#define WARMUP_TICKS 50u

static void check(RaStatus s, const char *what) {
  if (s != RA_STATUS_OK) {
    fprintf(stderr, "bench_ac: %s: %s\n", what, ra_last_error());
    exit(1);
  }
}

static void command(RaAcWorld w, uint32_t c, uint64_t k, const RaAcMotionParams *run) {
  switch (k % 6) {
    case 0: ra_ac_do_motion(w, c, WALK_FORWARD, NULL); break;
    case 1: ra_ac_do_motion(w, c, WALK_FORWARD, run); break;
    case 2: ra_ac_do_motion(w, c, TURN_RIGHT, NULL); break;
    case 3: ra_ac_stop_motion(w, c, TURN_RIGHT, NULL); break;
    case 4: ra_ac_stop_motion(w, c, RUN_FORWARD, NULL); break;
    default: ra_ac_stop_completely(w, c); break;
  }
  /* A refused command is part of the workload (the Rust bench ignores results too). */
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 4 && !(argc == 5 && strcmp(argv[4], "every") == 0)) {
    fprintf(stderr, "usage: bench_ac RECORD_DIR ENTITIES TICKS [every]\n");
    return 2;
  }
  int every = argc == 5;
  uint32_t n = (uint32_t)strtoul(argv[2], NULL, 10);
  uint64_t ticks = strtoull(argv[3], NULL, 10);
  RaAcWorld w = 0;
  check(ra_ac_world_new_dir(argv[1], &w), "world");
  RaAcCreatureDesc d;
  check(ra_ac_creature_desc_default(&d), "desc");
  d.run_rate = 1.5f;
  for (uint32_t i = 0; i < n; i++) {
    d.frame.origin.x = (float)(i % 100) * 2.0f;
    d.frame.origin.y = (float)(i / 100) * 2.0f;
    check(ra_ac_world_add_creature(w, 0x09000001u, &d, NULL), "add creature");
  }
  RaAcMotionParams run;
  check(ra_ac_motion_params_default(&run), "params");
  run.hold_key_to_apply = 2;
  RaAcPosition *pos = malloc(sizeof *pos * (n ? n : 1));
  size_t count = 0;

  double start = 0;
  for (uint64_t t = 0; t < WARMUP_TICKS + ticks; t++) {
    if (t == WARMUP_TICKS) start = now();
    for (uint32_t i = 0; i < n; i++) {
      uint64_t phase = t + i % PERIOD;
      if (phase % PERIOD == 0) command(w, i, phase / PERIOD + i, &run);
    }
    check(ra_ac_world_tick(w, 1.0 / 30.0), "tick");
    if (every) check(ra_ac_world_positions(w, pos, n, &count), "positions");
  }
  double secs = now() - start;
  check(ra_ac_world_positions(w, pos, n, &count), "positions");

  double sum = 0;
  for (size_t i = 0; i < count; i++) sum += pos[i].frame.origin.y;
  printf("entities: %u\nticks: %llu\nseconds: %.4f\nentity_ticks_per_second: %.0f\nsum_y: %.3f\n",
         n, (unsigned long long)ticks, secs, (double)n * (double)ticks / secs, sum);
  free(pos);
  check(ra_ac_world_free(w), "free");
  return 0;
}
