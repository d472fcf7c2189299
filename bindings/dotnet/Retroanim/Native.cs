// P/Invoke declarations of the retroanim C ABI (crates/ffi/include/retroanim.h), every
// function of it, and the value types it passes. Plain C# 7.2 that both Mono's mcs and
// the .NET SDK compile: byte arrays for strings (UTF-8 both ways), IntPtr for returned
// strings, ulong for handles, pointers for the Span overloads.
using System;
using System.Runtime.InteropServices;

namespace Retroanim
{
    /// <summary>What a native call did (RaStatus).</summary>
    public enum Status
    {
        Ok = 0,
        NullArgument = 1,
        BadHandle = 2,
        InvalidArgument = 3,
        Load = 4,
        Refused = 5,
        BufferTooSmall = 6,
        Internal = 7,
    }

    /// <summary>A vector (RaVec3); converts to and from System.Numerics.Vector3.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public partial struct Vec3 { public float X, Y, Z; }

    /// <summary>A quaternion, w first as in ACE (RaQuat); converts to and from
    /// System.Numerics.Quaternion.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public partial struct Quat { public float W, X, Y, Z; }

    /// <summary>An origin and an orientation (RaAcFrame).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public partial struct AcFrame { public Vec3 Origin; public Quat Orientation; }

    /// <summary>A cell and a frame in it (RaAcPosition).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public partial struct AcPosition { public uint Cell; public AcFrame Frame; }

    /// <summary>One creature's state (RaAcState).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcState
    {
        public AcPosition Position;
        public Vec3 Velocity;
        public MotionCommand Style;
        public MotionCommand Motion;
        public MotionCommand TableSubstate;
        public uint Animation;
        public float FrameNumber;
        public uint PartCount;
        [MarshalAs(UnmanagedType.U1)] public bool Active;
    }

    /// <summary>How a new AC creature starts (RaAcCreatureDesc); start from
    /// AcWorld.DefaultDesc().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcCreatureDesc
    {
        public uint Cell;
        public AcFrame Frame;
        public float RunRate;
        [MarshalAs(UnmanagedType.U1)] public bool CreatureWeenie;
        [MarshalAs(UnmanagedType.U1)] public bool Airborne;
        [MarshalAs(UnmanagedType.U1)] public bool OutsideCell;
        /// <summary>Object id; 0 means index + 1.</summary>
        public uint Id;
        public float Radius;
        public float Height;
    }

    /// <summary>ACE's MovementParameters (RaAcMoveParams); start from
    /// AcWorld.DefaultMoveParams().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcMoveParams
    {
        public float DistanceToObject;
        public float MinDistance;
        public float FailDistance;
        public float Speed;
        public float WalkRunThreshold;
        public float DesiredHeading;
        public HoldKey HoldKeyToApply;
        public int ContextId;
        public int ActionStamp;
        [MarshalAs(UnmanagedType.U1)] public bool CanWalk;
        [MarshalAs(UnmanagedType.U1)] public bool CanRun;
        [MarshalAs(UnmanagedType.U1)] public bool CanSidestep;
        [MarshalAs(UnmanagedType.U1)] public bool CanWalkBackwards;
        [MarshalAs(UnmanagedType.U1)] public bool CanCharge;
        [MarshalAs(UnmanagedType.U1)] public bool FailWalk;
        [MarshalAs(UnmanagedType.U1)] public bool UseFinalHeading;
        [MarshalAs(UnmanagedType.U1)] public bool Sticky;
        [MarshalAs(UnmanagedType.U1)] public bool MoveAway;
        [MarshalAs(UnmanagedType.U1)] public bool MoveTowards;
        [MarshalAs(UnmanagedType.U1)] public bool UseSpheres;
        [MarshalAs(UnmanagedType.U1)] public bool SetHoldKey;
        [MarshalAs(UnmanagedType.U1)] public bool ModifyRawState;
        [MarshalAs(UnmanagedType.U1)] public bool ModifyInterpretedState;
        [MarshalAs(UnmanagedType.U1)] public bool CancelMoveto;
        [MarshalAs(UnmanagedType.U1)] public bool StopCompletely;
        [MarshalAs(UnmanagedType.U1)] public bool Autonomous;
        [MarshalAs(UnmanagedType.U1)] public bool DisableJumpDuringLink;
    }

