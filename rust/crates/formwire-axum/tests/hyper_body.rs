//! formwire's `http-body` feature over a bare hyper 1.x server on 127.0.0.1 (no axum): the server parses
//! `req.into_body()` with `Multipart::from_body_content_type`, a hyper client posts `Encoder::into_http_body()`.

use formwire::multipart::stream::Multipart;
use formwire::multipart::{Encoder, Options};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

/// Parts as `name:size;`, after the Content-Length and Transfer-Encoding the server saw; a coded error as
/// its `http_status()` with the code as the body.
async fn handle(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, hyper::Error> {
    let header = |n: &str| {
        req.headers()
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-")
            .to_string()
    };
    let seen = format!(
        "len={} te={} ",
        header("content-length"),
        header("transfer-encoding")
    );
    let content_type = header("content-type");
    let mut options = Options::default();
    options.max_file_bytes = 64 << 10;
    let result = async {
        let mut form = Multipart::from_body_content_type(req.into_body(), &content_type, options)?;
        let mut out = seen;
        while let Some(mut part) = form.next_part().await? {
            let name = part.name().into_owned();
            let mut size = 0;
            while let Some(chunk) = part.chunk().await? {
                size += chunk.len();
            }
            out.push_str(&format!("{name}:{size};"));
        }
        Ok::<_, formwire::multipart::stream::Error<hyper::Error>>(out)
    }
    .await;
    Ok(match result {
        Ok(text) => Response::new(Full::new(Bytes::from(text))),
        Err(e) => {
            let status = e.http_status().unwrap_or(500);
            let code = e.form().map(|c| c.code.as_str()).unwrap_or("stream");
            let mut res = Response::new(Full::new(Bytes::from(code.to_string())));
            *res.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
            res
        }
    })
}

async fn server() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), hyper::service::service_fn(handle))
                    .await;
            });
        }
    });
    port
}

/// POSTs `body` to the server's /upload with a hyper 1.x client; the status and the response body.
async fn send<B>(port: u16, content_type: &str, body: B) -> (u16, String)
where
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let req = Request::post("/upload")
        .header("host", "127.0.0.1")
        .header("content-type", content_type)
        .body(body)
        .unwrap();
    let res = send.send_request(req).await.unwrap();
    let status = res.status().as_u16();
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

async fn post(port: u16, enc: Encoder<'static>) -> (u16, String) {
    let ct = enc.content_type();
    send(port, &ct, enc.into_http_body()).await
}

#[tokio::test(flavor = "current_thread")]
async fn hyper_server_parses_the_encoder_body_with_its_content_length() {
    let port = server().await;
    let mut enc = Encoder::with_boundary("formwire-hyper-test").unwrap();
    enc.text("title", "holiday");
    enc.file("photo", "a.jpg", "image/jpeg", vec![7u8; 50_000])
        .unwrap();
    enc.file("note", "n.txt", "text/plain", Bytes::from_static(b"hi"))
        .unwrap();
    let len = enc.content_length().unwrap();
    let (status, text) = post(port, enc).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(text, format!("len={len} te=- title:7;photo:50000;note:2;"));
}

#[tokio::test(flavor = "current_thread")]
async fn hyper_server_limit_is_413_and_malformed_is_400() {
    let port = server().await;
    let mut enc = Encoder::with_boundary("formwire-hyper-test").unwrap();
    enc.file(
        "big",
        "big.bin",
        "application/octet-stream",
        vec![0u8; 100_000],
    )
    .unwrap();
    assert_eq!(
        post(port, enc).await,
        (413, "MP_LIMIT_FILE_BYTES".to_string())
    );

    // A body cut short: 400 with the code.
    let cut = Full::new(Bytes::from_static(
        b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx",
    ));
    assert_eq!(
        send(port, "multipart/form-data; boundary=B", cut).await,
        (400, "MP_TRUNCATED".to_string())
    );
}
