//! Motion command ids, class masks, hold keys and WeenieError codes
//! (`Enum/CommandMasks.cs`, `Enum/MotionCommand.cs`, `Enum/HoldKey.cs`, `Enum/WeenieError.cs`;
//! ACE's `MotionCommand` enum).

use serde::{Deserialize, Serialize};

pub const STYLE: u32 = 0x8000_0000;
pub const SUBSTATE: u32 = 0x4000_0000;
pub const MODIFIER: u32 = 0x2000_0000;
pub const ACTION: u32 = 0x1000_0000;
pub const CHAT_EMOTE: u32 = 0x0200_0000;

pub const READY: u32 = 0x4100_0003;
pub const WALK_FORWARD: u32 = 0x4500_0005;
pub const WALK_BACKWARDS: u32 = 0x4500_0006;
pub const RUN_FORWARD: u32 = 0x4400_0007;
pub const FALLEN: u32 = 0x4000_0008;
pub const TURN_RIGHT: u32 = 0x6500_000D;
pub const TURN_LEFT: u32 = 0x6500_000E;
pub const SIDE_STEP_RIGHT: u32 = 0x6500_000F;
pub const SIDE_STEP_LEFT: u32 = 0x6500_0010;
pub const DEAD: u32 = 0x4000_0011;
pub const CROUCH: u32 = 0x4100_0012;
pub const SITTING: u32 = 0x4100_0013;
pub const SLEEPING: u32 = 0x4100_0014;
pub const FALLING: u32 = 0x4000_0015;
pub const RELOAD: u32 = 0x4000_0016;
pub const PICKUP: u32 = 0x4000_0018;
pub const AIM_LEVEL: u32 = 0x4000_001E;
pub const MAGIC_PRAY: u32 = 0x4000_0039;
pub const NON_COMBAT: u32 = 0x8000_003D;
pub const MAGIC_POWER_UP_01: u32 = 0x1000_006F;
pub const MAGIC_POWER_UP_10: u32 = 0x1000_0078;
pub const TRIPLE_THRUST_LOW: u32 = 0x1000_0128;
pub const MAGIC_POWER_UP_07_PURPLE: u32 = 0x1000_0131;

/// `HoldKey`. Traces print `"invalid"`, `"none"`, `"run"`; scenarios may also spell
/// it in any case (`"Run"`) or by value (`"0x2"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HoldKey {
    #[default]
    Invalid = 0,
    None = 1,
    Run = 2,
}

impl HoldKey {
    /// The hold key spelled `s`: its name in any case, or its value as `0x` hex.
    pub fn parse(s: &str) -> Option<HoldKey> {
        let by_value = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        let keys = [HoldKey::Invalid, HoldKey::None, HoldKey::Run];
        match by_value {
            Some(v) => keys.into_iter().find(|k| *k as u32 == v),
            None => keys
                .into_iter()
                .find(|k| format!("{k:?}").eq_ignore_ascii_case(s)),
        }
    }
}

impl<'de> Deserialize<'de> for HoldKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HoldKey, D::Error> {
        let s = String::deserialize(d)?;
        HoldKey::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown hold key {s:?}: expected \"invalid\", \"none\" or \"run\" (any case) or 0x0-0x2"
            ))
        })
    }
}

/// The `WeenieError` codes the motion code returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeenieError {
    None = 0x00,
    NoAnimationTable = 0x07,
    NoPhysicsObject = 0x08,
    YouCantJumpWhileInTheAir = 0x24,
    ActionCancelled = 0x36,
    ObjectGone = 0x37,
    NoObject = 0x38,
    ITeleported = 0x3C,
    YouChargedTooFar = 0x3D,
    CantCrouchInCombat = 0x3F,
    CantSitInCombat = 0x40,
    CantLieDownInCombat = 0x41,
    CantChatEmoteInCombat = 0x42,
    NoMtableData = 0x43,
    TooManyActions = 0x45,
    GeneralMovementFailure = 0x47,
    YouCantJumpFromThisPosition = 0x48,
    CantJumpLoadedDown = 0x49,
}

impl WeenieError {
    /// ACE's enum name, as the trace prints it.
    pub fn name(self) -> &'static str {
        match self {
            WeenieError::None => "None",
            WeenieError::NoAnimationTable => "NoAnimationTable",
            WeenieError::NoPhysicsObject => "NoPhysicsObject",
            WeenieError::YouCantJumpWhileInTheAir => "YouCantJumpWhileInTheAir",
            WeenieError::ActionCancelled => "ActionCancelled",
            WeenieError::ObjectGone => "ObjectGone",
            WeenieError::NoObject => "NoObject",
            WeenieError::ITeleported => "ITeleported",
            WeenieError::YouChargedTooFar => "YouChargedTooFar",
            WeenieError::CantCrouchInCombat => "CantCrouchInCombat",
            WeenieError::CantSitInCombat => "CantSitInCombat",
            WeenieError::CantLieDownInCombat => "CantLieDownInCombat",
            WeenieError::CantChatEmoteInCombat => "CantChatEmoteInCombat",
            WeenieError::NoMtableData => "NoMtableData",
            WeenieError::TooManyActions => "TooManyActions",
            WeenieError::GeneralMovementFailure => "GeneralMovementFailure",
            WeenieError::YouCantJumpFromThisPosition => "YouCantJumpFromThisPosition",
            WeenieError::CantJumpLoadedDown => "CantJumpLoadedDown",
        }
    }
}

