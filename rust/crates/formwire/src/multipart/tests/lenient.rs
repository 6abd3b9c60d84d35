//! MP-R-02: allow_junk_after_close, allow_utf8_header_names,
//! allow_any_disposition_type, allow_missing_disposition, allow_cr,
//! allow_near_delimiters, allow_8bit_parameter_names,
//! allow_rfc2231_continuations (the parser's tests of the named lenient
//! options of spec/multipart.md §1).

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

/// A one-part body whose Content-Disposition value is `v` (any bytes).
fn cd_body(v: &[u8]) -> Vec<u8> {
    let mut s = b"--b\r\nContent-Disposition: ".to_vec();
    s.extend_from_slice(v);
    s.extend_from_slice(b"\r\n\r\nv\r\n--b--\r\n");
    s
}

#[test]
fn mp_h_07_allow_8bit_parameter_names() {
    let o = lenient(|o| o.allow_8bit_parameter_names = true);
    let v = b"form-data; name=\"a\";\xa0filename=\"a.txt\"";
    // Strict: a byte 80-FF is no token byte, so the value fails.
    assert_eq!(err_with(&strict(), &cd_body(v)), e(MpDisposition, 5));
    // With it, the parameter is ignored: a field, not a file.
    let p = ok_with(&o, &cd_body(v));
    assert_eq!((p[0].name.as_str(), p[0].filename.as_deref()), ("a", None));
    // Parameters after it still count; `name` then FF is another name.
    let p = ok_with(&o, &cd_body(b"form-data; name=a; f\xc3\xa9=x; filename=f"));
    assert_eq!(p[0].filename.as_deref(), Some("f"));
    let p = ok_with(&o, &cd_body(b"form-data; name=\"a\"; name\xff=\"b\""));
    assert_eq!(p[0].name, "a");
    for bad in [
        &b"form-data; \xa0name=\"a\""[..],
        b"form-data\xa0; name=a",
        b"form-data; name=a; f@o=1",
        b"form-data; name=a; \xa0x=\"open",
        b"form-data; name=a; \xa0x=\xa0",
        b"form-data; name=a; \xa0x",
    ] {
        assert_eq!(err_with(&o, &cd_body(bad)), e(MpDisposition, 5), "{bad:?}");
    }
    // With quoted pairs, in both readings.
    let q = lenient(|o| {
        o.allow_8bit_parameter_names = true;
        o.allow_quoted_pairs = true;
    });
    let p = ok_with(&q, &cd_body(b"form-data; \xa0x=\"\\\"\"; name=\"a\\\\b\""));
    assert_eq!(p[0].name, "a\\b");
    let d = ContentDisposition::parse_with(v, &o).unwrap();
    assert_eq!((d.name.as_slice(), d.filename), (&b"a"[..], None));
    assert_eq!(ContentDisposition::parse_with(v, &strict()), None);
}

