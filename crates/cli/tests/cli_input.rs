//! What `run`, `diff` and `inspect` say about files they cannot or will not read:
//! each names the real cause, and none reads a device or waits on a FIFO.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("retroanim-input-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run retroanim, killing it if it has not finished within 10 s (a hang guard only).
fn retroanim(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the retroanim binary runs");
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("retroanim {args:?} did not finish within 10 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (child.wait_with_output().unwrap(), start.elapsed())
}

fn err_of(args: &[&str]) -> String {
    let (o, _) = retroanim(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "one error line: {err}");
    err
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn inspect_of_a_missing_file_names_the_cause() {
    let d = temp_dir("missing");
    let p = d.join("09000001.bin");
    assert_eq!(
        err_of(&["inspect", s(&p)]),
        format!(
            "retroanim: {}: cannot read: no such file or directory\n",
            p.display()
        )
    );
    let p = d.join("set.json");
    assert_eq!(
        err_of(&["run", s(&p)]),
        format!(
            "retroanim: {}: cannot read: no such file or directory\n",
            p.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_directory_is_refused_by_every_verb() {
    let d = temp_dir("dir");
    let want = format!(
        "retroanim: {}: cannot read: a directory, not a regular file\n",
        d.display()
    );
    assert_eq!(err_of(&["inspect", s(&d)]), want);
    assert_eq!(err_of(&["run", s(&d)]), want);
    assert_eq!(err_of(&["diff", s(&d), s(&d)]), want);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_symlink_loop_is_named() {
    let d = temp_dir("loop");
    let (a, b) = (d.join("a.json"), d.join("b.json"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert_eq!(
        err_of(&["inspect", s(&a)]),
        format!(
            "retroanim: {}: cannot read: too many levels of symbolic links (a symlink loop)\n",
            a.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn inspect_of_non_utf8_json_says_so_with_the_byte() {
    let d = temp_dir("utf8");
    let p = d.join("set.json");
    std::fs::write(&p, b"{\"map\": \"\xff\"}").unwrap();
    assert_eq!(
        err_of(&["inspect", s(&p)]),
        format!(
            "retroanim: {}: byte 9: not UTF-8 text, so not JSON\n",
            p.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn inspect_of_too_deeply_nested_json_says_so() {
    let d = temp_dir("deep");
    let p = d.join("set.json");
    std::fs::write(&p, format!("{}{}", "[".repeat(300), "]".repeat(300))).unwrap();
    assert_eq!(
        err_of(&["inspect", s(&p)]),
        format!(
            "retroanim: {}: line 1, column 128: malformed JSON: recursion limit exceeded\n",
            p.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn inspect_of_an_unknown_kind_lists_the_kinds_it_reads() {
    let d = temp_dir("unknown");
    let p = d.join("notes.txt");
    std::fs::write(&p, "hello").unwrap();
    let err = err_of(&["inspect", s(&p)]);
    assert!(
        err.starts_with(&format!(
            "retroanim: {}: not a file retroanim inspects; it reads AC MotionTable",
            p.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("a VOL archive") && err.contains("an actor set"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn dev_zero_is_refused_quickly_by_every_verb() {
    let want = "retroanim: /dev/zero: cannot read: a character device, not a regular file\n";
    for args in [
        &["run", "/dev/zero"][..],
        &["inspect", "/dev/zero"],
        &["diff", "/dev/zero", "/dev/zero"],
    ] {
        let (o, took) = retroanim(args);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&o.stderr), want);
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
    }
}

#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let d = temp_dir("fifo");
    let p = d.join("trace.jsonl");
    let made = Command::new("mkfifo")
        .arg(&p)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let want = format!(
        "retroanim: {}: cannot read: a FIFO (named pipe), not a regular file\n",
        p.display()
    );
    for args in [
        &["run", s(&p)][..],
        &["inspect", s(&p)],
        &["diff", s(&p), s(&p)],
    ] {
        let (o, took) = retroanim(args);
        assert_eq!(String::from_utf8_lossy(&o.stderr), want, "{args:?}");
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_size_cap_names_both_sizes_and_the_flag_that_raises_it() {
    let d = temp_dir("cap");
    let p = d.join("t.jsonl");
    std::fs::write(&p, "{\"step\":0}\n").unwrap();
    let want = format!(
        "retroanim: {}: cannot read: the file is 11 bytes, over the input limit of 10 bytes (--max-input-bytes raises it)\n",
        p.display()
    );
    assert_eq!(
        err_of(&["diff", s(&p), s(&p), "--max-input-bytes", "10"]),
        want
    );
    assert_eq!(err_of(&["--max-input-bytes", "10", "run", s(&p)]), want);
    assert_eq!(err_of(&["inspect", s(&p), "--max-input-bytes", "10"]), want);
    let (o, _) = retroanim(&["diff", s(&p), s(&p), "--max-input-bytes", "11"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "equal: 1 lines\n");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_trace_line_over_the_line_limit_is_refused() {
    let d = temp_dir("line");
    let p = d.join("t.jsonl");
    std::fs::write(&p, "{\"step\":0}\n{\"step\":1,\"pad\":\"xxxxxxxxxx\"}\n").unwrap();
    assert_eq!(
        err_of(&["diff", s(&p), s(&p), "--max-line-bytes", "16"]),
        format!(
            "retroanim: {}: line 2: longer than the 16-byte line limit\n",
            p.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tolerance_refuses_nan_infinity_and_negative_values() {
    let a = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sample_a.jsonl");
    for (t, shown) in [
        ("NaN", "NaN"),
        ("inf", "inf"),
        ("-inf", "-inf"),
        ("-0.5", "-0.5"),
    ] {
        let arg = format!("--tolerance={t}");
        let (o, _) = retroanim(&["diff", s(&a), s(&a), &arg]);
        assert_eq!(o.status.code(), Some(2), "{t}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "the tolerance must be a finite number >= 0, not {shown}"
            )),
            "{t}: {err}"
        );
    }
    let (o, _) = retroanim(&["diff", s(&a), s(&a), "--tolerance=0"]);
    assert_eq!(o.status.code(), Some(0));
}
