//! The motion messages byte for byte: each format read from bytes worked out by hand,
//! written back, and truncated input reported with the byte offset.

use retroanim_ac::math::{Quat, Vec3};
use retroanim_ac::wire::movement_data::{MoveToParameters, TurnToParameters};
use retroanim_ac::wire::{
    from_hex, to_hex, InterpretedState, JumpPack, MotionItem, MoveToState, MovementBody,
    MovementData, RawMotionState, Sequences, UpdateMotion, VectorUpdate, WireError,
};

fn bytes(hex: &str) -> Vec<u8> {
    from_hex(hex).unwrap()
}

/// extent 0.75 (0x3f400000), velocity (0, 2, 5.5), sequences 0, 1, 0, 0.
const JUMP: &str = "0000403f00000000000000400000b040000001000000000000";

#[test]
fn jump_pack_reads_writes_and_reports_truncation() {
    let b = bytes(&JUMP[..48]);
    let p = JumpPack::from_bytes(&b).unwrap();
    assert_eq!(p.extent, 0.75);
    assert_eq!(p.velocity, [0.0, 2.0, 5.5]);
    assert_eq!(p.server_control_sequence, 1);
    assert_eq!(
        (
            p.instance_sequence,
            p.teleport_sequence,
            p.force_position_sequence
        ),
        (0, 0, 0)
    );
    assert_eq!(p.to_bytes(), b);
    // 23 bytes: the last u16 (offset 22) lacks a byte.
    assert_eq!(
        JumpPack::from_bytes(&b[..23]),
        Err(WireError::Truncated {
            at: 22,
            need: 2,
            len: 23
        })
    );
}

/// Hold key Run, WalkForward; cell 0x7d640013 at (60, 60, 0) facing north; contact.
const MTS: &str = "0500000002000000050000451300647d0000704200007042000000000000803f000000000000000000000000000000000000000001000000";

#[test]
fn move_to_state_reads_writes_and_reports_truncation() {
    let b = bytes(MTS);
    let s = MoveToState::from_bytes(&b).unwrap();
    assert_eq!(s.raw.flags, 0x5);
    assert_eq!(s.raw.current_hold_key, 2);
    assert_eq!(s.raw.forward_command, 0x4500_0005);
    assert_eq!(s.raw.turn_command, 0);
    assert_eq!(s.position.cell, 0x7d64_0013);
    assert_eq!(s.position.frame.origin, Vec3::new(60.0, 60.0, 0.0));
    assert_eq!(s.position.frame.orientation, Quat::new(1.0, 0.0, 0.0, 0.0));
    assert!(s.contact());
    assert!(!s.standing_long_jump());
    assert_eq!(s.to_bytes(), b);
    // The trailing padding is skipped, not read: 53 bytes still parse.
    assert_eq!(MoveToState::from_bytes(&b[..53]).unwrap(), s);
    // Cut inside the origin: 12 bytes of raw state, the cell, x; y at offset 20.
    assert_eq!(
        MoveToState::from_bytes(&b[..20]),
        Err(WireError::Truncated {
            at: 20,
            need: 4,
            len: 20
        })
    );
}

#[test]
fn raw_motion_state_with_turn_and_actions_round_trips() {
    let raw = RawMotionState {
        flags: 0x505,
        current_hold_key: 2,
        forward_command: 0x4500_0005,
        turn_command: 0x6500_000d,
        turn_speed: 1.0,
        commands: vec![MotionItem::new(0x1300_0087, 1.0, true)],
        ..RawMotionState::default()
    };
    let mut w = retroanim_ac::wire::Writer::new();
    raw.write(&mut w);
    // 0x505 | 1 << 11 = 0x0d05; Run; WalkForward; TurnRight; 1.0; Wave, 0x8000, 1.0.
    assert_eq!(
        to_hex(&w.bytes),
        "050d000002000000050000450d0000650000803f870000800000803f"
    );
    let back = RawMotionState::read(&mut retroanim_ac::wire::Reader::new(&w.bytes)).unwrap();
    assert_eq!(back, raw);
    assert!(back.commands[0].autonomous());
}