#[test]
fn mp_h_09_allow_rfc2231_continuations() {
    let o = lenient(|o| o.allow_rfc2231_continuations = true);
    let file = |o: &Options, v: &[u8]| ok_with(o, &cd_body(v))[0].filename.clone();
    let v = b"form-data; name=f; filename*0*=ascii''a%20b%20; filename*1*=c%20d%20; filename*2=\"e f.txt\"";
    // Strict: continuations are other parameters, ignored.
    assert_eq!(file(&strict(), v), None);
    assert_eq!(file(&o, v).as_deref(), Some("a b c d e f.txt"));
    for (v, want) in [
        (
            &b"form-data; name=f; filename*0=\"a b\"; filename*1=.txt"[..],
            Some("a b.txt"),
        ),
        // Order of appearance does not matter; the first missing N ends it.
        (
            b"form-data; name=f; filename*1=b; filename*0=a; filename*3=d",
            Some("ab"),
        ),
        (b"form-data; name=f; filename*1=b", None),
        (b"form-data; name=f; filename*0=a; filename*01=b", Some("a")),
        (
            b"form-data; name=f; filename*0*=''100%25%2x%",
            Some("100%%2x%"),
        ),
        (
            b"form-data; name=f; filename*0*=UTF-8'en'%C3%A9t%C3%A9; filename*1=.txt",
            Some("\u{e9}t\u{e9}.txt"),
        ),
        (
            b"form-data; name=f; filename*0*=iso-8859-1''caf%E9",
            Some("caf\u{fffd}"),
        ),
        (
            b"form-data; name=f; FILENAME*0=a; FileName*1*=%62",
            Some("ab"),
        ),
        // A present filename wins, wherever it is.
        (
            b"form-data; name=f; filename*0=evil; filename=safe.txt; filename*1=.php",
            Some("safe.txt"),
        ),
        // Without `filename*0*`'s `charset'language'` beside a filename:
        // nothing is joined, so no error.
        (
            b"form-data; name=f; filename*0*=utf-8%20a; filename=s",
            Some("s"),
        ),
        // Continuations of name are not joined, nor is filename* itself.
        (b"form-data; name=n; name*0=x; filename*0=f", Some("f")),
        (b"form-data; name=f; filename*=utf-8''x.php", None),
        (
            b"form-data; name=f; filename*x=a; filename**=b; filename*0**=c",
            None,
        ),
    ] {
        assert_eq!(
            file(&o, v).as_deref(),
            want,
            "{:?}",
            String::from_utf8_lossy(v)
        );
    }
    let p = ok_with(
        &o,
        &cd_body(b"form-data; name=f; filename*=utf-8''x; filename*0=a"),
    );
    assert_eq!(p[0].filename_star.as_deref(), Some(&b"utf-8''x"[..]));
    for bad in [
        &b"form-data; name=f; filename*0=a; filename*0*=''b"[..],
        b"form-data; name=f; filename*0=a; filename*1=b; filename*1=c",
        b"form-data; name=f; filename*0*=utf-8%20a.txt",
        b"form-data; name=f; filename*0*=utf-8'a.txt",
        // The same N twice wherever it is: after a missing N, beside a filename.
        b"form-data; name=f; filename*0=a; filename*2=c; filename*2=d",
        b"form-data; name=f; filename*0=a; filename*0=b; filename=s",
        b"form-data; name=f; filename=s; filename*1=a; filename*1*=''b",
    ] {
        let msg = String::from_utf8_lossy(bad);
        assert_eq!(err_with(&o, &cd_body(bad)), e(MpDisposition, 5), "{msg}");
        // Strict reads the continuations as other parameters: accepted.
        assert_eq!(ok_with(&strict(), &cd_body(bad)).len(), 1, "{msg}");
    }
    // With quoted pairs: a segment is read as any quoted-string.
    let q = lenient(|o| {
        o.allow_rfc2231_continuations = true;
        o.allow_quoted_pairs = true;
    });
    let v = b"form-data; name=f; filename*0=\"a\\\\\"; filename*1=\"b\"";
    assert_eq!(file(&q, v).as_deref(), Some("a\\b"));
    assert_eq!(file(&o, v).as_deref(), Some("a\\\\b"));
    let v2 = b"form-data; name=f; filename*0=\"a\\\"\"; filename*1=\"b\"";
    assert_eq!(file(&o, v2).as_deref(), Some("a\"b"));
    // A part named by continuations is a file part (MP-L-02).
    let mut t = o.clone();
    t.max_file_bytes = 0;
    assert_eq!(
        err_with(&t, &cd_body(b"form-data; name=f; filename*0=x")),
        e(MpLimitFileBytes, 61)
    );
    let d = ContentDisposition::parse_with(v, &q).unwrap();
    assert_eq!(d.filename.as_deref(), Some(&b"a\\b"[..]));
}

