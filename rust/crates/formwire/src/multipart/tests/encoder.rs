//! Encoder (MP-S) and encode/parse round trips.

use super::*;

#[test]
fn mp_s_layout_and_escapes() {
    let mut enc = Encoder::with_boundary("BOUNDARY").unwrap();
    enc.text("a\nb", "x\ry\r\nz\n");
    enc.text("a\n\rb\"c%\\\u{e9}", "");
    enc.file("f", "b\nc\r\n\"d", "text/plain", &b"hi"[..])
        .unwrap();
    enc.file("g", "", "", Vec::new()).unwrap();
    enc.blob("h", "", &b"\x00\x01"[..]).unwrap();
    let len = enc.content_length().unwrap();
    let out = enc.encode_to_vec().unwrap();
    let expect = "--BOUNDARY\r\nContent-Disposition: form-data; name=\"a%0D%0Ab\"\r\n\r\nx\r\ny\r\nz\r\n\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"a%0D%0A%0D%0Ab%22c%\\\u{e9}\"\r\n\r\n\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"b%0Ac%0D%0A%22d\"\r\nContent-Type: text/plain\r\n\r\nhi\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"g\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n\
--BOUNDARY\r\nContent-Disposition: form-data; name=\"h\"; filename=\"blob\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\r\n\
--BOUNDARY--\r\n";
    assert_eq!(String::from_utf8_lossy(&out), expect);
    assert_eq!(len, out.len() as u64);
    let empty = Encoder::with_boundary("x").unwrap();
    assert_eq!(empty.content_length(), Some(7));
    assert_eq!(empty.encode_to_vec().unwrap(), b"--x--\r\n");
}

#[test]
fn mp_s_06_09_errors() {
    let mut enc = Encoder::with_boundary("b").unwrap();
    enc.text("a", "b");
    assert_eq!(
        enc.file("f", "x", "text/plain\r\nX: y", &b""[..])
            .unwrap_err(),
        e(MpEncodeHeader, 1)
    );
    assert_eq!(
        enc.blob("f", "a\0", &b""[..]).unwrap_err(),
        e(MpEncodeHeader, 1)
    );
    assert_eq!(enc.len(), 1);
    for bad in [
        "",
        "a\"b",
        "a;b",
        "ends with space ",
        "\u{e9}",
        &"x".repeat(71),
    ] {
        assert_eq!(
            Encoder::with_boundary(bad).unwrap_err(),
            e(MpEncodeBoundary, 0),
            "{bad:?}"
        );
    }
    for good in ["a", "'()+_,-./:=? z", &"x".repeat(70)] {
        let enc = Encoder::with_boundary(good).unwrap();
        // MP-S-10: the Content-Type reads back as the same boundary.
        assert_eq!(
            boundary_from_content_type(&enc.content_type()).unwrap(),
            good.as_bytes()
        );
    }
    assert_eq!(
        Encoder::with_boundary("a-b").unwrap().content_type(),
        "multipart/form-data; boundary=a-b"
    );
    assert_eq!(
        Encoder::with_boundary("a:b").unwrap().content_type(),
        "multipart/form-data; boundary=\"a:b\""
    );
}

/// Pearson's chi-squared statistic of the 32 random characters of `n`
/// boundaries against the uniform distribution over the 62 characters.
fn boundary_chi2(n: usize, mut next: impl FnMut() -> String) -> f64 {
    let alphabet = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut counts = [0u64; 62];
    for _ in 0..n {
        let s = next();
        let tail = s.strip_prefix("----formwire-").expect("prefix");
        assert_eq!(tail.len(), 32);
        for c in tail.bytes() {
            counts[alphabet.iter().position(|&a| a == c).expect("base-62")] += 1;
        }
    }
    let expected = (n * 32) as f64 / 62.0;
    counts
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn mp_s_09_boundary_characters_are_uniform() {
    // 61 degrees of freedom: P(chi2 > 129) is about 1e-6. A modulo-62 map of
    // every byte value gives about 4,200 here (0-7 are 1.25x as likely).
    let mut rng = Rng(0x5eed_b0da);
    let chi2 = boundary_chi2(20_000, || {
        encode::boundary_from(|buf| {
            for b in buf.iter_mut() {
                *b = rng.next() as u8;
            }
        })
    });
    assert!(chi2 < 129.0, "seeded source: chi2 = {chi2:.1}");
    // Only bytes 248..=255 are dropped: a source that sends just those and
    // then uniform bytes still gives a boundary.
    let mut k = 0u32;
    let s = encode::boundary_from(|buf| {
        for b in buf.iter_mut() {
            k += 1;
            *b = if k <= 100 { 248 + (k % 8) as u8 } else { 61 };
        }
    });
    assert_eq!(s, format!("----formwire-{}", "z".repeat(32)));
}

#[cfg(feature = "getrandom")]
#[test]
fn mp_s_09_boundary_characters_are_uniform_from_the_os() {
    // P(chi2 > 153) is about 1e-9 for 61 degrees of freedom.
    let chi2 = boundary_chi2(20_000, encode::random_boundary);
    assert!(chi2 < 153.0, "operating system source: chi2 = {chi2:.1}");
}

#[cfg(feature = "getrandom")]
#[test]
fn mp_s_09_generated_boundaries() {
    let a = Encoder::new();
    let b = Encoder::new();
    assert_ne!(a.boundary(), b.boundary());
    for enc in [&a, &b] {
        let s = enc.boundary();
        assert!((27..=70).contains(&s.len()));
        assert!(
            s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"'_-".contains(&c))
        );
        assert!(enc.content_type().ends_with(s));
        assert!(Encoder::with_boundary(s).is_ok());
    }
}

