/*
 * The smallest AC host: the ABI version, a world on a records folder, one creature
 * that starts walking, and what its state says afterwards.
 */
#include <stdio.h>

#include "retroanim.h"

#define HUMANOID 0x09000001u
#define WALK_FORWARD 0x45000005u

static int fail(const char *what) {
  fprintf(stderr, "host: %s: %s\n", what, ra_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: host RECORD_DIR\n");
    return 2;
  }
  printf("abi %u\n", ra_abi_version());
  RaAcWorld w = 0;
  uint32_t c = 0;
  if (ra_ac_world_new_dir(argv[1], &w) != RA_STATUS_OK) return fail("world");
  if (ra_ac_world_add_creature(w, HUMANOID, NULL, &c) != RA_STATUS_OK) return fail("add");
  if (ra_ac_do_motion(w, c, WALK_FORWARD, NULL) != RA_STATUS_OK) return fail("walk");
  if (ra_ac_world_tick(w, 0.5) != RA_STATUS_OK) return fail("tick");
  RaAcState s;
  if (ra_ac_state(w, c, &s) != RA_STATUS_OK) return fail("state");
  printf("creature %u cell %08X motion %08X\n", c, s.position.cell, s.motion);
  if (ra_ac_world_free(w) != RA_STATUS_OK) return fail("free");
  return 0;
}