#[test]
fn mp_p_03_allow_cr() {
    let o = lenient(|o| o.allow_cr = true);
    let cd = "Content-Disposition: form-data; name=\"a\"";
    // werkzeug's CR-only body: strict stops at the first bare CR.
    let s = format!("--b\r{cd}\r\rv\r--b\rContent-Disposition: form-data; name=\"c\"\r\rw\r--b--");
    assert_eq!(err(&s), e(MpDelimiter, 4));
    let p = ok_with(&o, s.as_bytes());
    let got: Vec<(&str, &[u8])> = p.iter().map(|p| (p.name.as_str(), &p.body[..])).collect();
    assert_eq!(got, [("a", &b"v"[..]), ("c", &b"w"[..])]);
    // MP-P-06: a valid strict body reads differently, `CR--B` ends the body.
    let s = format!("--b\r\n{cd}\r\n\r\n1\r--b\r\n{cd}\r\n\r\n2\r\n--b--\r\n");
    assert_eq!(
        ok(&s)[0].body,
        b"1\r--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n2"
    );
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 2);
    // MP-P-04 still decides the byte after B: `CR--BX` is data.
    let s = format!("--b\r{cd}\r\r1\r--bX2\r--b--");
    assert_eq!(ok_with(&o, s.as_bytes())[0].body, b"1\r--bX2");
    // An empty body: the header block's bare CR, then `CR--B`.
    let s = format!("--b\r{cd}\r\r\r--b--");
    assert_eq!(ok_with(&o, s.as_bytes())[0].body, b"");
    // MP-P-05: the close line may end at a CR, at the end or before epilogue.
    let s = one(CD, "v");
    for tail in ["\r", "\repilogue", "\r\r", " \r"] {
        let t = s.replace("--b--\r\n", &format!("--b--{tail}"));
        assert_eq!(ok_with(&o, t.as_bytes())[0].body, b"v", "{tail:?}");
    }
    assert_eq!(
        err(&s.replace("--b--\r\n", "--b--\r")),
        e(MpTruncated, s.len() as u64 - 1)
    );
    // MP-P-03: padding then a bare CR; `--B` CR at the end is truncated.
    let s = format!("--b \t\r{cd}\r\n\r\nv\r\n--b--\r\n");
    assert_eq!(err(&s), e(MpDelimiter, 6));
    assert_eq!(ok_with(&o, s.as_bytes())[0].body, b"v");
    assert_eq!(err_with(&o, b"--b\r"), e(MpTruncated, 4));
    assert_eq!(err_with(&o, b"--b-x"), e(MpDelimiter, 4));
    let s = format!("{}--b-x\r\n", one(CD, "v").trim_end_matches("--b--\r\n"));
    assert_eq!(err_with(&o, s.as_bytes()), e(MpDelimiter, at(&s, "x", 0)));
    // MP-H-02, MP-H-03: CR CR LF ends a value then the block; a bare CR
    // before the colon is still MP_HEADER_NAME; a block that is only a
    // bare CR has no Content-Disposition.
    let s = format!("--b\r\n{cd}\r\r\nv\r\n--b--\r\n");
    assert_eq!(err(&s), e(MpHeaderValue, at(&s, "\r\r", 0)));
    assert_eq!(ok_with(&o, s.as_bytes())[0].body, b"v");
    let s = one(&format!("{CD}X-A\r: v\r\n"), "v");
    assert_eq!(
        err_with(&o, s.as_bytes()),
        e(MpHeaderName, at(&s, "\r: v", 0))
    );
    assert_eq!(err_with(&o, b"--b\r\rv\r--b--"), e(MpNoDisposition, 4));
    // A value's bare CR ends its line; the next line is a header again.
    let s = format!("--b\r{cd}\rX-B:  y \rContent-Type: t\r\rv\r--b--");
    let p = ok_with(&o, s.as_bytes());
    assert_eq!(p[0].headers[1], ("x-b".to_owned(), b"y".to_vec()));
    assert_eq!(p[0].content_type.as_deref(), Some(&b"t"[..]));
    // Limits: the block starts after the CR; a body counts as with CRLF.
    let mut t = o.clone();
    t.max_parts = 0;
    assert_eq!(
        err_with(&t, format!("--b\r{cd}\r\rv\r--b--").as_bytes()),
        e(MpLimitParts, 4)
    );
    // The line's bare CR is a header-line byte, as a CRLF's CR and LF are.
    let mut t = o.clone();
    t.max_header_bytes = cd.len() as u64 + 1;
    let s = format!("--b\r{cd}\r\rv\r--b--");
    assert_eq!(ok_with(&t, s.as_bytes()).len(), 1);
    t.max_header_bytes -= 1;
    assert_eq!(
        err_with(&t, s.as_bytes()),
        e(MpLimitHeaderBytes, 4 + cd.len() as u64)
    );
    let s = format!("--b\r{cd}\r\rabcd\r--b--");
    let mut t = o.clone();
    t.max_field_bytes = 4;
    assert_eq!(ok_with(&t, s.as_bytes())[0].body, b"abcd");
    t.max_field_bytes = 3;
    assert_eq!(
        err_with(&t, s.as_bytes()),
        e(MpLimitFieldBytes, at(&s, "abcd", 0) + 3)
    );
    // With allow_lf (CR, LF and CRLF mixed), allow_preamble, allow_obs_fold.
    let all = lenient(|o| {
        o.allow_cr = true;
        o.allow_lf = true;
        o.allow_preamble = true;
        o.allow_obs_fold = true;
    });
    let s =
        format!("pre\r--b\r{cd}\n\r\nx\r--b\nContent-Disposition: form-data;\r name=c\r\ry\n--b--");
    assert_eq!(err(&s), e(MpPreamble, 0));
    let p = ok_with(&all, s.as_bytes());
    let got: Vec<(&str, &[u8])> = p.iter().map(|p| (p.name.as_str(), &p.body[..])).collect();
    assert_eq!(got, [("a", &b"x"[..]), ("c", &b"y"[..])]);
    // A CR held at a chunk edge may go on as `CRLF--B` or as `CR--B`.
    for body in ["1\r", "1\r\r", "\r-", "\r--", "\r\n-\r--", "\r--\r\n--bX"] {
        let s = format!("--b\r{cd}\r\r{body}\r--b--");
        assert_eq!(
            ok_with(&o, s.as_bytes())[0].body,
            body.as_bytes(),
            "{body:?}"
        );
    }
}

