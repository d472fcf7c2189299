//! The cost of a world's lifecycle calls at server scale: `--count` creatures (1,000,000
//! by default) added to one `World`, each looked up by id, half moved to a second world
//! and the rest removed. Every call is O(1), so each phase should take about the same
//! time per creature whatever the count.
//!
//! `cargo run --release -p retroanim-ac --example world_lifecycle [-- --count N]`

use retroanim_ac::math::Vec3;
use retroanim_ac::{Creature, Loader, World};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: u32 = args
        .iter()
        .position(|a| a == "--count")
        .and_then(|i| args.get(i + 1))
        .map_or(1_000_000, |v| v.parse().expect("a whole number"));
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let motions = Loader::from_dir(records)
        .load(0x0900_0001)
        .expect("the bundled humanoid table");

    let t = Instant::now();
    let creatures: Vec<Creature> = (0..count)
        .map(|i| {
            Creature::builder(&motions)
                .origin(Vec3::new((i % 1000) as f32, (i / 1000) as f32, 0.0))
                .build()
        })
        .collect();
    let built = t.elapsed();

    let mut world = World::new(100.0);
    let t = Instant::now();
    for (i, c) in creatures.into_iter().enumerate() {
        assert!(world.add_creature(i as u32 + 1, 0.5, 1.8, c));
    }
    let added = t.elapsed();

    let t = Instant::now();
    let mut found = 0u64;
    for id in 1..=count {
        found += u64::from(world.get(id).is_some());
    }
    let looked_up = t.elapsed();
    assert_eq!(found, u64::from(count));

    let mut other = World::new(100.0);
    let t = Instant::now();
    for id in (1..=count).step_by(2) {
        let obj = world.take(id).expect("in the first world");
        assert!(other.insert(obj).is_ok());
    }
    let moved = t.elapsed();

    let t = Instant::now();
    for id in (2..=count).step_by(2) {
        assert!(world.take(id).is_some());
    }
    let removed = t.elapsed();
    assert!(world.objects.is_empty());
    assert_eq!(other.objects.len() as u32, count.div_ceil(2));

    let per = |d: std::time::Duration, n: u32| d.as_nanos() as f64 / f64::from(n.max(1));
    println!("{count} creatures built in {built:.2?} (not counted below)");
    println!(
        "{count} adds: {added:.2?} ({:.0} ns each)",
        per(added, count)
    );
    println!(
        "{count} lookups by id: {looked_up:.2?} ({:.0} ns each)",
        per(looked_up, count)
    );
    println!(
        "{} transfers to another world: {moved:.2?} ({:.0} ns each)",
        count.div_ceil(2),
        per(moved, count.div_ceil(2))
    );
    println!(
        "{} removals: {removed:.2?} ({:.0} ns each)",
        count / 2,
        per(removed, count / 2)
    );
}
