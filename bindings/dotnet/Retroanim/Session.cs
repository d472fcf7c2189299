using System;

namespace Retroanim
{
    /// <summary>A scenario loaded into its engine's conformance simulation. Each
    /// ApplyJson returns exactly the trace line `retroanim run` prints for that step.
    /// <para>Thread safety: every method may be called from any thread; calls on
    /// sessions are serialised by one native lock for all of them. Dispose frees the
    /// native session; a call racing with it throws, never crashes.</para></summary>
    public sealed class ScenarioSession : IDisposable
    {
        readonly SessionHandle h = new SessionHandle();

        ScenarioSession() { }

        /// <summary>Load a scenario file (assets resolve relative to its folder).</summary>
        public static ScenarioSession Open(string path)
        {
            Native.NotNull(path, "path");
            Native.EnsureLoaded();
            var s = new ScenarioSession();
            ulong v;
            Native.Check(Native.ra_session_open(Native.Utf8z(path), out v));
            s.h.Set(v);
            return s;
        }

        /// <summary>Load scenario JSON from memory; baseDir resolves its asset paths.</summary>
        public static ScenarioSession FromJson(string json, string label, string baseDir)
        {
            Native.NotNull(json, "json");
            Native.NotNull(label, "label");
            Native.NotNull(baseDir, "baseDir");
            Native.EnsureLoaded();
            var s = new ScenarioSession();
            var bytes = System.Text.Encoding.UTF8.GetBytes(json);
            ulong v;
            Native.Check(Native.ra_session_new(bytes, new UIntPtr((ulong)bytes.Length),
                Native.Utf8z(label), Native.Utf8z(baseDir), out v));
            s.h.Set(v);
            return s;
        }

        public string Engine
        {
            get { IntPtr p; Native.Check(Native.ra_session_engine(h.Value, out p)); return Native.TakeString(p); }
        }

        /// <summary>Steps that can be applied (0 for a rejected actor set).</summary>
        public int StepCount
        {
            get { UIntPtr n; Native.Check(Native.ra_session_step_count(h.Value, out n)); return checked((int)n.ToUInt64()); }
        }

        /// <summary>The scenario's own step i (0-based) as JSON.</summary>
        public string StepJson(int i)
        {
            IntPtr p;
            Native.Check(Native.ra_session_step_json(h.Value, new UIntPtr((uint)i), out p));
            return Native.TakeString(p);
        }

        /// <summary>Trace line 0: the state after setup.</summary>
        public string SnapshotJson()
        {
            IntPtr p;
            Native.Check(Native.ra_session_snapshot_json(h.Value, out p));
            return Native.TakeString(p);
        }

        /// <summary>Apply one step given as JSON; its trace line.</summary>
        public string ApplyJson(string step)
        {
            Native.NotNull(step, "step");
            var bytes = System.Text.Encoding.UTF8.GetBytes(step);
            IntPtr p;
            Native.Check(Native.ra_session_apply_json(h.Value, bytes, new UIntPtr((ulong)bytes.Length), out p));
            return Native.TakeString(p);
        }

        public void Dispose() { h.Dispose(); }
    }
}
