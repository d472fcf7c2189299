//! [`MotionError`]: why a motion command was refused, as a Rust error.
//!
//! ACE returns `WeenieError.None` for success; the front door turns that into `Ok(())`
//! and every other code into the variant of the same name.

use crate::commands::WeenieError;

/// A refused motion command. The variants are ACE's `WeenieError` codes (all but
/// `None`), with the same names and values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum MotionError {
    #[error("NoAnimationTable: the object has no motion table")]
    NoAnimationTable,
    #[error("NoPhysicsObject: there is no object to move")]
    NoPhysicsObject,
    #[error("YouCantJumpWhileInTheAir")]
    YouCantJumpWhileInTheAir,
    #[error("ActionCancelled")]
    ActionCancelled,
    #[error("ITeleported")]
    ITeleported,
    #[error("CantCrouchInCombat")]
    CantCrouchInCombat,
    #[error("CantSitInCombat")]
    CantSitInCombat,
    #[error("CantLieDownInCombat")]
    CantLieDownInCombat,
    #[error("CantChatEmoteInCombat")]
    CantChatEmoteInCombat,
    #[error("NoMtableData: the motion table has no entry for this command in this style")]
    NoMtableData,
    #[error("TooManyActions: the action queue is full")]
    TooManyActions,
    #[error("GeneralMovementFailure")]
    GeneralMovementFailure,
    #[error("YouCantJumpFromThisPosition")]
    YouCantJumpFromThisPosition,
    #[error("CantJumpLoadedDown")]
    CantJumpLoadedDown,
    #[error("ObjectGone: the target left the world or teleported")]
    ObjectGone,
    #[error("NoObject: the target could not be found")]
    NoObject,
    #[error("YouChargedTooFar: the move went past its fail distance")]
    YouChargedTooFar,
}

impl MotionError {
    /// `Ok(())` for `WeenieError::None`, the matching error otherwise.
    pub fn check(code: WeenieError) -> Result<(), MotionError> {
        Err(match code {
            WeenieError::None => return Ok(()),
            WeenieError::NoAnimationTable => MotionError::NoAnimationTable,
            WeenieError::NoPhysicsObject => MotionError::NoPhysicsObject,
            WeenieError::YouCantJumpWhileInTheAir => MotionError::YouCantJumpWhileInTheAir,
            WeenieError::ActionCancelled => MotionError::ActionCancelled,
            WeenieError::ITeleported => MotionError::ITeleported,
            WeenieError::CantCrouchInCombat => MotionError::CantCrouchInCombat,
            WeenieError::CantSitInCombat => MotionError::CantSitInCombat,
            WeenieError::CantLieDownInCombat => MotionError::CantLieDownInCombat,
            WeenieError::CantChatEmoteInCombat => MotionError::CantChatEmoteInCombat,
            WeenieError::NoMtableData => MotionError::NoMtableData,
            WeenieError::TooManyActions => MotionError::TooManyActions,
            WeenieError::GeneralMovementFailure => MotionError::GeneralMovementFailure,
            WeenieError::YouCantJumpFromThisPosition => MotionError::YouCantJumpFromThisPosition,
            WeenieError::CantJumpLoadedDown => MotionError::CantJumpLoadedDown,
            WeenieError::ObjectGone => MotionError::ObjectGone,
            WeenieError::NoObject => MotionError::NoObject,
            WeenieError::YouChargedTooFar => MotionError::YouChargedTooFar,
        })
    }

    /// The ACE code this error stands for.
    pub fn weenie_error(self) -> WeenieError {
        match self {
            MotionError::NoAnimationTable => WeenieError::NoAnimationTable,
            MotionError::NoPhysicsObject => WeenieError::NoPhysicsObject,
            MotionError::YouCantJumpWhileInTheAir => WeenieError::YouCantJumpWhileInTheAir,
            MotionError::ActionCancelled => WeenieError::ActionCancelled,
            MotionError::ITeleported => WeenieError::ITeleported,
            MotionError::CantCrouchInCombat => WeenieError::CantCrouchInCombat,
            MotionError::CantSitInCombat => WeenieError::CantSitInCombat,
            MotionError::CantLieDownInCombat => WeenieError::CantLieDownInCombat,
            MotionError::CantChatEmoteInCombat => WeenieError::CantChatEmoteInCombat,
            MotionError::NoMtableData => WeenieError::NoMtableData,
            MotionError::TooManyActions => WeenieError::TooManyActions,
            MotionError::GeneralMovementFailure => WeenieError::GeneralMovementFailure,
            MotionError::YouCantJumpFromThisPosition => WeenieError::YouCantJumpFromThisPosition,
            MotionError::CantJumpLoadedDown => WeenieError::CantJumpLoadedDown,
            MotionError::ObjectGone => WeenieError::ObjectGone,
            MotionError::NoObject => WeenieError::NoObject,
            MotionError::YouChargedTooFar => WeenieError::YouChargedTooFar,
        }
    }

    /// ACE's numeric `WeenieError` value (`NoMtableData` is `0x43`).
    pub fn code(self) -> u32 {
        self.weenie_error() as u32
    }
}

impl From<MotionError> for WeenieError {
    fn from(e: MotionError) -> WeenieError {
        e.weenie_error()
    }
}
