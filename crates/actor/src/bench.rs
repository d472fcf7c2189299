//! The benchmark world of `retroanim bench actor`: 100,000 actors on a 64×64-cell
//! map running FLAG2-like programs, the view moving every update and the frame
//! scale cycling through mixed values. Everything is allocated up front; a
//! steady-state update allocates nothing.

use crate::raan::{RaanEntry, RaanTable};
use crate::ragr::Cmd;
use crate::resources::{ActorFlags, ActorSet, ActorSpec, ModelTable, Script, ScriptCmd};
use crate::world::{Switches, World};
use retroanim_core::bench::BenchWorld;

/// Default number of actors.
pub const DEFAULT_ACTORS: usize = 100_000;
/// Map size in cells per axis.
pub const MAP_CELLS: i64 = 64;
/// Frame scales (Q8) the updates cycle through: slow, nominal, fast, paused.
pub const SCALES: [u32; 8] = [256, 320, 192, 512, 0, 256, 384, 128];

/// The FLAG2-like model: an idle default (0), a waving group (1) with a breakpoint
/// and a finite loop, and a gust group (10) with a future jump.
pub fn flag_model() -> ModelTable {
    let raan = RaanTable {
        entries: vec![
            RaanEntry {
                model: 40,
                frames: 4,
            },
            RaanEntry {
                model: 41,
                frames: 4,
            },
        ],
    };
    let mut m = ModelTable::new("flag", raan);
    let show = |r: u16| {
        let (handle, index) = if r < 4 { (40, r) } else { (41, r - 4) };
        Cmd::ShowFrame { handle, index }
    };
    m.add_group(
        0,
        0x0003,
        &[
            show(0),
            show(1),
            Cmd::GoToPrevious { target: 0 },
            Cmd::EndAnimation,
        ],
    );
    m.add_group(
        1,
        0x0102,
        &[
            Cmd::BreakPoint,
            show(2),
            show(3),
            Cmd::GoToPrevious { target: 1 },
            Cmd::EndAnimation,
        ],
    );
    m.add_group(
        10,
        0x0201,
        &[
            show(4),
            show(5),
            Cmd::GoToFuture { target: 4 },
            Cmd::GoToPrevious { target: 0 },
            show(6),
            show(7),
            Cmd::EndAnimation,
        ],
    );
    m
}

/// The FLAG2 program (A40): (1,25), (10,1), (1,3), (10,2), End(0).
pub fn flag2_script() -> Script {
    Script {
        name: "flag2".into(),
        cmds: vec![
            ScriptCmd::PushAnimation {
                group: 1,
                count: 25,
            },
            ScriptCmd::PushAnimation {
                group: 10,
                count: 1,
            },
            ScriptCmd::PushAnimation { group: 1, count: 3 },
            ScriptCmd::PushAnimation {
                group: 10,
                count: 2,
            },
            ScriptCmd::End { target: 0 },
        ],
    }
}

/// The benchmark world.
pub struct ActorBench {
    world: World,
    tick: u64,
}

impl ActorBench {
    /// `actors` actors spread over the map by a fixed pseudo-random sequence; three
    /// in four are persistent (activation 1), the rest live in their map cells and
    /// are updated only while the moving window covers them.
    pub fn new(actors: usize) -> ActorBench {
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let span = MAP_CELLS * 512;
        let specs = (0..actors)
            .map(|i| {
                let r = next();
                ActorSpec {
                    id: format!("a{i}"),
                    pos: [(r % span as u64) as i64, ((r >> 32) % span as u64) as i64],
                    activation: u8::from(i % 4 != 0),
                    attr113: u8::from(i % 7 == 0),
                    attr44: 0,
                    state_default: None,
                    model: Some(0),
                    script: Some(0),
                    static_model: false,
                    walk: (i % 5 == 0).then_some([1, 0]),
                    flags: ActorFlags::default(),
                }
            })
            .collect();
        let set = ActorSet {
            width: MAP_CELLS,
            height: MAP_CELLS,
            models: vec![flag_model()],
            scripts: vec![flag2_script()],
            actors: specs,
        };
        let world = World::new(set, [0, 0], 256, Switches::default())
            .expect("the benchmark programs are valid: every group selects a frame");
        ActorBench { world, tick: 0 }
    }

    /// The world being benchmarked.
    pub fn world(&self) -> &World {
        &self.world
    }
}

impl Default for ActorBench {
    fn default() -> Self {
        ActorBench::new(DEFAULT_ACTORS)
    }
}

impl BenchWorld for ActorBench {
    fn entities(&self) -> usize {
        self.world.actors().len()
    }

    fn tick(&mut self) {
        let t = self.tick;
        self.tick += 1;
        self.world.timing.scale = SCALES[(t % SCALES.len() as u64) as usize];
        // The view sweeps the map diagonally, one cell per update.
        let c = (t % (MAP_CELLS as u64)) as i64 * 512 + 256;
        self.world.view = [c, (c * 3) % (MAP_CELLS * 512)];
        // The benchmark programs cannot run away (checked by the tests), so an
        // error here would be a bug worth stopping the benchmark for.
        if let Err(e) = self.world.update() {
            panic!("benchmark world failed: {e}");
        }
    }

    fn checksum(&self) -> u64 {
        self.world.actors().iter().fold(0u64, |sum, a| {
            let anim = a.anim.as_ref();
            let frame = anim
                .and_then(|x| x.frame)
                .map_or(0, |f| (f[0] as u64) << 10 | f[1] as u64);
            let cursor = anim.map_or(0, |x| x.cursor as u64);
            sum.wrapping_mul(31)
                .wrapping_add(frame ^ cursor << 20 ^ a.pos[0] as u64 ^ (a.pc as u64) << 40)
        })
    }
}
