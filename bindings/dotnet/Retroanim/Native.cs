// P/Invoke declarations of the retroanim C ABI (crates/ffi/include/retroanim.h).
// Plain C# that both Mono's mcs and .NET 8 compile: byte arrays for strings (UTF-8
// both ways), IntPtr for returned strings, ulong for handles.
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

    [StructLayout(LayoutKind.Sequential)]
    public struct Vec3 { public float X, Y, Z; }

    [StructLayout(LayoutKind.Sequential)]
    public struct Quat { public float W, X, Y, Z; }

    [StructLayout(LayoutKind.Sequential)]
    public struct AcFrame { public Vec3 Origin; public Quat Orientation; }

    [StructLayout(LayoutKind.Sequential)]
    public struct AcPosition { public uint Cell; public AcFrame Frame; }

    [StructLayout(LayoutKind.Sequential)]
    public struct AcState
    {
        public AcPosition Position;
        public Vec3 Velocity;
        public uint Style;
        public uint Motion;
        public uint TableSubstate;
        public uint Animation;
        public float FrameNumber;
        public uint PartCount;
        public byte Active;
    }

    /// <summary>How a new AC creature starts (RaAcCreatureDesc); start from
    /// AcWorld.DefaultDesc().</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcCreatureDesc
    {
        public uint Cell;
        public AcFrame Frame;
        public float RunRate;
        public byte CreatureWeenie;
        public byte Airborne;
        public byte OutsideCell;
        /// <summary>Object id; 0 means index + 1.</summary>
        public uint Id;
        public float Radius;
        public float Height;
    }

    /// <summary>ACE's MovementParameters (RaAcMoveParams); start from
    /// AcWorld.DefaultMoveParams(). Flags are 1 or 0.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcMoveParams
    {
        public float DistanceToObject;
        public float MinDistance;
        public float FailDistance;
        public float Speed;
        public float WalkRunThreshold;
        public float DesiredHeading;
        public uint HoldKeyToApply;
        public int ContextId;
        public int ActionStamp;
        public byte CanWalk;
        public byte CanRun;
        public byte CanSidestep;
        public byte CanWalkBackwards;
        public byte CanCharge;
        public byte FailWalk;
        public byte UseFinalHeading;
        public byte Sticky;
        public byte MoveAway;
        public byte MoveTowards;
        public byte UseSpheres;
        public byte SetHoldKey;
        public byte ModifyRawState;
        public byte ModifyInterpretedState;
        public byte CancelMoveto;
        public byte StopCompletely;
        public byte Autonomous;
        public byte DisableJumpDuringLink;
    }

    /// <summary>One creature's move-to state (RaAcMoveToInfo).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AcMoveToInfo
    {
        public uint Id;
        public byte MovingTo;
        public uint MovementType;
        public uint CurrentCommand;
        public uint AuxCommand;
        public uint NodeCount;
        public uint SoughtObject;
        public AcPosition TargetPosition;
        public byte MovingAway;
        public uint Watching;
        public uint VoyeurCount;
        public uint StickyTarget;
        public byte Constrained;
        public uint Completions;
        public byte HasCompleted;
        public uint LastCompletion;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct HercMatrix
    {
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 9)] public short[] M;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = 3)] public int[] T;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct ActorFrame
    {
        public byte HasFrame;
        public ushort Model;
        public ushort Frame;
        public short Group;
    }

    internal static class Native
    {
        const string Lib = "retroanim_ffi";

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

        /// <summary>NUL-terminated UTF-8 for a string argument; null stays null.</summary>
        internal static byte[] Utf8z(string s)
        {
            if (s == null) return null;
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

        /// <summary>Throw the thread's last error when a call failed.</summary>
        internal static void Check(Status s)
        {
            if (s != Status.Ok)
                throw new RetroanimException(s, ReadUtf8(ra_last_error()), ra_last_error_code());
        }
    }
}