    /// <summary>DoMotion's parameters (RaAcMotionParams); start from
    /// AcWorld.DefaultMotionParams().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcMotionParams
    {
        public float Speed;
        public HoldKey HoldKeyToApply;
        [MarshalAs(UnmanagedType.U1)] public bool SetHoldKey;
        [MarshalAs(UnmanagedType.U1)] public bool Autonomous;
        public int ActionStamp;
    }

    /// <summary>A client's raw motion state for AcWorld.MoveToState (RaAcRawState); 0
    /// means absent.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcRawState
    {
        public MotionCommand CurrentStyle;
        public MotionCommand ForwardCommand;
        public float ForwardSpeed;
        public HoldKey ForwardHoldKey;
        public MotionCommand SidestepCommand;
        public float SidestepSpeed;
        public HoldKey SidestepHoldKey;
        public MotionCommand TurnCommand;
        public float TurnSpeed;
        public HoldKey TurnHoldKey;
        public HoldKey CurrentHoldKey;
    }

    /// <summary>One creature's move-to state (RaAcMoveToInfo).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcMoveToInfo
    {
        public uint Id;
        [MarshalAs(UnmanagedType.U1)] public bool MovingTo;
        public MovementType MovementType;
        public MotionCommand CurrentCommand;
        public MotionCommand AuxCommand;
        public uint NodeCount;
        public uint SoughtObject;
        public AcPosition TargetPosition;
        [MarshalAs(UnmanagedType.U1)] public bool MovingAway;
        public uint Watching;
        public uint VoyeurCount;
        public uint StickyTarget;
        [MarshalAs(UnmanagedType.U1)] public bool Constrained;
        public uint Completions;
        [MarshalAs(UnmanagedType.U1)] public bool HasCompleted;
        public WeenieError LastCompletion;
    }

    /// <summary>One event of one creature (RaAcEvent; AcWorld.DrainEvents).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcEvent
    {
        /// <summary>The creature's index in its world.</summary>
        public uint Creature;
        /// <summary>Its object id.</summary>
        public uint Id;
        public AcEventKind Kind;
        public uint A;
        public uint B;
        public int Frame;
        public uint Hook;

        public override string ToString()
        {
            return Kind + " creature " + Creature + " a " + A.ToString("x") + " b " + B.ToString("x") + " frame " + Frame + " hook " + Hook;
        }
    }

