/*
 * Play a retroanim scenario through the C ABI and print its trace, one JSON line per
 * step, exactly as `retroanim run SCENARIO` prints it.
 *
 *   cc -I crates/ffi/include examples/c/play_scenario.c \
 *      target/release/libretroanim_ffi.a -lpthread -ldl -lm -o play_scenario
 *   ./play_scenario assets/ac/scenarios/walk_to_run.json
 */
#include <stdio.h>
#include <string.h>

#include "retroanim.h"

static int fail(const char *what) {
  fprintf(stderr, "play_scenario: %s: %s\n", what, ra_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: play_scenario SCENARIO.json\n");
    return 2;
  }
  RaSession session = 0;
  if (ra_session_open(argv[1], &session) != RA_STATUS_OK) return fail("open");

  int rc = 0;
  char *line = NULL;
  if (ra_session_snapshot_json(session, &line) != RA_STATUS_OK) {
    rc = fail("snapshot");
    goto done;
  }
  printf("%s\n", line);
  ra_string_free(line);

  size_t steps = 0;
  if (ra_session_step_count(session, &steps) != RA_STATUS_OK) {
    rc = fail("step count");
    goto done;
  }
  for (size_t i = 0; i < steps; i++) {
    char *step = NULL;
    if (ra_session_step_json(session, i, &step) != RA_STATUS_OK) {
      rc = fail("step");
      goto done;
    }
    /* Any host-made step JSON works here; this one replays the file's own steps. */
    RaStatus s = ra_session_apply_json(session, (const uint8_t *)step, strlen(step), &line);
    ra_string_free(step);
    if (s != RA_STATUS_OK) {
      rc = fail("apply");
      goto done;
    }
    printf("%s\n", line);
    ra_string_free(line);
  }

done:
  if (ra_session_free(session) != RA_STATUS_OK) rc = fail("free");
  return rc;
}
