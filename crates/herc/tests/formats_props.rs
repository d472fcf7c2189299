//! Property tests: the binary readers never panic, whatever the bytes.

use proptest::prelude::*;
use retroanim_herc::formats::chassis::ChassisRecord;
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::vol::VolArchive;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn f01_f02_f08_readers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = VolArchive::read(&bytes, "x.vol");
        let _ = DtsFile::load_anim_list(&bytes, "x.dts");
        let _ = ChassisRecord::read(&bytes, "x.dat");
        let mut voln = b"VOLN".to_vec();
        voln.extend_from_slice(&bytes);
        let _ = VolArchive::read(&voln, "x.vol");
        let mut shape = vec![3u8, 0, 0x1e, 0];
        shape.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        shape.extend_from_slice(&bytes);
        let _ = DtsFile::load_anim_list(&shape, "x.dts");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn f01_any_archive_round_trips_byte_exact(
        entries in prop::collection::vec(
            ("[A-Z]{1,8}\\.[A-Z]{3}", 0u8..2, prop::collection::vec(any::<u8>(), 0..40), any::<u16>(), any::<u16>()),
            0..6),
        mask in any::<u32>(), precedence in any::<u8>(),
    ) {
        use retroanim_herc::formats::vol::VolEntry;
        let archive = VolArchive {
            program_mask: mask,
            precedence,
            directories: vec!["dat".into(), "dts".into()],
            entries: entries
                .into_iter()
                .map(|(name, dir, content, date, time)| {
                    let mut e = VolEntry::stored(&name, dir, content).unwrap();
                    e.dos_date = date;
                    e.dos_time = time;
                    e
                })
                .collect(),
            list_extra: Vec::new(),
        };
        let bytes = archive.write().unwrap();
        let back = VolArchive::read(&bytes, "p.vol").unwrap();
        prop_assert_eq!(&back, &archive);
        prop_assert_eq!(back.write().unwrap(), bytes);
    }

    #[test]
    fn f08_any_chassis_bytes_round_trip(bytes in prop::collection::vec(any::<u8>(), 216)) {
        let rec = ChassisRecord::read(&bytes, "p.dat").unwrap();
        prop_assert_eq!(rec.write().unwrap(), bytes);
        let json = serde_json::to_string(&rec).unwrap();
        prop_assert_eq!(ChassisRecord::from_json_str(&json, "p.json").unwrap(), rec);
    }
}
