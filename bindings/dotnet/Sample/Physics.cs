// Host physics through the .NET binding (docs/embedding.md "Host physics"): a host that
// moves a walker back sees the corrected frame committed and the next tick start from
// it; a walker crossing a landblock gets the next cell with the outdoor rule; a host that
// answers nothing gets TickAll bit for bit; bad answers are refused with the C door's
// messages.
using System;
using Retroanim;

static class Physics
{
    const uint Humanoid = 0x09000001u;

    static uint Walker(AcWorld w, uint cell, float x, float y)
    {
        var d = AcWorld.DefaultDesc();
        d.Cell = cell;
        d.Frame.Origin = new Vec3(x, y, 0f);
        d.Radius = 0.5f;
        d.Height = 1.8f;
        uint c = w.AddCreature(Humanoid, d);
        w.DoMotion(c, MotionCommand.WalkForward);
        return c;
    }

    // Every creature's state and move-to progress, as one string of bits.
    static string Bits(AcWorld w)
    {
        var sb = new System.Text.StringBuilder();
        for (uint c = 0; c < (uint)w.CreatureCount; c++)
        {
            var s = w.State(c);
            var f = s.Position.Frame;
            foreach (var v in new[] { f.Origin.X, f.Origin.Y, f.Origin.Z, f.Orientation.W, f.Orientation.X, f.Orientation.Y, f.Orientation.Z, s.Velocity.X, s.Velocity.Y, s.Velocity.Z, s.FrameNumber })
                sb.Append(BitConverter.ToInt32(BitConverter.GetBytes(v), 0)).Append(',');
            var m = w.MoveToInfo(c);
            sb.Append(s.Position.Cell).Append(',').Append(s.Motion).Append(',').Append(m.MovingTo).Append(',').Append(m.Completions).Append(';');
        }
        return sb.ToString();
    }

    static AcWorld ChaseWorld(string records)
    {
        var w = AcWorld.FromDirectory(records);
        for (int i = 0; i < 9; i++)
        {
            var d = AcWorld.DefaultDesc();
            d.Frame.Origin = new Vec3((i % 3) * 3f, (i / 3) * 3f, 0f);
            d.Radius = 0.5f;
            d.Height = 1.8f;
            w.AddCreature(Humanoid, d);
        }
        // Chasers before and after their targets in the update order, and a walker.
        w.MoveToObject(1, 8, AcWorld.DefaultMoveParams());
        w.MoveToObject(7, 3, AcWorld.DefaultMoveParams());
        w.DoMotion(4, MotionCommand.WalkForward);
        return w;
    }

    internal static int Run(string records)
    {
        // Reused for every batch: reading proposals allocates nothing.
        Span<AcProposal> buf = new AcProposal[16];

        using (var w = AcWorld.FromDirectory(records))
        {
            uint c = Walker(w, 0x7D640013u, 10f, 10f);
            for (int i = 0; i < 10; i++) w.TickAll(0.05);
            int n = w.Propose(0.05);
            int got = w.Proposals(buf);
            var p = buf[0];
            var back = p.From;
            back.Frame.Origin.Y -= 0.5f;
            w.Correct(c, back);
            int next;
            bool done = w.Commit(out next);
            var s = w.State(c);
            Console.WriteLine("proposals " + n + " " + got + " creature " + p.Creature + " id " + p.Id + " forward " + (p.To.Frame.Origin.Y > p.From.Frame.Origin.Y));
            Console.WriteLine("corrected " + done + " " + (s.Position.Frame.Origin.Y == back.Frame.Origin.Y) + " velocity " + s.Velocity.Y.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture));
            w.Propose(0.05);
            w.Proposals(buf);
            Console.WriteLine("next tick from the correction " + (buf[0].From.Frame.Origin.Y == back.Frame.Origin.Y));
            w.Refuse(c);
            w.Commit(out next);
            Console.WriteLine("refused stays " + (w.State(c).Position.Frame.Origin.Y == back.Frame.Origin.Y));

            // The C door's refusals, word for word.
            w.Propose(0.05);
            w.Proposals(buf);
            var bad = buf[0].To;
            bad.Frame.Origin.X = float.NaN;
            Limits.Row("correct nan", () => w.Correct(c, bad));
            bad = buf[0].To;
            bad.Frame.Orientation = new Quat(0f, 0f, 0f, 0f);
            Limits.Row("correct orientation", () => w.Correct(c, bad));
            bad = buf[0].To;
            bad.Cell = 0;
            Limits.Row("correct cell 0", () => w.Correct(c, bad));
            Limits.Row("tick while open", () => w.TickAll(0.05));
            w.Commit(out next);
            Limits.Row("commit without propose", () => w.Commit(out next));
        }

        using (var w = AcWorld.FromDirectory(records))
        {
            uint c = Walker(w, 0x7D640018u, 60f, 191f);
            for (int t = 0; t < 200; t++)
            {
                if (w.Propose(0.05) > 0) w.ApplyOutdoorRule();
                int next;
                w.Commit(out next);
                if (w.State(c).Position.Cell != 0x7D640018u) break;
            }
            var s = w.State(c);
            Console.WriteLine("crossed " + s.Position.Cell.ToString("X8") + " y below 1 " + (s.Position.Frame.Origin.Y < 1f));
        }

        uint cell;
        Vec3 origin;
        bool inside = AcWorld.AdjustToOutside(0x7D64003Bu, new Vec3(192.5f, 60f, 3f), out cell, out origin);
        Console.WriteLine("outdoor rule " + inside + " " + cell.ToString("X8") + " " + origin.X + " " + origin.Y + " " + origin.Z);
        inside = AcWorld.AdjustToOutside(0x00000001u, new Vec3(-0.5f, 10f, 0f), out cell, out origin);
        Console.WriteLine("past the edge " + inside + " " + cell);

        using (var plain = ChaseWorld(records))
        using (var hosted = ChaseWorld(records))
        {
            bool same = true;
            int batches = 0;
            for (int t = 0; t < 200 && same; t++)
            {
                double dt = t % 2 == 0 ? 0.05 : 1.0 / 30.0;
                plain.TickAll(dt);
                hosted.Propose(dt);
                batches++;
                int next;
                while (!hosted.Commit(out next)) batches++;
                same = Bits(plain) == Bits(hosted);
            }
            Console.WriteLine("do-nothing host equals TickAll " + same + " batches over ticks " + (batches > 200));
        }
        return 0;
    }
}
