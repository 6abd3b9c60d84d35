//! MP-R-02: allow_junk_after_close, allow_utf8_header_names,
//! allow_any_disposition_type, allow_missing_disposition (the parser's
//! tests of the named lenient options of spec/multipart.md §1).

use super::*;

fn lenient(set: impl FnOnce(&mut Options)) -> Options {
    let mut o = strict();
    set(&mut o);
    o
}

#[test]
fn mp_p_05_allow_junk_after_close() {
    let o = lenient(|o| o.allow_junk_after_close = true);
    // Strict: MP_DELIMITER at the junk, MP_TRUNCATED after a CR (MP-P-05, MP-P-07).
    assert_eq!(err("--b--junk"), e(MpDelimiter, 5));
    assert_eq!(err("--b--\r"), e(MpTruncated, 6));
    assert_eq!(err("--b--\rX"), e(MpDelimiter, 6));
    assert_eq!(err("--b-- \tx"), e(MpDelimiter, 7));
    // With it, every byte after `--B--` is epilogue, and the input may end anywhere after it.
    for tail in [
        "",
        "junk",
        "\r",
        "\rX",
        " \tx",
        "\n",
        "\r\n",
        "--",
        "\r\n--b\r\n",
        "\0\u{ff}",
    ] {
        assert_eq!(
            ok_with(&o, format!("--b--{tail}").as_bytes()),
            [],
            "{tail:?}"
        );
    }
    let s = one(CD, "v").replace("--b--\r\n", "--b--junk");
    let p = ok_with(&o, s.as_bytes());
    assert_eq!((p.len(), p[0].body.as_slice()), (1, &b"v"[..]));
    // Junk that looks like a part is no part.
    let s = format!("{}\r\n--b\r\n{CD}\r\nw\r\n--b--", one(CD, "v").trim_end());
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 1);
    // The close delimiter itself is unchanged (MP-P-03), and so is a delimiter line.
    assert_eq!(err_with(&o, b"--b-x"), e(MpDelimiter, 4));
    assert_eq!(err_with(&o, b"--bx"), e(MpDelimiter, 3));
    assert_eq!(err_with(&o, b"--b"), e(MpTruncated, 3));
    assert_eq!(err_with(&o, b"--b-"), e(MpTruncated, 4));
    // The epilogue still counts towards max_total_bytes (MP-L-03).
    let mut t = o.clone();
    t.max_total_bytes = 7;
    assert_eq!(ok_with(&t, b"--b--jj"), []);
    assert_eq!(err_with(&t, b"--b--jjj"), e(MpLimitTotalBytes, 7));
    // End comes as soon as `--B--` is in: the parser is done before the input ends.
    let mut p = Parser::new(b"b", o.clone()).unwrap();
    let mut feed = p.feed(b"--b--");
    assert!(matches!(feed.next(), Some(Ok(Event::End))));
    assert!(feed.next().is_none());
    assert!(p.is_done());
    let mut feed = p.feed(b"\rmore junk");
    assert!(feed.next().is_none());
    assert_eq!(p.offset(), 15);
    let mut feed = p.finish();
    assert!(feed.next().is_none());
    // With the other options.
    let all = lenient(|o| {
        o.allow_junk_after_close = true;
        o.allow_lf = true;
        o.allow_preamble = true;
    });
    assert_eq!(ok_with(&all, b"pre\n--b--\rjunk").len(), 0);
    let s = "--b\nContent-Disposition: form-data; name=a\n\nv\n--b--junk";
    assert_eq!(ok_with(&all, s.as_bytes())[0].body, b"v");
}

