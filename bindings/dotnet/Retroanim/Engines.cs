using System;

namespace Retroanim
{
    /// <summary>An AC world: motion tables from a record source and creatures on them.
    /// Thread safety: any thread may call any method. Each world has its own native
    /// lock, so calls on one world run one at a time and calls on different worlds run
    /// in parallel (give each landblock thread its own world).</summary>
    public sealed class AcWorld : IDisposable
    {
        readonly AcWorldHandle h = new AcWorldHandle();

        AcWorld() { }

        /// <summary>Records from a folder of &lt;id&gt;.bin files.</summary>
        public static AcWorld FromDirectory(string dir)
        {
            var w = new AcWorld();
            ulong v;
            Native.Check(Native.ra_ac_world_new_dir(Native.Utf8z(dir), out v));
            w.h.Set(v);
            return w;
        }

        /// <summary>Records from a DAT container.</summary>
        public static AcWorld FromDat(string path)
        {
            var w = new AcWorld();
            ulong v;
            Native.Check(Native.ra_ac_world_new_dat(Native.Utf8z(path), out v));
            w.h.Set(v);
            return w;
        }

        /// <summary>A creature with every default on motion table tableId; its index.</summary>
        public uint AddCreature(uint tableId)
        {
            uint i;
            Native.Check(Native.ra_ac_world_add_creature(h.Value, tableId, IntPtr.Zero, out i));
            return i;
        }

        /// <summary>The defaults of a new creature (id 0 = index + 1).</summary>
        public static AcCreatureDesc DefaultDesc()
        {
            AcCreatureDesc d;
            Native.Check(Native.ra_ac_creature_desc_default(out d));
            return d;
        }

        /// <summary>ACE's default MovementParameters.</summary>
        public static AcMoveParams DefaultMoveParams()
        {
            AcMoveParams p;
            Native.Check(Native.ra_ac_move_params_default(out p));
            return p;
        }

        /// <summary>A creature described by desc on motion table tableId; its index.</summary>
        public uint AddCreature(uint tableId, AcCreatureDesc desc)
        {
            uint i;
            Native.Check(Native.ra_ac_world_add_creature(h.Value, tableId, ref desc, out i));
            return i;
        }

        /// <summary>The index of the creature with object id id.</summary>
        public uint Find(uint id) { uint i; Native.Check(Native.ra_ac_world_find(h.Value, id, out i)); return i; }

        /// <summary>Remove a creature. Its index is retired: never given to another
        /// creature, refused (InvalidArgument) from then on. Its id is free again.</summary>
        public void Remove(uint creature) { Native.Check(Native.ra_ac_world_remove(h.Value, creature)); }

        /// <summary>Move a creature, with its whole state and its id, to world to; its
        /// index there. Its index here is retired as by Remove. Refused, nothing
        /// changed, when to holds its id or is this world.</summary>
        public uint Transfer(uint creature, AcWorld to)
        {
            if (to == null) throw new ArgumentNullException("to");
            uint i;
            Native.Check(Native.ra_ac_world_transfer(h.Value, creature, to.h.Value, out i));
            return i;
        }

        // Move-to: the mover by index, the target by object id (as ACE names it).
        public void MoveToObject(uint creature, uint targetId, AcMoveParams p) { Native.Check(Native.ra_ac_move_to_object(h.Value, creature, targetId, ref p)); }
        public void MoveToPosition(uint creature, AcFrame frame, AcMoveParams p) { Native.Check(Native.ra_ac_move_to_position(h.Value, creature, ref frame, ref p)); }
        public void TurnToObject(uint creature, uint targetId, AcMoveParams p) { Native.Check(Native.ra_ac_turn_to_object(h.Value, creature, targetId, ref p)); }
        /// <summary>Turn to p.DesiredHeading (degrees).</summary>
        public void TurnToHeading(uint creature, AcMoveParams p) { Native.Check(Native.ra_ac_turn_to_heading(h.Value, creature, ref p)); }
        /// <summary>error: a WeenieError code (0x36 ActionCancelled).</summary>
        public void CancelMoveTo(uint creature, uint error) { Native.Check(Native.ra_ac_cancel_moveto(h.Value, creature, error)); }
        public void StickTo(uint creature, uint targetId) { Native.Check(Native.ra_ac_stick_to(h.Value, creature, targetId)); }
        public void Unstick(uint creature) { Native.Check(Native.ra_ac_unstick(h.Value, creature)); }
        public void ConstrainTo(uint creature, AcFrame frame, float start, float max) { Native.Check(Native.ra_ac_constrain_to(h.Value, creature, ref frame, start, max)); }
        public void Unconstrain(uint creature) { Native.Check(Native.ra_ac_unconstrain(h.Value, creature)); }
        /// <summary>Teleport a creature, keeping the velocity its watchers extrapolate from.</summary>
        public void MoveObject(uint creature, AcFrame frame) { Native.Check(Native.ra_ac_move_object(h.Value, creature, ref frame, IntPtr.Zero)); }
        public void MoveObject(uint creature, AcFrame frame, Vec3 velocity) { Native.Check(Native.ra_ac_move_object(h.Value, creature, ref frame, ref velocity)); }
        public void HandleTargetting(uint creature) { Native.Check(Native.ra_ac_handle_targetting(h.Value, creature)); }
        /// <summary>status: a TargetStatus (1 OK, 2 ExitWorld, 3 Teleported, ...).</summary>
        public void NotifyVoyeurs(uint creature, uint status) { Native.Check(Native.ra_ac_notify_voyeurs(h.Value, creature, status)); }

