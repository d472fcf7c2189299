//! The readable source format of authored sample assets (`assets/ac/humanoid.json`) and
//! its compilation into records. Documented in docs/ac-formats.md.
//!
//! Animations are described, not listed frame by frame: a skeleton of named parts with
//! rest offsets, per-part swing keyframes (degrees about the part's X axis, spread
//! evenly over the clip and looping), an optional root step and turn per frame (the pos
//! frames), and hooks by frame. Motion data name their clips by animation name and
//! their motions by command name or hex id. Compilation uses only IEEE-exact f64
//! arithmetic (no libm), so the bytes are the same on every platform.

use super::command_names::command_id;
use super::hooks;
use super::types::{AnimHook, AnimRef, Animation, MotionData, MotionTable, PartFrame};
use crate::math::{AFrame, Quat, Vec3};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The whole source file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssetSource {
    #[serde(default)]
    pub description: String,
    pub skeleton: Vec<PartDef>,
    pub animations: Vec<AnimDef>,
    pub motion_table: TableDef,
    /// The Setup and its GfxObj boxes (optional; see [`super::figure`]).
    #[serde(default)]
    pub figure: Option<super::figure::FigureDef>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartDef {
    pub name: String,
    /// Rest placement of the part, relative to the object.
    pub origin: [f32; 3],
    /// The part this one hangs from (the Setup's parent index; none for a root).
    #[serde(default)]
    pub parent: Option<String>,
    /// The part's box mesh: full size along x, y, z, in the part's frame.
    #[serde(default)]
    pub box_size: Option<[f32; 3]>,
    /// The box's centre in the part's frame (default the origin).
    #[serde(default)]
    pub box_center: Option<[f32; 3]>,
    /// A textured surface (`0x08……`, usually one of `figure.textures`) for the box; the
    /// box then carries UVs. Without it the box is untextured on `figure.surface_id`.
    #[serde(default)]
    pub surface: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnimDef {
    pub id: String,
    pub name: String,
    pub frames: u32,
    /// Pos frame translation per frame; with `root_turn` present or this present the
    /// animation has pos frames.
    #[serde(default)]
    pub root_step: Option<[f32; 3]>,
    /// Pos frame rotation per frame, degrees about +Z (positive = counter-clockwise).
    #[serde(default)]
    pub root_turn: Option<f64>,
    /// Part name -> keyframe angles in degrees about the part's X axis.
    #[serde(default)]
    pub swing: BTreeMap<String, Vec<f64>>,
    #[serde(default)]
    pub hooks: Vec<HookDef>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct HookDef {
    pub frame: u32,
    /// Trace name of the hook type (`sound`, `attack`, `anim_done`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// `forward`, `backward` or `both`.
    pub direction: String,
    /// Payload fields by name (hooks::field_names); numbers, hex strings or arrays.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableDef {
    pub id: String,
    pub default_style: String,
    /// `[style, default substate]` pairs.
    pub style_defaults: Vec<[String; 2]>,
    pub cycles: Vec<MotionDef>,
    #[serde(default)]
    pub modifiers: Vec<MotionDef>,
    #[serde(default)]
    pub links: Vec<MotionDef>,
}

/// One MotionData with its key: cycles use `style` + `motion`; modifiers `motion` and
/// optionally `style` (absent = style-independent key); links `style`, `from` (absent =
/// the style-wide links) and `to`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionDef {
    #[serde(default)]
    pub style: Option<String>,
    #[serde(default)]
    pub motion: Option<String>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub anims: Vec<ClipDef>,
    #[serde(default)]
    pub velocity: Option<[f32; 3]>,
    #[serde(default)]
    pub omega: Option<[f32; 3]>,
    /// Bitfield bit 0.
    #[serde(default)]
    pub exclusive: bool,
    /// Bitfield bit 1.
    #[serde(default)]
    pub restricted: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClipDef {
    /// Animation name (from `animations`) or hex id.
    pub anim: String,
    #[serde(default)]
    pub low: i32,
    #[serde(default = "minus_one")]
    pub high: i32,
    pub framerate: f32,
}

fn minus_one() -> i32 {
    -1
}

/// The compiled records.
#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    pub motion_table: MotionTable,
    pub animations: Vec<Animation>,
    /// The Setup and its GfxObj boxes, when the source has a `figure` section.
    pub figure: Option<super::figure::Figure>,
}

/// Parse `0x…` hex (any case) or a decimal id.
pub fn parse_id(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

fn motion_id(s: &str, at: &str) -> Result<u32, String> {
    command_id(s).or_else(|| parse_id(s)).ok_or_else(|| {
        format!("{at}: unknown command '{s}' (an ACE motion command name or a hex id)")
    })
}

/// `(style << 16) | (motion & 0xFFFFFF)` in u32 (ACE's table key).
pub fn key(style: u32, motion: u32) -> u32 {
    style.wrapping_shl(16) | (motion & 0x00FF_FFFF)
}

const DEG_TO_RAD: f64 = std::f64::consts::PI / 180.0;

/// Largest |angle| in degrees a source may give (limit L8 in docs/limits.md). The
/// reduction below subtracts whole turns one at a time, which keeps the committed
/// records bit-identical; ten turns bound it to a few steps, and any pose is reachable
/// within one turn anyway.
pub const MAX_ANGLE_DEG: f64 = 3600.0;

fn check_angle(deg: f64, at: &str) -> Result<(), String> {
    if deg.abs() <= MAX_ANGLE_DEG {
        Ok(())
    } else {
        Err(format!(
            "{at}: {deg:e} degrees is out of range: angles lie within \u{b1}3600 (ten turns)"
        ))
    }
}

/// sin and cos of `x` radians (|x| ≤ 2π) by Taylor series: + and × only, so every
/// platform computes the same bits.
fn sin_cos(x: f64) -> (f64, f64) {
    let mut x = x;
    let two_pi = 2.0 * std::f64::consts::PI;
    while x > std::f64::consts::PI {
        x -= two_pi;
    }
    while x < -std::f64::consts::PI {
        x += two_pi;
    }
    let (mut s, mut c) = (0.0f64, 0.0f64);
    let (mut ts, mut tc) = (x, 1.0f64);
    for n in 0..20 {
        s += ts;
        c += tc;
        let k = (2 * n + 2) as f64;
        ts = -ts * x * x / (k * (k + 1.0));
        tc = -tc * x * x / ((k - 1.0) * k);
    }
    (s, c)
}

/// Rotation of `deg` degrees about the X or Z axis.
fn axis_quat(deg: f64, about_z: bool) -> Quat {
    let (s, c) = sin_cos(deg * DEG_TO_RAD * 0.5);
    if about_z {
        Quat::new(c as f32, 0.0, 0.0, s as f32)
    } else {
        Quat::new(c as f32, s as f32, 0.0, 0.0)
    }
}

/// Keyframe angle at frame `f` of `n`: `keys` spread evenly, linear, looping.
fn swing_angle(keys: &[f64], f: u32, n: u32) -> f64 {
    if keys.is_empty() || n == 0 {
        return 0.0;
    }
    let t = f as f64 * keys.len() as f64 / n as f64;
    let i = t.floor() as usize % keys.len();
    let frac = t - t.floor();
    let a = keys[i];
    let b = keys[(i + 1) % keys.len()];
    a + (b - a) * frac
}

fn compile_hook(h: &HookDef, at: &str) -> Result<AnimHook, String> {
    let hook_type = hooks::hook_type_from_name(&h.kind)
        .ok_or_else(|| format!("{at}: unknown hook type '{}'", h.kind))?;
    let direction = match h.direction.as_str() {
        "forward" => 1,
        "backward" => -1,
        "both" => 0,
        d => return Err(format!("{at}: direction '{d}' (forward, backward or both)")),
    };
    let known = hooks::field_names(hook_type)
        .ok_or_else(|| format!("{at}: hook type '{}' has no known payload layout", h.kind))?;
    if let Some(extra) = h.fields.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "{at}: '{}' hooks have no field '{extra}' (fields: {known:?})",
            h.kind
        ));
    }
    let number = |v: &Value| -> Option<f64> {
        match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => parse_id(s).map(f64::from),
            _ => None,
        }
    };
    let mut bad = None;
    let payload = hooks::encode_payload(hook_type, |name| {
        let v = h.fields.get(name)?;
        let out = match v {
            Value::Array(a) => a.iter().map(number).collect::<Option<Vec<f64>>>(),
            v => number(v).map(|x| vec![x]),
        };
        if out.is_none() {
            bad = Some(name.to_string());
        }
        out
    })
    .map_err(|e| format!("{at}: {e}"))?;
    if let Some(name) = bad {
        return Err(format!(
            "{at}: field '{name}' must be a number, a hex string or an array of numbers"
        ));
    }
    Ok(AnimHook {
        hook_type,
        direction,
        payload,
    })
}