#[test]
fn mp_p_03_allow_near_delimiters() {
    let o = lenient(|o| o.allow_near_delimiters = true);
    // python-multipart's lookalikes: `--B-x` and `--B` CR x are body data.
    for near in ["-x", "\rx", "-\r", "\r-", "-\rx", "\r\r"] {
        let body = format!("QQ\r\n--b{near}QQ");
        let s = one(CD, &body);
        let x = at(&s, near, 0) + 1;
        assert_eq!(err(&s), e(MpDelimiter, x), "{near:?}");
        assert_eq!(
            ok_with(&o, s.as_bytes())[0].body,
            body.as_bytes(),
            "{near:?}"
        );
    }
    // A chain, and a lookalike right before the real delimiter.
    let body = "a\r\n--b-\r\n--b\rb\r\n--b-x";
    assert_eq!(
        ok_with(&o, one(CD, body).as_bytes())[0].body,
        body.as_bytes()
    );
    let s = one(CD, "1\r\n--b-\r");
    assert_eq!(ok_with(&o, s.as_bytes())[0].body, b"1\r\n--b-\r");
    // Real delimiters are unchanged.
    let s = format!("--b\r\n{CD}\r\n1\r\n--b\r\n{CD}\r\n2\r\n--b--\r\n");
    assert_eq!(ok_with(&o, s.as_bytes()).len(), 2);
    // Padding then junk, the first delimiter, and the end of input are unchanged.
    let s = one(CD, "1\r\n--b x");
    assert_eq!(err_with(&o, s.as_bytes()), e(MpDelimiter, at(&s, "x", 0)));
    assert_eq!(err_with(&o, b"--b-x\r\n"), e(MpDelimiter, 4));
    let head = format!("--b\r\n{CD}\r\n1\r\n--b");
    for end in ["-", "\r"] {
        let s = format!("{head}{end}");
        assert_eq!(
            err_with(&o, s.as_bytes()),
            e(MpTruncated, s.len() as u64),
            "{end:?}"
        );
    }
    // Not in the preamble (MP-P-02): there a delimiter is one already.
    let p = lenient(|o| {
        o.allow_near_delimiters = true;
        o.allow_preamble = true;
    });
    let s = format!("pre\r\n--b-x\r\n{CD}\r\nv\r\n--b--");
    assert_eq!(err_with(&p, s.as_bytes()), e(MpDelimiter, at(&s, "x", 0)));
    // Every limit counts the lookalike's bytes as body bytes.
    let s = format!("--b\r\n{CD}\r\nab\r\n--b-x\r\n--b--\r\n");
    let start = at(&s, "ab", 0);
    let mut t = o.clone();
    t.max_field_bytes = 9;
    assert_eq!(ok_with(&t, s.as_bytes())[0].body, b"ab\r\n--b-x");
    t.max_field_bytes = 8;
    assert_eq!(err_with(&t, s.as_bytes()), e(MpLimitFieldBytes, start + 8));
    t.max_field_bytes = 7;
    assert_eq!(err_with(&t, s.as_bytes()), e(MpLimitFieldBytes, start + 7));
    let mut t = o.clone();
    t.max_total_bytes = start + 8;
    assert_eq!(err_with(&t, s.as_bytes()), e(MpLimitTotalBytes, start + 8));
    // With allow_lf, and with allow_cr (which reads `--B` CR x as a line end).
    let l = lenient(|o| {
        o.allow_near_delimiters = true;
        o.allow_lf = true;
    });
    let s = "--b\nContent-Disposition: form-data; name=a\n\n1\n--b-x\n--b--\n";
    assert_eq!(ok_with(&l, s.as_bytes())[0].body, b"1\n--b-x");
    let c = lenient(|o| {
        o.allow_near_delimiters = true;
        o.allow_cr = true;
    });
    let s = format!("--b\r\n{CD}\r\n1\r\n--b\r{CD}\r\n2\r\n--b--\r\n");
    assert_eq!(ok_with(&c, s.as_bytes()).len(), 2);
    let s = format!("--b\r{CD}\r\n1\r\n--b-x\r--b-y\r--b--");
    assert_eq!(ok_with(&c, s.as_bytes())[0].body, b"1\r\n--b-x\r--b-y");
}