        public AcMoveToInfo MoveToInfo(uint creature)
        {
            AcMoveToInfo i;
            Native.Check(Native.ra_ac_moveto_info(h.Value, creature, out i));
            return i;
        }

        public int CreatureCount
        {
            get { uint n; Native.Check(Native.ra_ac_world_creature_count(h.Value, out n)); return (int)n; }
        }

        public void DoMotion(uint creature, uint command) { Native.Check(Native.ra_ac_do_motion(h.Value, creature, command, IntPtr.Zero)); }
        public void StopMotion(uint creature, uint command) { Native.Check(Native.ra_ac_stop_motion(h.Value, creature, command, IntPtr.Zero)); }
        public void StopCompletely(uint creature) { Native.Check(Native.ra_ac_stop_completely(h.Value, creature)); }
        public void SetHoldRun(uint creature, bool run) { Native.Check(Native.ra_ac_set_hold_run(h.Value, creature, (byte)(run ? 1 : 0))); }
        public void SetRunRate(uint creature, float rate) { Native.Check(Native.ra_ac_set_run_rate(h.Value, creature, rate)); }
        public void Tick(uint creature, double quantum) { Native.Check(Native.ra_ac_tick(h.Value, creature, quantum)); }

        /// <summary>One quantum for every creature (the batch call).</summary>
        public void TickAll(double quantum) { Native.Check(Native.ra_ac_world_tick(h.Value, quantum)); }

        public AcState State(uint creature)
        {
            AcState s;
            Native.Check(Native.ra_ac_state(h.Value, creature, out s));
            return s;
        }

