//! F8: the chassis record `dat\<NAME>.DAT`, 216 bytes of content, little-endian.
//!
//! DBSIM stores it at typeRec+2, so "rec N" below is byte N of the content. Every byte has
//! a field here (the undecoded ranges as raw bytes), so the record round-trips exactly and
//! its readable JSON form (`assets/herc/*.chassis.json`) is the whole record.

use retroanim_core::ScenarioError;
use serde::{Deserialize, Serialize};

use super::{padded_name, ByteReader, ByteWriter};

/// Content size of a chassis record.
pub const CHASSIS_SIZE: usize = 216;
/// The file sizes a chassis record comes in: loose (216), extracted from a VOL with the
/// 9-byte entry prefix but no trailer (225), and with prefix and trailer (226).
pub const CHASSIS_FILE_SIZES: [usize; 3] = [CHASSIS_SIZE, CHASSIS_SIZE + 9, CHASSIS_SIZE + 10];

/// A 12-byte NUL-padded name field. Serialized as a string when it is plain text padded
/// with zeros, otherwise as the 12 raw bytes, so every record round-trips through JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Name12(pub [u8; 12]);

impl Name12 {
    pub fn text(&self) -> String {
        padded_name(&self.0)
    }

    fn is_plain(&self) -> bool {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(12);
        self.0[..end].iter().all(|b| (0x20..0x7f).contains(b))
            && self.0[end..].iter().all(|&b| b == 0)
    }

    pub fn from_text(s: &str) -> Result<Name12, String> {
        let v = super::pad_name(s, 12, false)?;
        let mut a = [0u8; 12];
        a.copy_from_slice(&v);
        Ok(Name12(a))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum NameRepr {
    Text(String),
    Bytes([u8; 12]),
}

impl Serialize for Name12 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.is_plain() {
            NameRepr::Text(self.text()).serialize(s)
        } else {
            NameRepr::Bytes(self.0).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for Name12 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match NameRepr::deserialize(d)? {
            NameRepr::Text(t) => Name12::from_text(&t).map_err(serde::de::Error::custom),
            NameRepr::Bytes(b) => Ok(Name12(b)),
        }
    }
}

/// The chassis record, field by field (F8). Names follow the F8 table of docs/herc-formats.md; `rec` is the
/// byte offset in the content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChassisRecord {
    /// rec 0: max turn rate per tick (raw at runtime).
    pub max_turn_rate: i16,
    /// rec 2: max reverse speed (negative); rescaled (H21).
    pub max_reverse_speed: i16,
    /// rec 4: max forward speed; rescaled (H21).
    pub max_forward_speed: i16,
    /// rec 6: speed step per tick (raw, no timestep scaling).
    pub speed_step: i16,
    /// rec 8: turn-rate step per tick (raw).
    pub turn_rate_step: i16,
    /// rec 10: camera part id (H32).
    pub camera_part: i16,
    /// rec 12 / 14 / 16 / 18: walk, run, step-off forward, step-off reverse sequences.
    pub walk_seq: i16,
    pub run_seq: i16,
    pub step_off_forward_seq: i16,
    pub step_off_reverse_seq: i16,
    /// rec 20: ride height.
    pub ride_height: i16,
    /// rec 22 / 24: hit-cylinder height / radius.
    pub hit_height: i16,
    pub hit_radius: i16,
    /// rec 26 / 28 / 30 / 32: twist sequence, max rate, acceleration, limit (±).
    pub twist_seq: i16,
    pub twist_max_rate: i16,
    pub twist_accel: i16,
    pub twist_limit: i16,
    /// rec 34 / 36 / 38 / 40 / 42: pitch sequence, max rate, acceleration, limit up,
    /// limit down (negative).
    pub pitch_seq: i16,
    pub pitch_max_rate: i16,
    pub pitch_accel: i16,
    pub pitch_limit_up: i16,
    pub pitch_limit_down: i16,
    /// rec 44: walk↔run threshold; rescaled (H21).
    pub walk_run_threshold: i16,
    /// rec 46–65: part-id list, signed bytes ending at the first negative (LOD renumbering).
    pub part_ids: [i8; 20],
    /// rec 66: not established.
    pub unknown_66: i16,
    /// rec 68: death (one-shot) sequence.
    pub death_seq: i16,
    /// rec 70: not established.
    pub unknown_70: i16,
    /// rec 72 / 74 / 76: leg count, no-debris flag (port's name, unverified), mass.
    pub leg_count: i16,
    pub no_debris: i16,
    pub mass: i16,
    /// rec 78: flyer flag (1 = RAZOR; no rescale).
    pub flyer: i16,
    /// rec 80 / 82: not established.
    pub unknown_80: i16,
    pub unknown_82: i16,
    /// rec 84: weapon mounts destructible.
    pub weapon_mounts_destructible: i16,
    /// rec 86–97: name.
    pub name: Name12,
    /// rec 98 / 100: eye fore/aft and lift in the camera node's frame (H32).
    pub eye_fore: i16,
    pub eye_lift: i16,
    /// rec 102 / 104: outside-view orbit centre fore/aft and height.
    pub orbit_fore: i16,
    pub orbit_height: i16,
    /// rec 106–107: zero in retail.
    pub zero_106: [u8; 2],
    /// rec 108: reverse walk↔run threshold; rescaled (H21, H22).
    pub reverse_walk_run_threshold: i16,
    /// rec 110: body radius (750 in retail).
    pub body_radius: i16,
    /// rec 112–121: leg and shadow bytes (partly decoded).
    pub leg_shadow_bytes: [u8; 10],
    /// rec 122: turn-in-place sequence.
    pub turn_in_place_seq: i16,
    /// rec 124–147: 12 × i16 (500 in retail; meaning unknown).
    pub unknown_124: [i16; 12],
    /// rec 148: skin id.
    pub skin_id: i16,
    /// rec 150–189: not established (158–169 and 176–189 are zero in retail).
    pub bytes_150: Vec<u8>,
    /// rec 190: shield capacity.
    pub shield_capacity: i16,
    /// rec 192: HUD km/h at top speed (replaced for walkers, H21).
    pub hud_kmh: i16,
    /// rec 194 / 196: stride divisor / numerator.
    pub stride_divisor: i16,
    pub stride_numerator: i16,
    /// rec 198–203: zero in retail.
    pub zero_198: [u8; 6],
    /// rec 204–215: debris file base name.
    pub debris_name: Name12,
}