impl WeenieError {
    /// Every code this runtime knows, for parsing names.
    pub const ALL: [WeenieError; 18] = [
        WeenieError::None,
        WeenieError::NoAnimationTable,
        WeenieError::NoPhysicsObject,
        WeenieError::YouCantJumpWhileInTheAir,
        WeenieError::ActionCancelled,
        WeenieError::ObjectGone,
        WeenieError::NoObject,
        WeenieError::ITeleported,
        WeenieError::YouChargedTooFar,
        WeenieError::CantCrouchInCombat,
        WeenieError::CantSitInCombat,
        WeenieError::CantLieDownInCombat,
        WeenieError::CantChatEmoteInCombat,
        WeenieError::NoMtableData,
        WeenieError::TooManyActions,
        WeenieError::GeneralMovementFailure,
        WeenieError::YouCantJumpFromThisPosition,
        WeenieError::CantJumpLoadedDown,
    ];

    /// The code named `s` (ACE's enum name, exact case).
    pub fn parse(s: &str) -> Option<WeenieError> {
        WeenieError::ALL.into_iter().find(|e| e.name() == s)
    }
}

/// `MovementType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovementType {
    Invalid = 0,
    RawCommand = 1,
    InterpretedCommand = 2,
    StopRawCommand = 3,
    StopInterpretedCommand = 4,
    StopCompletely = 5,
    MoveToObject = 6,
    MoveToPosition = 7,
    TurnToObject = 8,
    TurnToHeading = 9,
}

impl MovementType {
    /// ACE's enum name, as the `moveto` trace prints it.
    pub fn name(self) -> &'static str {
        match self {
            MovementType::Invalid => "Invalid",
            MovementType::RawCommand => "RawCommand",
            MovementType::InterpretedCommand => "InterpretedCommand",
            MovementType::StopRawCommand => "StopRawCommand",
            MovementType::StopInterpretedCommand => "StopInterpretedCommand",
            MovementType::StopCompletely => "StopCompletely",
            MovementType::MoveToObject => "MoveToObject",
            MovementType::MoveToPosition => "MoveToPosition",
            MovementType::TurnToObject => "TurnToObject",
            MovementType::TurnToHeading => "TurnToHeading",
        }
    }
}

/// `MovementParameters` (the fields the motion system reads; ACE's `Anim/MovementParameters.cs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovementParameters {
    pub can_walk: bool,
    pub can_run: bool,
    pub can_sidestep: bool,
    pub can_walk_backwards: bool,
    pub can_charge: bool,
    pub fail_walk: bool,
    pub use_final_heading: bool,
    pub sticky: bool,
    pub move_away: bool,
    pub move_towards: bool,
    pub use_spheres: bool,
    pub set_hold_key: bool,
    pub autonomous: bool,
    pub modify_raw_state: bool,
    pub modify_interpreted_state: bool,
    pub cancel_moveto: bool,
    pub stop_completely: bool,
    pub disable_jump_during_link: bool,
    pub distance_to_object: f32,
    pub min_distance: f32,
    pub desired_heading: f32,
    pub speed: f32,
    pub fail_distance: f32,
    pub walk_run_threshold: f32,
    pub context_id: i32,
    pub hold_key_to_apply: HoldKey,
    pub action_stamp: i32,
}

impl Default for MovementParameters {
    fn default() -> Self {
        MovementParameters {
            can_walk: true,
            can_run: true,
            can_sidestep: true,
            can_walk_backwards: true,
            can_charge: true,
            fail_walk: false,
            use_final_heading: false,
            sticky: false,
            move_away: false,
            move_towards: true,
            use_spheres: true,
            set_hold_key: true,
            autonomous: false,
            modify_raw_state: true,
            modify_interpreted_state: true,
            cancel_moveto: true,
            stop_completely: true,
            disable_jump_during_link: false,
            distance_to_object: 0.6,
            min_distance: 0.0,
            desired_heading: 0.0,
            speed: 1.0,
            fail_distance: f32::MAX,
            walk_run_threshold: 1.0,
            context_id: 0,
            hold_key_to_apply: HoldKey::Invalid,
            action_stamp: 0,
        }
    }
}

impl MovementParameters {
    /// The packed `MovementParamFlags` (bit order of ACE's enum, CanWalk = bit 0).
    pub fn flags(&self) -> u32 {
        let bits = [
            self.can_walk,
            self.can_run,
            self.can_sidestep,
            self.can_walk_backwards,
            self.can_charge,
            self.fail_walk,
            self.use_final_heading,
            self.sticky,
            self.move_away,
            self.move_towards,
            self.use_spheres,
            self.set_hold_key,
            self.autonomous,
            self.modify_raw_state,
            self.modify_interpreted_state,
            self.cancel_moveto,
            self.stop_completely,
            self.disable_jump_during_link,
        ];
        bits.iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| if b { acc | (1 << i) } else { acc })
    }

    /// `new MovementParameters()` followed by `CopySome(src)` (Q35: context id, action
    /// stamp, autonomous and disable-jump keep the constructor defaults).
    pub fn copy_some(src: &MovementParameters) -> MovementParameters {
        MovementParameters {
            can_walk: src.can_walk,
            can_run: src.can_run,
            can_sidestep: src.can_sidestep,
            can_walk_backwards: src.can_walk_backwards,
            can_charge: src.can_charge,
            move_towards: src.move_towards,
            use_spheres: src.use_spheres,
            set_hold_key: src.set_hold_key,
            modify_raw_state: src.modify_raw_state,
            modify_interpreted_state: src.modify_interpreted_state,
            cancel_moveto: src.cancel_moveto,
            stop_completely: src.stop_completely,
            distance_to_object: src.distance_to_object,
            fail_distance: src.fail_distance,
            min_distance: src.min_distance,
            speed: src.speed,
            walk_run_threshold: src.walk_run_threshold,
            hold_key_to_apply: src.hold_key_to_apply,
            ..MovementParameters::default()
        }
    }
}
