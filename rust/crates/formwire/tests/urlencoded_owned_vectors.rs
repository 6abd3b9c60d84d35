//! Every `urlencoded-parse` vector of `vectors/urlencoded/` through
//! `urlencoded::parse_owned_with`: the expected pairs or the expected error
//! code and offset, and the same result as `parse_with`. (The conformance
//! runner checks `parse_with` and the streaming parser; this checks the owned
//! one-pass path on the same cases.)
//!
//! The crate has no JSON dependency, so the few JSON forms the vectors use
//! are read by a small parser below.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use formwire::urlencoded::{self, Options, UNLIMITED};

#[path = "../src/test_rng.rs"]
mod test_rng;
use test_rng::Rng;

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, k: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(k),
            _ => None,
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            other => panic!("not an array: {other:?}"),
        }
    }
    fn num(&self) -> u64 {
        match self {
            Json::Num(n) if *n >= 0.0 && n.fract() == 0.0 => *n as u64,
            other => panic!("not a whole number: {other:?}"),
        }
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, b: u8) {
        self.ws();
        assert_eq!(
            self.s[self.i], b,
            "JSON: expected {:?} at {}",
            b as char, self.i
        );
        self.i += 1;
    }
    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return Json::Obj(m);
                }
                loop {
                    self.ws();
                    let k = self.string();
                    self.eat(b':');
                    m.insert(k, self.value());
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b'}' {
                        return Json::Obj(m);
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return Json::Arr(a);
                }
                loop {
                    a.push(self.value());
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b']' {
                        return Json::Arr(a);
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' => {
                self.i += 4;
                Json::Bool(true)
            }
            b'f' => {
                self.i += 5;
                Json::Bool(false)
            }
            b'n' => {
                self.i += 4;
                Json::Null
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                Json::Num(
                    std::str::from_utf8(&self.s[start..self.i])
                        .unwrap()
                        .parse()
                        .unwrap(),
                )
            }
        }
    }
    fn hex4(&mut self) -> u32 {
        let h = std::str::from_utf8(&self.s[self.i..self.i + 4]).unwrap();
        self.i += 4;
        u32::from_str_radix(h, 16).unwrap()
    }
    fn string(&mut self) -> String {
        assert_eq!(self.s[self.i], b'"');
        self.i += 1;
        let mut out = String::new();
        loop {
            let b = self.s[self.i];
            self.i += 1;
            match b {
                b'"' => return out,
                b'\\' => {
                    let e = self.s[self.i];
                    self.i += 1;
                    match e {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let mut c = self.hex4();
                            if (0xD800..0xDC00).contains(&c) && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4();
                                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                            }
                            out.push(char::from_u32(c).expect("vectors hold no lone surrogates"));
                        }
                        other => out.push(other as char),
                    }
                }
                _ => {
                    // Copy the whole UTF-8 sequence.
                    let start = self.i - 1;
                    let n = match b {
                        0x00..=0x7F => 1,
                        0xC0..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        _ => 4,
                    };
                    self.i = start + n;
                    out.push_str(std::str::from_utf8(&self.s[start..start + n]).unwrap());
                }
            }
        }
    }
}

fn parse_json(bytes: &[u8]) -> Json {
    Reader { s: bytes, i: 0 }.value()
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' | b'-' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(val)
        .collect();
    let mut out = Vec::new();
    for q in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in q.iter().enumerate() {
            n |= (d as u32) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..q.len()]);
    }
    out
}

/// `vectors/SCHEMA.md`, "Generated inputs".
fn generate(pieces: &[Json], out: &mut Vec<u8>) {
    for p in pieces {
        if let Some(t) = p.get("text") {
            out.extend_from_slice(t.str().as_bytes());
        } else if let Some(h) = p.get("hex") {
            let h = h.str().as_bytes();
            for pair in h.chunks(2) {
                out.push(u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap());
            }
        } else if let Some(r) = p.get("repeat") {
            let mut one = Vec::new();
            generate(r.arr(), &mut one);
            for _ in 0..p.get("count").unwrap().num() {
                out.extend_from_slice(&one);
            }
        } else if let Some(n) = p.get("random") {
            let mut rng = Rng(p.get("seed").unwrap().num());
            let n = n.num() as usize;
            let start = out.len();
            while out.len() < start + n {
                out.extend_from_slice(&rng.next().to_le_bytes());
            }
            out.truncate(start + n);
        } else {
            panic!("unknown piece {p:?}");
        }
    }
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../vectors/urlencoded")
}

#[test]
fn every_parse_vector() {
    let mut cases = 0;
    for verdict in ["accept", "reject"] {
        let dir = vectors_dir().join(verdict);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let case = parse_json(&std::fs::read(&path).unwrap());
            if case.get("kind").unwrap().str() != "urlencoded-parse" {
                continue;
            }
            let id = case.get("id").unwrap().str();
            let input_spec = case.get("input").unwrap();
            let input = if let Some(f) = input_spec.get("file") {
                std::fs::read(dir.join(f.str())).unwrap()
            } else if let Some(t) = input_spec.get("text") {
                t.str().as_bytes().to_vec()
            } else if let Some(b) = input_spec.get("base64") {
                base64(b.str())
            } else {
                let mut v = Vec::new();
                generate(input_spec.get("generate").unwrap().arr(), &mut v);
                v
            };
            let mut options = Options::default();
            if let Some(Json::Obj(m)) = case.get("options") {
                for (k, v) in m {
                    let limit = match v {
                        Json::Null => None,
                        n => Some(n.num()),
                    };
                    assert!(options.set_limit(k, limit), "{id}: option {k}");
                }
            }
            let got = urlencoded::parse_owned_with(&input, &options);
            let expect = case.get("expect").unwrap();
            if let Some(e) = expect.get("error") {
                let err = got.as_ref().expect_err(id);
                assert_eq!(err.code.as_str(), e.get("code").unwrap().str(), "{id}");
                assert_eq!(err.offset, e.get("offset").unwrap().num(), "{id}");
            } else {
                let want: Vec<(String, String)> = expect
                    .get("pairs")
                    .unwrap()
                    .arr()
                    .iter()
                    .map(|p| (p.arr()[0].str().to_owned(), p.arr()[1].str().to_owned()))
                    .collect();
                assert_eq!(got.as_ref().expect(id), &want, "{id}");
            }
            let cow = urlencoded::parse_with(&input, &options).map(|v| {
                v.into_iter()
                    .map(|(a, b)| (a.into_owned(), b.into_owned()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(got, cow, "{id}: parse_owned_with differs from parse_with");
            // Unlimited, the same pairs as parse_with too (limits off).
            let mut free = Options::default();
            free.max_pairs = UNLIMITED;
            free.max_bytes = UNLIMITED;
            let a = urlencoded::parse_owned_with(&input, &free);
            let b = urlencoded::parse_with(&input, &free).map(|v| {
                v.into_iter()
                    .map(|(a, b)| (a.into_owned(), b.into_owned()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(a, b, "{id} (unlimited)");
            cases += 1;
        }
    }
    assert!(cases > 200, "only {cases} urlencoded-parse vectors found");
}
