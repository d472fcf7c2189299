// The numbers of the C ABI as C# enums, under ACE's names. Each enum is a uint like
// ACE's, so any value the engine knows but this list does not still converts.
namespace Retroanim
{
    /// <summary>ACE's MotionCommand: the commands this runtime names (any other id can
    /// be cast from uint).</summary>
    public enum MotionCommand : uint
    {
        Invalid = 0,
        Ready = 0x41000003,
        WalkForward = 0x45000005,
        WalkBackwards = 0x45000006,
        RunForward = 0x44000007,
        Fallen = 0x40000008,
        TurnRight = 0x6500000D,
        TurnLeft = 0x6500000E,
        SideStepRight = 0x6500000F,
        SideStepLeft = 0x65000010,
        Dead = 0x40000011,
        Crouch = 0x41000012,
        Sitting = 0x41000013,
        Sleeping = 0x41000014,
        Falling = 0x40000015,
        Reload = 0x40000016,
        Pickup = 0x40000018,
        AimLevel = 0x4000001E,
        MagicPray = 0x40000039,
        NonCombat = 0x8000003D,
        SwordCombat = 0x8000003E,
        Wave = 0x13000087,
        TripleThrustLow = 0x10000128,
    }

    /// <summary>ACE's WeenieError: why a motion or move was refused or ended (None =
    /// success, or arrived).</summary>
    public enum WeenieError : uint
    {
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

    /// <summary>ACE's MovementType (what AcMoveToInfo.MovementType reports).</summary>
    public enum MovementType : uint
    {
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

    /// <summary>ACE's HoldKey.</summary>
    public enum HoldKey : uint
    {
        Invalid = 0,
        None = 1,
        Run = 2,
    }

    /// <summary>ACE's TargetStatus, for AcWorld.NotifyVoyeurs.</summary>
    public enum TargetStatus : uint
    {
        Undefined = 0,
        Ok = 1,
        ExitWorld = 2,
        Teleported = 3,
        Contained = 4,
        Parented = 5,
        TimedOut = 6,
    }

    /// <summary>What an AcEvent reports (RaAcEventKind).</summary>
    public enum AcEventKind : uint
    {
        /// <summary>An animation hook: A its AnimationHookType (4 AnimationDone), B its
        /// Animation id, Frame and Hook its place there (AcWorld.HookPayload).</summary>
        Hook = 1,
        /// <summary>OnMotionDone: A the motion, B 1 on success.</summary>
        MotionDone = 2,
        /// <summary>OnMoveComplete: a move-to or turn-to ended, A its WeenieError.</summary>
        MoveComplete = 3,
        /// <summary>StickTo took effect: A the target id.</summary>
        Stuck = 4,
        /// <summary>The sticky target was cleared: A its id.</summary>
        Unstuck = 5,
        Constrained = 6,
        Unconstrained = 7,
        /// <summary>The creature's log was full: A events lost.</summary>
        Dropped = 8,
    }
}
