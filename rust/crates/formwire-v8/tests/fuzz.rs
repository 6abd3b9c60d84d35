//! Quick in-test fuzzing: the decoder never panics, rejects with an offset inside the input, and
//! everything it accepts re-encodes canonically and decodes back to the same value.

mod common;

use common::{Gen, Rng};
use formwire_v8::{
    DecodeOptions, Decoder, ErrorCode, decode, decode_borrowed_with, decode_with, encode,
};

/// Checks one input with memory of its own, and again with `dec`, a decoder whose kept working
/// memory and arenas come from every input checked before: the answers must be the same.
fn check(dec: &mut Decoder, bytes: &[u8], opts: &DecodeOptions) -> bool {
    let owned = decode_with(bytes, opts);
    dec.set_options(opts.clone());
    // `decode` is `decode_borrowed` + `to_graph`; with a used decoder it must give the same answer.
    match (&owned, dec.decode_borrowed(bytes)) {
        (Ok(g), Ok(b)) => {
            assert!(
                b.to_graph().same_as(g),
                "decode_borrowed of {bytes:02x?} differs: {:?} vs {g:?}",
                b.to_graph()
            );
            dec.recycle(b);
        }
        (Err(e), Err(b)) => assert_eq!(
            (e.code, e.offset),
            (b.code, b.offset),
            "decode_borrowed of {bytes:02x?}"
        ),
        (o, b) => panic!(
            "decode and decode_borrowed disagree on {bytes:02x?}: {:?} vs {:?}",
            o.as_ref().err(),
            b.err()
        ),
    }
    // The free function and the decoder's owned decode too.
    match (decode_borrowed_with(bytes, opts), dec.decode(bytes)) {
        (Ok(b), Ok(g)) => assert!(b.to_graph().same_as(&g), "Decoder::decode of {bytes:02x?}"),
        (Err(b), Err(e)) => assert_eq!((e.code, e.offset), (b.code, b.offset)),
        (b, o) => panic!("{bytes:02x?}: {:?} vs {:?}", b.err(), o.err()),
    }
    match owned {
        Ok(g) => {
            let again = encode(&g)
                .unwrap_or_else(|e| panic!("accepted {bytes:02x?} but cannot re-encode: {e}"));
            let back = decode(&again)
                .unwrap_or_else(|e| panic!("re-encoding of {bytes:02x?} does not decode: {e}"));
            assert!(
                back.same_as(&g),
                "re-encoding of {bytes:02x?} changed the value"
            );
            true
        }
        Err(e) => {
            assert!(
                e.offset <= bytes.len() as u64,
                "{e} points past the input {bytes:02x?}"
            );
            if e.code == ErrorCode::Truncated {
                assert_eq!(e.offset, bytes.len() as u64);
            }
            false
        }
    }
}

fn mutate(rng: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    for _ in 0..=rng.below(3) {
        if b.is_empty() {
            break;
        }
        let p = rng.below(b.len() as u64) as usize;
        match rng.below(6) {
            0 => b[p] ^= 1 << rng.below(8),
            1 => b[p] = rng.next() as u8,
            2 => b.insert(p, rng.next() as u8),
            3 => {
                b.remove(p);
            }
            4 => b.truncate(p),
            _ => {
                // An interesting byte: a tag, a varint continuation, or padding.
                const INTERESTING: &[u8] =
                    b"\x00\x80\xff?-_0TFIUNZS\"c^o{aA$@Dyxnzs R;:',B~tVupwm\\r.";
                b[p] = INTERESTING[rng.below(INTERESTING.len() as u64) as usize];
            }
        }
    }
    b
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0xF00D);
    let opts = DecodeOptions::default();
    let mut dec = Decoder::new();
    for _ in 0..20_000 {
        let n = rng.below(40) as usize;
        let mut b = vec![0xFF, 13 + rng.below(3) as u8];
        b.extend(rng.bytes(n));
        check(&mut dec, &b, &opts);
        check(&mut dec, &b[1..], &opts);
    }
}

#[test]
fn mutated_encodings_never_panic() {
    let mut rng = Rng(0xBEEF);
    let ipc = DecodeOptions {
        node_ipc: true,
        ..DecodeOptions::default()
    };
    let shallow = DecodeOptions {
        max_depth: 2,
        ..DecodeOptions::default()
    };
    let mut accepted = 0;
    let mut total = 0;
    let mut dec = Decoder::new();
    for seed in 0..1500u64 {
        let g = if seed % 2 == 0 {
            Gen::graph(seed)
        } else {
            common::shapey_graph(seed)
        };
        let bytes = encode(&g).unwrap();
        for _ in 0..12 {
            let m = mutate(&mut rng, bytes.clone());
            total += 1;
            if check(&mut dec, &m, &DecodeOptions::default()) {
                accepted += 1;
            }
            check(&mut dec, &m, &ipc);
            check(&mut dec, &m, &shallow);
        }
    }
    // The mutations must exercise both sides.
    assert!(
        accepted > total / 20 && accepted < total * 19 / 20,
        "{accepted} of {total} accepted"
    );
}

#[test]
fn adversarial_lengths_do_not_allocate() {
    // Huge declared lengths with no bytes behind them fail fast (SC_TRUNCATED) instead of reserving.
    for h in [
        "ff0f22ffffffff0f",
        "ff0f63feffffff0f",
        "ff0f42ffffffff0f",
        "ff0f7effffffff0fffffffff0f",
        "ff0f41ffffffff0f",
        "ff0f5c01ffffffff0f",
    ] {
        let b: Vec<u8> = (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect();
        let e = decode(&b).unwrap_err();
        assert_eq!(
            (e.code, e.offset),
            (ErrorCode::Truncated, b.len() as u64),
            "{h}"
        );
    }
    // A BigInt that long is over max_bigint_bytes, refused at its tag before its digits (SC-L-06).
    let e = decode(&[0xFF, 0x0F, b'Z', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]).unwrap_err();
    assert_eq!((e.code, e.offset), (ErrorCode::LimitBigint, 2));
    // A sparse array of length 2^32-1 is fine: nothing is allocated for its holes.
    assert!(
        decode(&[
            0xFF, 0x0F, b'a', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, b'@', 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F
        ])
        .is_ok()
    );
}
