//! Text and JSON renderings of the geometry records: Setup (`0x02……`) and GfxObj
//! (`0x01……`). Ids print as `0x%08x`; BSP trees, kept verbatim by the reader, show their
//! size and root tag.

use super::{frame_text, v3};
use crate::records::gfxobj::{GfxObj, Polygon, HAS_DEGRADE, HAS_DRAWING, HAS_PHYSICS};
use crate::records::{SetupRecord, Sphere};
use serde_json::{json, Value};
use std::fmt::Write as _;

fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

fn sphere_text(s: &Sphere) -> String {
    format!("centre {} radius {}", v3(s.center), s.radius)
}

fn sphere_json(s: &Sphere) -> Value {
    json!({"center": [s.center.x, s.center.y, s.center.z], "radius": s.radius})
}

fn frame_json(f: &crate::math::AFrame) -> Value {
    let (o, q) = (f.origin, f.orientation);
    json!({"origin": [o.x, o.y, o.z], "orientation": [q.w, q.x, q.y, q.z]})
}

/// A Setup as readable text.
pub fn setup_text(s: &SetupRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Setup {}", hex(s.id));
    let mut bits = Vec::new();
    if s.flags & 1 != 0 {
        bits.push("parent indices");
    }
    if s.flags & 2 != 0 {
        bits.push("default scales");
    }
    let _ = writeln!(
        out,
        "flags 0x{:08x}{}, {} parts",
        s.flags,
        if bits.is_empty() {
            String::new()
        } else {
            format!(" ({})", bits.join(", "))
        },
        s.parts.len()
    );
    for (i, p) in s.parts.iter().enumerate() {
        let parent = match s.parent_index.get(i) {
            Some(&u32::MAX) => " parent none".to_string(),
            Some(p) => format!(" parent {p}"),
            None => String::new(),
        };
        let scale = s
            .default_scale
            .get(i)
            .map(|v| format!(" scale {}", v3(*v)))
            .unwrap_or_default();
        let _ = writeln!(out, "  part {i}: GfxObj {}{parent}{scale}", hex(*p));
    }
    for (what, list) in [
        ("holding location", &s.holding_locations),
        ("connection point", &s.connection_points),
    ] {
        for l in list {
            let _ = writeln!(
                out,
                "{what} {}: part {} {}",
                l.key,
                l.part_index,
                frame_text(&l.frame)
            );
        }
    }
    for p in &s.placement_frames {
        let _ = writeln!(out, "placement {}: {} hooks", p.key, p.hooks.len());
        for (i, f) in p.frames.iter().enumerate() {
            let _ = writeln!(out, "  part {i}: {}", frame_text(f));
        }
    }
    for c in &s.cylspheres {
        let _ = writeln!(
            out,
            "cylsphere low point {} radius {} height {}",
            v3(c.low_point),
            c.radius,
            c.height
        );
    }
    for sp in &s.spheres {
        let _ = writeln!(out, "sphere {}", sphere_text(sp));
    }
    let _ = writeln!(
        out,
        "height {}, radius {}, step up {}, step down {}",
        s.height, s.radius, s.step_up_height, s.step_down_height
    );
    let _ = writeln!(out, "sorting sphere {}", sphere_text(&s.sorting_sphere));
    let _ = writeln!(out, "selection sphere {}", sphere_text(&s.selection_sphere));
    for l in &s.lights {
        let _ = writeln!(
            out,
            "light {}: {} colour 0x{:06x} intensity {} falloff {}",
            l.key,
            frame_text(&l.frame),
            l.color,
            l.intensity,
            l.falloff
        );
    }
    let _ = writeln!(
        out,
        "defaults: animation {}, script {}, motion table {}, sound table {}, script table {}",
        hex(s.default_animation),
        hex(s.default_script),
        hex(s.default_motion_table),
        hex(s.default_sound_table),
        hex(s.default_script_table)
    );
    out
}

/// A Setup as JSON.
pub fn setup_json(s: &SetupRecord) -> String {
    let locs = |l: &[crate::records::LocationType]| -> Vec<Value> {
        l.iter()
            .map(|x| json!({"key": x.key, "part_index": x.part_index, "frame": frame_json(&x.frame)}))
            .collect()
    };
    let v = json!({
        "kind": "setup",
        "id": hex(s.id),
        "flags": s.flags,
        "parts": s.parts.iter().map(|p| hex(*p)).collect::<Vec<_>>(),
        "parent_index": s.parent_index.iter().map(|&p| if p == u32::MAX { Value::Null } else { json!(p) }).collect::<Vec<_>>(),
        "default_scale": s.default_scale.iter().map(|v| json!([v.x, v.y, v.z])).collect::<Vec<_>>(),
        "holding_locations": locs(&s.holding_locations),
        "connection_points": locs(&s.connection_points),
        "placement_frames": s.placement_frames.iter().map(|p| json!({
            "key": p.key,
            "frames": p.frames.iter().map(frame_json).collect::<Vec<_>>(),
            "hooks": p.hooks.len(),
        })).collect::<Vec<_>>(),
        "cylspheres": s.cylspheres.iter().map(|c| json!({
            "low_point": [c.low_point.x, c.low_point.y, c.low_point.z],
            "radius": c.radius, "height": c.height})).collect::<Vec<_>>(),
        "spheres": s.spheres.iter().map(sphere_json).collect::<Vec<_>>(),
        "height": s.height,
        "radius": s.radius,
        "step_up_height": s.step_up_height,
        "step_down_height": s.step_down_height,
        "sorting_sphere": sphere_json(&s.sorting_sphere),
        "selection_sphere": sphere_json(&s.selection_sphere),
        "lights": s.lights.len(),
        "default_animation": hex(s.default_animation),
        "default_script": hex(s.default_script),
        "default_motion_table": hex(s.default_motion_table),
        "default_sound_table": hex(s.default_sound_table),
        "default_script_table": hex(s.default_script_table),
    });
    super::to_json(&v)
}

