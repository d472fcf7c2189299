//! An installed `retroanim browse`, started away from any checkout, serves the sample
//! assets built into the binary.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

#[test]
fn browse_outside_a_checkout_serves_the_embedded_assets() {
    let home = std::env::temp_dir().join(format!("retroanim-home-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_retroanim"))
        .args(["browse", "--port", &port.to_string()])
        .current_dir(&home)
        .env("HOME", &home)
        .env_remove("XDG_CACHE_HOME")
        .env_remove("RETROANIM_ASSETS")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut answer = None;
    while start.elapsed() < Duration::from_secs(30) {
        if let Some(a) = get(port, "/api/engines") {
            answer = Some(a);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    let answer = answer.expect("the server answered within 30 s");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(
        answer.matches("\"assets_present\":true").count(),
        3,
        "{answer}"
    );
    let cache = home.join(".cache/retroanim");
    let unpacked: Vec<_> = std::fs::read_dir(&cache).unwrap().flatten().collect();
    assert_eq!(unpacked.len(), 1, "{unpacked:?}");
    let dir = unpacked[0].path();
    assert!(dir.join("herc/biped.json").is_file());
    assert!(dir.join("ac/records/09000001.bin").is_file());
    assert!(dir.join(".complete").is_file());
    let _ = std::fs::remove_dir_all(&home);
}