#[test]
fn interpreted_state_with_an_action_matches_the_server_bytes() {
    let data = MovementData {
        autonomous: false,
        motion_flags: 0,
        style: 0x8000_003d,
        body: MovementBody::Invalid {
            state: InterpretedState {
                current_style: 0x8000_003d,
                forward_command: 0x4100_0003,
                sidestep_speed: 0.624,
                commands: vec![MotionItem::new(0x1300_0087, 1.0, false)],
                ..InterpretedState::default()
            },
            sticky_object: 0,
        },
    };
    let mut seq = Sequences::default();
    seq.movement.current = 3;
    seq.server_control.current = 2;
    let msg = UpdateMotion::write(0x5000_0001, &data, &mut seq);
    // movement 4, server control 3 (next: not autonomous); flags 0x80 | 0x13; style,
    // Ready, sidestep speed 0.624 (0x3f1fbe77), Wave numbered 2.
    assert_eq!(
        to_hex(&msg),
        "4cf7000001000050000004000300000000003d00930000003d00030077be1f3f870002000000803f"
    );
    let parsed = UpdateMotion::read(&msg).unwrap();
    assert_eq!(parsed.write_stored(), msg);
    assert_eq!(parsed.movement_sequence, 4);
    assert_eq!(parsed.data.style, 0x8000_003d);
}

fn params() -> MoveToParameters {
    MoveToParameters {
        flags: 0x0001_ee1f,
        distance_to_object: 0.6,
        min_distance: 0.0,
        fail_distance: f32::MAX,
        speed: 1.0,
        walk_run_threshold: 15.0,
        desired_heading: 0.0,
    }
}

#[test]
fn move_to_object_and_turn_to_heading_packs() {
    let mto = MovementData {
        autonomous: false,
        motion_flags: 0,
        style: 0x8000_003d,
        body: MovementBody::MoveToObject {
            target: 2,
            origin: (0x7d64_0013, [66.0, 64.0, 0.0]),
            params: params(),
            run_rate: 1.0,
        },
    };
    let mut seq = Sequences::default();
    let body = mto.to_bytes(&mut seq);
    // type 6, flags 0, style; target 2; cell, 66 (0x42840000), 64 (0x42800000), 0;
    // flags 0x1ee1f, 0.6 (0x3f19999a), 0, f32::MAX (0x7f7fffff), 1, 15 (0x41700000), 0;
    // run rate 1.
    assert_eq!(
        to_hex(&body),
        "06003d00020000001300647d0000844200008042000000001fee01009a99193f00000000ffff7f7f0000803f00007041000000000000803f"
    );
    let back = MovementData::read(&mut retroanim_ac::wire::Reader::new(&body)).unwrap();
    assert_eq!(back, mto);
    let tth = MovementData {
        autonomous: false,
        motion_flags: 0,
        style: 0x8000_003d,
        body: MovementBody::TurnToHeading {
            params: TurnToParameters {
                flags: 0x0001_ee1f,
                speed: 1.5,
                desired_heading: 270.0,
            },
        },
    };
    assert_eq!(
        to_hex(&tth.to_bytes(&mut seq)),
        "09003d001fee01000000c03f00008743"
    );
    // A pack cut inside its parameters names the offset: 4 + 4 + 16 + 4 = 28.
    assert_eq!(
        MovementData::read(&mut retroanim_ac::wire::Reader::new(&body[..30])),
        Err(WireError::Truncated {
            at: 28,
            need: 4,
            len: 30
        })
    );
    // An unknown movement type is refused at its offset.
    assert_eq!(
        MovementData::read(&mut retroanim_ac::wire::Reader::new(&[5, 0, 0, 0])),
        Err(WireError::BadValue {
            at: 0,
            what: "movement type",
            value: 5
        })
    );
}