#[test]
fn mp_h_01_allow_utf8_header_names() {
    let o = lenient(|o| o.allow_utf8_header_names = true);
    let s = one(&format!("{CD}F\u{f8}\u{f8}: bar\r\n"), "v");
    // Strict: MP_HEADER_NAME at the first byte 80-FF.
    assert_eq!(err(&s), e(MpHeaderName, at(&s, "\u{f8}", 0)));
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(
        p[0].headers[1],
        ("f\u{f8}\u{f8}".to_owned(), b"bar".to_vec())
    );
    // Lowercasing is ASCII only (MP-H-11); first and last header; after leading OWS.
    let s = one(&format!(" X-F\u{d8}\u{d8} : 1\r\n{CD}\u{d8}:2\r\n"), "v");
    let p = ok_with(&o, s.as_bytes());
    let names: Vec<&str> = p[0].headers.iter().map(|h| h.0.as_str()).collect();
    assert_eq!(names, ["x-f\u{d8}\u{d8}", "content-disposition", "\u{d8}"]);
    // Not UTF-8: shown with U+FFFD, at any split of the name.
    let mut raw = format!("--b\r\n{CD}X-").into_bytes();
    raw.extend_from_slice(b"\xff\x80\xc3: v\r\n\r\nvalue\r\n--b--");
    let p = ok_with(&o, &raw);
    assert_eq!(p[0].headers[1].0, "x-\u{fffd}\u{fffd}\u{fffd}");
    // An ordinary header: only the ASCII names are Content-Disposition / Content-Type.
    let s = one(&format!("{CD}C\u{f6}ntent-Type: text/html\r\n"), "v");
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p[0].content_type, None);
    let s = one("C\u{f6}ntent-Disposition: form-data; name=\"a\"\r\n", "v");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpNoDisposition, at(&s, "\r\n\r\n", 0) + 2)
    );
    // Every other rule of the name is unchanged (MP-H-02).
    for (bad, at_byte) in [
        ("X-F\u{f8}\u{f8}\x01: v", "\x01"),
        ("F\u{f8} \u{f8}: v", "\u{f8}: v"),
        ("F\u{f8}(: v", "("),
        ("F\u{f8}@: v", "@"),
        ("F\u{f8}\0: v", "\0"),
        ("F\u{f8}\r\n", "\r\n\r\n"),
    ] {
        let s = one(&format!("{CD}{bad}\r\n"), "v");
        assert_eq!(
            err_with(&o, s.as_bytes()),
            e(MpHeaderName, at(&s, at_byte, 0)),
            "{bad:?}"
        );
    }
    // Limits count the bytes of the input, not of the decoded name.
    let mut l = o.clone();
    let s = one(&format!("{CD}\u{f8}: v\r\n"), "v");
    l.max_header_bytes = (CD.len() + "\u{f8}: v\r\n".len()) as u64;
    assert_eq!(ok_with(&l, s.as_bytes()).len(), 1);
    l.max_header_bytes -= 1;
    assert_eq!(err_with(&l, s.as_bytes()).code, MpLimitHeaderBytes);
    // With obs-fold and bare LF.
    let f = lenient(|o| {
        o.allow_utf8_header_names = true;
        o.allow_obs_fold = true;
        o.allow_lf = true;
    });
    let s = format!("--b\n{CD}\u{f8}: a\r\n\tb\n\nv\n--b--");
    let p = ok_with(&f, s.as_bytes());
    assert_eq!(p[0].headers[1], ("\u{f8}".to_owned(), b"a b".to_vec()));
}

