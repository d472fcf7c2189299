// Console sample: play a retroanim scenario through the .NET binding and print its
// trace, byte for byte what `retroanim run SCENARIO` prints; or, with --chase, run the
// oracle_chase_walking_target conformance scenario through the typed move-to methods
// and print each object's final origin as f32 bit patterns.
//   mono Sample.exe SCENARIO.json
//   mono Sample.exe --chase RECORD_DIR
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
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: Sample SCENARIO.json | Sample --chase RECORD_DIR");
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

    static string Bits(float f)
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
                p.CanWalk = 0;
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
}