        /// <summary>Every creature's position into a caller-owned array (sized to
        /// CreatureCount); the number written.</summary>
        public int Positions(AcPosition[] output)
        {
            UIntPtr n;
            Native.Check(Native.ra_ac_world_positions(h.Value, output, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        /// <summary>Start charging a jump (a standing long jump when standing still).</summary>
        public void ChargeJump(uint creature) { Native.Check(Native.ra_ac_charge_jump(h.Value, creature)); }
        /// <summary>The client's jump with charge extent (0..1); a refusal throws with
        /// the WeenieError in Code.</summary>
        public void Jump(uint creature, float extent) { Native.Check(Native.ra_ac_jump(h.Value, creature, extent, IntPtr.Zero)); }
        /// <summary>The server's jump: leave the ground now with this object-local velocity.</summary>
        public void Jump(uint creature, float extent, Vec3 velocity) { Native.Check(Native.ra_ac_jump(h.Value, creature, extent, ref velocity)); }
        public void EnterWorld(uint creature, AcPosition position) { Native.Check(Native.ra_ac_enter_world(h.Value, creature, ref position)); }
        public void ExitWorld(uint creature) { Native.Check(Native.ra_ac_exit_world(h.Value, creature)); }
        public void LeaveWorld(uint creature) { Native.Check(Native.ra_ac_leave_world(h.Value, creature)); }
        public void SetHidden(uint creature, bool hidden) { Native.Check(Native.ra_ac_set_hidden(h.Value, creature, (byte)(hidden ? 1 : 0))); }
        public void SetScale(uint creature, float scale) { Native.Check(Native.ra_ac_set_scale(h.Value, creature, scale)); }

        delegate Status MessageWriter(ulong world, uint creature, byte autonomous, byte[] output, UIntPtr cap, out UIntPtr count);

        static byte[] Message(MessageWriter write, ulong world, uint creature, bool autonomous)
        {
            byte a = (byte)(autonomous ? 1 : 0);
            UIntPtr n;
            var s = write(world, creature, a, null, UIntPtr.Zero, out n);
            if (s != Status.BufferTooSmall) Native.Check(s);
            var b = new byte[(int)n.ToUInt64()];
            Native.Check(write(world, creature, a, b, new UIntPtr((uint)b.Length), out n));
            return b;
        }

        /// <summary>The MovementData bytes a server broadcasts for the creature.</summary>
        public byte[] MovementData(uint creature, bool autonomous) { return Message(Native.ra_ac_movement_data, h.Value, creature, autonomous); }
        /// <summary>The whole UpdateMotion (0xF74C) message for the creature.</summary>
        public byte[] UpdateMotion(uint creature, bool autonomous) { return Message(Native.ra_ac_update_motion, h.Value, creature, autonomous); }
        /// <summary>Apply a client's MoveToState bytes; bad bytes throw InvalidArgument
        /// naming the byte offset.</summary>
        public void ApplyMoveToState(uint creature, byte[] bytes) { Native.Check(Native.ra_ac_apply_move_to_state(h.Value, creature, bytes, Len(bytes))); }
        /// <summary>Apply a client's JumpPack bytes (the server's jump).</summary>
        public void ApplyJumpPack(uint creature, byte[] bytes) { Native.Check(Native.ra_ac_apply_jump_pack(h.Value, creature, bytes, Len(bytes))); }
        /// <summary>Apply received MovementData bytes to the creature (a remote copy).</summary>
        public void ApplyMovementData(uint creature, byte[] bytes) { Native.Check(Native.ra_ac_apply_movement_data(h.Value, creature, bytes, Len(bytes))); }

        static UIntPtr Len(byte[] b) { return new UIntPtr(b == null ? 0u : (uint)b.Length); }

        public void Dispose() { h.Dispose(); }
    }

    /// <summary>A HERC shape instance with its animation threads.</summary>
    public sealed class HercShape : IDisposable
    {
        readonly HercShapeHandle h = new HercShapeHandle();

        HercShape() { }

        public static HercShape FromJsonFile(string path)
        {
            var s = new HercShape();
            ulong v;
            Native.Check(Native.ra_herc_shape_new_json_file(Native.Utf8z(path), out v));
            s.h.Set(v);
            return s;
        }

        public short SequenceNamed(string name)
        {
            short seq;
            Native.Check(Native.ra_herc_sequence_named(h.Value, Native.Utf8z(name), out seq));
            return seq;
        }

        public uint AddThread(short seq) { uint t; Native.Check(Native.ra_herc_add_thread(h.Value, seq, out t)); return t; }
        /// <summary>frame -1: wherever the transitions lead.</summary>
        public void Request(uint thread, short seq, short frame, bool stopOnArrival) { Native.Check(Native.ra_herc_request(h.Value, thread, seq, frame, (byte)(stopOnArrival ? 1 : 0))); }
        public void Seek(uint thread, short seq, int pos) { Native.Check(Native.ra_herc_seek(h.Value, thread, seq, pos)); }
        public void SetRate(uint thread, short rate) { Native.Check(Native.ra_herc_set_rate(h.Value, thread, rate)); }
        public void DropRequest(uint thread) { Native.Check(Native.ra_herc_drop_request(h.Value, thread)); }
        public void StepMs(long ms) { Native.Check(Native.ra_herc_step_ms(h.Value, ms)); }

        /// <summary>Every part's Q14 world matrix, indexed by node.</summary>
        public HercMatrix[] PartMatrices()
        {
            UIntPtr n;
            var st = Native.ra_herc_part_matrices(h.Value, null, UIntPtr.Zero, out n);
            if (st != Status.BufferTooSmall) Native.Check(st);
            var output = new HercMatrix[(int)n.ToUInt64()];
            if (output.Length > 0)
                Native.Check(Native.ra_herc_part_matrices(h.Value, output, n, out n));
            return output;
        }

        public void Dispose() { h.Dispose(); }
    }

    /// <summary>A placed actor set being played (default options).</summary>
    public sealed class ActorStage : IDisposable
    {
        readonly ActorStageHandle h = new ActorStageHandle();

        ActorStage() { }

        public static ActorStage FromFile(string path)
        {
            var s = new ActorStage();
            ulong v;
            Native.Check(Native.ra_actor_stage_new_file(Native.Utf8z(path), IntPtr.Zero, out v));
            s.h.Set(v);
            return s;
        }

        /// <summary>An ordinary request; the RaActorOutcome (0 accepted, ...).</summary>
        public int Request(string actor, byte group, byte modifier) { int o; Native.Check(Native.ra_actor_request(h.Value, Native.Utf8z(actor), group, modifier, out o)); return o; }
        public int ForceRequest(string actor, byte group, byte modifier) { int o; Native.Check(Native.ra_actor_force_request(h.Value, Native.Utf8z(actor), group, modifier, out o)); return o; }
        /// <summary>group -1 clears the state default.</summary>
        public void SetDefault(string actor, int group) { Native.Check(Native.ra_actor_set_default(h.Value, Native.Utf8z(actor), group)); }
        public void Update() { Native.Check(Native.ra_actor_update(h.Value)); }

        public ActorFrame[] Frames()
        {
            UIntPtr n;
            var st = Native.ra_actor_frames(h.Value, null, UIntPtr.Zero, out n);
            if (st != Status.BufferTooSmall) Native.Check(st);
            var output = new ActorFrame[(int)n.ToUInt64()];
            if (output.Length > 0)
                Native.Check(Native.ra_actor_frames(h.Value, output, n, out n));
            return output;
        }

        public void Dispose() { h.Dispose(); }
    }
}
