// One run of what a server does with a creature: a chase of a walking target with the
// events drained every tick (the chaser's MotionDone events and its move-to completion
// with the WeenieError, tick by tick), its part frames read into stack memory, the
// walking target moved to another world where it walks on, and the chaser's jump once
// its jump answers are set. The chase is the oracle_chase_walking_target conformance
// scenario: object 2 walks along +x from (0, 8), object 1 runs to it (walking not
// allowed), 60 ticks of 0.1 s.
//   mono Sample.exe --full-chase RECORD_DIR
using System;
using System.Numerics;
using Retroanim;

static class FullChase
{
    const uint Humanoid = 0x09000001u;

    // The chaser's events drained since the last call, printed with the tick number;
    // the other creatures' are drained too, and counted.
    static int Drain(AcWorld w, uint chaser, int tick, Span<AcEvent> buffer)
    {
        int n = w.DrainEvents(buffer);
        int others = 0;
        for (int i = 0; i < n; i++)
        {
            var e = buffer[i];
            if (e.Creature != chaser)
                others++;
            else if (e.Kind == AcEventKind.MoveComplete)
                Console.WriteLine("tick " + tick + " MoveComplete " + (WeenieError)e.A);
            else if (e.Kind == AcEventKind.MotionDone)
                Console.WriteLine("tick " + tick + " MotionDone " + (MotionCommand)e.A + " " + (e.B == 1));
        }
        return others;
    }

    static string Bits(Vector3 v)
    {
        return Program.Bits(v.X) + " " + Program.Bits(v.Y) + " " + Program.Bits(v.Z);
    }

    internal static int Run(string records)
    {
        try
        {
            using (var a = AcWorld.FromDirectory(records))
            using (var b = AcWorld.FromDirectory(records))
            {
                a.EventsEnabled = true;
                b.EventsEnabled = true;
                var d = AcWorld.DefaultDesc();
                d.Id = 1;
                d.Radius = 0.5f;
                d.Height = 1.8f;
                var prey = d;
                prey.Id = 2;
                prey.Frame = new AcFrame(new Vector3(0f, 8f, 0f), new Quaternion(0f, 0f, -0.7071068f, 0.7071068f));
                uint chaser = a.AddCreature(Humanoid, d);
                uint walker = a.AddCreature(Humanoid, prey);
                a.DoMotion(walker, MotionCommand.WalkForward);
                var p = AcWorld.DefaultMoveParams();
                p.CanWalk = false;
                a.MoveToObject(chaser, 2, p);

                Span<AcEvent> events = stackalloc AcEvent[64];
                int others = Drain(a, chaser, 0, events);
                for (int k = 1; k <= 60; k++)
                {
                    a.TickAll(0.1);
                    others += Drain(a, chaser, k, events);
                }
                Console.WriteLine("walker events " + (others > 0));
                Console.WriteLine("chaser " + Bits(a.State(chaser).Position.Frame.Origin.ToVector3()));
                Console.WriteLine("walker " + Bits(a.State(walker).Position.Frame.Origin.ToVector3()));

                Span<AcFrame> frames = stackalloc AcFrame[16];
                a.PartFrames(chaser, frames);
                long before = GC.GetAllocatedBytesForCurrentThread();
                int parts = 0;
                for (int k = 0; k < 100; k++)
                    parts = a.PartFrames(chaser, frames);
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Vector3 part0 = frames[0].Origin;
                Console.WriteLine("part frames " + parts + " first " + part0.X + " " + part0.Y + " " + part0.Z + " allocated " + allocated);

                uint moved = a.Transfer(walker, b);
                for (int k = 0; k < 10; k++)
                    b.TickAll(0.1);
                var s = b.State(moved);
                Console.WriteLine("transferred index " + moved + " id " + b.MoveToInfo(moved).Id + " " + s.Motion + " " + Bits(s.Position.Frame.Origin.ToVector3()));

                try
                {
                    a.Jump(chaser, 1f);
                    Console.WriteLine("jump allowed");
                }
                catch (RetroanimException e)
                {
                    Console.WriteLine("jump refused " + (WeenieError)e.Code);
                }
                a.SetJumpAnswers(chaser, 200, 0f, 1f);
                a.Jump(chaser, 1f);
                a.TickAll(0.05);
                Console.WriteLine("jump up " + (a.State(chaser).Position.Frame.Origin.Z > 0.3f));
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
