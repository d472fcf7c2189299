//! Prints the largest queue and list sizes the bench world reaches (a sanity check
//! that steady-state ticks cannot keep growing buffers).
use retroanim_ac::bench::AcBench;
use retroanim_core::bench::BenchWorld;

fn main() {
    let mut b = AcBench::new(2000);
    for round in 0..6 {
        for _ in 0..500 {
            b.tick();
        }
        let (mut s, mut t, mut m) = (0, 0, 0);
        for o in b.objects() {
            s = s.max(o.sequence().nodes().len());
            t = t.max(o.table_manager().map_or(0, |x| x.pending().len()));
            m = m.max(o.minterp().pending_motions.len());
        }
        println!(
            "after {} ticks: nodes {s}, table pending {t}, interp pending {m}",
            (round + 1) * 500
        );
    }
}
