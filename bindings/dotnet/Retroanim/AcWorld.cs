using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Retroanim
{
    /// <summary>An AC world: motion tables from a record source and creatures on them,
    /// named by index (0, 1, 2, ... in the order added or moved in; never reused) and by
    /// object id (how move-to, turn-to and stick name their target).
    /// <para>Thread safety: every method may be called from any thread. Each world has
    /// its own native lock: calls on one world run one at a time, calls on different
    /// worlds never wait for each other, so a server gives each landblock thread its own
    /// world and moves creatures between them with Transfer. The managed object keeps
    /// no state of its own but a reused event buffer, which DrainEvents guards with a
    /// lock. Dispose frees the native world; a call racing with Dispose throws
    /// ObjectDisposedException or a BadHandle RetroanimException, never crashes.</para>
    /// <para>Errors: a refused or malformed call throws RetroanimException with the
    /// library's message (the same text at every door; docs/limits.md) and, for a
    /// refused motion or move, ACE's WeenieError in Code. A null array or string
    /// argument throws ArgumentNullException before the library is called.</para></summary>
    public sealed class AcWorld : IDisposable
    {
        readonly AcWorldHandle h = new AcWorldHandle();
        AcEvent[] eventBuffer = new AcEvent[64];

        AcWorld() { }

        /// <summary>Records from a folder of &lt;id&gt;.bin files.</summary>
        public static AcWorld FromDirectory(string dir)
        {
            Native.NotNull(dir, "dir");
            Native.EnsureLoaded();
            var w = new AcWorld();
            ulong v;
            Native.Check(Native.ra_ac_world_new_dir(Native.Utf8z(dir), out v));
            w.h.Set(v);
            return w;
        }

        /// <summary>Records from a DAT container.</summary>
        public static AcWorld FromDat(string path)
        {
            Native.NotNull(path, "path");
            Native.EnsureLoaded();
            var w = new AcWorld();
            ulong v;
            Native.Check(Native.ra_ac_world_new_dat(Native.Utf8z(path), out v));
            w.h.Set(v);
            return w;
        }

        /// <summary>Records given as bytes (MotionTables and Animations, told apart by
        /// their ids); the first bad record throws and nothing is created.</summary>
        public static AcWorld FromRecords(IList<byte[]> records)
        {
            if (records == null) throw new ArgumentNullException("records");
            Native.EnsureLoaded();
            int n = records.Count;
            var handles = new GCHandle[n];
            var ptrs = new IntPtr[n];
            var lens = new UIntPtr[n];
            try
            {
                for (int i = 0; i < n; i++)
                {
                    var r = records[i];
                    if (r == null) throw new ArgumentNullException("records", "records[" + i + "] is null");
                    handles[i] = GCHandle.Alloc(r, GCHandleType.Pinned);
                    ptrs[i] = handles[i].AddrOfPinnedObject();
                    lens[i] = new UIntPtr((uint)r.Length);
                }
                var w = new AcWorld();
                ulong v;
                Native.Check(Native.ra_ac_world_new_records(ptrs, lens, new UIntPtr((uint)n), out v));
                w.h.Set(v);
                return w;
            }
            finally
            {
                foreach (var g in handles)
                    if (g.IsAllocated) g.Free();
            }
        }

        /// <summary>The defaults of a new creature (id 0 = index + 1).</summary>
        public static AcCreatureDesc DefaultDesc()
        {
            Native.EnsureLoaded();
            AcCreatureDesc d;
            Native.Check(Native.ra_ac_creature_desc_default(out d));
            return d;
        }

        /// <summary>ACE's default MovementParameters for move-to and turn-to.</summary>
        public static AcMoveParams DefaultMoveParams()
        {
            Native.EnsureLoaded();
            AcMoveParams p;
            Native.Check(Native.ra_ac_move_params_default(out p));
            return p;
        }

        /// <summary>The defaults of DoMotion's parameters (speed 1, ...).</summary>
        public static AcMotionParams DefaultMotionParams()
        {
            Native.EnsureLoaded();
            AcMotionParams p;
            Native.Check(Native.ra_ac_motion_params_default(out p));
            return p;
        }

        /// <summary>A creature with every default on motion table tableId; its index.</summary>
        public uint AddCreature(uint tableId)
        {
            uint i;
            Native.Check(Native.ra_ac_world_add_creature(h.Value, tableId, IntPtr.Zero, out i));
            return i;
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

        /// <summary>How many creature indices the world has issued (removed ones included).</summary>
        public int CreatureCount
        {
            get { uint n; Native.Check(Native.ra_ac_world_creature_count(h.Value, out n)); return (int)n; }
        }

        /// <summary>The world clock in seconds (starts at 100).</summary>
        public double Clock
        {
            get { double c; Native.Check(Native.ra_ac_world_clock(h.Value, out c)); return c; }
        }

        // ---- motion commands ----

        public void DoMotion(uint creature, MotionCommand command) { Native.Check(Native.ra_ac_do_motion(h.Value, creature, (uint)command, IntPtr.Zero)); }
        public void DoMotion(uint creature, MotionCommand command, AcMotionParams p) { Native.Check(Native.ra_ac_do_motion(h.Value, creature, (uint)command, ref p)); }
        public void DoMotion(uint creature, uint command) { DoMotion(creature, (MotionCommand)command); }
        public void StopMotion(uint creature, MotionCommand command) { Native.Check(Native.ra_ac_stop_motion(h.Value, creature, (uint)command, IntPtr.Zero)); }
        public void StopMotion(uint creature, MotionCommand command, AcMotionParams p) { Native.Check(Native.ra_ac_stop_motion(h.Value, creature, (uint)command, ref p)); }
        public void StopCompletely(uint creature) { Native.Check(Native.ra_ac_stop_completely(h.Value, creature)); }
        public void SetHoldRun(uint creature, bool run) { Native.Check(Native.ra_ac_set_hold_run(h.Value, creature, (byte)(run ? 1 : 0))); }
        public void SetRunRate(uint creature, float rate) { Native.Check(Native.ra_ac_set_run_rate(h.Value, creature, rate)); }
        /// <summary>OnMoveToState: the server applying a client's raw motion state.</summary>
        public void MoveToState(uint creature, AcRawState raw, bool standingLongJump) { Native.Check(Native.ra_ac_move_to_state(h.Value, creature, ref raw, (byte)(standingLongJump ? 1 : 0))); }
        /// <summary>Contact, walkable ground and cell membership; null keeps a flag.</summary>
        public void SetState(uint creature, bool? contact, bool? onWalkable, bool? inCell)
        {
            Native.Check(Native.ra_ac_set_state(h.Value, creature, Tri(contact), Tri(onWalkable), Tri(inCell)));
        }
        static sbyte Tri(bool? v) { return v.HasValue ? (sbyte)(v.Value ? 1 : 0) : (sbyte)(-1); }
        /// <summary>InterpolateTo: a server correction the creature glides to.</summary>
        public void InterpolateTo(uint creature, AcFrame frame, bool keepHeading) { Native.Check(Native.ra_ac_interpolate_to(h.Value, creature, ref frame, (byte)(keepHeading ? 1 : 0))); }
        /// <summary>MoveOrTeleport; playerDistance below 0 means no player near. True
        /// when the update was taken.</summary>
        public bool MoveOrTeleport(uint creature, AcFrame frame, int timestamp, bool contact, float playerDistance)
        {
            byte moved;
            Native.Check(Native.ra_ac_move_or_teleport(h.Value, creature, ref frame, timestamp, (byte)(contact ? 1 : 0), playerDistance, out moved));
            return moved != 0;
        }

        // ---- ticks ----

        /// <summary>One quantum for one creature (the world clock does not move).</summary>
        public void Tick(uint creature, double quantum) { Native.Check(Native.ra_ac_tick(h.Value, creature, quantum)); }
        /// <summary>The clock advances by quantum, then every creature moves one quantum
        /// (the batch call).</summary>
        public void TickAll(double quantum) { Native.Check(Native.ra_ac_world_tick(h.Value, quantum)); }
        /// <summary>PhysicsObj.update_object at clock now, ACE's quantum rules; how many
        /// quanta ran.</summary>
        public uint UpdateObject(uint creature, double now) { uint q; Native.Check(Native.ra_ac_update_object(h.Value, creature, now, out q)); return q; }

        // ---- the server loop ----

        /// <summary>update_object_server as ACE's Player_Tick calls it, with the client's
        /// requested position; ACE's answer (the move was made).</summary>
        public bool UpdateObjectServer(uint creature, double now, AcPosition request, bool forcePos)
        {
            byte ok;
            Native.Check(Native.ra_ac_update_object_server(h.Value, creature, now, ref request, (byte)(forcePos ? 1 : 0), out ok));
            return ok != 0;
        }
        /// <summary>update_object_server keeping the last requested position.</summary>
        public bool UpdateObjectServer(uint creature, double now, bool forcePos)
        {
            byte ok;
            Native.Check(Native.ra_ac_update_object_server(h.Value, creature, now, IntPtr.Zero, (byte)(forcePos ? 1 : 0), out ok));
            return ok != 0;
        }
        /// <summary>update_object_server_new: the gap simulated in quanta, then the request.</summary>
        public bool UpdateObjectServerNew(uint creature, double now, AcPosition request, bool forcePos)
        {
            byte ok;
            Native.Check(Native.ra_ac_update_object_server_new(h.Value, creature, now, ref request, (byte)(forcePos ? 1 : 0), out ok));
            return ok != 0;
        }
        public bool UpdateObjectServerNew(uint creature, double now, bool forcePos)
        {
            byte ok;
            Native.Check(Native.ra_ac_update_object_server_new(h.Value, creature, now, IntPtr.Zero, (byte)(forcePos ? 1 : 0), out ok));
            return ok != 0;
        }
        /// <summary>The weenie's jump answers: a player's Jump skill (below 0: none), its
        /// burden (fraction of capacity) and JumpStaminaCost (0 refuses the client jump).</summary>
        public void SetJumpAnswers(uint creature, int jumpSkill, float burden, float staminaCost) { Native.Check(Native.ra_ac_set_jump_answers(h.Value, creature, jumpSkill, burden, staminaCost)); }
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

        // ---- several objects ----

        // Move-to: the mover by index, the target by object id (as ACE names it).
        public void MoveToObject(uint creature, uint targetId, AcMoveParams p) { Native.Check(Native.ra_ac_move_to_object(h.Value, creature, targetId, ref p)); }
        public void MoveToPosition(uint creature, AcFrame frame, AcMoveParams p) { Native.Check(Native.ra_ac_move_to_position(h.Value, creature, ref frame, ref p)); }
        public void TurnToObject(uint creature, uint targetId, AcMoveParams p) { Native.Check(Native.ra_ac_turn_to_object(h.Value, creature, targetId, ref p)); }
        /// <summary>Turn to p.DesiredHeading (degrees).</summary>
        public void TurnToHeading(uint creature, AcMoveParams p) { Native.Check(Native.ra_ac_turn_to_heading(h.Value, creature, ref p)); }
        public void CancelMoveTo(uint creature, WeenieError error) { Native.Check(Native.ra_ac_cancel_moveto(h.Value, creature, (uint)error)); }
        public void StickTo(uint creature, uint targetId) { Native.Check(Native.ra_ac_stick_to(h.Value, creature, targetId)); }
        public void Unstick(uint creature) { Native.Check(Native.ra_ac_unstick(h.Value, creature)); }
        public void ConstrainTo(uint creature, AcFrame frame, float start, float max) { Native.Check(Native.ra_ac_constrain_to(h.Value, creature, ref frame, start, max)); }
        public void Unconstrain(uint creature) { Native.Check(Native.ra_ac_unconstrain(h.Value, creature)); }
        /// <summary>Teleport a creature, keeping the velocity its watchers extrapolate from.</summary>
        public void MoveObject(uint creature, AcFrame frame) { Native.Check(Native.ra_ac_move_object(h.Value, creature, ref frame, IntPtr.Zero)); }
        public void MoveObject(uint creature, AcFrame frame, Vec3 velocity) { Native.Check(Native.ra_ac_move_object(h.Value, creature, ref frame, ref velocity)); }
        public void HandleTargetting(uint creature) { Native.Check(Native.ra_ac_handle_targetting(h.Value, creature)); }
        public void NotifyVoyeurs(uint creature, TargetStatus status) { Native.Check(Native.ra_ac_notify_voyeurs(h.Value, creature, (uint)status)); }

        public AcMoveToInfo MoveToInfo(uint creature)
        {
            AcMoveToInfo i;
            Native.Check(Native.ra_ac_moveto_info(h.Value, creature, out i));
            return i;
        }

        // ---- reading state ----

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
            if (output == null) throw new ArgumentNullException("output");
            return Positions(new Span<AcPosition>(output));
        }

        /// <summary>Every creature's position into output, without allocating; the
        /// number written. Throws BufferTooSmall when output is shorter than
        /// CreatureCount.</summary>
        public unsafe int Positions(Span<AcPosition> output)
        {
            UIntPtr n;
            fixed (AcPosition* p = &MemoryMarshal.GetReference(output))
                Native.Check(Native.ra_ac_world_positions(h.Value, p, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        /// <summary>The creature's part frames now (one per part, in its parent's
        /// coordinates) into output, without allocating; the number written (State's
        /// PartCount tells how many there are).</summary>
        public unsafe int PartFrames(uint creature, Span<AcFrame> output)
        {
            UIntPtr n;
            fixed (AcFrame* p = &MemoryMarshal.GetReference(output))
                Native.Check(Native.ra_ac_part_frames(h.Value, creature, p, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        // ---- host physics (docs/embedding.md "Host physics") ----

        /// <summary>Begin a two-phase tick: the clock advances by quantum and the
        /// creatures take their position step up to the first batch of proposals; its
        /// size (0 when nothing moved: call Commit once to complete the tick).</summary>
        public int Propose(double quantum)
        {
            UIntPtr n;
            Native.Check(Native.ra_ac_world_tick_propose(h.Value, quantum, out n));
            return (int)n.ToUInt64();
        }

        /// <summary>The current batch's proposals into output, without allocating; the
        /// number written. Throws BufferTooSmall when output is shorter than the batch
        /// (Propose and Commit return its size).</summary>
        public unsafe int Proposals(Span<AcProposal> output)
        {
            UIntPtr n;
            fixed (AcProposal* p = &MemoryMarshal.GetReference(output))
                Native.Check(Native.ra_ac_world_proposals(h.Value, p, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        /// <summary>Put the creature at to instead of its proposal (a wall, a new cell
        /// or landblock); checked as every frame is, and the cell must not be 0.</summary>
        public void Correct(uint creature, AcPosition to) { Native.Check(Native.ra_ac_world_correct(h.Value, creature, ref to)); }

        /// <summary>Refuse the creature's move: its origin stays, its new orientation is
        /// kept, its velocity becomes 0.</summary>
        public void Refuse(uint creature) { Native.Check(Native.ra_ac_world_refuse(h.Value, creature)); }

        /// <summary>ACE's outdoor landblock rule on every outdoor proposal of the batch
        /// (a move past the map's edge is refused).</summary>
        public void ApplyOutdoorRule() { Native.Check(Native.ra_ac_world_apply_outdoor_rule(h.Value)); }

        /// <summary>Commit the current batch and go on; true when the tick is complete,
        /// false when the next batch waits (its size in next).</summary>
        public bool Commit(out int next)
        {
            byte done;
            UIntPtr n;
            Native.Check(Native.ra_ac_world_tick_commit(h.Value, out done, out n));
            next = (int)n.ToUInt64();
            return done == 1;
        }

        /// <summary>ACE's LandDefs.AdjustToOutside: the outdoor cell origin (in cell's
        /// landblock coordinates) lies in and the origin brought into that landblock;
        /// false past the map's edge or for a cell id out of range.</summary>
        public static bool AdjustToOutside(uint cell, Vec3 origin, out uint outCell, out Vec3 outOrigin)
        {
            Native.EnsureLoaded();
            Native.Check(Native.ra_ac_adjust_to_outside(cell, ref origin, out outCell, out outOrigin));
            return outCell != 0;
        }

        // ---- events ----

        /// <summary>Record events for every creature, present and future (off by default).</summary>
        public bool EventsEnabled
        {
            set { Native.Check(Native.ra_ac_world_set_events(h.Value, (byte)(value ? 1 : 0))); }
        }

        /// <summary>Drain the events of every creature into output (creature by creature
        /// in update order, each creature's in the order the engine raised them); the
        /// number written. Throws BufferTooSmall, draining nothing, when they do not fit.
        /// Allocates nothing.</summary>
        public unsafe int DrainEvents(Span<AcEvent> output)
        {
            UIntPtr n;
            fixed (AcEvent* p = &MemoryMarshal.GetReference(output))
                Native.Check(Native.ra_ac_world_events(h.Value, p, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        /// <summary>Drain the events into into (cleared first), through a buffer the world
        /// keeps: a steady tick allocates only if the list or the buffer must grow.</summary>
        public unsafe void DrainEvents(List<AcEvent> into)
        {
            if (into == null) throw new ArgumentNullException("into");
            into.Clear();
            lock (h)
            {
                UIntPtr n;
                while (true)
                {
                    Status s;
                    fixed (AcEvent* p = eventBuffer)
                        s = Native.ra_ac_world_events(h.Value, p, new UIntPtr((uint)eventBuffer.Length), out n);
                    if (s != Status.BufferTooSmall) { Native.Check(s); break; }
                    eventBuffer = new AcEvent[Math.Max((int)n.ToUInt64(), 2 * eventBuffer.Length)];
                }
                int count = (int)n.ToUInt64();
                for (int i = 0; i < count; i++) into.Add(eventBuffer[i]);
            }
        }

        /// <summary>The payload bytes of an AcEvent of kind Hook.</summary>
        public byte[] HookPayload(uint creature, AcEvent hook)
        {
            UIntPtr n;
            var s = Native.ra_ac_hook_payload(h.Value, creature, hook.B, hook.Frame, hook.Hook, null, UIntPtr.Zero, out n);
            if (s != Status.BufferTooSmall) Native.Check(s);
            var b = new byte[(int)n.ToUInt64()];
            if (b.Length > 0)
                Native.Check(Native.ra_ac_hook_payload(h.Value, creature, hook.B, hook.Frame, hook.Hook, b, n, out n));
            return b;
        }

        // ---- length queries (ACE's GetAnimationLength family) ----

        /// <summary>Seconds of one pass of cycle motion in style at speed.</summary>
        public float CycleLength(uint creature, MotionCommand style, MotionCommand motion, float speed) { float v; Native.Check(Native.ra_ac_cycle_length(h.Value, creature, (uint)style, (uint)motion, speed, out v)); return v; }
        /// <summary>Seconds of the link from substate from to motion to at speed.</summary>
        public float LinkLength(uint creature, MotionCommand style, MotionCommand from, MotionCommand to, float speed) { float v; Native.Check(Native.ra_ac_link_length(h.Value, creature, (uint)style, (uint)from, (uint)to, speed, out v)); return v; }
        /// <summary>Seconds motion plays from style's default substate (an action: until its MotionDone).</summary>
        public float AnimationLength(uint creature, MotionCommand style, MotionCommand motion, float speed) { float v; Native.Check(Native.ra_ac_animation_length(h.Value, creature, (uint)style, (uint)motion, speed, out v)); return v; }

        // ---- messages ----

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
        /// <summary>The late joiner's MovementData: the creature's whole current state
        /// for a client that has just met it (its sequences do not move).</summary>
        public byte[] MovementDataForLateJoiner(uint creature)
        {
            UIntPtr n;
            var s = Native.ra_ac_movement_data_for_late_joiner(h.Value, creature, null, UIntPtr.Zero, out n);
            if (s != Status.BufferTooSmall) Native.Check(s);
            var b = new byte[(int)n.ToUInt64()];
            Native.Check(Native.ra_ac_movement_data_for_late_joiner(h.Value, creature, b, n, out n));
            return b;
        }
        /// <summary>Apply a client's MoveToState bytes; bad bytes throw InvalidArgument
        /// naming the byte offset.</summary>
        public void ApplyMoveToState(uint creature, byte[] bytes) { Native.NotNull(bytes, "bytes"); Native.Check(Native.ra_ac_apply_move_to_state(h.Value, creature, bytes, Native.Len(bytes))); }
        /// <summary>Apply a client's JumpPack bytes (the server's jump).</summary>
        public void ApplyJumpPack(uint creature, byte[] bytes) { Native.NotNull(bytes, "bytes"); Native.Check(Native.ra_ac_apply_jump_pack(h.Value, creature, bytes, Native.Len(bytes))); }
        /// <summary>Apply received MovementData bytes to the creature (a remote copy).</summary>
        public void ApplyMovementData(uint creature, byte[] bytes) { Native.NotNull(bytes, "bytes"); Native.Check(Native.ra_ac_apply_movement_data(h.Value, creature, bytes, Native.Len(bytes))); }

        public void Dispose() { h.Dispose(); }
    }
}