/// Length of the `bytes_150` range (rec 150–189).
const BYTES_150_LEN: usize = 40;

/// The stems of the texture banks (`dba\<NAME>.DBA`) chassis rec 148 chooses from, in
/// rec 148 order (a string table in DBSIM.EXE).
pub const TEXTURE_BANKS: [&str; 7] = [
    "LIGHT", "MEDIUM", "HEAVY", "ENEMY", "APOCATEX", "RAZORTEX", "NEWHERCS",
];

impl ChassisRecord {
    /// Parse a record: 216 bytes loose, or 225 / 226 with the VOL entry prefix and no
    /// trailer / a trailer of any value (F1).
    pub fn read(bytes: &[u8], file: &str) -> Result<ChassisRecord, ScenarioError> {
        // A loose record is exactly 216 bytes; only other lengths can carry a prefix.
        let content = if bytes.len() == CHASSIS_SIZE {
            bytes
        } else {
            super::vol::strip_entry_prefix(bytes)
        };
        let mut r = ByteReader::new(content, file, "chassis");
        if content.len() != CHASSIS_SIZE {
            return Err(r.error_at(
                0,
                format!(
                    "a chassis record has {CHASSIS_SIZE} bytes of content ({} or {} with the VOL prefix), this file has {}",
                    CHASSIS_SIZE + 9,
                    CHASSIS_SIZE + 10,
                    bytes.len()
                ),
            ));
        }
        let mut i = |what: &str| r.i16(what);
        let max_turn_rate = i("rec 0")?;
        let max_reverse_speed = i("rec 2")?;
        let max_forward_speed = i("rec 4")?;
        let speed_step = i("rec 6")?;
        let turn_rate_step = i("rec 8")?;
        let camera_part = i("rec 10")?;
        let walk_seq = i("rec 12")?;
        let run_seq = i("rec 14")?;
        let step_off_forward_seq = i("rec 16")?;
        let step_off_reverse_seq = i("rec 18")?;
        let ride_height = i("rec 20")?;
        let hit_height = i("rec 22")?;
        let hit_radius = i("rec 24")?;
        let twist_seq = i("rec 26")?;
        let twist_max_rate = i("rec 28")?;
        let twist_accel = i("rec 30")?;
        let twist_limit = i("rec 32")?;
        let pitch_seq = i("rec 34")?;
        let pitch_max_rate = i("rec 36")?;
        let pitch_accel = i("rec 38")?;
        let pitch_limit_up = i("rec 40")?;
        let pitch_limit_down = i("rec 42")?;
        let walk_run_threshold = i("rec 44")?;
        let mut part_ids = [0i8; 20];
        for (d, s) in part_ids.iter_mut().zip(r.take(20, "rec 46")?) {
            *d = *s as i8;
        }
        let mut i = |what: &str| r.i16(what);
        let unknown_66 = i("rec 66")?;
        let death_seq = i("rec 68")?;
        let unknown_70 = i("rec 70")?;
        let leg_count = i("rec 72")?;
        let no_debris = i("rec 74")?;
        let mass = i("rec 76")?;
        let flyer = i("rec 78")?;
        let unknown_80 = i("rec 80")?;
        let unknown_82 = i("rec 82")?;
        let weapon_mounts_destructible = i("rec 84")?;
        let mut name = [0u8; 12];
        name.copy_from_slice(r.take(12, "rec 86")?);
        let mut i = |what: &str| r.i16(what);
        let eye_fore = i("rec 98")?;
        let eye_lift = i("rec 100")?;
        let orbit_fore = i("rec 102")?;
        let orbit_height = i("rec 104")?;
        let mut zero_106 = [0u8; 2];
        zero_106.copy_from_slice(r.take(2, "rec 106")?);
        let reverse_walk_run_threshold = r.i16("rec 108")?;
        let body_radius = r.i16("rec 110")?;
        let mut leg_shadow_bytes = [0u8; 10];
        leg_shadow_bytes.copy_from_slice(r.take(10, "rec 112")?);
        let turn_in_place_seq = r.i16("rec 122")?;
        let v = r.i16_vec(12, "rec 124")?;
        let mut unknown_124 = [0i16; 12];
        unknown_124.copy_from_slice(&v);
        let skin_id = r.i16("rec 148")?;
        let bytes_150 = r.take(BYTES_150_LEN, "rec 150")?.to_vec();
        let shield_capacity = r.i16("rec 190")?;
        let hud_kmh = r.i16("rec 192")?;
        let stride_divisor = r.i16("rec 194")?;
        let stride_numerator = r.i16("rec 196")?;
        let mut zero_198 = [0u8; 6];
        zero_198.copy_from_slice(r.take(6, "rec 198")?);
        let mut debris = [0u8; 12];
        debris.copy_from_slice(r.take(12, "rec 204")?);
        Ok(ChassisRecord {
            max_turn_rate,
            max_reverse_speed,
            max_forward_speed,
            speed_step,
            turn_rate_step,
            camera_part,
            walk_seq,
            run_seq,
            step_off_forward_seq,
            step_off_reverse_seq,
            ride_height,
            hit_height,
            hit_radius,
            twist_seq,
            twist_max_rate,
            twist_accel,
            twist_limit,
            pitch_seq,
            pitch_max_rate,
            pitch_accel,
            pitch_limit_up,
            pitch_limit_down,
            walk_run_threshold,
            part_ids,
            unknown_66,
            death_seq,
            unknown_70,
            leg_count,
            no_debris,
            mass,
            flyer,
            unknown_80,
            unknown_82,
            weapon_mounts_destructible,
            name: Name12(name),
            eye_fore,
            eye_lift,
            orbit_fore,
            orbit_height,
            zero_106,
            reverse_walk_run_threshold,
            body_radius,
            leg_shadow_bytes,
            turn_in_place_seq,
            unknown_124,
            skin_id,
            bytes_150,
            shield_capacity,
            hud_kmh,
            stride_divisor,
            stride_numerator,
            zero_198,
            debris_name: Name12(debris),
        })
    }

