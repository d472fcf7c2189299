// The server-shaped walk-through of the binding: two landblock worlds with events on;
// a chase whose arrival comes back as a MoveComplete event; a wave timed by its length
// and reported hook by hook; the chaser's part frames read into a reused Span; a
// transfer to the other world; a player's server update and a late joiner's copy; the
// client jump once the weenie's jump answers are set; System.Numerics conversions; and
// argument checks.
using System;
using System.Collections.Generic;
using System.Numerics;
using Retroanim;

static class Embed
{
    const uint Humanoid = 0x09000001u;

    internal static int Version()
    {
        try
        {
            using (var w = AcWorld.FromDirectory("."))
                Console.WriteLine("loaded");
            return 0;
        }
        catch (RetroanimException e)
        {
            Console.WriteLine(e.Status + ": " + e.Message);
            return 1;
        }
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
                uint chaser = a.AddCreature(Humanoid, d);
                var prey = d;
                prey.Id = 2;
                prey.Frame = new AcFrame(new Vector3(0f, 6f, 0f), Quaternion.Identity);
                a.AddCreature(Humanoid, prey);
                var p = AcWorld.DefaultMoveParams();
                a.MoveToObject(chaser, 2, p);
                var events = new List<AcEvent>();
                for (int k = 0; k < 100; k++)
                {
                    a.TickAll(0.1);
                    a.DrainEvents(events);
                    foreach (var e in events)
                        if (e.Kind == AcEventKind.MoveComplete)
                            Console.WriteLine("move complete creature " + e.Creature + " " + (WeenieError)e.A);
                }

                float wave = a.AnimationLength(chaser, MotionCommand.NonCombat, MotionCommand.Wave, 1f);
                Console.WriteLine("wave length " + wave.ToString("0.000"));
                a.DoMotion(chaser, MotionCommand.Wave);
                var all = new List<AcEvent>();
                for (int k = 0; k < 30; k++)
                {
                    a.TickAll(1.0 / 30.0);
                    a.DrainEvents(events);
                    all.AddRange(events);
                }
                foreach (var e in all)
                {
                    if (e.Kind == AcEventKind.Hook)
                        Console.WriteLine("hook " + e.A + " frame " + e.Frame + (e.B != 0 ? " payload " + a.HookPayload(chaser, e).Length : ""));
                    else
                        Console.WriteLine(e.Kind + " " + (MotionCommand)e.A);
                }

                var s = a.State(chaser);
                Span<AcFrame> frames = new AcFrame[32];
                int n = a.PartFrames(chaser, frames);
                Vector3 part0 = frames[0].Origin;
                Console.WriteLine("part frames " + n + " of " + s.PartCount + " first " + part0.X.ToString("0.###") + " " + part0.Y.ToString("0.###") + " " + part0.Z.ToString("0.###"));
                Span<AcPosition> positions = new AcPosition[a.CreatureCount];
                a.Positions(positions);
                Vector3 o = positions[(int)chaser].Frame.Origin;
                Quaternion q = positions[(int)chaser].Frame.Orientation;
                Console.WriteLine("numerics " + (o == s.Position.Frame.Origin.ToVector3()) + " " + (q.Length() > 0.99f));

                uint moved = a.Transfer(chaser, b);
                b.DoMotion(moved, MotionCommand.WalkForward);
                for (int k = 0; k < 10; k++) b.TickAll(0.1);
                b.DrainEvents(events);
                Console.WriteLine("transferred to index " + moved + " walking " + b.State(moved).Motion + " events " + (events.Count > 0));

                uint player = b.AddCreature(Humanoid);
                var req = new AcPosition(0x7D640013u, new Vector3(0f, 0f, 0f), Quaternion.Identity);
                b.UpdateObjectServer(player, b.Clock, req, true);
                req.Frame.Origin = new Vector3(0f, 1f, 0f);
                bool ok = b.UpdateObjectServer(player, b.Clock + 0.5, req, true);
                Console.WriteLine("server update " + ok + " y " + b.State(player).Position.Frame.Origin.Y);
                uint copy = b.AddCreature(Humanoid);
                b.ApplyMovementData(copy, b.MovementDataForLateJoiner(moved));
                Console.WriteLine("late joiner " + b.State(copy).Motion);

                try
                {
                    b.Jump(player, 1f);
                }
                catch (RetroanimException e)
                {
                    Console.WriteLine("jump refused " + (WeenieError)e.Code);
                }
                b.SetJumpAnswers(player, 200, 0f, 1f);
                b.Jump(player, 1f);
                b.TickAll(0.05);
                Console.WriteLine("jump up " + (b.State(player).Position.Frame.Origin.Z > 0.3f));

                try
                {
                    b.Positions((AcPosition[])null);
                }
                catch (ArgumentNullException e)
                {
                    Console.WriteLine("null " + e.GetType().Name + " " + e.ParamName);
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