    /// <summary>One creature's proposal in the current batch of a two-phase tick
    /// (RaAcProposal; AcWorld.Proposals).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcProposal
    {
        /// <summary>The creature's index in its world.</summary>
        public uint Creature;
        /// <summary>Its object id.</summary>
        public uint Id;
        /// <summary>Where it was before this tick's position step.</summary>
        public AcPosition From;
        /// <summary>Where the step would put it (its cell unchanged).</summary>
        public AcPosition To;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct HercMatrix
    {
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 9)] public short[] M;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 3)] public int[] T;
    }

    /// <summary>Where a HERC machine is (RaHercObject): euler angles (65536 = a full
    /// turn) and position.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HercObject
    {
        public short Pitch, Roll, Heading;
        public int X, Y, Z;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct ActorFrame
    {
        [MarshalAs(UnmanagedType.U1)] public bool HasFrame;
        public ushort Model;
        public ushort Frame;
        public short Group;
    }

    /// <summary>How an actor stage starts (RaActorOptions); start from
    /// ActorStage.DefaultOptions().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ActorOptions
    {
        public long ViewX, ViewY;
        public uint FrameScale;
        [MarshalAs(UnmanagedType.U1)] public bool Scripts;
    }

    internal static class Native
    {
        const string Lib = "retroanim_ffi";

        [DllImport(Lib)] internal static extern uint ra_abi_version();
        [DllImport(Lib)] internal static extern Status ra_ac_world_new_records(IntPtr[] records, UIntPtr[] lens, UIntPtr count, out ulong world);
        [DllImport(Lib)] internal static extern Status ra_ac_motion_params_default(out AcMotionParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_do_motion(ulong world, uint creature, uint command, ref AcMotionParams parameters);
        [DllImport(Lib)] internal static extern Status ra_ac_stop_motion(ulong world, uint creature, uint command, ref AcMotionParams parameters);
        [DllImport(Lib)] internal static extern Status ra_ac_move_to_state(ulong world, uint creature, ref AcRawState raw, byte standingLongJump);
        [DllImport(Lib)] internal static extern Status ra_ac_set_state(ulong world, uint creature, sbyte contact, sbyte onWalkable, sbyte inCell);
        [DllImport(Lib)] internal static extern Status ra_ac_interpolate_to(ulong world, uint creature, ref AcFrame frame, byte keepHeading);
        [DllImport(Lib)] internal static extern Status ra_ac_move_or_teleport(ulong world, uint creature, ref AcFrame frame, int timestamp, byte contact, float playerDistance, out byte moved);
        [DllImport(Lib)] internal static extern Status ra_ac_world_clock(ulong world, out double clock);
        [DllImport(Lib)] internal static extern unsafe Status ra_ac_world_positions(ulong world, AcPosition* output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern unsafe Status ra_ac_part_frames(ulong world, uint creature, AcFrame* output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_update_object_server(ulong world, uint creature, double now, ref AcPosition request, byte forcePos, out byte ok);
        [DllImport(Lib)] internal static extern Status ra_ac_update_object_server(ulong world, uint creature, double now, IntPtr request, byte forcePos, out byte ok);
        [DllImport(Lib)] internal static extern Status ra_ac_update_object_server_new(ulong world, uint creature, double now, ref AcPosition request, byte forcePos, out byte ok);
        [DllImport(Lib)] internal static extern Status ra_ac_update_object_server_new(ulong world, uint creature, double now, IntPtr request, byte forcePos, out byte ok);
        [DllImport(Lib)] internal static extern Status ra_ac_update_object(ulong world, uint creature, double now, out uint quanta);
        [DllImport(Lib)] internal static extern Status ra_ac_movement_data_for_late_joiner(ulong world, uint creature, [Out] byte[] output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_set_jump_answers(ulong world, uint creature, int jumpSkill, float burden, float staminaCost);
        [DllImport(Lib)] internal static extern Status ra_ac_world_set_events(ulong world, byte on);
        [DllImport(Lib)] internal static extern unsafe Status ra_ac_world_events(ulong world, AcEvent* output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_world_tick_propose(ulong world, double quantum, out UIntPtr count);
        [DllImport(Lib)] internal static extern unsafe Status ra_ac_world_proposals(ulong world, AcProposal* output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_world_correct(ulong world, uint creature, ref AcPosition to);
        [DllImport(Lib)] internal static extern Status ra_ac_world_refuse(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_world_apply_outdoor_rule(ulong world);
        [DllImport(Lib)] internal static extern Status ra_ac_world_tick_commit(ulong world, out byte done, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_adjust_to_outside(uint cell, ref Vec3 origin, out uint outCell, out Vec3 outOrigin);
        [DllImport(Lib)] internal static extern Status ra_ac_hook_payload(ulong world, uint creature, uint animId, int frame, uint hook, [Out] byte[] output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_cycle_length(ulong world, uint creature, uint style, uint motion, float speed, out float length);
        [DllImport(Lib)] internal static extern Status ra_ac_link_length(ulong world, uint creature, uint style, uint from, uint to, float speed, out float length);
        [DllImport(Lib)] internal static extern Status ra_ac_animation_length(ulong world, uint creature, uint style, uint motion, float speed, out float length);
        [DllImport(Lib)] internal static extern Status ra_herc_shape_new_json(byte[] json, UIntPtr len, out ulong shape);
        [DllImport(Lib)] internal static extern Status ra_herc_shape_new_vol_file(byte[] path, byte[] entry, out ulong shape);
        [DllImport(Lib)] internal static extern Status ra_herc_shape_new_bytes(byte[] bytes, UIntPtr len, byte[] entry, out ulong shape);
        [DllImport(Lib)] internal static extern Status ra_herc_object(ulong shape, out HercObject obj);
        [DllImport(Lib)] internal static extern Status ra_actor_options_default(out ActorOptions options);
        [DllImport(Lib)] internal static extern Status ra_actor_stage_new_file(byte[] path, ref ActorOptions options, out ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_stage_new_json(byte[] json, UIntPtr len, ref ActorOptions options, out ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_stage_new_json(byte[] json, UIntPtr len, IntPtr options, out ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_set_view(ulong stage, long x, long y);
        [DllImport(Lib)] internal static extern Status ra_actor_frame(ulong stage, byte[] actor, out ActorFrame frame);

        [DllImport(Lib)] internal static extern IntPtr ra_last_error();
        [DllImport(Lib)] internal static extern uint ra_last_error_code();
        [DllImport(Lib)] internal static extern void ra_string_free(IntPtr s);

        [DllImport(Lib)] internal static extern Status ra_session_open(byte[] path, out ulong session);
        [DllImport(Lib)] internal static extern Status ra_session_new(byte[] json, UIntPtr len, byte[] label, byte[] baseDir, out ulong session);
        [DllImport(Lib)] internal static extern Status ra_session_free(ulong session);
        [DllImport(Lib)] internal static extern Status ra_session_engine(ulong session, out IntPtr text);
        [DllImport(Lib)] internal static extern Status ra_session_step_count(ulong session, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_session_step_json(ulong session, UIntPtr index, out IntPtr text);
        [DllImport(Lib)] internal static extern Status ra_session_snapshot_json(ulong session, out IntPtr text);
        [DllImport(Lib)] internal static extern Status ra_session_apply_json(ulong session, byte[] step, UIntPtr len, out IntPtr text);

        [DllImport(Lib)] internal static extern Status ra_ac_world_new_dir(byte[] dir, out ulong world);
        [DllImport(Lib)] internal static extern Status ra_ac_world_new_dat(byte[] path, out ulong world);
        [DllImport(Lib)] internal static extern Status ra_ac_world_free(ulong world);
        [DllImport(Lib)] internal static extern Status ra_ac_world_add_creature(ulong world, uint tableId, IntPtr desc, out uint index);
        [DllImport(Lib)] internal static extern Status ra_ac_world_creature_count(ulong world, out uint count);
        [DllImport(Lib)] internal static extern Status ra_ac_do_motion(ulong world, uint creature, uint command, IntPtr parameters);
        [DllImport(Lib)] internal static extern Status ra_ac_stop_motion(ulong world, uint creature, uint command, IntPtr parameters);
        [DllImport(Lib)] internal static extern Status ra_ac_stop_completely(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_set_hold_run(ulong world, uint creature, byte run);
        [DllImport(Lib)] internal static extern Status ra_ac_set_run_rate(ulong world, uint creature, float rate);
        [DllImport(Lib)] internal static extern Status ra_ac_tick(ulong world, uint creature, double quantum);
        [DllImport(Lib)] internal static extern Status ra_ac_world_tick(ulong world, double quantum);
        [DllImport(Lib)] internal static extern Status ra_ac_state(ulong world, uint creature, out AcState state);
        [DllImport(Lib)] internal static extern Status ra_ac_creature_desc_default(out AcCreatureDesc desc);
        [DllImport(Lib)] internal static extern Status ra_ac_world_add_creature(ulong world, uint tableId, ref AcCreatureDesc desc, out uint index);
        [DllImport(Lib)] internal static extern Status ra_ac_move_params_default(out AcMoveParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_move_to_object(ulong world, uint creature, uint target, ref AcMoveParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_move_to_position(ulong world, uint creature, ref AcFrame frame, ref AcMoveParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_turn_to_object(ulong world, uint creature, uint target, ref AcMoveParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_turn_to_heading(ulong world, uint creature, ref AcMoveParams p);
        [DllImport(Lib)] internal static extern Status ra_ac_cancel_moveto(ulong world, uint creature, uint error);
        [DllImport(Lib)] internal static extern Status ra_ac_stick_to(ulong world, uint creature, uint target);
        [DllImport(Lib)] internal static extern Status ra_ac_unstick(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_constrain_to(ulong world, uint creature, ref AcFrame frame, float start, float max);
        [DllImport(Lib)] internal static extern Status ra_ac_unconstrain(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_move_object(ulong world, uint creature, ref AcFrame frame, IntPtr velocity);
        [DllImport(Lib)] internal static extern Status ra_ac_move_object(ulong world, uint creature, ref AcFrame frame, ref Vec3 velocity);
        [DllImport(Lib)] internal static extern Status ra_ac_handle_targetting(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_notify_voyeurs(ulong world, uint creature, uint status);
        [DllImport(Lib)] internal static extern Status ra_ac_moveto_info(ulong world, uint creature, out AcMoveToInfo info);
        [DllImport(Lib)] internal static extern Status ra_ac_world_find(ulong world, uint id, out uint index);
        [DllImport(Lib)] internal static extern Status ra_ac_world_remove(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_world_transfer(ulong from, uint creature, ulong to, out uint index);
        [DllImport(Lib)] internal static extern Status ra_ac_world_positions(ulong world, [Out] AcPosition[] output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_charge_jump(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_jump(ulong world, uint creature, float extent, IntPtr velocity);
        [DllImport(Lib)] internal static extern Status ra_ac_jump(ulong world, uint creature, float extent, ref Vec3 velocity);
        [DllImport(Lib)] internal static extern Status ra_ac_enter_world(ulong world, uint creature, ref AcPosition position);
        [DllImport(Lib)] internal static extern Status ra_ac_exit_world(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_leave_world(ulong world, uint creature);
        [DllImport(Lib)] internal static extern Status ra_ac_set_hidden(ulong world, uint creature, byte hidden);
        [DllImport(Lib)] internal static extern Status ra_ac_set_scale(ulong world, uint creature, float scale);
        [DllImport(Lib)] internal static extern Status ra_ac_movement_data(ulong world, uint creature, byte autonomous, [Out] byte[] output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_update_motion(ulong world, uint creature, byte autonomous, [Out] byte[] output, UIntPtr cap, out UIntPtr count);
        [DllImport(Lib)] internal static extern Status ra_ac_apply_move_to_state(ulong world, uint creature, byte[] bytes, UIntPtr len);
        [DllImport(Lib)] internal static extern Status ra_ac_apply_jump_pack(ulong world, uint creature, byte[] bytes, UIntPtr len);
        [DllImport(Lib)] internal static extern Status ra_ac_apply_movement_data(ulong world, uint creature, byte[] bytes, UIntPtr len);

        [DllImport(Lib)] internal static extern Status ra_herc_shape_new_json_file(byte[] path, out ulong shape);
        [DllImport(Lib)] internal static extern Status ra_herc_shape_free(ulong shape);
        [DllImport(Lib)] internal static extern Status ra_herc_sequence_named(ulong shape, byte[] name, out short seq);
        [DllImport(Lib)] internal static extern Status ra_herc_add_thread(ulong shape, short seq, out uint thread);
        [DllImport(Lib)] internal static extern Status ra_herc_request(ulong shape, uint thread, short seq, short frame, byte stopOnArrival);
        [DllImport(Lib)] internal static extern Status ra_herc_seek(ulong shape, uint thread, short seq, int pos);
        [DllImport(Lib)] internal static extern Status ra_herc_set_rate(ulong shape, uint thread, short rate);
        [DllImport(Lib)] internal static extern Status ra_herc_drop_request(ulong shape, uint thread);
        [DllImport(Lib)] internal static extern Status ra_herc_step_ms(ulong shape, long ms);
        [DllImport(Lib)] internal static extern Status ra_herc_part_matrices(ulong shape, [Out] HercMatrix[] output, UIntPtr cap, out UIntPtr count);

        [DllImport(Lib)] internal static extern Status ra_actor_stage_new_file(byte[] path, IntPtr options, out ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_stage_free(ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_request(ulong stage, byte[] actor, byte group, byte modifier, out int outcome);
        [DllImport(Lib)] internal static extern Status ra_actor_force_request(ulong stage, byte[] actor, byte group, byte modifier, out int outcome);
        [DllImport(Lib)] internal static extern Status ra_actor_set_default(ulong stage, byte[] actor, int group);
        [DllImport(Lib)] internal static extern Status ra_actor_update(ulong stage);
        [DllImport(Lib)] internal static extern Status ra_actor_frames(ulong stage, [Out] ActorFrame[] output, UIntPtr cap, out UIntPtr count);

        /// <summary>NUL-terminated UTF-8 for a string argument (callers refuse null first).</summary>
        internal static byte[] Utf8z(string s)
        {
            NotNull(s, "s");
            var n = System.Text.Encoding.UTF8.GetByteCount(s);
            var b = new byte[n + 1];
            System.Text.Encoding.UTF8.GetBytes(s, 0, s.Length, b, 0);
            return b;
        }

        internal static string ReadUtf8(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var b = new byte[n];
            Marshal.Copy(p, b, 0, n);
            return System.Text.Encoding.UTF8.GetString(b);
        }

        /// <summary>Take ownership of a returned string: copy it, then free it.</summary>
        internal static string TakeString(IntPtr p)
        {
            try { return ReadUtf8(p); }
            finally { ra_string_free(p); }
        }

        /// <summary>The ABI version this binding was written for (RA_ABI_VERSION).</summary>
        internal const uint AbiVersion = 2;

        static bool loaded;

        /// <summary>Check once that the native library can be loaded and speaks this
        /// binding's ABI; every object's factory calls it first.</summary>
        internal static void EnsureLoaded()
        {
            if (loaded) return;
            uint v;
            try
            {
                v = ra_abi_version();
            }
            catch (DllNotFoundException e)
            {
                throw new RetroanimException(Status.Load,
                    "retroanim: the native library retroanim_ffi (libretroanim_ffi.so, retroanim_ffi.dll) was not found: " + e.Message, 0);
            }
            catch (EntryPointNotFoundException)
            {
                throw new RetroanimException(Status.Load,
                    "retroanim: the native library has no ra_abi_version: it predates ABI version " + AbiVersion + "; use the library this binding ships with", 0);
            }
            if (v != AbiVersion)
                throw new RetroanimException(Status.Load,
                    "retroanim: the native library speaks ABI version " + v + ", this binding needs version " + AbiVersion + "; use the library this binding ships with", 0);
            loaded = true;
        }

        internal static UIntPtr Len(byte[] b) { return new UIntPtr((uint)b.Length); }

        internal static byte[] NotNull(byte[] b, string name)
        {
            if (b == null) throw new ArgumentNullException(name);
            return b;
        }

        internal static string NotNull(string s, string name)
        {
            if (s == null) throw new ArgumentNullException(name);
            return s;
        }

        /// <summary>Throw the thread's last error when a call failed.</summary>
        internal static void Check(Status s)
        {
            if (s != Status.Ok)
                throw new RetroanimException(s, ReadUtf8(ra_last_error()), ra_last_error_code());
        }
    }
}
