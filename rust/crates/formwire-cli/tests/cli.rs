//! End-to-end tests of the `formwire` binary: round trips, exact output
//! shapes, exit codes, `--extract` safety, urlencoded, standard input.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_formwire"))
}

/// Runs `formwire args...` with `stdin` as standard input.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn formwire");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn sha256(b: &[u8]) -> String {
    Sha256::digest(b)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fresh directory under the system temp directory, removed on drop.
struct Tmp(PathBuf);

impl Tmp {
    fn new(tag: &str) -> Tmp {
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let p = std::env::temp_dir().join(format!("formwire-cli-{tag}-{}-{n}", std::process::id()));
        fs::create_dir_all(&p).unwrap();
        Tmp(p)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    fn s(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn part(name: &str, extra: &str, body: &[u8]) -> Vec<u8> {
    let mut v = format!("--B\r\nContent-Disposition: form-data; name=\"{name}\"{extra}\r\n\r\n")
        .into_bytes();
    v.extend_from_slice(body);
    v.extend_from_slice(b"\r\n");
    v
}

fn form(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut v = parts.concat();
    v.extend_from_slice(b"--B--\r\n");
    v
}

const CT: &str = "multipart/form-data; boundary=B";

#[test]
fn json_shape_is_exact() {
    let body = form(&[
        part("a", "", b"1"),
        part(
            "f",
            "; filename=\"x.txt\"\r\nContent-Type: text/plain",
            b"hi",
        ),
    ]);
    let o = run(&["decode", "--json", "--content-type", CT, "-"], &body);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = format!(
        "{{\"parts\":[\
         {{\"name\":\"a\",\"filename\":null,\"content_type\":null,\
         \"headers\":[[\"content-disposition\",\"form-data; name=\\\"a\\\"\"]],\"size\":1,\"sha256\":\"{}\"}},\
         {{\"name\":\"f\",\"filename\":\"x.txt\",\"content_type\":\"text/plain\",\
         \"headers\":[[\"content-disposition\",\"form-data; name=\\\"f\\\"; filename=\\\"x.txt\\\"\"],[\"content-type\",\"text/plain\"]],\
         \"size\":2,\"sha256\":\"{}\"}}]}}\n",
        sha256(b"1"),
        sha256(b"hi")
    );
    assert_eq!(stdout(&o), want);
    assert_eq!(stderr(&o), "");
}

#[test]
fn encode_then_decode_round_trips() {
    let t = Tmp::new("rt");
    // 3 MiB + 7 of bytes with CR, LF and dashes: crosses many 64 KiB reads.
    let blob: Vec<u8> = (0..(3 << 20) + 7u32)
        .map(|i| b"ab\r\n--Bx-\r"[(i % 10) as usize] ^ (i >> 13) as u8)
        .collect();
    fs::write(t.path("blob.bin"), &blob).unwrap();
    fs::write(t.path("note.txt"), "line 1\nline 2").unwrap();
    let enc = run(
        &[
            "encode",
            "-F",
            "prénom=Zoé",
            "-F",
            "名前=太郎",
            "-F",
            "emoji😀=😀",
            "-F",
            &format!("up=@{};type=application/x-demo", t.s("blob.bin")),
            "-F",
            &format!("note=<{}", t.s("note.txt")),
            "-F",
            &format!("named=@{};filename=renamed.txt", t.s("note.txt")),
            "--boundary",
            "XyZ",
            "-o",
            &t.s("body"),
        ],
        b"",
    );
    assert!(enc.status.success(), "{}", stderr(&enc));
    let body = fs::read(t.path("body")).unwrap();
    let err = stderr(&enc);
    assert!(
        err.contains("Content-Type: multipart/form-data; boundary=XyZ\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!("Content-Length: {}\n", body.len())),
        "{err}"
    );

    // Decoded without --content-type: the boundary is sniffed.
    let dec = run(&["decode", "--json", &t.s("body")], b"");
    assert!(dec.status.success(), "{}", stderr(&dec));
    let v: Value = serde_json::from_str(&stdout(&dec)).unwrap();
    let parts = v["parts"].as_array().unwrap();
    type Row<'a> = (&'a str, Option<&'a str>, Option<&'a str>, u64, &'a str);
    let got: Vec<Row<'_>> = parts
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap(),
                p["filename"].as_str(),
                p["content_type"].as_str(),
                p["size"].as_u64().unwrap(),
                p["sha256"].as_str().unwrap(),
            )
        })
        .collect();
    let h = |s: &[u8]| sha256(s);
    let note_crlf = b"line 1\r\nline 2";
    let want_h = [
        h("Zoé".as_bytes()),
        h("太郎".as_bytes()),
        h("😀".as_bytes()),
        h(&blob),
        h(note_crlf),
        h(b"line 1\nline 2"),
    ];
    assert_eq!(
        got,
        vec![
            ("prénom", None, None, 4, want_h[0].as_str()),
            ("名前", None, None, 6, want_h[1].as_str()),
            ("emoji😀", None, None, 4, want_h[2].as_str()),
            (
                "up",
                Some("blob.bin"),
                Some("application/x-demo"),
                blob.len() as u64,
                want_h[3].as_str()
            ),
            // `<file` is a string value: newlines normalized to CRLF (MP-S-04).
            ("note", None, None, 14, want_h[4].as_str()),
            // `@file` bytes are sent as they are; the type is guessed from the path.
            (
                "named",
                Some("renamed.txt"),
                Some("text/plain"),
                13,
                want_h[5].as_str()
            ),
        ]
    );
}

#[test]
fn table_output_lists_parts_and_escapes_controls() {
    let body = form(&[
        part("a\x1b[31m", "", b"x"),
        part("名前", "; filename=\"f.bin\"", b"yz"),
    ]);
    let o = run(&["decode", "--content-type", CT], &body);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("#  name") && lines[0].contains("sha256"),
        "{out}"
    );
    assert!(
        lines[1].contains("a\\x1b[31m") && !out.contains('\x1b'),
        "{out}"
    );
    assert!(
        lines[2].contains("名前")
            && lines[2].contains("f.bin")
            && lines[2].contains(&sha256(b"yz")),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_with_code_and_offset() {
    let body = b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated";
    let o = run(&["decode", "--json", "--content-type", CT, "-"], body);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    let e: Value = serde_json::from_str(stderr(&o).trim()).unwrap();
    assert_eq!(
        e,
        json!({"error": {"code": "MP_TRUNCATED", "offset": body.len(), "message": "input ended before the close delimiter"}})
    );
    // Key order is part of the shape.
    assert!(
        stderr(&o).starts_with("{\"error\":{\"code\":\"MP_TRUNCATED\",\"offset\":"),
        "{}",
        stderr(&o)
    );

    let o = run(
        &["decode", "--content-type", CT, "-"],
        b"--B\r\nX: y\r\n\r\n\r\n--B--\r\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "formwire: MP_NO_DISPOSITION at offset 11: part without Content-Disposition\n"
    );

    let o = run(
        &["decode", "--json", "--content-type", "text/plain", "-"],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("\"code\":\"MP_CONTENT_TYPE\",\"offset\":0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn no_boundary_to_sniff_is_mp_boundary() {
    let o = run(&["decode", "--json", "-"], b"a=1&b=2");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("{\"error\":{\"code\":\"MP_BOUNDARY\",\"offset\":0"),
        "{}",
        stderr(&o)
    );
    let o = run(&["decode", "-"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "formwire: MP_BOUNDARY at offset 0: missing or invalid boundary \
         (the body does not begin with a `--BOUNDARY` line; give --content-type)\n"
    );
}

/// Runs `formwire args...` with standard input written in `pieces`, each
/// flushed and followed by a pause, as a slow pipe delivers them.
fn run_pieces(args: &[&str], pieces: &[&[u8]]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn formwire");
    let mut input = child.stdin.take().unwrap();
    let pieces: Vec<Vec<u8>> = pieces.iter().map(|p| p.to_vec()).collect();
    let writer = std::thread::spawn(move || {
        for p in pieces {
            let _ = input.write_all(&p).and_then(|()| input.flush());
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn sniffing_never_depends_on_how_the_first_line_arrives() {
    // `--X--` is boundary `X--` with content after it, however the pipe
    // delivers it (the first read used to decide: `{"parts":[]}`, exit 0).
    let rest: &[u8] = b"Content-Disposition: form-data; name=\"s\"\r\n\r\np\r\n--X----\r\n";
    let want = json!({"parts": [{"name": "s", "filename": null, "content_type": null,
        "headers": [["content-disposition", "form-data; name=\"s\""]], "size": 1, "sha256": sha256(b"p")}]});
    let whole = [b"--X--\r\n".as_slice(), rest].concat();
    for pieces in [
        vec![whole.as_slice()],
        vec![b"--X--\r\n".as_slice(), rest],
        vec![b"--".as_slice(), b"X-", b"-\r", b"\n", rest],
    ] {
        let o = run_pieces(&["decode", "--json", "-"], &pieces);
        assert_eq!(o.status.code(), Some(0), "{pieces:?}: {}", stderr(&o));
        let got: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(got, want, "{pieces:?}");
    }
    // A first line that arrives in pieces.
    let body = form(&[part("a", "", b"1")]);
    let o = run_pieces(
        &["decode", "--json", "-"],
        &[&body[..1], &body[1..3], &body[3..4], &body[4..]],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&o)).unwrap()["parts"][0]["name"],
        "a"
    );
    // A file whose second line lies past the first 64 KiB read.
    let mut big = b"--X--\r\n".to_vec();
    big.extend_from_slice(b"Content-Disposition: form-data; name=\"s\"\r\nX-Pad: ");
    big.extend(std::iter::repeat_n(b'p', 7000));
    big.extend_from_slice(b"\r\n\r\n");
    big.extend(std::iter::repeat_n(b'v', 70_000));
    big.extend_from_slice(b"\r\n--X----\r\n");
    let tmp = Tmp::new("sniff");
    fs::write(tmp.path("big.http"), &big).unwrap();
    let o = run(&["decode", "--json", &tmp.s("big.http")], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let got: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(got["parts"][0]["size"], 70_000);
}

#[test]
fn sniffed_close_delimiter_is_an_empty_form_only_without_content() {
    // Nothing, or only blank bytes, after `--X--`: the empty form of `X`.
    for body in [&b"--X--"[..], b"--X--\r\n", b"--X--\r\n\r\n \t\r\n"] {
        let o = run_pieces(&["decode", "--json", "-"], &[body]);
        assert_eq!(o.status.code(), Some(0), "{body:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "{\"parts\":[]}\n", "{body:?}");
    }
    // Content that is not a form of `X--`: the error of that reading, never
    // an empty form with exit 0.
    let o = run_pieces(&["decode", "--json", "-"], &[b"--X--\r\n", b"junk\r\n"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).starts_with("{\"error\":{\"code\":\"MP_HEADER_NAME\",\"offset\":11"),
        "{}",
        stderr(&o)
    );
    let o = run_pieces(
        &["decode", "--json", "-"],
        &[b"--X--\r\nContent-Disposition: form-data; name=\"s\"\r\n\r\np"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("MP_TRUNCATED"), "{}", stderr(&o));
    // Blank bytes count towards max_total_bytes in the empty-form reading too.
    let o = run_pieces(
        &["decode", "--json", "--limit", "max_total_bytes=8", "-"],
        &[b"--X--\r\n\r\n\r\n"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn text_fields_stop_at_max_total_field_bytes() {
    // MP-L-04: 11 fields of 1 MiB are MP_LIMIT_TOTAL_FIELD_BYTES at the first byte of the 11th.
    let v = vec![b'v'; 1 << 20];
    let parts: Vec<Vec<u8>> = (0..11).map(|i| part(&format!("f{i:02}"), "", &v)).collect();
    let body = form(&parts);
    let at = 10 * parts[0].len() + (parts[0].len() - v.len() - 2);
    let o = run(&["decode", "--json", "--content-type", CT, "-"], &body);
    assert_eq!(o.status.code(), Some(2));
    let want = format!("{{\"error\":{{\"code\":\"MP_LIMIT_TOTAL_FIELD_BYTES\",\"offset\":{at}");
    assert!(stderr(&o).starts_with(&want), "{}", stderr(&o));
    let o = run(
        &[
            "decode",
            "--json",
            "--limit",
            "max_total_field_bytes=none",
            "--content-type",
            CT,
            "-",
        ],
        &body,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn sniffing_a_first_line_longer_than_max_boundary_bytes_is_a_limit_error() {
    let mut body = b"--".to_vec();
    body.extend(std::iter::repeat_n(b'b', 400));
    let o = run_pieces(&["decode", "--json", "-"], &[&body[..200], &body[200..]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("{\"error\":{\"code\":\"MP_LIMIT_BOUNDARY\",\"offset\":0"),
        "{}",
        stderr(&o)
    );
    // A 71-byte boundary (werkzeug's test client) is fine with the default 256.
    let b71 = "w".repeat(71);
    let body =
        format!("--{b71}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--{b71}--\r\n");
    let o = run_pieces(&["decode", "--json", "-"], &[body.as_bytes()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Raised limits wait for longer first lines.
    let b400 = "q".repeat(400);
    let body = format!(
        "--{b400}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--{b400}--\r\n"
    );
    let o = run_pieces(
        &[
            "decode",
            "--json",
            "--limit",
            "max_boundary_bytes=1000",
            "-",
        ],
        &[&body.as_bytes()[..100], &body.as_bytes()[100..]],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn lenient_flags_and_limits() {
    let body = b"preamble\r\n--B\nContent-Disposition: form-data; name=\"a\"\n\n1\n--B--\n";
    let strict = run(&["decode", "--json", "--content-type", CT, "-"], body);
    assert_eq!(strict.status.code(), Some(2));
    assert!(
        stderr(&strict).contains("MP_PREAMBLE"),
        "{}",
        stderr(&strict)
    );
    // Only allow_preamble: the bare LF after the delimiter is still an error.
    let pre = run(
        &[
            "decode",
            "--json",
            "--allow-preamble",
            "--content-type",
            CT,
            "-",
        ],
        body,
    );
    assert_eq!(pre.status.code(), Some(2));
    assert!(stderr(&pre).contains("MP_DELIMITER"), "{}", stderr(&pre));
    for flags in [&["--lenient"][..], &["--allow-preamble", "--allow-lf"]] {
        let mut args = vec!["decode", "--json"];
        args.extend_from_slice(flags);
        args.push("-");
        // No --content-type: with allow_preamble the boundary is sniffed past the preamble.
        let o = run(&args, body);
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["parts"][0]["name"], "a");
        assert_eq!(v["parts"][0]["size"], 1);
    }

    let two = form(&[part("a", "", b"1"), part("b", "", b"2")]);
    let o = run(
        &[
            "decode",
            "--json",
            "--limit",
            "max_parts=1",
            "--content-type",
            CT,
            "-",
        ],
        &two,
    );
    assert_eq!(o.status.code(), Some(2));
    let e: Value = serde_json::from_str(stderr(&o).trim()).unwrap();
    assert_eq!(e["error"]["code"], "MP_LIMIT_PARTS");
    assert_eq!(
        e["error"]["offset"], 57,
        "the line start after part 2's delimiter line"
    );
    let o = run(
        &[
            "decode",
            "--json",
            "--limit",
            "max_field_bytes=none",
            "--limit=max_total_bytes=1K",
            "-",
        ],
        &two,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["decode", "--limit", "max_nothing=1", "-"], &two);
    assert_eq!(o.status.code(), Some(64));
    assert!(
        stderr(&o).contains("unknown limit `max_nothing`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn urlencoded_decodes_pairs() {
    let ue = "application/x-www-form-urlencoded";
    let o = run(
        &["decode", "--json", "--content-type", ue, "-"],
        b"a=1&b=%C3%A9+x&&c&=d&e=%zz",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"pairs\":[[\"a\",\"1\"],[\"b\",\"\u{e9} x\"],[\"c\",\"\"],[\"\",\"d\"],[\"e\",\"%zz\"]]}\n"
    );
    let o = run(
        &[
            "decode",
            "--content-type",
            "application/x-www-form-urlencoded; charset=utf-8",
        ],
        b"k=v",
    );
    assert!(o.status.success());
    assert_eq!(stdout(&o), "#  name  value\n1  k     v\n");
    let o = run(
        &[
            "decode",
            "--json",
            "--limit",
            "max_pairs=2",
            "--content-type",
            ue,
            "-",
        ],
        b"a=1&b=2&c=3",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("{\"error\":{\"code\":\"UE_LIMIT_PAIRS\",\"offset\":8,"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn reads_standard_input_with_and_without_dash() {
    let body = form(&[part("a", "", b"1")]);
    for args in [&["decode", "--json", "-"][..], &["decode", "--json"]] {
        let o = run(args, &body);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("{\"parts\":[{\"name\":\"a\""),
            "{}",
            stdout(&o)
        );
    }
    // A large body through the pipe (many partial reads).
    let blob = vec![b'\r'; 1 << 20];
    let big = form(&[part("f", "; filename=\"cr.bin\"", &blob)]);
    let o = run(&["decode", "--json"], &big);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["parts"][0]["size"], 1 << 20);
    assert_eq!(v["parts"][0]["sha256"], sha256(&blob));
}

#[test]
fn lenient_options_of_issues_16_and_17() {
    // A part without Content-Disposition, `form-field`, a UTF-8 header name, junk after `--B--`.
    let mut body = b"--B\r\nContent-Type: text/plain\r\n\r\nnameless\r\n".to_vec();
    body.extend_from_slice(b"--B\r\nContent-Disposition: form-field; name=\"a\"\r\n");
    body.extend_from_slice("F\u{f8}\u{f8}: 1\r\n\r\nv\r\n--B--junk".as_bytes());
    let strict = run(&["decode", "--json", "--content-type", CT, "-"], &body);
    assert_eq!(strict.status.code(), Some(2));
    assert!(
        stderr(&strict).contains("MP_NO_DISPOSITION"),
        "{}",
        stderr(&strict)
    );
    let all = [
        "--allow-missing-disposition",
        "--allow-utf8-header-names",
        "--allow-any-disposition-type",
        "--allow-junk-after-close",
    ];
    // Each flag alone moves the error on; all four (or --lenient) accept.
    for (n, want) in [
        (1, "MP_HEADER_NAME"),
        (2, "MP_DISPOSITION"),
        (3, "MP_DELIMITER"),
    ] {
        let mut args = vec!["decode", "--json"];
        args.extend_from_slice(&all[..n]);
        args.extend_from_slice(&["--content-type", CT, "-"]);
        let o = run(&args, &body);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    for flags in [
        &all[..],
        &["--lenient"][..],
        &[
            "--allow_missing_disposition",
            "--allow_any_disposition_type",
            "--allow_utf8_header_names",
            "--allow_junk_after_close",
        ][..],
    ] {
        let mut args = vec!["decode", "--json"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--content-type", CT, "-"]);
        let o = run(&args, &body);
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["parts"][0]["name"], Value::Null, "{flags:?}");
        assert_eq!(v["parts"][0]["size"], 8);
        assert_eq!(v["parts"][1]["name"], "a");
        assert_eq!(v["parts"][1]["headers"][1], json!(["f\u{f8}\u{f8}", "1"]));
    }
    // The table shows `-`; --extract leaves the part without a name out of fields.json (MP-F-05).
    let o = run(&["decode", "--lenient", "--content-type", CT, "-"], &body);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .lines()
            .nth(1)
            .is_some_and(|l| l.split_whitespace().nth(1) == Some("-")),
        "{}",
        stdout(&o)
    );
    let t = Tmp::new("nameless");
    let out = t.path("out");
    let o = run(
        &[
            "decode",
            "--lenient",
            "--extract",
            out.to_str().unwrap(),
            "--content-type",
            CT,
            "-",
        ],
        &body,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let fields: Value =
        serde_json::from_slice(&fs::read(out.join("fields.json")).unwrap()).unwrap();
    assert_eq!(fields, json!({"fields": [["a", "v"]]}));
}

#[test]
fn lenient_options_of_issue_17() {
    // CR line ends (werkzeug), a lookalike `--B-x` in a body, a parameter
    // name with a byte A0 (python-multipart), RFC 2231 continuations.
    let body = b"--B\rContent-Disposition: form-data; name=\"a\";\xa0x=1; filename*0*=utf-8''a%20; filename*1=b.txt\r\r1\r\n--B-x\r--B--";
    let all = [
        "--allow-cr",
        "--allow-8bit-parameter-names",
        "--allow-near-delimiters",
        "--allow-rfc2231-continuations",
    ];
    // Each flag alone moves the error on (the last one changes the reading).
    for (n, want) in [
        (0, "MP_DELIMITER"),
        (1, "MP_DISPOSITION"),
        (2, "MP_DELIMITER"),
    ] {
        let mut args = vec!["decode", "--json"];
        args.extend_from_slice(&all[..n]);
        args.extend_from_slice(&["--content-type", CT, "-"]);
        let o = run(&args, body);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let mut args = vec!["decode", "--json"];
    args.extend_from_slice(&all[..3]);
    args.extend_from_slice(&["--content-type", CT, "-"]);
    let o = run(&args, body);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["parts"][0]["filename"], Value::Null);
    for flags in [
        &all[..],
        &["--lenient"][..],
        &[
            "--allow_cr",
            "--allow_near_delimiters",
            "--allow_8bit_parameter_names",
            "--allow_rfc2231_continuations",
        ][..],
    ] {
        // Without --content-type too: the boundary line ends at its bare CR.
        for ct in [&["--content-type", CT][..], &[]] {
            let mut args = vec!["decode", "--json"];
            args.extend_from_slice(flags);
            args.extend_from_slice(ct);
            args.push("-");
            let o = run(&args, body);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
            assert_eq!(v["parts"][0]["name"], "a", "{args:?}");
            assert_eq!(v["parts"][0]["filename"], "a b.txt", "{args:?}");
            assert_eq!(v["parts"][0]["size"], b"1\r\n--B-x".len(), "{args:?}");
        }
    }
}

#[test]
fn extract_writes_safe_names_only_inside_the_directory() {
    let t = Tmp::new("ex");
    let body = form(&[
        part("field", "", b"value \"quoted\"\r\nline"),
        part("f1", "; filename=\"../../etc/passwd\"", b"one"),
        part("f2", "; filename=\"/etc/passwd\"", b"two"),
        part("f3", "; filename=\"C:\\\\Windows\\\\a.txt\"", b"three"),
        part("f4", "; filename=\"\"", b"four"),
        part("f5", "; filename=\"a.txt\"", b"five"),
        part("f6", "; filename=\"A.TXT\"", b"six"),
        part("f7", "; filename=\"..\"", b"seven"),
        part("f8", "; filename=\".hidden\"", b"eight"),
        part("f9", "; filename=\"fields.json\"", b"nine"),
        part("f10", "; filename=\"x\x01y%00z\"", b"ten"),
        part("emoji😀", "", "é".as_bytes()),
    ]);
    let out = t.path("out");
    let o = run(
        &[
            "decode",
            "--json",
            "--extract",
            out.to_str().unwrap(),
            "--content-type",
            CT,
        ],
        &body,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "A-2.TXT",
            "a-1.txt",
            "a.txt",
            "fields-1.json",
            "fields.json",
            "file",
            "file-1",
            "files.json",
            "hidden",
            "passwd",
            "passwd-1",
            "x_y_00z",
        ]
        .map(|s| s.to_string())
    );
    let read = |n: &str| fs::read(out.join(n)).unwrap();
    assert_eq!(read("passwd"), b"one");
    assert_eq!(read("passwd-1"), b"two");
    assert_eq!(read("a.txt"), b"three", "C:\\Windows\\a.txt is a.txt");
    assert_eq!(read("file"), b"four");
    assert_eq!(read("a-1.txt"), b"five");
    assert_eq!(read("A-2.TXT"), b"six", "deduplicated case-insensitively");
    assert_eq!(read("file-1"), b"seven");
    assert_eq!(read("hidden"), b"eight");
    assert_eq!(read("fields-1.json"), b"nine");
    assert_eq!(read("x_y_00z"), b"ten");
    // Nothing was written outside the directory.
    let mut beside: Vec<_> = fs::read_dir(&t.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    beside.sort();
    assert_eq!(beside, ["out"]);

    let fields: Value = serde_json::from_slice(&read("fields.json")).unwrap();
    assert_eq!(
        fields,
        json!({"fields": [["field", "value \"quoted\"\r\nline"], ["emoji😀", "é"]]})
    );
    let files: Value = serde_json::from_slice(&read("files.json")).unwrap();
    let files = files["files"].as_array().unwrap();
    assert_eq!(files.len(), 10);
    assert_eq!(
        files[0],
        json!({"name": "f1", "filename": "../../etc/passwd", "content_type": null, "path": "passwd", "size": 3, "sha256": sha256(b"one")})
    );
    assert_eq!(files[3]["filename"], "");
    assert_eq!(files[3]["path"], "file");

    // The directory must be new or empty.
    let o = run(
        &[
            "decode",
            "--extract",
            out.to_str().unwrap(),
            "--content-type",
            CT,
        ],
        &body,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not empty"), "{}", stderr(&o));
}

#[test]
fn extract_leaves_nothing_behind_on_bad_input() {
    let t = Tmp::new("bad");
    // A NUL in a filename is a header error (MP-H-02): exit 2, nothing extracted.
    let nul = form(&[
        part("ok", "; filename=\"ok.bin\"", b"fine"),
        part("f", "; filename=\"a\0b\"", b"x"),
    ]);
    let truncated = &form(&[
        part("ok", "; filename=\"ok.bin\"", b"fine"),
        part("f", "; filename=\"b\"", b"x"),
    ])[..90];
    for (i, body) in [&nul[..], truncated].iter().enumerate() {
        let out = t.path(&format!("out{i}"));
        let o = run(
            &[
                "decode",
                "--json",
                "--extract",
                out.to_str().unwrap(),
                "--content-type",
                CT,
            ],
            body,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(!out.exists(), "{} was left behind", out.display());
    }
    // An existing empty directory is kept, and emptied again.
    let out = t.path("kept");
    fs::create_dir(&out).unwrap();
    let o = run(
        &[
            "decode",
            "--extract",
            out.to_str().unwrap(),
            "--content-type",
            CT,
        ],
        &nul,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(fs::read_dir(&out).unwrap().count(), 0);
}

#[test]
fn encode_reports_headers_and_streams_stdin() {
    let o = run(
        &[
            "encode",
            "-F",
            "a=1",
            "-F",
            "f=@-;filename=in.txt;type=text/plain",
            "--boundary",
            "b",
        ],
        b"from stdin",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let want = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n\
                --b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"in.txt\"\r\nContent-Type: text/plain\r\n\r\n\
                from stdin\r\n--b--\r\n";
    assert_eq!(stdout(&o), want);
    // The size of standard input is only known at the end.
    assert_eq!(
        stderr(&o),
        format!(
            "Content-Type: multipart/form-data; boundary=b\nContent-Length: {}\n",
            want.len()
        )
    );

    // A boundary that is not a token is quoted (MP-S-10).
    let o = run(&["encode", "-F", "a=1", "--boundary", "a b"], b"");
    assert!(
        stderr(&o).starts_with("Content-Type: multipart/form-data; boundary=\"a b\"\n"),
        "{}",
        stderr(&o)
    );

    // Random boundary by default: two runs differ, both decode.
    let a = run(&["encode", "-F", "x=y"], b"");
    let b = run(&["encode", "-F", "x=y"], b"");
    assert_ne!(a.stdout, b.stdout);
    assert!(run(&["decode", "--json"], &a.stdout).status.success());
}

#[test]
fn encode_size_parameter_and_errors() {
    let t = Tmp::new("enc");
    fs::write(t.path("ten"), b"0123456789").unwrap();
    // size=N sends exactly the first N bytes, with a Content-Length up front.
    let o = run(
        &[
            "encode",
            "-F",
            &format!("f=@{};size=4", t.s("ten")),
            "--boundary",
            "b",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\r\n\r\n0123\r\n--b--\r\n"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains(&format!("Content-Length: {}\n", o.stdout.len())));
    // A source shorter than its size fails (exit 1) and leaves no output file.
    let o = run(
        &[
            "encode",
            "-F",
            &format!("f=@{};size=11", t.s("ten")),
            "-o",
            &t.s("out"),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!t.path("out").exists());
    // Bad boundary, header injection through a type: exit 2 with the encoder's code.
    let o = run(&["encode", "-F", "a=1", "--boundary", "bad\"b"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("MP_ENCODE_BOUNDARY at offset 0"),
        "{}",
        stderr(&o)
    );
    let o = run(
        &[
            "encode",
            "-F",
            "a=1",
            "-F",
            &format!("f=@{};type=text/plain\r\nX-Evil: 1", t.s("ten")),
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("MP_ENCODE_HEADER at offset 1"),
        "{}",
        stderr(&o)
    );
    // Usage errors: 64.
    for args in [
        &["encode"][..],
        &["encode", "-F", "novalue"],
        &["encode", "-F", "f=@x;headers=a"],
        &["nope"],
    ] {
        assert_eq!(run(args, b"").status.code(), Some(64), "{args:?}");
    }
    let o = run(&["encode", "-F", &format!("f=@{}", t.s("missing"))], b"");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn stats_report_peak_rss() {
    let body = form(&[part("a", "", b"1")]);
    let o = run(&["decode", "--stats", "--content-type", CT, "-"], &body);
    assert!(o.status.success());
    let err = stderr(&o);
    assert!(
        err.starts_with("stats: decoded ") && err.contains("peak RSS "),
        "{err}"
    );
}

#[test]
fn help_and_version() {
    let o = run(&["help", "decode"], b"");
    assert!(o.status.success() && stdout(&o).contains("--extract DIR"));
    let o = run(&["--version"], b"");
    assert_eq!(
        stdout(&o),
        format!("formwire {}\n", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(run(&[], b"").status.code(), Some(64));
}

#[test]
fn subcommand_help_flags_print_help() {
    for args in [
        &["decode", "--help"][..],
        &["decode", "-h"],
        &["decode", "--json", "-h", "x.bin"],
        &["encode", "--help"],
        &["encode", "-F", "a=b", "-h"],
    ] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let want = if args[0] == "decode" {
            "formwire decode [OPTIONS]"
        } else {
            "formwire encode -F SPEC"
        };
        assert!(stdout(&o).starts_with(want), "{args:?}: {}", stdout(&o));
    }
    // `-h` as the value of an option is that value, not a request for help.
    let o = run(&["encode", "-F", "a=b", "--boundary", "-h"], b"");
    assert!(!stdout(&o).contains("Usage") && !stdout(&o).starts_with("formwire encode"));
}

#[test]
fn limit_help_and_errors_name_every_limit() {
    let help = stdout(&run(&["decode", "--help"], b""));
    let err = stderr(&run(&["decode", "--limit", "max_nope=1"], b""));
    for name in [
        "max_boundary_bytes",
        "max_parts",
        "max_headers",
        "max_header_bytes",
        "max_field_bytes",
        "max_total_field_bytes",
        "max_file_bytes",
        "max_total_bytes",
        "max_pairs",
        "max_bytes",
    ] {
        assert!(help.contains(name), "help lacks {name}");
        assert!(err.contains(name), "error lacks {name}: {err}");
    }
}

#[test]
fn encode_into_a_closed_pipe_exits_quietly() {
    let tmp = Tmp::new("epipe");
    let big = tmp.0.join("big.bin");
    fs::write(&big, vec![b'x'; 8 << 20]).unwrap();
    let spec = format!("f=@{}", big.display());
    let mut child = bin()
        .args(["encode", "--no-progress", "-F", &spec])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little, then close our end, as `head -c 100` does.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("formwire:"),
        "{err}"
    );
    assert!(first.starts_with(b"--"));
}

#[test]
fn encode_curl_form_parameters_reach_the_body() {
    let t = Tmp::new("curlf");
    fs::write(t.0.join("a.txt"), b"AAA").unwrap();
    fs::write(t.0.join("b.png"), b"BB").unwrap();
    fs::write(t.0.join("c.json"), b"{\"k\":1}\n").unwrap();
    fs::write(t.0.join("h.txt"), b"# comment\nX-From-File: yes\n\n").unwrap();
    let p = |n: &str| t.0.join(n).display().to_string();
    let o = run(
        &[
            "encode",
            "--boundary",
            "B",
            "-F",
            &format!(
                "up=@{};headers=X-One: 1,{};type=image/x-test",
                p("a.txt"),
                p("b.png")
            ),
            "-F",
            &format!(
                "meta=<{};type=application/json;headers=@{}",
                p("c.json"),
                p("h.txt")
            ),
            "-F",
            &format!("doc=<{};filename=d.json", p("c.json")),
            "--form-string",
            "s=a;type=b",
        ],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let body = String::from_utf8(o.stdout.clone()).unwrap();
    let want = "--B\r\nContent-Disposition: form-data; name=\"up\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\nX-One: 1\r\n\r\nAAA\r\n\
--B\r\nContent-Disposition: form-data; name=\"up\"; filename=\"b.png\"\r\nContent-Type: image/x-test\r\n\r\nBB\r\n\
--B\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\nX-From-File: yes\r\n\r\n{\"k\":1}\n\r\n\
--B\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"d.json\"\r\nContent-Type: application/octet-stream\r\n\r\n{\"k\":1}\n\r\n\
--B\r\nContent-Disposition: form-data; name=\"s\"\r\n\r\na;type=b\r\n--B--\r\n";
    assert_eq!(body, want);
    // The announced length is the body's, and the result decodes.
    assert!(stderr(&o).contains(&format!("Content-Length: {}", want.len())));
    let d = run(&["decode", "--json", "-"], want.as_bytes());
    assert!(d.status.success(), "{}", stderr(&d));
}
