// One line per row of the door's rules (docs/limits.md) through the .NET binding:
// the status and the message, which must be the C door's, word for word.
using System;
using System.Numerics;
using Retroanim;

static class Limits
{
    internal static void Row(string name, Action call)
    {
        try
        {
            call();
            Console.WriteLine(name + ": accepted");
        }
        catch (RetroanimException e)
        {
            Console.WriteLine(name + ": " + e.Status + ": " + e.Message);
        }
    }

    internal static int Run(string records)
    {
        using (var w = AcWorld.FromDirectory(records))
        {
            var d = AcWorld.DefaultDesc();
            w.AddCreature(0x09000001u, d);
            w.AddCreature(0x09000001u, d);
            var zero = d;
            zero.Frame.Orientation = new Quat(0f, 0f, 0f, 0f);
            Row("orientation", () => w.AddCreature(0x09000001u, zero));
            Row("orientation move_to_position", () => w.MoveToPosition(0, new AcFrame(Vector3.Zero, new Quaternion(0f, 0f, 0f, 0f)), AcWorld.DefaultMoveParams()));
            Row("quantum", () => w.TickAll(1e30));
            Row("quantum negative", () => w.Tick(0, -2.5));
            Row("quantum nan", () => w.TickAll(double.NaN));
            Row("target self", () => w.MoveToObject(0, 1, AcWorld.DefaultMoveParams()));
            Row("target 0", () => w.StickTo(0, 0));
            Row("turn target self", () => w.TurnToObject(1, 2, AcWorld.DefaultMoveParams()));
            Row("server now", () => w.UpdateObjectServer(0, double.NaN, true));
            Row("speed 0", () => w.CycleLength(0, MotionCommand.NonCombat, MotionCommand.Ready, 0f));
            Row("hold key", () =>
            {
                var p = AcWorld.DefaultMotionParams();
                p.HoldKeyToApply = (HoldKey)7;
                w.DoMotion(0, MotionCommand.WalkForward, p);
            });
            Row("flags are bool", () => w.SetHoldRun(0, true));
        }
        return 0;
    }
}