#[test]
fn mp_h_07_allow_any_disposition_type() {
    let o = lenient(|o| o.allow_any_disposition_type = true);
    let cd = |v: &str| format!("Content-Disposition: {v}\r\n");
    let s = one(&cd("form-field; name=\"a\""), "v");
    assert_eq!(err(&s), e(MpDisposition, 5));
    let p = ok_with(&o, s.as_bytes());
    assert_eq!((p[0].name.as_str(), p[0].filename.as_deref()), ("a", None));
    let p = ok_with(
        &o,
        one(&cd("attachment; name=f; filename=\"x.txt\""), "v").as_bytes(),
    );
    assert_eq!(
        (p[0].name.as_str(), p[0].filename.as_deref()),
        ("f", Some("x.txt"))
    );
    let p = ok_with(&o, one(&cd("INLINE ;name=\"a\" ;"), "v").as_bytes());
    assert_eq!(p[0].name, "a");
    // form-data still reads as before.
    assert_eq!(ok_with(&o, one(CD, "v").as_bytes())[0].name, "a");
    // The rest of the value is read exactly as for form-data.
    for bad in [
        "\"form-data\"; name=a",
        "; name=a",
        "form/data; name=a",
        "form data; name=a",
        "form-field",
        "form-field; filename=x",
        "form-field; name=a; name=b",
        "form-field; name=\"a",
        "",
    ] {
        let s = one(&cd(bad), "v");
        assert_eq!(err_with(&o, s.as_bytes()), e(MpDisposition, 5), "{bad:?}");
    }
    // With quoted pairs (MP-H-07's two readings apply as for form-data).
    let q = lenient(|o| {
        o.allow_any_disposition_type = true;
        o.allow_quoted_pairs = true;
    });
    let p = ok_with(&q, one(&cd("x; name=\"a\\\\b\""), "v").as_bytes());
    assert_eq!(p[0].name, "a\\b");
    let p = ok_with(&o, one(&cd("x; name=\"a\\\\b\""), "v").as_bytes());
    assert_eq!(p[0].name, "a\\\\b");
    // ContentDisposition::parse_with reads a value under the same options.
    let v = b"form-field; name=\"a\"";
    assert_eq!(ContentDisposition::parse(v, false), None);
    assert_eq!(ContentDisposition::parse_with(v, &strict()), None);
    let d = ContentDisposition::parse_with(v, &o).unwrap();
    assert_eq!((d.name.as_slice(), d.filename), (&b"a"[..], None));
    assert_eq!(
        ContentDisposition::parse_with(b"", &lenient(|o| o.allow_missing_disposition = true)),
        None
    );
}

