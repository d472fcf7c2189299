/*
 * A chase through the typed move-to calls: creature 2 walks along +x from (0, 8);
 * creature 1 runs to it (walking not allowed), 60 world ticks of 0.1 s. This is the
 * committed conformance scenario oracle_chase_walking_target; each tick prints both
 * origins (x and y) as f32 bit patterns, then how the chase ended.
 *
 *   cc -I crates/ffi/include examples/c/chase_ac.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o chase_ac
 *   ./chase_ac crates/ac/tests/conformance/humanoid
 */
#include <stdio.h>
#include <string.h>

#include "retroanim.h"

#define HUMANOID 0x09000001u
#define WALK_FORWARD 0x45000005u

static int fail(const char *what) {
  fprintf(stderr, "chase_ac: %s: %s\n", what, ra_last_error());
  return 1;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: chase_ac RECORD_DIR\n");
    return 2;
  }
  RaAcWorld w = 0;
  if (ra_ac_world_new_dir(argv[1], &w) != RA_STATUS_OK) return fail("world");

  RaAcCreatureDesc chaser;
  ra_ac_creature_desc_default(&chaser);
  chaser.id = 1;
  chaser.radius = 0.5f;
  chaser.height = 1.8f;
  RaAcCreatureDesc prey = chaser;
  prey.id = 2;
  prey.frame.origin.y = 8.0f;
  prey.frame.orientation.w = 0.7071068f;
  prey.frame.orientation.z = -0.7071068f;

  int rc = 0;
  uint32_t c1 = 0, c2 = 0;
  RaAcMoveParams p;
  ra_ac_move_params_default(&p);
  p.can_walk = 0;
  if (ra_ac_world_add_creature(w, HUMANOID, &chaser, &c1) != RA_STATUS_OK ||
      ra_ac_world_add_creature(w, HUMANOID, &prey, &c2) != RA_STATUS_OK) {
    rc = fail("add creature");
  } else if (ra_ac_do_motion(w, c2, WALK_FORWARD, NULL) != RA_STATUS_OK) {
    rc = fail("do_motion");
  } else if (ra_ac_move_to_object(w, c1, prey.id, &p) != RA_STATUS_OK) {
    rc = fail("move_to_object");
  } else {
    uint32_t arrivals = 0;
    for (int k = 0; k < 60 && rc == 0; k++) {
      RaAcState a, b;
      RaAcMoveToInfo info;
      if (ra_ac_world_tick(w, 0.1) != RA_STATUS_OK || ra_ac_state(w, c1, &a) != RA_STATUS_OK ||
          ra_ac_state(w, c2, &b) != RA_STATUS_OK || ra_ac_moveto_info(w, c1, &info) != RA_STATUS_OK) {
        rc = fail("tick");
        break;
      }
      arrivals += info.completions;
      printf("%08x %08x %08x %08x\n", (unsigned)bits(a.position.frame.origin.x),
             (unsigned)bits(a.position.frame.origin.y), (unsigned)bits(b.position.frame.origin.x),
             (unsigned)bits(b.position.frame.origin.y));
    }
    RaAcMoveToInfo info;
    if (rc == 0 && ra_ac_moveto_info(w, c1, &info) == RA_STATUS_OK)
      printf("arrivals %u last %u moving %u\n", (unsigned)arrivals, (unsigned)info.last_completion,
             (unsigned)info.moving_to);
  }
  if (ra_ac_world_free(w) != RA_STATUS_OK && rc == 0) rc = fail("free");
  return rc;
}