fn compile_animation(src: &AssetSource, a: &AnimDef, at: &str) -> Result<Animation, String> {
    let id = parse_id(&a.id).ok_or_else(|| format!("{at}.id: '{}' is not an id", a.id))?;
    if a.frames > MAX_FRAMES {
        return Err(format!(
            "{at}.frames: {} is more than {MAX_FRAMES}",
            a.frames
        ));
    }
    for part in a.swing.keys() {
        if !src.skeleton.iter().any(|p| &p.name == part) {
            return Err(format!(
                "{at}.swing: no part named '{part}' in the skeleton"
            ));
        }
    }
    if let Some(deg) = a.root_turn {
        check_angle(deg, &format!("{at}.root_turn"))?;
    }
    for (part, keys) in &a.swing {
        for (i, &deg) in keys.iter().enumerate() {
            check_angle(deg, &format!("{at}.swing.{part}[{i}]"))?;
        }
    }
    let has_pos = a.root_step.is_some() || a.root_turn.is_some();
    let step = a.root_step.unwrap_or([0.0; 3]);
    let pos_frame = AFrame {
        origin: Vec3::new(step[0], step[1], step[2]),
        orientation: match a.root_turn {
            Some(deg) => axis_quat(deg, true),
            None => Quat::IDENTITY,
        },
    };
    let mut part_frames = Vec::with_capacity(a.frames as usize);
    for f in 0..a.frames {
        let parts = src
            .skeleton
            .iter()
            .map(|p| AFrame {
                origin: Vec3::new(p.origin[0], p.origin[1], p.origin[2]),
                orientation: match a.swing.get(&p.name) {
                    Some(keys) => axis_quat(swing_angle(keys, f, a.frames), false),
                    None => Quat::IDENTITY,
                },
            })
            .collect();
        let hooks = a
            .hooks
            .iter()
            .enumerate()
            .filter(|(_, h)| h.frame == f)
            .map(|(i, h)| compile_hook(h, &format!("{at}.hooks[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        part_frames.push(PartFrame { parts, hooks });
    }
    if let Some((i, h)) = a
        .hooks
        .iter()
        .enumerate()
        .find(|(_, h)| h.frame >= a.frames)
    {
        return Err(format!(
            "{at}.hooks[{i}]: frame {} is past the last frame {}",
            h.frame,
            a.frames.saturating_sub(1)
        ));
    }
    Ok(Animation {
        id,
        flags: u32::from(has_pos),
        num_parts: src.skeleton.len() as u32,
        num_frames: a.frames,
        pos_frames: if has_pos {
            vec![pos_frame; a.frames as usize]
        } else {
            Vec::new()
        },
        part_frames,
    })
}

fn compile_motion(src: &AssetSource, m: &MotionDef, at: &str) -> Result<MotionData, String> {
    let anims = m
        .anims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let anim_id = match src.animations.iter().find(|a| a.name == c.anim) {
                Some(a) => parse_id(&a.id).ok_or_else(|| format!("{at}.anims[{i}]: bad id"))?,
                None => parse_id(&c.anim)
                    .ok_or_else(|| format!("{at}.anims[{i}]: no animation named '{}'", c.anim))?,
            };
            Ok(AnimRef {
                anim_id,
                low_frame: c.low,
                high_frame: c.high,
                framerate: c.framerate,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    if anims.len() > u8::MAX as usize {
        return Err(format!("{at}.anims: at most 255 clips"));
    }
    let v = |a: Option<[f32; 3]>| a.map_or(Vec3::ZERO, |a| Vec3::new(a[0], a[1], a[2]));
    Ok(MotionData {
        bitfield: u8::from(m.exclusive) | (u8::from(m.restricted) << 1),
        flags: u8::from(m.velocity.is_some()) | (u8::from(m.omega.is_some()) << 1),
        anims,
        velocity: v(m.velocity),
        omega: v(m.omega),
    })
}

fn required<'a>(v: &'a Option<String>, at: &str, what: &str) -> Result<&'a str, String> {
    v.as_deref()
        .ok_or_else(|| format!("{at}: missing '{what}'"))
}

/// Limits that keep a source from asking for absurd allocations.
pub const MAX_FRAMES: u32 = 10_000;
pub const MAX_PARTS: usize = 256;

/// Compile a parsed source into records.
pub fn compile(src: &AssetSource) -> Result<Compiled, String> {
    if src.skeleton.len() > MAX_PARTS {
        return Err(format!(
            "skeleton: {} parts is more than {MAX_PARTS}",
            src.skeleton.len()
        ));
    }
    let mut animations = Vec::with_capacity(src.animations.len());
    for (i, a) in src.animations.iter().enumerate() {
        let at = format!("animations[{i}]");
        let anim = compile_animation(src, a, &at)?;
        if animations.iter().any(|x: &Animation| x.id == anim.id) {
            return Err(format!("{at}.id: duplicate animation id 0x{:08x}", anim.id));
        }
        animations.push(anim);
    }
    let t = &src.motion_table;
    let id = parse_id(&t.id).ok_or_else(|| format!("motion_table.id: '{}' is not an id", t.id))?;
    let default_style = motion_id(&t.default_style, "motion_table.default_style")?;
    let mut style_defaults = Vec::new();
    for (i, [s, d]) in t.style_defaults.iter().enumerate() {
        let at = format!("motion_table.style_defaults[{i}]");
        style_defaults.push((motion_id(s, &at)?, motion_id(d, &at)?));
    }
    let mut cycles: Vec<(u32, MotionData)> = Vec::new();
    for (i, m) in t.cycles.iter().enumerate() {
        let at = format!("motion_table.cycles[{i}]");
        let style = motion_id(required(&m.style, &at, "style")?, &at)?;
        let motion = motion_id(required(&m.motion, &at, "motion")?, &at)?;
        push_unique(
            &mut cycles,
            key(style, motion),
            compile_motion(src, m, &at)?,
            &at,
        )?;
    }
    let mut modifiers: Vec<(u32, MotionData)> = Vec::new();
    for (i, m) in t.modifiers.iter().enumerate() {
        let at = format!("motion_table.modifiers[{i}]");
        let motion = motion_id(required(&m.motion, &at, "motion")?, &at)?;
        let k = match &m.style {
            Some(s) => key(motion_id(s, &at)?, motion),
            None => motion & 0x00FF_FFFF,
        };
        push_unique(&mut modifiers, k, compile_motion(src, m, &at)?, &at)?;
    }
    let mut links: Vec<(u32, Vec<(u32, MotionData)>)> = Vec::new();
    for (i, m) in t.links.iter().enumerate() {
        let at = format!("motion_table.links[{i}]");
        let style = motion_id(required(&m.style, &at, "style")?, &at)?;
        let outer = match &m.from {
            Some(f) => key(style, motion_id(f, &at)?),
            None => style.wrapping_shl(16),
        };
        let to = motion_id(required(&m.to, &at, "to")?, &at)?;
        let md = compile_motion(src, m, &at)?;
        let pos = match links.iter().position(|(k, _)| *k == outer) {
            Some(p) => p,
            None => {
                links.push((outer, Vec::new()));
                links.len() - 1
            }
        };
        push_unique(&mut links[pos].1, to, md, &at)?;
    }
    let figure = super::figure::compile_figure(src, id)?;
    Ok(Compiled {
        figure,
        motion_table: MotionTable {
            id,
            default_style,
            style_defaults,
            cycles,
            modifiers,
            links,
        },
        animations,
    })
}

fn push_unique(
    map: &mut Vec<(u32, MotionData)>,
    k: u32,
    md: MotionData,
    at: &str,
) -> Result<(), String> {
    if map.iter().any(|(j, _)| *j == k) {
        return Err(format!("{at}: key 0x{k:08x} is defined twice"));
    }
    map.push((k, md));
    Ok(())
}

/// Parse and compile source text; errors carry the JSON path.
pub fn compile_str(text: &str) -> Result<Compiled, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let src: AssetSource =
        serde_path_to_error::deserialize(de).map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
    compile(&src)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taylor_sin_cos_is_accurate() {
        for deg in [
            -180.0f64, -90.0, -30.0, 0.0, 10.0, 45.0, 90.0, 135.0, 180.0, 270.0,
        ] {
            let (s, c) = sin_cos(deg * DEG_TO_RAD);
            assert!((s - (deg * DEG_TO_RAD).sin()).abs() < 1e-12, "{deg}");
            assert!((c - (deg * DEG_TO_RAD).cos()).abs() < 1e-12, "{deg}");
        }
    }

    #[test]
    fn swing_keyframes_loop() {
        let k = [0.0, 10.0, 0.0, -10.0];
        assert_eq!(swing_angle(&k, 0, 8), 0.0);
        assert_eq!(swing_angle(&k, 1, 8), 5.0);
        assert_eq!(swing_angle(&k, 2, 8), 10.0);
        assert_eq!(swing_angle(&k, 7, 8), -5.0);
    }
}