#[test]
fn mp_h_06_allow_missing_disposition() {
    let o = lenient(|o| o.allow_missing_disposition = true);
    fn named(p: &P) -> (bool, &str, Option<&str>) {
        (p.named, p.name.as_str(), p.filename.as_deref())
    }
    // No Content-Disposition: a part without a name, then a named one.
    let s = format!("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b\r\n{CD}\r\ny\r\n--b--");
    assert_eq!(err(&s), e(MpNoDisposition, at(&s, "\r\n\r\n", 0) + 2));
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p.len(), 2);
    assert_eq!(named(&p[0]), (false, "", None));
    assert_eq!(
        (
            p[0].content_type.as_deref(),
            p[0].mime.as_str(),
            p[0].body.as_slice()
        ),
        (Some(&b"text/plain"[..]), "text/plain", &b"x"[..])
    );
    assert_eq!(
        (p[0].name_star.as_deref(), p[0].filename_star.as_deref()),
        (None, None)
    );
    assert_eq!(
        p[0].headers,
        [("content-type".to_owned(), b"text/plain".to_vec())]
    );
    assert_eq!(named(&p[1]), (true, "a", None));
    // No headers at all.
    let p = ok_with(&o, b"--b\r\n\r\nv\r\n--b--");
    assert_eq!((named(&p[0]), p[0].headers.len()), ((false, "", None), 0));
    // Only an empty Content-Disposition (OWS only; an empty obs-fold continuation).
    for cd in [
        "Content-Disposition:\r\n",
        "Content-Disposition: \t \r\n",
        "X: 1\r\ncontent-disposition :\r\n",
    ] {
        let s = one(cd, "v");
        let line = at(&s.to_lowercase(), "content-disposition", 0);
        assert_eq!(err(&s), e(MpDisposition, line), "{cd:?}");
        let p = ok_with(&o, s.as_bytes());
        assert_eq!(named(&p[0]), (false, "", None), "{cd:?}");
        assert!(
            p[0].headers
                .contains(&("content-disposition".to_owned(), Vec::new()))
        );
    }
    let mut f = o.clone();
    f.allow_obs_fold = true;
    let p = ok_with(
        &f,
        one("Content-Disposition:\r\n \r\n\t\r\n", "v").as_bytes(),
    );
    assert_eq!(
        p[0].headers,
        [("content-disposition".to_owned(), Vec::new())]
    );
    assert!(!p[0].named);
    // name="" is a name.
    let p = ok_with(
        &o,
        one("Content-Disposition: form-data; name=\"\"\r\n", "v").as_bytes(),
    );
    assert_eq!(named(&p[0]), (true, "", None));
    // The order of MP-H-06 is kept: a second Content-Disposition, even an
    // empty one, and a present non-empty invalid value are still errors.
    for h in [
        format!("{CD}Content-Disposition:\r\n"),
        format!("Content-Disposition:\r\n{CD}"),
        "Content-Disposition:\r\nContent-Disposition: \r\n".to_owned(),
    ] {
        let s = one(&h, "v");
        assert_eq!(
            err_with(&o, s.as_bytes()),
            e(MpDisposition, at(&s, "Content-Disposition", 1)),
            "{h:?}"
        );
    }
    for bad in [
        "form-data",
        "form-data; filename=x",
        "attachment; name=a",
        ";",
    ] {
        let s = one(&format!("Content-Disposition: {bad}\r\n"), "v");
        assert_eq!(err_with(&o, s.as_bytes()), e(MpDisposition, 5), "{bad:?}");
    }
    // A nameless part is a field for every limit (MP-L-02, MP-L-04, MP-L-05, MP-L-01).
    let s = format!("--b\r\n{CD}\r\nabc\r\n--b\r\n\r\ndef\r\n--b--");
    let second = at(&s, "--b\r\n\r\n", 0) as u64 + 5;
    let mut l = o.clone();
    l.max_files = 0;
    assert_eq!(ok_with(&l, s.as_bytes()).len(), 2);
    let mut l = o.clone();
    l.max_fields = 1;
    assert_eq!(err_with(&l, s.as_bytes()), e(MpLimitFields, second));
    let mut l = o.clone();
    l.max_parts = 1;
    assert_eq!(err_with(&l, s.as_bytes()), e(MpLimitParts, second));
    let mut l = o.clone();
    l.max_field_bytes = 3;
    assert_eq!(ok_with(&l, s.as_bytes()).len(), 2);
    l.max_field_bytes = 2;
    assert_eq!(
        err_with(&l, s.as_bytes()),
        e(MpLimitFieldBytes, at(&s, "abc", 0) + 2)
    );
    let mut l = o.clone();
    l.max_total_field_bytes = 5;
    assert_eq!(
        err_with(&l, s.as_bytes()),
        e(MpLimitTotalFieldBytes, at(&s, "def", 0) + 2)
    );
    // With allow_any_disposition_type: a type without name still fails.
    let a = lenient(|o| {
        o.allow_missing_disposition = true;
        o.allow_any_disposition_type = true;
    });
    let s = one("Content-Disposition: form-field\r\n", "v");
    assert_eq!(err_with(&a, s.as_bytes()), e(MpDisposition, 5));
    // Parser::part / last_part answer has_name for the current part, and a
    // named part after a nameless one is named again.
    let mut parser = Parser::new(b"b", o.clone()).unwrap();
    let body = format!("--b\r\n\r\nx\r\n--b\r\n{CD}\r\ny\r\n--b--");
    let mut seen = Vec::new();
    let mut feed = parser.feed(body.as_bytes());
    while let Some(ev) = feed.next() {
        if let Event::PartStart(part) = ev.unwrap() {
            seen.push((part.has_name(), format!("{part:?}")));
        }
    }
    assert!(!seen[0].0);
    assert!(seen[0].1.starts_with("Part { name: None"), "{}", seen[0].1);
    assert!(seen[1].0);
    assert!(
        seen[1].1.starts_with("Part { name: Some(\"a\")"),
        "{}",
        seen[1].1
    );
}

#[test]
fn new_lenient_options_together() {
    let all = lenient(|o| {
        o.allow_missing_disposition = true;
        o.allow_any_disposition_type = true;
        o.allow_junk_after_close = true;
        o.allow_utf8_header_names = true;
    });
    let s = "--b\r\nF\u{f8}\u{f8}: 1\r\n\r\nx\r\n--b\r\nContent-Disposition: form-field; name=\"a\"\r\n\r\ny\r\n--b--junk";
    let p = ok_with(&all, s.as_bytes());
    assert_eq!(p.len(), 2);
    assert_eq!(
        (p[0].named, p[0].headers[0].0.as_str()),
        (false, "f\u{f8}\u{f8}")
    );
    assert_eq!((p[1].named, p[1].name.as_str()), (true, "a"));
    // Strict rejects it at the first byte 80-FF.
    assert_eq!(err(s), e(MpHeaderName, at(s, "\u{f8}", 0)));
}
