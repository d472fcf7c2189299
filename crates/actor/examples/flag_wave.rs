//! The sample flag waves: a forced request for its "wave" group, then eight frames,
//! printing which (model handle, frame index) the flag shows after each.
//! Run with `cargo run -p retroanim-actor --example flag_wave`.
use retroanim_actor::{load_set_file, Stage};

/// The example's body, returning what it prints (the test runs it too).
pub fn run() -> Result<String, Box<dyn std::error::Error>> {
    let set = load_set_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/actor/flag2.json"
    ))?;
    let mut stage = Stage::builder(set)
        .view([2660, 2860])
        .scripts(false)
        .build()?;
    stage.force_request("flag_a", 1, 0)?;
    let mut out = String::new();
    for update in 1..=8 {
        stage.update()?;
        let group = stage.current_group("flag_a")?;
        out += &format!(
            "update {update}: group {group:?} frame {:?}\n",
            stage.frame("flag_a")?
        );
    }
    Ok(out)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", run()?);
    Ok(())
}
