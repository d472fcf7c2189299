//! Walk for a second, then hold Run for a second, printing where the creature is.
//! Run with `cargo run -p retroanim-ac --example walk_then_run`.
use retroanim_ac::commands::WALK_FORWARD;
use retroanim_ac::{Creature, Loader};

/// The example's body, returning what it prints (the test runs it too).
pub fn run() -> Result<String, Box<dyn std::error::Error>> {
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let motions = Loader::from_dir(records).load(0x0900_0001)?;
    let mut creature = Creature::new(&motions);
    let mut out = String::new();
    creature.do_motion(WALK_FORWARD)?;
    for second in 1..=2 {
        (0..30).for_each(|_| creature.tick(1.0 / 30.0));
        let (p, m) = (creature.origin(), creature.motion());
        out += &format!("{second} s: motion 0x{m:08x} at y = {:.3}\n", p.y);
        creature.set_hold_run(true);
    }
    Ok(out)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", run()?);
    Ok(())
}
