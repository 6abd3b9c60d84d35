//! End to end: an axum server on 127.0.0.1 with the extractor, a hyper
//! HTTP/1 client. Limits answer 413, malformed bodies 400, each with its code.

use axum::extract::DefaultBodyLimit;
use axum::{Extension, Router, routing::post};
use formwire::multipart::Options;
use formwire_axum::{FormError, Multipart, MultipartOptions};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;

async fn upload(mut form: Multipart) -> Result<String, FormError> {
    let mut out = String::new();
    while let Some(mut part) = form.next_part().await? {
        let name = part.name().into_owned();
        let mut size = 0;
        while let Some(chunk) = part.chunk().await? {
            size += chunk.len();
        }
        out.push_str(&format!("{name}:{size};"));
    }
    Ok(out)
}

async fn post_to(port: u16, path: &str, content_type: &str, body: Vec<u8>) -> (u16, String) {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let req = Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", content_type)
        .body(Full::new(bytes::Bytes::from(body)))
        .unwrap();
    let res = send.send_request(req).await.unwrap();
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

fn part(name: &str, value: &str) -> String {
    format!("--B\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
}

#[tokio::test(flavor = "current_thread")]
async fn limits_413_malformed_400_with_the_code() {
    let mut two = Options::default();
    two.max_parts = 2;
    let app = Router::new()
        .route("/upload", post(upload))
        .route("/two", post(upload).layer(Extension(MultipartOptions(two))))
        .route("/small", post(upload).layer(DefaultBodyLimit::max(64)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let ct = "multipart/form-data; boundary=B";
    let three = format!(
        "{}{}{}--B--\r\n",
        part("a", "1"),
        part("b", "22"),
        part("c", "333")
    );

    let (s, b) = post_to(port, "/upload", ct, three.clone().into_bytes()).await;
    assert_eq!((s, b.as_str()), (200, "a:1;b:2;c:3;"));

    let (s, b) = post_to(port, "/two", ct, three.clone().into_bytes()).await;
    assert_eq!(s, 413, "{b}");
    assert!(
        b.starts_with("{\"error\":{\"code\":\"MP_LIMIT_PARTS\",\"offset\":"),
        "{b}"
    );

    let truncated = three.as_bytes()[..three.len() - 9].to_vec();
    let (s, b) = post_to(port, "/upload", ct, truncated).await;
    assert_eq!(s, 400, "{b}");
    assert!(b.contains("\"code\":\"MP_TRUNCATED\""), "{b}");

    let (s, b) = post_to(port, "/upload", "text/plain", three.clone().into_bytes()).await;
    assert_eq!(s, 400, "{b}");
    assert!(b.contains("\"code\":\"MP_CONTENT_TYPE\""), "{b}");

    // axum's own body limit is a limit too.
    let (s, b) = post_to(port, "/small", ct, three.into_bytes()).await;
    assert_eq!(s, 413, "{b}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoder_stream_is_a_hyper_request_body() {
    use formwire::multipart::{Body, Encoder};
    use http_body_util::StreamBody;
    use hyper::body::Frame;

    let app = Router::new().route("/upload", post(upload));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    // A file body from a `Read` source of known size (read in the blocking pool while it is sent).
    let file: Vec<u8> = (0..300_000u32).map(|i| (i * 7) as u8).collect();
    let mut enc = Encoder::with_boundary("XyZ").unwrap();
    enc.text("a", "1");
    enc.file(
        "f",
        "f.bin",
        "",
        Body::reader(std::io::Cursor::new(file), Some(300_000)),
    )
    .unwrap();
    let (ct, len) = (enc.content_type(), enc.content_length().unwrap());
    let body = StreamBody::new(futures_util::StreamExt::map(
        formwire_axum::encoder_stream(enc),
        |r| r.map(Frame::data),
    ));

    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let req = Request::post("/upload")
        .header("host", "127.0.0.1")
        .header("content-type", ct)
        .header("content-length", len)
        .body(body)
        .unwrap();
    let res = send.send_request(req).await.unwrap();
    let status = res.status().as_u16();
    let text = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!((status, &text[..]), (200, &b"a:1;f:300000;"[..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spooled_form_spools_large_files_and_answers_413_400_with_the_code() {
    use formwire::multipart::spool;
    use formwire_axum::{SpoolOptions, SpooledForm};
    use std::sync::{Arc, Mutex};

    type Seen = Arc<Mutex<Vec<std::path::PathBuf>>>;
    async fn spooled(
        Extension(seen): Extension<Seen>,
        SpooledForm(form): SpooledForm,
    ) -> Result<String, FormError> {
        let mut out = format!("t={};", form.get_text("t").unwrap_or("-"));
        for (name, file) in form.files() {
            let disk = match file.path() {
                Some(p) => {
                    seen.lock().unwrap().push(p.to_owned());
                    let bytes = std::fs::read(p)?;
                    assert_eq!(bytes.len() as u64, file.size());
                    "disk"
                }
                None => "memory",
            };
            out.push_str(&format!("{name}:{}:{disk};", file.size()));
        }
        Ok(out)
    }

    let dir = tempfile::tempdir().unwrap();
    let mut opts = spool::SpoolOptions::default();
    opts.memory_threshold = 1000;
    opts.dir = Some(dir.path().to_owned());
    let mut small_disk = opts.clone();
    small_disk.max_disk_bytes = 150_000;
    let seen: Seen = Arc::default();
    let app = Router::new()
        .route("/spool", post(spooled).layer(Extension(SpoolOptions(opts))))
        .route(
            "/tight",
            post(spooled).layer(Extension(SpoolOptions(small_disk))),
        )
        .layer(Extension(seen.clone()))
        .layer(DefaultBodyLimit::disable());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let big: Vec<u8> = (0..200_000u32).map(|i| (i % 199) as u8).collect();
    let mut body = part("t", "v").into_bytes();
    body.extend_from_slice(
        b"--B\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n\r\n",
    );
    body.extend_from_slice(&big);
    body.extend_from_slice(
        b"\r\n--B\r\nContent-Disposition: form-data; name=\"small\"; filename=\"s\"\r\n\r\nxyz\r\n--B--\r\n",
    );
    let ct = "multipart/form-data; boundary=B";

    let (s, b) = post_to(port, "/spool", ct, body.clone()).await;
    assert_eq!(
        (s, b.as_str()),
        (200, "t=v;big:200000:disk;small:3:memory;")
    );
    // The form was dropped with the handler: its temp file is gone.
    let paths = seen.lock().unwrap().clone();
    assert_eq!(paths.len(), 1);
    assert!(
        paths
            .iter()
            .all(|p| p.starts_with(dir.path()) && !p.exists())
    );

    let (s, b) = post_to(port, "/tight", ct, body.clone()).await;
    assert_eq!(s, 413, "{b}");
    assert!(b.contains("\"code\":\"MP_LIMIT_DISK_BYTES\""), "{b}");

    let (s, b) = post_to(port, "/spool", ct, body[..body.len() - 50].to_vec()).await;
    assert_eq!(s, 400, "{b}");
    assert!(b.contains("\"code\":\"MP_TRUNCATED\""), "{b}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// The spooling runs on the blocking pool; a current-thread runtime still drives the body for it.
#[tokio::test(flavor = "current_thread")]
async fn spooled_form_on_a_current_thread_runtime() {
    use formwire_axum::SpooledForm;
    async fn fields(SpooledForm(form): SpooledForm) -> String {
        form.fields().map(|(n, v)| format!("{n}={v};")).collect()
    }
    let app = Router::new().route("/f", post(fields));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let body = format!("{}{}--B--\r\n", part("a", "1"), part("b", "22"));
    let (s, b) = post_to(
        port,
        "/f",
        "multipart/form-data; boundary=B",
        body.into_bytes(),
    )
    .await;
    assert_eq!((s, b.as_str()), (200, "a=1;b=22;"));
}

/// The lenient options reach both extractors through `MultipartOptions`; `Multipart` hands out a part without a
/// name, `SpooledForm` skips it (MP-F-05) but still counts it (a field for `max_fields`).
#[tokio::test(flavor = "current_thread")]
async fn lenient_options_reach_both_extractors() {
    use formwire_axum::SpooledForm;
    async fn streamed(mut form: Multipart) -> Result<String, FormError> {
        let mut out = String::new();
        while let Some(mut part) = form.next_part().await? {
            let name = if part.has_name() {
                part.name().into_owned()
            } else {
                "<none>".to_owned()
            };
            while part.chunk().await?.is_some() {}
            out.push_str(&format!("{name};"));
        }
        Ok(out)
    }
    async fn fields(SpooledForm(form): SpooledForm) -> String {
        form.fields().map(|(n, v)| format!("{n}={v};")).collect()
    }
    let mut lenient = Options::default();
    lenient.allow_missing_disposition = true;
    lenient.allow_any_disposition_type = true;
    lenient.allow_junk_after_close = true;
    lenient.allow_utf8_header_names = true;
    let mut two = lenient.clone();
    two.max_fields = 2;
    let app = Router::new()
        .route("/strict", post(streamed))
        .route(
            "/stream",
            post(streamed).layer(Extension(MultipartOptions(lenient.clone()))),
        )
        .route(
            "/spool",
            post(fields).layer(Extension(MultipartOptions(lenient))),
        )
        .route("/two", post(fields).layer(Extension(MultipartOptions(two))));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let body = format!(
        "{}--B\r\nF\u{f8}\u{f8}: 1\r\n\r\nnameless\r\n\
         --B\r\nContent-Disposition: form-field; name=\"b\"\r\n\r\n2\r\n--B--junk",
        part("a", "1")
    );
    let ct = "multipart/form-data; boundary=B";
    let (s, b) = post_to(port, "/strict", ct, body.clone().into_bytes()).await;
    assert_eq!(s, 400, "{b}");
    assert!(b.contains("\"code\":\"MP_HEADER_NAME\""), "{b}");
    let (s, b) = post_to(port, "/stream", ct, body.clone().into_bytes()).await;
    assert_eq!((s, b.as_str()), (200, "a;<none>;b;"));
    let (s, b) = post_to(port, "/spool", ct, body.clone().into_bytes()).await;
    assert_eq!((s, b.as_str()), (200, "a=1;b=2;"));
    let (s, b) = post_to(port, "/two", ct, body.into_bytes()).await;
    assert_eq!(s, 413, "{b}");
    assert!(b.contains("\"code\":\"MP_LIMIT_FIELDS\""), "{b}");
}
