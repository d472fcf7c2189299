// Conversions between the ABI's value types and System.Numerics, which ACE uses.
using System.Numerics;

namespace Retroanim
{
    public partial struct Vec3
    {
        public Vec3(float x, float y, float z) { X = x; Y = y; Z = z; }
        public Vector3 ToVector3() { return new Vector3(X, Y, Z); }
        public static Vec3 FromVector3(Vector3 v) { return new Vec3(v.X, v.Y, v.Z); }
        public static implicit operator Vector3(Vec3 v) { return v.ToVector3(); }
        public static implicit operator Vec3(Vector3 v) { return FromVector3(v); }
    }

    public partial struct Quat
    {
        /// <summary>w first, as ACE stores it.</summary>
        public Quat(float w, float x, float y, float z) { W = w; X = x; Y = y; Z = z; }
        public static readonly Quat Identity = new Quat(1, 0, 0, 0);
        public Quaternion ToQuaternion() { return new Quaternion(X, Y, Z, W); }
        public static Quat FromQuaternion(Quaternion q) { return new Quat(q.W, q.X, q.Y, q.Z); }
        public static implicit operator Quaternion(Quat q) { return q.ToQuaternion(); }
        public static implicit operator Quat(Quaternion q) { return FromQuaternion(q); }
    }

    public partial struct AcFrame
    {
        public AcFrame(Vector3 origin, Quaternion orientation)
        {
            Origin = origin;
            Orientation = orientation;
        }
    }

    public partial struct AcPosition
    {
        public AcPosition(uint cell, Vector3 origin, Quaternion orientation)
        {
            Cell = cell;
            Frame = new AcFrame(origin, orientation);
        }
    }
}