#[test]
fn encoder_outputs_agree() {
    let blob: Vec<u8> = (0..100_000u32).map(|i| (i * 7) as u8).collect();
    let build = || {
        let mut enc = Encoder::with_boundary("zz").unwrap();
        enc.text("t", "v");
        enc.file("f", "a", "x/y", &blob[..]).unwrap();
        enc.file("g", "b", "", Body::reader(&blob[..10], Some(10)))
            .unwrap();
        enc
    };
    let enc = build();
    assert!(enc.slices().is_none());
    let len = enc.content_length().unwrap();
    let v = build().encode_to_vec().unwrap();
    assert_eq!(v.len() as u64, len);
    let mut r = Vec::new();
    std::io::Read::read_to_end(&mut build().into_reader(), &mut r).unwrap();
    assert_eq!(r, v);
    // Small reads.
    let mut reader = build().into_reader();
    let mut small = Vec::new();
    let mut buf = [0u8; 7];
    loop {
        let n = std::io::Read::read(&mut reader, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        small.extend_from_slice(&buf[..n]);
    }
    assert_eq!(small, v);
    // In-memory: borrowed slices, the blob itself among them (not copied).
    let mut enc = Encoder::with_boundary("zz").unwrap();
    enc.text("t", "v");
    enc.file("f", "a", "x/y", &blob[..]).unwrap();
    let slices = enc.slices().unwrap();
    assert!(
        slices
            .iter()
            .any(|s| s.as_ptr() == blob.as_ptr() && s.len() == blob.len())
    );
    assert_eq!(slices.concat().len() as u64, enc.content_length().unwrap());
    // Unsized reader: no length up front; wrong sizes are I/O errors.
    let mut enc = Encoder::with_boundary("zz").unwrap();
    enc.file("g", "b", "", Body::reader(&blob[..10], None))
        .unwrap();
    assert_eq!(enc.content_length(), None);
    assert!(enc.encode_to_vec().is_ok());
    for size in [9, 11] {
        let mut enc = Encoder::with_boundary("zz").unwrap();
        enc.file("g", "b", "", Body::reader(&blob[..10], Some(size)))
            .unwrap();
        assert!(enc.encode_to_vec().is_err(), "size {size}");
        let mut enc = Encoder::with_boundary("zz").unwrap();
        enc.file("g", "b", "", Body::reader(&blob[..10], Some(size)))
            .unwrap();
        let mut sink = Vec::new();
        assert!(
            std::io::Read::read_to_end(&mut enc.into_reader(), &mut sink).is_err(),
            "size {size}"
        );
    }
}

#[test]
fn encode_parse_round_trip() {
    let mut rng = Rng(42);
    for _ in 0..100 {
        let mut enc = Encoder::with_boundary("----formwire-test0123456789").unwrap();
        let mut expect = Vec::new();
        for i in 0..rng.below(6) {
            let name = format!("n{i}\u{e9}\"\n");
            let len = rng.below(200);
            let bytes = random_bytes(&mut rng, b"zzz", len);
            if rng.below(2) == 0 {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                enc.text(&name, &text);
                let mut norm = Vec::new();
                encode::tests_support::normalize(&mut norm, text.as_bytes());
                expect.push((
                    "n".to_owned() + &i.to_string() + "\u{e9}%22%0D%0A",
                    None,
                    norm,
                ));
            } else {
                enc.file(&name, "f\r.bin", "a/b", bytes.clone()).unwrap();
                expect.push((
                    "n".to_owned() + &i.to_string() + "\u{e9}%22%0D%0A",
                    Some("f%0D.bin".to_owned()),
                    bytes,
                ));
            }
        }
        let ct = enc.content_type();
        let len = enc.content_length().unwrap();
        let body = enc.encode_to_vec().unwrap();
        assert_eq!(body.len() as u64, len);
        let boundary = boundary_from_content_type(&ct).unwrap();
        let cuts: Vec<usize> = (0..rng.below(6))
            .map(|_| 1 + rng.below(body.len() - 1))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let got = run(&boundary, &strict(), &body, &cuts).unwrap();
        assert_eq!(got.len(), expect.len());
        for (g, (n, f, b)) in got.iter().zip(&expect) {
            assert_eq!(&g.name, n);
            assert_eq!(&g.filename, f);
            assert_eq!(&g.body, b);
        }
    }
}
