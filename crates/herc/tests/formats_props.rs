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
