//! The `http-body` feature: `Multipart::from_body` over an `http_body::Body`, and `Encoder::into_http_body`.
#![cfg(feature = "http-body")]

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use formwire::multipart::stream::{Error, Multipart};
use formwire::multipart::{Body as PartBody, Encoder, Options};
use http_body::{Body, Frame};

/// A body that gives the frames it was made of, one per poll.
struct Frames(VecDeque<Result<Frame<Bytes>, std::io::Error>>);

impl Body for Frames {
    type Data = Bytes;
    type Error = std::io::Error;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        Poll::Ready(self.0.pop_front())
    }
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// Every data frame of `body`, concatenated, and the number of frames.
fn collect(
    mut body: impl Body<Data = Bytes, Error = std::io::Error> + Unpin,
) -> std::io::Result<Vec<u8>> {
    block_on(async {
        let mut out = Vec::new();
        while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
        {
            out.extend_from_slice(&frame?.into_data().expect("only data frames"));
        }
        Ok(out)
    })
}

fn sample(big: Vec<u8>) -> Encoder<'static> {
    let mut e = Encoder::with_boundary("XyZ").unwrap();
    e.text("a", "1");
    e.file("f", "x.bin", "application/octet-stream", big)
        .unwrap();
    e.file("s", "s.txt", "text/plain", &b"static"[..]).unwrap();
    e.file("empty", "e.txt", "text/plain", Bytes::new())
        .unwrap();
    e
}

#[test]
fn encoder_body_is_the_encoded_bytes_with_an_exact_size_hint() {
    let big: Vec<u8> = (0..200_000u32).map(|i| (i * 7) as u8).collect();
    let expected = sample(big.clone()).encode_to_vec().unwrap();
    let body = sample(big).into_http_body();
    assert_eq!(body.size_hint().exact(), Some(expected.len() as u64));
    assert!(!body.is_end_stream());
    assert_eq!(collect(body).unwrap(), expected);
}

#[test]
fn size_hint_counts_down_and_ends() {
    let mut body = sample(vec![1; 10]).into_http_body();
    let total = body.size_hint().exact().unwrap();
    let first = block_on(std::future::poll_fn(|cx| {
        Pin::new(&mut body).poll_frame(cx)
    }))
    .unwrap()
    .unwrap()
    .into_data()
    .unwrap();
    assert_eq!(body.size_hint().exact(), Some(total - first.len() as u64));
    let rest = collect(&mut body).unwrap();
    assert_eq!(first.len() + rest.len(), total as usize);
    assert!(body.is_end_stream());
    assert_eq!(body.size_hint().exact(), Some(0));
}

#[test]
fn reader_body_unknown_size_has_no_exact_hint_and_short_reader_is_an_error() {
    let mut e = Encoder::with_boundary("B").unwrap();
    e.file(
        "f",
        "a",
        "text/plain",
        PartBody::reader(&b"hello"[..], None),
    )
    .unwrap();
    let body = e.into_http_body();
    assert_eq!(body.size_hint().exact(), None);
    let got = collect(body).unwrap();
    assert!(got.windows(5).any(|w| w == b"hello"));

    let mut e = Encoder::with_boundary("B").unwrap();
    e.file(
        "f",
        "a",
        "text/plain",
        PartBody::reader(&b"hello"[..], Some(9)),
    )
    .unwrap();
    let body = e.into_http_body();
    assert_eq!(body.size_hint().exact(), Some(e_len_check()));
    let err = collect(body).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
}

fn e_len_check() -> u64 {
    let mut e = Encoder::with_boundary("B").unwrap();
    e.file("f", "a", "text/plain", vec![0; 9]).unwrap();
    e.content_length().unwrap()
}

const FORM: &str = "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n\
--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.bin\"\r\n\r\n0123456789\r\n--XyZ--\r\n";

#[test]
fn from_body_skips_trailers_at_every_split() {
    for cut in 0..=FORM.len() {
        let mut trailers = http::HeaderMap::new();
        trailers.insert("x-checksum", http::HeaderValue::from_static("1"));
        let frames = VecDeque::from([
            Ok(Frame::data(Bytes::from_static(&FORM.as_bytes()[..cut]))),
            Ok(Frame::trailers(trailers.clone())),
            Ok(Frame::data(Bytes::from_static(&FORM.as_bytes()[cut..]))),
            Ok(Frame::trailers(trailers)),
        ]);
        let seen = block_on(async {
            let mut form = Multipart::from_body_content_type(
                Frames(frames),
                "multipart/form-data; boundary=XyZ",
                Options::default(),
            )?;
            let mut seen = Vec::new();
            while let Some(part) = form.next_part().await? {
                let name = part.name().into_owned();
                seen.push((name, part.bytes().await?));
            }
            Ok::<_, Error<std::io::Error>>(seen)
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                ("title".to_string(), Bytes::from_static(b"hello")),
                ("doc".to_string(), Bytes::from_static(b"0123456789"))
            ],
            "cut at {cut}"
        );
    }
}

#[test]
fn from_body_passes_the_body_error_through() {
    let frames = VecDeque::from([
        Ok(Frame::data(Bytes::from_static(&FORM.as_bytes()[..30]))),
        Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionReset,
            "peer went away",
        )),
    ]);
    let err = block_on(async {
        let mut form = Multipart::from_body(Frames(frames), "XyZ", Options::default())?;
        while let Some(part) = form.next_part().await? {
            part.bytes().await?;
        }
        Ok::<_, Error<std::io::Error>>(())
    })
    .unwrap_err();
    match &err {
        Error::Stream(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
        Error::Form(e) => panic!("expected the source error, got {e}"),
    }
    assert_eq!(err.http_status(), None);
}

#[test]
fn from_body_truncated_is_a_coded_400() {
    let frames = VecDeque::from([Ok(Frame::data(Bytes::from_static(&FORM.as_bytes()[..90])))]);
    let err = block_on(async {
        let mut form = Multipart::from_body(Frames(frames), "XyZ", Options::default())?;
        while let Some(part) = form.next_part().await? {
            part.bytes().await?;
        }
        Ok::<_, Error<std::io::Error>>(())
    })
    .unwrap_err();
    let coded = err.form().expect("a form error");
    assert_eq!((coded.code.as_str(), coded.offset), ("MP_TRUNCATED", 90));
    assert_eq!(err.http_status(), Some(400));
}
