//! An [axum] extractor over formwire's streaming multipart parser
//! (`formwire::multipart::stream`), with answers a client can act on: an
//! exceeded limit is `413 Payload Too Large`, a malformed body
//! `400 Bad Request`, both with the error's code and byte offset in a JSON
//! body (`{"error":{"code":"MP_LIMIT_PARTS","offset":123,"message":"..."}}`,
//! codes of `spec/errors.md`, statuses from `spec/registry.json`).
//!
//! ```no_run
//! use axum::{Router, routing::post};
//! use formwire_axum::{FormError, Multipart};
//!
//! async fn upload(mut form: Multipart) -> Result<String, FormError> {
//!     let mut out = String::new();
//!     while let Some(mut part) = form.next_part().await? {
//!         let mut size = 0;
//!         while let Some(chunk) = part.chunk().await? {
//!             size += chunk.len();
//!         }
//!         out.push_str(&format!("{} {size}\n", part.name()));
//!     }
//!     Ok(out)
//! }
//! let app: Router = Router::new().route("/upload", post(upload));
//! ```
//!
//! Limits and the named lenient options (`allow_preamble`, ...,
//! `allow_missing_disposition`, `allow_utf8_header_names`: MP-R-02) come
//! from [`MultipartOptions`] in the request's extensions
//! (`.layer(axum::Extension(MultipartOptions(options)))`), else formwire's
//! defaults (strict). [`SpooledForm`] skips a part without a name
//! (`allow_missing_disposition`, MP-F-05); [`Multipart`] hands it out
//! (`part.has_name()` is `false`). axum's own body limit (`DefaultBodyLimit`, 2 MB unless the app
//! changes it, as for axum's own `Multipart`) applies and is a 413 too.
//!
//! [`SpooledForm`] is the whole form at once, as `axum::Form` or
//! actix-multipart's `tempfile` give it: fields in memory, files past a
//! threshold in owner-only temp files removed when the form is dropped
//! ([`formwire::multipart::spool`]; where and how much from
//! [`SpoolOptions`] in the extensions). `MP_LIMIT_DISK_BYTES` and the
//! parser's limits are 413, a malformed body 400, a temp file that cannot
//! be written 500. The form is collected on tokio's blocking pool (temp
//! file writes are blocking writes), one blocking thread per upload while
//! its body arrives.
//!
//! ```no_run
//! use axum::{Extension, Router, extract::DefaultBodyLimit, routing::post};
//! use formwire::multipart::spool;
//! use formwire_axum::{FormError, SpoolOptions, SpooledForm};
//!
//! async fn upload(SpooledForm(mut form): SpooledForm) -> Result<String, FormError> {
//!     let title = form.get_text("title").unwrap_or("").to_owned();
//!     if let Some(file) = form.take_file("doc") {
//!         // Untrusted filename: never part of the path.
//!         file.persist(std::env::temp_dir().join("upload.bin"))?;
//!     }
//!     Ok(title)
//! }
//! let mut options = spool::SpoolOptions::default();
//! options.max_disk_bytes = 1 << 30;
//! let app: Router = Router::new()
//!     .route("/upload", post(upload))
//!     .layer(Extension(SpoolOptions(options)))
//!     .layer(DefaultBodyLimit::max(1 << 30));
//! ```

use axum::RequestExt;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use formwire::multipart::{Encoder, Options};
use formwire::multipart::{spool, stream};

/// The body stream the extractor reads.
pub type BodyStream = axum::body::BodyDataStream;

/// The parts of a `multipart/form-data` request body, streamed: see
/// [`formwire::multipart::stream::Multipart`] (which it dereferences to).
pub struct Multipart(pub stream::Multipart<BodyStream>);