    /// H85: the sequences this record names by role, as (sequence, role) in record order:
    /// walk (rec 12), run (14), step off forward (16), step off reverse (18), torso twist
    /// (26), torso pitch (34), going down (68), turn in place (122). Negative ids (none) are
    /// left out; a sequence with two roles appears twice.
    pub fn sequence_roles(&self) -> Vec<(i16, &'static str)> {
        [
            (self.walk_seq, "walk"),
            (self.run_seq, "run"),
            (self.step_off_forward_seq, "step off forward"),
            (self.step_off_reverse_seq, "step off reverse"),
            (self.twist_seq, "torso twist"),
            (self.pitch_seq, "torso pitch"),
            (self.death_seq, "going down"),
            (self.turn_in_place_seq, "turn in place"),
        ]
        .into_iter()
        .filter(|&(s, _)| s >= 0)
        .collect()
    }

    /// The texture bank DBSIM binds to this machine's shape (rec 148, `skin_id`): the stem
    /// of its `dba\` bitmap array, from the 7-name table in DBSIM.EXE (`LIGHT`, `MEDIUM`,
    /// `HEAVY`, `ENEMY`, `APOCATEX`, `RAZORTEX`, `NEWHERCS`); `None` outside 0–6.
    pub fn texture_bank(&self) -> Option<&'static str> {
        usize::try_from(self.skin_id)
            .ok()
            .and_then(|i| TEXTURE_BANKS.get(i).copied())
    }

    /// The 216 content bytes.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        if self.bytes_150.len() != BYTES_150_LEN {
            return Err(format!(
                "bytes_150 has {} bytes, expected {BYTES_150_LEN}",
                self.bytes_150.len()
            ));
        }
        let mut w = ByteWriter::default();
        for v in [
            self.max_turn_rate,
            self.max_reverse_speed,
            self.max_forward_speed,
            self.speed_step,
            self.turn_rate_step,
            self.camera_part,
            self.walk_seq,
            self.run_seq,
            self.step_off_forward_seq,
            self.step_off_reverse_seq,
            self.ride_height,
            self.hit_height,
            self.hit_radius,
            self.twist_seq,
            self.twist_max_rate,
            self.twist_accel,
            self.twist_limit,
            self.pitch_seq,
            self.pitch_max_rate,
            self.pitch_accel,
            self.pitch_limit_up,
            self.pitch_limit_down,
            self.walk_run_threshold,
        ] {
            w.i16(v);
        }
        for &b in &self.part_ids {
            w.u8(b as u8);
        }
        for v in [
            self.unknown_66,
            self.death_seq,
            self.unknown_70,
            self.leg_count,
            self.no_debris,
            self.mass,
            self.flyer,
            self.unknown_80,
            self.unknown_82,
            self.weapon_mounts_destructible,
        ] {
            w.i16(v);
        }
        w.bytes(&self.name.0);
        for v in [
            self.eye_fore,
            self.eye_lift,
            self.orbit_fore,
            self.orbit_height,
        ] {
            w.i16(v);
        }
        w.bytes(&self.zero_106);
        w.i16(self.reverse_walk_run_threshold);
        w.i16(self.body_radius);
        w.bytes(&self.leg_shadow_bytes);
        w.i16(self.turn_in_place_seq);
        for &v in &self.unknown_124 {
            w.i16(v);
        }
        w.i16(self.skin_id);
        w.bytes(&self.bytes_150);
        for v in [
            self.shield_capacity,
            self.hud_kmh,
            self.stride_divisor,
            self.stride_numerator,
        ] {
            w.i16(v);
        }
        w.bytes(&self.zero_198);
        w.bytes(&self.debris_name.0);
        debug_assert_eq!(w.out.len(), CHASSIS_SIZE);
        Ok(w.out)
    }

    /// The i16 at content offset `rec` (rec N of the F8 table), or `None` past the record.
    pub fn rec(&self, rec: usize) -> Option<i16> {
        let bytes = self.write().ok()?;
        let b = bytes.get(rec..rec + 2)?;
        Some(i16::from_le_bytes([b[0], b[1]]))
    }

    /// The part-id list up to (not including) the first negative byte.
    pub fn part_id_list(&self) -> Vec<i8> {
        self.part_ids
            .iter()
            .copied()
            .take_while(|&b| b >= 0)
            .collect()
    }

    /// Parse the readable JSON form; errors name the file and JSON path.
    pub fn from_json_str(text: &str, file: &str) -> Result<ChassisRecord, ScenarioError> {
        const ROOT: &str = "(root)";
        let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            ScenarioError::new(
                file,
                format!("line {}, column {}", e.line(), e.column()),
                format!("malformed JSON: {e}"),
            )
        })?;
        // A fault of the document as a whole (not an object, a missing field) has no
        // path of its own: it is located at `(root)`.
        retroanim_core::scenario::from_value_at(&doc, file, "").map_err(|mut e| {
            if e.at.is_empty() {
                e.at = ROOT.to_string();
            }
            e
        })
    }
}