#[test]
fn move_to_position_and_turn_to_object_round_trip() {
    for body in [
        MovementBody::MoveToPosition {
            origin: (0x7d64_0013, [1.0, 2.0, 3.0]),
            params: params(),
            run_rate: 1.5,
        },
        MovementBody::TurnToObject {
            target: 7,
            desired_heading: 90.0,
            params: TurnToParameters {
                flags: 1,
                speed: 1.0,
                desired_heading: 90.0,
            },
        },
    ] {
        let d = MovementData {
            autonomous: false,
            motion_flags: 0,
            style: 0x8000_003d,
            body,
        };
        let b = d.to_bytes(&mut Sequences::default());
        let back = MovementData::read(&mut retroanim_ac::wire::Reader::new(&b)).unwrap();
        assert_eq!(back, d);
    }
}

#[test]
fn vector_update_bytes() {
    let mut seq = Sequences::default();
    let b = VectorUpdate::write(0x5000_0001, [0.0, 0.0, 4.5], [0.0; 3], &mut seq);
    assert_eq!(
        to_hex(&b),
        "4ef700000100005000000000000000000000904000000000000000000000000000000100"
    );
    let v = VectorUpdate::read(&b).unwrap();
    assert_eq!((v.vector_sequence, v.velocity[2]), (1, 4.5));
    assert_eq!(v.to_bytes(), b);
}

#[test]
fn bad_hex_and_truncated_update_motion_do_not_panic() {
    assert_eq!(from_hex("0g"), Err(WireError::BadHex { at: 1 }));
    assert_eq!(from_hex("abc"), Err(WireError::BadHex { at: 3 }));
    let msg = bytes("4cf70000010000500000");
    assert_eq!(
        UpdateMotion::read(&msg),
        Err(WireError::Truncated {
            at: 10,
            need: 2,
            len: 10
        })
    );
    // Every proper prefix of a real message is refused with the offset it ran out at
    // (past the end only by alignment padding, which is skipped, not read).
    let full = bytes("4cf7000001000050000003000200000000003d00830000003d000300870002000000803f");
    assert!(UpdateMotion::read(&full).is_ok());
    for n in 0..full.len() {
        match UpdateMotion::read(&full[..n]) {
            Err(WireError::Truncated { at, len, .. }) => {
                assert!(at <= n.div_ceil(4) * 4 && len == n)
            }
            other => panic!("prefix {n}: {other:?}"),
        }
    }
}

/// Arbitrary bytes never panic a reader: each answers a value or an error whose offset
/// lies within the input (or its alignment padding).
#[test]
fn readers_never_panic_on_arbitrary_bytes() {
    use retroanim_ac::wire::{MovementData, Reader};
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let within = |e: &WireError, len: usize| match e {
        WireError::Truncated { at, len: l, .. } => *l == len && *at <= len.div_ceil(4) * 4,
        WireError::BadValue { at, .. } => *at < len,
        WireError::BadHex { .. } => false,
    };
    let mut errors = 0;
    for _ in 0..3000 {
        let n = (next() % 80) as usize;
        let b: Vec<u8> = (0..n).map(|_| next() as u8).collect();
        let results = [
            MoveToState::from_bytes(&b).err(),
            JumpPack::from_bytes(&b).err(),
            RawMotionState::read(&mut Reader::new(&b)).err(),
            MovementData::read(&mut Reader::new(&b)).err(),
            UpdateMotion::read(&b).err(),
            VectorUpdate::read(&b).err(),
        ];
        for e in results.iter().flatten() {
            assert!(within(e, n), "{e:?} for {n} bytes");
            errors += 1;
        }
    }
    assert!(errors > 0);
}

/// The 16-bit commands of the messages widen through ACE's whole command list: a
/// substate class (0x0019 → 0x40000019), soul emotes (0x009b → YMCA 0x1200009b, 0x00ea →
/// 0x430000ea), an attack (0x0128 → 0x10000128); a value no command has stays as it is.
#[test]
fn commands_widen_through_aces_whole_list() {
    use retroanim_ac::wire::movement_data::widen_command;
    assert_eq!(widen_command(0x0019), 0x4000_0019);
    assert_eq!(widen_command(0x009b), 0x1200_009b);
    assert_eq!(widen_command(0x00ea), 0x4300_00ea);
    assert_eq!(widen_command(0x0128), 0x1000_0128);
    assert_eq!(widen_command(0xabcd), 0xabcd);
    assert_eq!(retroanim_ac::wire::command_ids::COMMAND_IDS.len(), 409);
}
