// Console sample: play a retroanim scenario through the .NET binding and print its
// trace, byte for byte what `retroanim run SCENARIO` prints.
//   mono Sample.exe SCENARIO.json
using System;
using System.IO;
using System.Text;
using Retroanim;

static class Program
{
    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: Sample SCENARIO.json");
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
}
