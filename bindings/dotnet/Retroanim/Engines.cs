using System;

namespace Retroanim
{
    /// <summary>A HERC shape instance with its animation threads.
    /// <para>Thread safety: every method may be called from any thread; calls on HERC
    /// shapes are serialised by one native lock for all of them (give heavy HERC work
    /// its own process or accept the serialisation). Dispose frees the native shape; a
    /// call racing with it throws, never crashes.</para></summary>
    public sealed class HercShape : IDisposable
    {
        readonly HercShapeHandle h = new HercShapeHandle();

        HercShape() { }

        static HercShape Wrap(Func<ulong> create)
        {
            var s = new HercShape();
            s.h.Set(create());
            return s;
        }

        /// <summary>A shape from a JSON shape file.</summary>
        public static HercShape FromJsonFile(string path)
        {
            Native.NotNull(path, "path");
            Native.EnsureLoaded();
            return Wrap(() => { ulong v; Native.Check(Native.ra_herc_shape_new_json_file(Native.Utf8z(path), out v)); return v; });
        }

        /// <summary>A shape from JSON text.</summary>
        public static HercShape FromJson(string json)
        {
            Native.NotNull(json, "json");
            Native.EnsureLoaded();
            var b = System.Text.Encoding.UTF8.GetBytes(json);
            return Wrap(() => { ulong v; Native.Check(Native.ra_herc_shape_new_json(b, Native.Len(b), out v)); return v; });
        }

        /// <summary>A shape from entry entry of a VOL archive file.</summary>
        public static HercShape FromVolFile(string path, string entry)
        {
            Native.NotNull(path, "path");
            Native.NotNull(entry, "entry");
            Native.EnsureLoaded();
            return Wrap(() => { ulong v; Native.Check(Native.ra_herc_shape_new_vol_file(Native.Utf8z(path), Native.Utf8z(entry), out v)); return v; });
        }

        /// <summary>A shape from entry entry of VOL archive bytes.</summary>
        public static HercShape FromVolBytes(byte[] bytes, string entry)
        {
            Native.NotNull(bytes, "bytes");
            Native.NotNull(entry, "entry");
            Native.EnsureLoaded();
            return Wrap(() => { ulong v; Native.Check(Native.ra_herc_shape_new_bytes(bytes, Native.Len(bytes), Native.Utf8z(entry), out v)); return v; });
        }

        public short SequenceNamed(string name)
        {
            Native.NotNull(name, "name");
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

        /// <summary>Where the machine is: euler angles and position.</summary>
        public HercObject Object() { HercObject o; Native.Check(Native.ra_herc_object(h.Value, out o)); return o; }

        /// <summary>Every part's Q14 world matrix, indexed by node (a new array).</summary>
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

        /// <summary>Every part's matrix into a caller-owned array, reused between calls;
        /// the number written.</summary>
        public int PartMatrices(HercMatrix[] output)
        {
            if (output == null) throw new ArgumentNullException("output");
            UIntPtr n;
            Native.Check(Native.ra_herc_part_matrices(h.Value, output, new UIntPtr((uint)output.Length), out n));
            return (int)n.ToUInt64();
        }

        public void Dispose() { h.Dispose(); }
    }

    /// <summary>A placed actor set being played.
    /// <para>Thread safety: every method may be called from any thread; calls on actor
    /// stages are serialised by one native lock for all of them. Dispose frees the
    /// native stage; a call racing with it throws, never crashes.</para></summary>
    public sealed class ActorStage : IDisposable
    {
        readonly ActorStageHandle h = new ActorStageHandle();

        ActorStage() { }

        /// <summary>The defaults of a new stage.</summary>
        public static ActorOptions DefaultOptions()
        {
            Native.EnsureLoaded();
            ActorOptions o;
            Native.Check(Native.ra_actor_options_default(out o));
            return o;
        }

        /// <summary>A stage from an actor-set file, default options.</summary>
        public static ActorStage FromFile(string path)
        {
            Native.NotNull(path, "path");
            Native.EnsureLoaded();
            var s = new ActorStage();
            ulong v;
            Native.Check(Native.ra_actor_stage_new_file(Native.Utf8z(path), IntPtr.Zero, out v));
            s.h.Set(v);
            return s;
        }

        /// <summary>A stage from an actor-set file with options.</summary>
        public static ActorStage FromFile(string path, ActorOptions options)
        {
            Native.NotNull(path, "path");
            Native.EnsureLoaded();
            var s = new ActorStage();
            ulong v;
            Native.Check(Native.ra_actor_stage_new_file(Native.Utf8z(path), ref options, out v));
            s.h.Set(v);
            return s;
        }

        /// <summary>A stage from actor-set JSON with options.</summary>
        public static ActorStage FromJson(string json, ActorOptions options)
        {
            Native.NotNull(json, "json");
            Native.EnsureLoaded();
            var b = System.Text.Encoding.UTF8.GetBytes(json);
            var s = new ActorStage();
            ulong v;
            Native.Check(Native.ra_actor_stage_new_json(b, Native.Len(b), ref options, out v));
            s.h.Set(v);
            return s;
        }

        /// <summary>An ordinary request; the RaActorOutcome (0 accepted, ...).</summary>
        public int Request(string actor, byte group, byte modifier) { Native.NotNull(actor, "actor"); int o; Native.Check(Native.ra_actor_request(h.Value, Native.Utf8z(actor), group, modifier, out o)); return o; }
        public int ForceRequest(string actor, byte group, byte modifier) { Native.NotNull(actor, "actor"); int o; Native.Check(Native.ra_actor_force_request(h.Value, Native.Utf8z(actor), group, modifier, out o)); return o; }
        /// <summary>group -1 clears the state default.</summary>
        public void SetDefault(string actor, int group) { Native.NotNull(actor, "actor"); Native.Check(Native.ra_actor_set_default(h.Value, Native.Utf8z(actor), group)); }
        public void SetView(long x, long y) { Native.Check(Native.ra_actor_set_view(h.Value, x, y)); }
        public void Update() { Native.Check(Native.ra_actor_update(h.Value)); }

        /// <summary>One actor's pose.</summary>
        public ActorFrame Frame(string actor) { Native.NotNull(actor, "actor"); ActorFrame f; Native.Check(Native.ra_actor_frame(h.Value, Native.Utf8z(actor), out f)); return f; }

        /// <summary>Every actor's pose (a new array).</summary>
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
