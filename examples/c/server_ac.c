/*
 * The server loop through the C ABI: the ABI version; a player's server update with
 * the client's requested position; a late joiner's MovementData applied to a fresh
 * copy; a wave whose events (hooks, AnimationDone, MotionDone) are drained in one
 * batch after the ticks, with the length query that times it; and the client jump
 * once the weenie's jump answers are given.
 *
 *   cc -I crates/ffi/include examples/c/server_ac.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o server_ac
 *   ./server_ac assets/ac/records
 *
 * or, with the installed library: cc server_ac.c $(pkg-config --cflags --libs retroanim)
 */
#include <stdio.h>
#include <stdlib.h>

#include "retroanim.h"

#define HUMANOID 0x09000001u
#define NON_COMBAT 0x8000003Du
#define WALK_FORWARD 0x45000005u
#define WAVE 0x13000087u
#define CELL 0x7D640013u

static int fail(const char *what) {
  fprintf(stderr, "server_ac: %s: %s\n", what, ra_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: server_ac RECORD_DIR\n");
    return 2;
  }
  printf("abi %u\n", ra_abi_version());
  RaAcWorld w = 0;
  if (ra_ac_world_new_dir(argv[1], &w) != RA_STATUS_OK) return fail("world");
  if (ra_ac_world_set_events(w, 1) != RA_STATUS_OK) return fail("events on");
  RaAcCreatureDesc d;
  ra_ac_creature_desc_default(&d);
  uint32_t player = 0, copy = 0;
  if (ra_ac_world_add_creature(w, HUMANOID, &d, &player) != RA_STATUS_OK) return fail("add");
  d.frame.origin.x = 10.0f;
  if (ra_ac_world_add_creature(w, HUMANOID, &d, &copy) != RA_STATUS_OK) return fail("add copy");

  /* The player's updates: where it stands, then one unit north half a second later. */
  RaAcPosition req = {CELL, {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 0.0f}}};
  uint8_t ok = 0;
  if (ra_ac_update_object_server(w, player, 100.0, &req, 1, &ok) != RA_STATUS_OK)
    return fail("update");
  req.frame.origin.y = 1.0f;
  if (ra_ac_update_object_server(w, player, 100.5, &req, 1, &ok) != RA_STATUS_OK)
    return fail("update 2");
  RaAcState s;
  ra_ac_state(w, player, &s);
  printf("server update ok %u y %.3f\n", ok, s.position.frame.origin.y);

  /* A late joiner: the walking player's state, rebuilt for a fresh copy. */
  if (ra_ac_do_motion(w, player, WALK_FORWARD, NULL) != RA_STATUS_OK) return fail("walk");
  ra_ac_world_tick(w, 0.1);
  size_t n = 0;
  ra_ac_movement_data_for_late_joiner(w, player, NULL, 0, &n);
  uint8_t *bytes = malloc(n);
  if (!bytes) return 1;
  if (ra_ac_movement_data_for_late_joiner(w, player, bytes, n, &n) != RA_STATUS_OK)
    return fail("late joiner");
  if (ra_ac_apply_movement_data(w, copy, bytes, n) != RA_STATUS_OK) return fail("apply");
  free(bytes);
  ra_ac_state(w, copy, &s);
  printf("late joiner motion %08x\n", s.motion);

  /* A wave, timed by its length and reported by its events. */
  ra_ac_stop_completely(w, player);
  ra_ac_stop_completely(w, copy);
  for (int i = 0; i < 20; i++) ra_ac_world_tick(w, 0.05);
  ra_ac_world_events(w, NULL, 0, &n);
  RaAcEvent *ev = calloc(n ? n : 1, sizeof *ev);
  if (!ev) return 1;
  ra_ac_world_events(w, ev, n, &n); /* drop what came before */
  free(ev);
  float len = 0.0f;
  if (ra_ac_animation_length(w, player, NON_COMBAT, WAVE, 1.0f, &len) != RA_STATUS_OK)
    return fail("length");
  printf("wave length %.3f\n", len);
  if (ra_ac_do_motion(w, player, WAVE, NULL) != RA_STATUS_OK) return fail("wave");
  for (int i = 0; i < 25; i++) ra_ac_world_tick(w, 1.0 / 30.0);
  ra_ac_world_events(w, NULL, 0, &n);
  ev = calloc(n ? n : 1, sizeof *ev);
  if (!ev) return 1;
  if (ra_ac_world_events(w, ev, n, &n) != RA_STATUS_OK) return fail("events");
  for (size_t i = 0; i < n; i++) {
    if (ev[i].kind == RA_AC_EVENT_KIND_HOOK)
      printf("event %u hook %u anim %08x frame %d\n", ev[i].creature, ev[i].a, ev[i].b,
             ev[i].frame);
    else
      printf("event %u kind %u a %08x b %u\n", ev[i].creature, ev[i].kind, ev[i].a, ev[i].b);
  }
  free(ev);

  /* The client jump: refused with stamina cost 0, taken once the answers are set. */
  RaStatus st = ra_ac_jump(w, player, 1.0f, NULL);
  printf("jump without answers %d %x\n", (int)st, ra_last_error_code());
  if (ra_ac_set_jump_answers(w, player, 200, 0.0f, 1.0f) != RA_STATUS_OK) return fail("answers");
  if (ra_ac_jump(w, player, 1.0f, NULL) != RA_STATUS_OK) return fail("jump");
  ra_ac_world_tick(w, 0.05);
  ra_ac_state(w, player, &s);
  printf("jump up %d\n", s.position.frame.origin.z > 0.3f);
  ra_ac_world_free(w);
  return 0;
}
