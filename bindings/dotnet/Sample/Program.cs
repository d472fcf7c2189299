// Console sample: play a retroanim scenario through the .NET binding and print its
// trace, byte for byte what `retroanim run SCENARIO` prints; or, with --chase, run the
// oracle_chase_walking_target conformance scenario through the typed move-to methods
// and print each object's final origin as f32 bit patterns; or, with --transfer, move a
// walking creature to another world and compare it with a twin that stayed; or, with
// --wire, copy a walker's MovementData bytes to a second creature and jump; with
// --embed, the server-shaped walk-through (Embed.cs); with --full-chase, a chase with
// events, part frames, a transfer and a jump in one run (FullChase.cs); with --limits,
// the door's rules (Limits.cs); with --version, the ABI check at load.
//   mono Sample.exe SCENARIO.json
//   mono Sample.exe --chase RECORD_DIR
//   mono Sample.exe --transfer RECORD_DIR
//   mono Sample.exe --wire RECORD_DIR
using System;
using System.IO;
using System.Text;
using Retroanim;

static class Program
{
    static int Main(string[] args)
    {
        if (args.Length == 2 && args[0] == "--chase")
            return Chase(args[1]);
        if (args.Length == 2 && args[0] == "--transfer")
            return Transfer(args[1]);
        if (args.Length == 2 && args[0] == "--wire")
            return Wire(args[1]);
        if (args.Length == 2 && args[0] == "--embed")
            return Embed.Run(args[1]);
        if (args.Length == 2 && args[0] == "--physics")
            return Physics.Run(args[1]);
        if (args.Length == 2 && args[0] == "--full-chase")
            return FullChase.Run(args[1]);
        if (args.Length == 2 && args[0] == "--limits")
            return Limits.Run(args[1]);
        if (args.Length == 1 && args[0] == "--version")
            return Embed.Version();
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: Sample SCENARIO.json | Sample --chase|--transfer|--wire|--embed|--physics|--full-chase|--limits RECORD_DIR | Sample --version");
            return 2;
        }
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        stdout.NewLine = "\n";
        try
        {
            using (var session = ScenarioSession.Open(args[0]))
            {
                stdout.WriteLine(session.SnapshotJson());
                int n = session.StepCount;
                for (int i = 0; i < n; i++)
                    stdout.WriteLine(session.ApplyJson(session.StepJson(i)));
            }
            stdout.Flush();
            return 0;
        }
        catch (RetroanimException e)
        {
            stdout.Flush();
            Console.Error.WriteLine("Sample: " + e.Status + ": " + e.Message);
            return 1;
        }
    }

    internal static string Bits(float f)
    {
        return BitConverter.ToUInt32(BitConverter.GetBytes(f), 0).ToString("x8");
    }

    // Object 2 walks along +x from (0, 8); object 1 runs to it (walking not allowed),
    // 60 ticks of 0.1 s.
    static int Chase(string records)
    {
        try
        {
            using (var w = AcWorld.FromDirectory(records))
            {
                var main = AcWorld.DefaultDesc();
                main.Id = 1;
                main.Radius = 0.5f;
                main.Height = 1.8f;
                var prey = main;
                prey.Id = 2;
                prey.Frame.Origin.Y = 8.0f;
                prey.Frame.Orientation.W = 0.7071068f;
                prey.Frame.Orientation.Z = -0.7071068f;
                uint c1 = w.AddCreature(0x09000001u, main);
                uint c2 = w.AddCreature(0x09000001u, prey);
                w.DoMotion(c2, 0x45000005u);
                var p = AcWorld.DefaultMoveParams();
                p.CanWalk = false;
                w.MoveToObject(c1, 2, p);
                int arrivals = 0;
                for (int k = 0; k < 60; k++)
                {
                    w.TickAll(0.1);
                    arrivals += (int)w.MoveToInfo(c1).Completions;
                }
                var info = w.MoveToInfo(c1);
                foreach (var c in new[] { c1, c2 })
                {
                    var o = w.State(c).Position.Frame.Origin;
                    Console.WriteLine(Bits(o.X) + " " + Bits(o.Y) + " " + Bits(o.Z));
                }
                Console.WriteLine("arrivals " + arrivals + " last " + info.LastCompletion + " moving " + info.MovingTo);
            }
            return 0;
        }
        catch (RetroanimException e)
        {
            Console.Error.WriteLine("Sample: " + e.Status + ": " + e.Message);
            return 1;
        }
    }

    static string Origin(AcWorld w, uint c)
    {
        var o = w.State(c).Position.Frame.Origin;
        return Bits(o.X) + " " + Bits(o.Y) + " " + Bits(o.Z);
    }

    // A creature walks 9 ticks in one world, moves to another holding creature 7, walks
    // 30 more ticks there beside a twin that never moved, and is then removed.
    static int Transfer(string records)
    {
        try
        {
            using (var from = AcWorld.FromDirectory(records))
            using (var to = AcWorld.FromDirectory(records))
            using (var twin = AcWorld.FromDirectory(records))
            {
                var d = AcWorld.DefaultDesc();
                d.Id = 40;
                from.AddCreature(0x09000001u, d);
                twin.AddCreature(0x09000001u, d);
                var other = d;
                other.Id = 7;
                to.AddCreature(0x09000001u, other);
                from.DoMotion(0, 0x45000005u);
                twin.DoMotion(0, 0x45000005u);
                var worlds = new[] { from, to, twin };
                for (int k = 0; k < 9; k++)
                    foreach (var w in worlds) w.TickAll(0.1);
                uint moved = from.Transfer(0, to);
                Console.WriteLine("index " + moved + " id 40 at " + to.Find(40));
                bool same = true;
                for (int k = 0; k < 30; k++)
                {
                    foreach (var w in worlds) w.TickAll(0.1);
                    same &= Origin(to, moved) == Origin(twin, 0);
                }
                Console.WriteLine("twin " + (same ? "same" : "differs") + " " + Origin(to, moved));
                to.Remove(moved);
                try
                {
                    to.State(moved);
                    Console.WriteLine("removed creature still answers");
                }
                catch (RetroanimException e)
                {
                    Console.WriteLine("removed " + e.Status);
                }
                Console.WriteLine("left in from " + from.CreatureCount + ", in to " + to.CreatureCount);
            }
            return 0;
        }
        catch (RetroanimException e)
        {
            Console.Error.WriteLine("Sample: " + e.Status + ": " + e.Message);
            return 1;
        }
    }

    // Creature 0 walks; its MovementData bytes, applied to creature 1, make 1 walk the
    // same. Then the client jump is refused, the server jump launches upwards, and
    // truncated JumpPack bytes are refused naming the byte offset.
    static int Wire(string records)
    {
        try
        {
            using (var w = AcWorld.FromDirectory(records))
            {
                var d = AcWorld.DefaultDesc();
                uint a = w.AddCreature(0x09000001u, d);
                d.Frame.Origin.X = 10f;
                uint b = w.AddCreature(0x09000001u, d);
                w.DoMotion(a, 0x45000005u);
                w.TickAll(1.0 / 30.0);
                byte[] data = w.MovementData(a, false);
                w.ApplyMovementData(b, data);
                for (int k = 0; k < 30; k++) w.TickAll(1.0 / 30.0);
                var sa = w.State(a);
                var sb = w.State(b);
                bool same = sa.Motion == sb.Motion && sa.Velocity.Y == sb.Velocity.Y && sb.Velocity.Y > 0f;
                Console.WriteLine("copy motion " + ((uint)sb.Motion).ToString("x8") + " " + (same ? "same" : "differs"));
                byte[] again = w.MovementData(b, false);
                Console.WriteLine("bytes " + (Convert.ToBase64String(again) == Convert.ToBase64String(data) ? "same" : "differ"));
                byte[] um = w.UpdateMotion(a, false);
                Console.WriteLine("update motion opcode " + BitConverter.ToUInt32(um, 0).ToString("x") + " sequence " + BitConverter.ToUInt16(um, 10));
                try
                {
                    w.Jump(a, 0.5f);
                    Console.WriteLine("client jump allowed");
                }
                catch (RetroanimException e)
                {
                    Console.WriteLine("client jump " + e.Status + " " + e.Code.ToString("x"));
                }
                var v = new Vec3 { X = 0f, Y = 0f, Z = 5f };
                w.Jump(b, 0.5f, v);
                w.Tick(b, 0.1);
                Console.WriteLine("server jump up " + (w.State(b).Velocity.Z > 4f));
                try
                {
                    w.ApplyJumpPack(a, new byte[10]);
                    Console.WriteLine("short pack accepted");
                }
                catch (RetroanimException e)
                {
                    Console.WriteLine(e.Status + ": " + e.Message);
                }
            }
            return 0;
        }
        catch (RetroanimException e)
        {
            Console.Error.WriteLine("Sample: " + e.Status + ": " + e.Message);
            return 1;
        }
    }
}