fn bsp_tag(bsp: &[u8]) -> String {
    bsp.get(..4)
        .map(|b| {
            // Tags are little-endian u32s: the characters read back to front.
            b.iter().rev().map(|&c| c as char).collect::<String>()
        })
        .unwrap_or_default()
}

fn polygon_text(out: &mut String, p: &Polygon) {
    let _ = writeln!(
        out,
        "  polygon {}: vertices {:?} sides {} texture mode 0x{:02x} surfaces {}/{}",
        p.id, p.vertex_ids, p.sides_type, p.texture_mode, p.pos_surface, p.neg_surface
    );
}

fn polygon_json(p: &Polygon) -> Value {
    json!({"id": p.id, "vertices": p.vertex_ids, "sides_type": p.sides_type,
           "texture_mode": p.texture_mode, "pos_surface": p.pos_surface,
           "neg_surface": p.neg_surface, "pos_uv": p.pos_uv, "neg_uv": p.neg_uv})
}

/// A GfxObj as readable text.
pub fn gfxobj_text(g: &GfxObj) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "GfxObj {}", hex(g.id));
    let mut bits = Vec::new();
    for (b, n) in [
        (HAS_PHYSICS, "physics"),
        (HAS_DRAWING, "drawing"),
        (HAS_DEGRADE, "degrade id"),
    ] {
        if g.flags & b != 0 {
            bits.push(n);
        }
    }
    let _ = writeln!(
        out,
        "flags 0x{:08x} ({}), surfaces [{}]",
        g.flags,
        bits.join(", "),
        g.surfaces
            .iter()
            .map(|s| hex(*s))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "vertex type {}, {} vertices",
        g.vertex_type,
        g.vertices.len()
    );
    for v in &g.vertices {
        let _ = writeln!(
            out,
            "  vertex {}: origin {} normal {} uvs {:?}",
            v.id,
            v3(v.origin),
            v3(v.normal),
            v.uvs
        );
    }
    if g.flags & HAS_PHYSICS != 0 {
        let _ = writeln!(
            out,
            "physics polygons {} (BSP {} bytes, root {})",
            g.physics_polygons.len(),
            g.physics_bsp.len(),
            bsp_tag(&g.physics_bsp)
        );
        for p in &g.physics_polygons {
            polygon_text(&mut out, p);
        }
    }
    let _ = writeln!(out, "sort centre {}", v3(g.sort_center));
    if g.flags & HAS_DRAWING != 0 {
        let _ = writeln!(
            out,
            "drawing polygons {} (BSP {} bytes, root {})",
            g.polygons.len(),
            g.drawing_bsp.len(),
            bsp_tag(&g.drawing_bsp)
        );
        for p in &g.polygons {
            polygon_text(&mut out, p);
        }
    }
    if let Some(d) = g.degrade_id {
        let _ = writeln!(out, "degrade {}", hex(d));
    }
    out
}

/// A GfxObj as JSON.
pub fn gfxobj_json(g: &GfxObj) -> String {
    let v = json!({
        "kind": "gfxobj",
        "id": hex(g.id),
        "flags": g.flags,
        "surfaces": g.surfaces.iter().map(|s| hex(*s)).collect::<Vec<_>>(),
        "vertex_type": g.vertex_type,
        "vertices": g.vertices.iter().map(|v| json!({
            "id": v.id,
            "origin": [v.origin.x, v.origin.y, v.origin.z],
            "normal": [v.normal.x, v.normal.y, v.normal.z],
            "uvs": v.uvs})).collect::<Vec<_>>(),
        "physics_polygons": g.physics_polygons.iter().map(polygon_json).collect::<Vec<_>>(),
        "physics_bsp_bytes": g.physics_bsp.len(),
        "sort_center": [g.sort_center.x, g.sort_center.y, g.sort_center.z],
        "polygons": g.polygons.iter().map(polygon_json).collect::<Vec<_>>(),
        "drawing_bsp_bytes": g.drawing_bsp.len(),
        "degrade_id": g.degrade_id.map(hex),
    });
    super::to_json(&v)
}
