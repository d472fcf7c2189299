/*
 * Motion messages through the C ABI: creature 0 walks; its MovementData bytes, sized
 * with a first call of capacity 0, are applied to creature 1, which then walks the
 * same. Then a client jump (refused: the weenie's jump stamina cost is 0), a server
 * jump with an upward velocity, and truncated JumpPack bytes (refused, the message
 * naming the byte offset).
 *
 *   cc -I crates/ffi/include examples/c/wire_ac.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o wire_ac
 *   ./wire_ac assets/ac/records
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "retroanim.h"

#define HUMANOID 0x09000001u
#define WALK_FORWARD 0x45000005u

static int fail(const char *what) {
  fprintf(stderr, "wire_ac: %s: %s\n", what, ra_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: wire_ac RECORD_DIR\n");
    return 2;
  }
  RaAcWorld w = 0;
  if (ra_ac_world_new_dir(argv[1], &w) != RA_STATUS_OK) return fail("world");
  RaAcCreatureDesc d;
  ra_ac_creature_desc_default(&d);
  uint32_t a = 0, b = 0;
  if (ra_ac_world_add_creature(w, HUMANOID, &d, &a) != RA_STATUS_OK) return fail("add a");
  d.frame.origin.x = 10.0f;
  if (ra_ac_world_add_creature(w, HUMANOID, &d, &b) != RA_STATUS_OK) return fail("add b");
  if (ra_ac_do_motion(w, a, WALK_FORWARD, NULL) != RA_STATUS_OK) return fail("walk");
  ra_ac_world_tick(w, 1.0 / 30.0);

  size_t n = 0;
  RaStatus s = ra_ac_movement_data(w, a, 0, NULL, 0, &n);
  printf("size query %d\n", (int)s);
  uint8_t *bytes = malloc(n);
  if (!bytes) return 1;
  if (ra_ac_movement_data(w, a, 0, bytes, n, &n) != RA_STATUS_OK) return fail("movement data");
  if (ra_ac_apply_movement_data(w, b, bytes, n) != RA_STATUS_OK) return fail("apply");
  free(bytes);
  for (int k = 0; k < 30; k++) ra_ac_world_tick(w, 1.0 / 30.0);
  RaAcState sa, sb;
  ra_ac_state(w, a, &sa);
  ra_ac_state(w, b, &sb);
  printf("copy motion %08x %s\n", (unsigned)sb.motion,
         sa.motion == sb.motion && sa.velocity.y == sb.velocity.y && sb.velocity.y > 0.0f
             ? "same"
             : "differs");

  s = ra_ac_jump(w, a, 0.5f, NULL);
  printf("client jump %d %x\n", (int)s, (unsigned)ra_last_error_code());
  RaVec3 v = {0.0f, 0.0f, 5.0f};
  if (ra_ac_jump(w, b, 0.5f, &v) != RA_STATUS_OK) return fail("server jump");
  ra_ac_tick(w, b, 0.1);
  ra_ac_state(w, b, &sb);
  printf("server jump up %d\n", sb.velocity.z > 4.0f);

  uint8_t short_pack[10] = {0};
  s = ra_ac_apply_jump_pack(w, a, short_pack, sizeof short_pack);
  printf("short pack %d %s\n", (int)s, ra_last_error());
  ra_ac_world_free(w);
  return 0;
}
