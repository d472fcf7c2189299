using System;
using System.Runtime.InteropServices;

namespace Retroanim
{
    /// <summary>A native handle (a 64-bit number, not a pointer) owned by a SafeHandle,
    /// so it is freed exactly once even if Dispose is forgotten. The value rides in the
    /// IntPtr, which needs a 64-bit process.</summary>
    public abstract class RetroanimHandle : SafeHandle
    {
        protected RetroanimHandle() : base(IntPtr.Zero, true)
        {
            if (IntPtr.Size != 8)
                throw new PlatformNotSupportedException("retroanim handles need a 64-bit process");
        }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        internal ulong Value
        {
            get
            {
                if (IsClosed) throw new ObjectDisposedException(GetType().Name);
                return (ulong)handle.ToInt64();
            }
        }

        internal void Set(ulong value) { SetHandle(new IntPtr((long)value)); }

        protected ulong Raw { get { return (ulong)handle.ToInt64(); } }
    }

    public sealed class SessionHandle : RetroanimHandle
    {
        protected override bool ReleaseHandle() { return Native.ra_session_free(Raw) == Status.Ok; }
    }

    public sealed class AcWorldHandle : RetroanimHandle
    {
        protected override bool ReleaseHandle() { return Native.ra_ac_world_free(Raw) == Status.Ok; }
    }

    public sealed class HercShapeHandle : RetroanimHandle
    {
        protected override bool ReleaseHandle() { return Native.ra_herc_shape_free(Raw) == Status.Ok; }
    }

    public sealed class ActorStageHandle : RetroanimHandle
    {
        protected override bool ReleaseHandle() { return Native.ra_actor_stage_free(Raw) == Status.Ok; }
    }
}
