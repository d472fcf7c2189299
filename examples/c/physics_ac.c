/*
 * Host physics through the C ABI (docs/embedding.md "Host physics"): a two-phase tick
 * in which the host stops a walker at a wall (y = 12), then lets it walk on with ACE's
 * outdoor landblock rule until it enters the next landblock.
 *
 *   cc -I crates/ffi/include examples/c/physics_ac.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o physics_ac
 *   ./physics_ac assets/ac/records
 *
 * or, with the installed library: cc physics_ac.c $(pkg-config --cflags --libs retroanim)
 */
#include <stdio.h>

#include "retroanim.h"

#define HUMANOID 0x09000001u
#define WALK_FORWARD 0x45000005u
#define WALL_Y 12.0f

static int fail(const char *what) {
  fprintf(stderr, "physics_ac: %s: %s\n", what, ra_last_error());
  return 1;
}

/* One two-phase tick: every proposal past the wall is put back on it (when `wall`),
 * then (when `outdoor`) ACE's rule names the cells. */
static int tick(RaAcWorld w, int wall, int outdoor) {
  RaAcProposal buf[8];
  size_t n = 0;
  uint8_t done = 0;
  if (ra_ac_world_tick_propose(w, 0.05, &n) != RA_STATUS_OK) return fail("propose");
  while (!done) {
    if (ra_ac_world_proposals(w, buf, 8, &n) != RA_STATUS_OK) return fail("proposals");
    if (outdoor && ra_ac_world_apply_outdoor_rule(w) != RA_STATUS_OK) return fail("rule");
    for (size_t i = 0; i < n; i++) {
      if (wall && buf[i].to.frame.origin.y > WALL_Y) {
        RaAcPosition stop = buf[i].to;
        stop.frame.origin.y = WALL_Y;
        if (ra_ac_world_correct(w, buf[i].creature, &stop) != RA_STATUS_OK)
          return fail("correct");
      }
    }
    if (ra_ac_world_tick_commit(w, &done, &n) != RA_STATUS_OK) return fail("commit");
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: physics_ac RECORD_DIR\n");
    return 2;
  }
  RaAcWorld w = 0;
  if (ra_ac_world_new_dir(argv[1], &w) != RA_STATUS_OK) return fail("world");
  RaAcCreatureDesc d;
  ra_ac_creature_desc_default(&d);
  d.cell = 0x7D640018u; /* column 2, row 7 */
  d.frame.origin.x = 60.0f;
  d.frame.origin.y = 10.0f;
  uint32_t c = 0;
  if (ra_ac_world_add_creature(w, HUMANOID, &d, &c) != RA_STATUS_OK) return fail("add");
  if (ra_ac_do_motion(w, c, WALK_FORWARD, NULL) != RA_STATUS_OK) return fail("walk");

  RaAcState s;
  for (int t = 0; t < 60; t++)
    if (tick(w, 1, 0)) return 1;
  ra_ac_state(w, c, &s);
  printf("at the wall y %.3f velocity %.3f\n", s.position.frame.origin.y, s.velocity.y);

  /* A plain tick is refused while a two-phase tick is open. */
  size_t n = 0;
  ra_ac_world_tick_propose(w, 0.05, &n);
  printf("plain tick while open %d\n", (int)ra_ac_world_tick(w, 0.05));
  uint8_t done = 0;
  while (!done) ra_ac_world_tick_commit(w, &done, &n);

  /* Past the wall: put it near the landblock's edge and let it walk on. */
  RaAcFrame near_edge = {{60.0f, 191.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}};
  if (ra_ac_move_object(w, c, &near_edge, NULL) != RA_STATUS_OK) return fail("move");
  int t = 0;
  do {
    if (tick(w, 0, 1)) return 1;
    ra_ac_state(w, c, &s);
  } while (s.position.cell == 0x7D640018u && ++t < 200);
  printf("next landblock cell %08X y below 1 %d\n", (unsigned)s.position.cell,
         s.position.frame.origin.y < 1.0f);

  uint32_t cell = 0;
  RaVec3 at = {192.5f, 60.0f, 3.0f}, out;
  ra_ac_adjust_to_outside(0x7D64003Bu, &at, &cell, &out);
  printf("rule %08X %.1f %.1f %.1f\n", (unsigned)cell, out.x, out.y, out.z);
  if (ra_ac_world_free(w) != RA_STATUS_OK) return fail("free");
  return 0;
}