impl std::ops::Deref for Multipart {
    type Target = stream::Multipart<BodyStream>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Multipart {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// The parser options for the extractor, as a request extension.
#[derive(Clone, Debug, Default)]
pub struct MultipartOptions(pub Options);

/// What both extractors read of a request: the parser options (a [`MultipartOptions`] extension, else the
/// defaults), the Content-Type (missing or non-UTF-8 is read as empty: MP_CONTENT_TYPE from the parser) and the body
/// under axum's `DefaultBodyLimit` (2 MB unless the app sets it), as for axum's own `Multipart`.
fn request_parts(req: Request) -> (Options, String, BodyStream) {
    let options = req
        .extensions()
        .get::<MultipartOptions>()
        .map(|o| o.0.clone())
        .unwrap_or_default();
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = req.with_limited_body().into_body().into_data_stream();
    (options, content_type, body)
}

impl<S: Send + Sync> FromRequest<S> for Multipart {
    type Rejection = FormError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, FormError> {
        let (options, content_type, body) = request_parts(req);
        Ok(Multipart(stream::Multipart::from_content_type(
            body,
            &content_type,
            options,
        )?))
    }
}

/// Where and how much a [`SpooledForm`] spools, as a request extension
/// (else [`spool::SpoolOptions::default`]: files over 1 MiB to the system
/// temp dir).
#[derive(Clone, Debug, Default)]
pub struct SpoolOptions(pub spool::SpoolOptions);

/// The whole `multipart/form-data` form, large files in temp files: see
/// [`formwire::multipart::spool::SpooledForm`]. Parser limits from
/// [`MultipartOptions`], spooling from [`SpoolOptions`] (request
/// extensions). axum's `DefaultBodyLimit` applies: raise it for uploads.
#[derive(Debug)]
pub struct SpooledForm(pub spool::SpooledForm);

impl std::ops::Deref for SpooledForm {
    type Target = spool::SpooledForm;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for SpooledForm {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<S: Send + Sync> FromRequest<S> for SpooledForm {
    type Rejection = FormError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, FormError> {
        let spool_options = req
            .extensions()
            .get::<SpoolOptions>()
            .map(|o| o.0.clone())
            .unwrap_or_default();
        let (options, content_type, body) = request_parts(req);
        // The collector writes temp files with blocking writes: it runs on tokio's blocking pool, driven there by
        // the runtime's handle, so no async worker thread ever waits on the disk.
        let handle = tokio::runtime::Handle::current();
        let form = tokio::task::spawn_blocking(move || {
            handle.block_on(spool::stream_form(
                body,
                &content_type,
                options,
                &spool_options,
            ))
        })
        .await
        .map_err(|e| FormError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            error: None,
            message: format!("the spooling task failed: {e}"),
        })??;
        Ok(SpooledForm(form))
    }
}

/// A body the handler cannot use, as an HTTP answer: 413 for a limit, 400
/// for a malformed body (the registry's `http_status`), with the code.
#[derive(Debug)]
pub struct FormError {
    /// The status sent.
    pub status: StatusCode,
    /// formwire's error, when the body was at fault (`None`: the body could
    /// not be read).
    pub error: Option<formwire::Error>,
    message: String,
}

impl From<formwire::Error> for FormError {
    fn from(e: formwire::Error) -> FormError {
        let status = e
            .code
            .http_status()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::BAD_REQUEST);
        FormError {
            status,
            error: Some(e),
            message: e.code.message().to_owned(),
        }
    }
}

impl From<stream::Error<axum::Error>> for FormError {
    fn from(e: stream::Error<axum::Error>) -> FormError {
        match e {
            stream::Error::Form(e) => e.into(),
            stream::Error::Stream(e) => body_error(e),
        }
    }
}

impl From<spool::Error<axum::Error>> for FormError {
    fn from(e: spool::Error<axum::Error>) -> FormError {
        match e {
            spool::Error::Form(e) => e.into(),
            spool::Error::Source(e) => body_error(e),
            spool::Error::Disk(e) => e.into(),
        }
    }
}

/// A temp file that could not be written or moved: the server's fault, 500.
impl From<std::io::Error> for FormError {
    fn from(e: std::io::Error) -> FormError {
        FormError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            error: None,
            message: format!("writing a temp file failed: {e}"),
        }
    }
}

/// The body stream failed: 413 when axum's `DefaultBodyLimit` stopped it
/// (http-body-util's `LengthLimitError` in the chain), else 400.
fn body_error(e: axum::Error) -> FormError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
    let mut limit = false;
    while let Some(s) = source {
        if s.downcast_ref::<http_body_util::LengthLimitError>()
            .is_some()
        {
            limit = true;
        }
        source = s.source();
    }
    FormError {
        status: if limit {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::BAD_REQUEST
        },
        error: None,
        message: format!("reading the body failed: {e}"),
    }
}

impl std::fmt::Display for FormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.error {
            Some(e) => e.fmt(f),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for FormError {}

impl IntoResponse for FormError {
    fn into_response(self) -> Response {
        let (code, offset) = match self.error {
            Some(e) => (json_string(e.code.as_str()), e.offset.to_string()),
            None => ("null".to_owned(), "null".to_owned()),
        };
        let body = format!(
            "{{\"error\":{{\"code\":{code},\"offset\":{offset},\"message\":{}}}}}",
            json_string(&self.message)
        );
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

/// A JSON string literal (the only JSON this crate writes; no serde dependency).
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An encoded form as an async body: a `Stream` of `Bytes` for
/// `axum::body::Body::from_stream`, hyper (`http_body_util::StreamBody`) or
/// reqwest (`Body::wrap_stream`). The encoder's reader (frames, and file
/// bodies read from their `Read` sources) runs in tokio's blocking pool, so
/// a disk read never stalls the runtime; at most two 64 KiB chunks wait in
/// between (backpressure). Send `enc.content_length()` as the
/// Content-Length when it is `Some`. Must be called inside a tokio runtime.
pub fn encoder_stream(
    enc: Encoder<'static>,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send + 'static {
    use std::io::Read;
    let (tx, rx) = tokio::sync::mpsc::channel::<std::io::Result<bytes::Bytes>>(2);
    tokio::task::spawn_blocking(move || {
        let mut r = enc.into_reader();
        loop {
            let mut buf = vec![0u8; 64 << 10];
            let item = match r.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    buf.truncate(n);
                    Ok(bytes::Bytes::from(buf))
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => Err(e),
            };
            let stop = item.is_err();
            // The receiver went away (the request was dropped): stop reading.
            if tx.blocking_send(item).is_err() || stop {
                return;
            }
        }
    });
    futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|x| (x, rx)) })
}
