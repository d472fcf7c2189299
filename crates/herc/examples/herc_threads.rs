//! Two threads on the sample biped: the legs walk while a second thread twists the
//! torso; prints where the machine is and how the torso is turned after each 200 ms.
//! Run with `cargo run -p retroanim-herc --example herc_threads`.
use retroanim_herc::{AnimatedShape, Model};

/// The example's body, returning what it prints (the test runs it too).
pub fn run() -> Result<String, Box<dyn std::error::Error>> {
    let model = Model::from_json_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/herc/biped.json"
    ))?;
    let seq = |name| {
        model
            .sequence_named(name)
            .ok_or(format!("no sequence {name}"))
    };
    let mut herc = AnimatedShape::new(&model);
    let legs = herc.add_thread(seq("walk")?)?;
    let torso = herc.add_thread(seq("twist")?)?;
    herc.set_rate(torso, 128)?; // the twist at half speed
    let mut out = String::new();
    for _ in 0..5 {
        for _ in 0..5 {
            herc.step_ms(40)?;
        }
        let frame = herc.thread(legs).ok_or("no legs thread")?.frame;
        let rows = herc.part(2).ok_or("no torso node")?.rows();
        let pos = herc.object().position;
        out += &format!("frame {frame} pos {pos:?} torso row 0 {:?}\n", rows[0]);
    }
    Ok(out)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", run()?);
    Ok(())
}