#[test]
fn mp_p_08_held_bytes_with_near_delimiters() {
    // A lookalike's `-` or CR is held with the delimiter until the next
    // byte: at most `len(CRLF "--" B) + 1` bytes.
    for cr in [false, true] {
        let o = lenient(|o| {
            o.allow_near_delimiters = true;
            o.allow_cr = cr;
        });
        let mut parser = Parser::new(b"b", o).unwrap();
        let head = format!("--b\r\n{CD}\r\n");
        let mut feed = parser.feed(head.as_bytes());
        while let Some(ev) = feed.next() {
            ev.unwrap();
        }
        for (chunk, next) in [("x\r\n--b-", "y"), ("x\r--b-", "y"), ("x\r\n--b\r", "y")] {
            if chunk.starts_with("x\r-") && !cr || chunk.ends_with('\r') && cr {
                continue;
            }
            let mut feed = parser.feed(chunk.as_bytes());
            while let Some(ev) = feed.next() {
                ev.unwrap();
            }
            assert_eq!(parser.held_len(), chunk.len() - 1, "{chunk:?}");
            let mut held = Vec::new();
            let mut feed = parser.feed(next.as_bytes());
            while let Some(ev) = feed.next() {
                if let Event::HeldData(h) = ev.unwrap() {
                    held.extend_from_slice(h);
                }
            }
            assert_eq!(held, &chunk.as_bytes()[1..], "{chunk:?}");
            assert!(held.len() <= b"\r\n--b".len() + 1);
        }
    }
}

#[test]
fn newer_lenient_options_together() {
    let all = lenient(|o| {
        o.allow_cr = true;
        o.allow_near_delimiters = true;
        o.allow_8bit_parameter_names = true;
        o.allow_rfc2231_continuations = true;
    });
    let s = b"--b\rContent-Disposition: form-data; name=\"a\";\xa0x=1; filename*0=\"f.txt\"\r\r1\r\n--b-x\r--b--";
    assert_eq!(err_with(&strict(), s), e(MpDelimiter, 4));
    let p = ok_with(&all, s);
    assert_eq!(
        (p[0].name.as_str(), p[0].filename.as_deref(), &p[0].body[..]),
        ("a", Some("f.txt"), &b"1\r\n--b-x"[..])
    );
    // And with all twelve on.
    let mut twelve = all.clone();
    for name in crate::registry::multipart::FLAGS {
        assert!(twelve.set_flag(name, true), "{name}");
    }
    let p = ok_with(&twelve, s);
    assert_eq!(p[0].body, b"1\r\n--b-x");
}
