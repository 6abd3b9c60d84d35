// Package multipart is multipart/form-data for Go as spec/multipart.md says:
// a sans-IO Parser (bytes in, events out; body data events are views of the
// fed slice), an io.Reader adapter in the shape of mime/multipart.Reader
// (NewReader, NextPart until io.EOF, Parts), ReadForm (fields in memory,
// files spilled to owner-only temp files, every resource bounded), and the
// WHATWG Encoder (Content-Length known up front, files streamed, browser
// escaping).
//
// Strict by default (the WPT fetch profile); leniency only through the named
// options of Options (AllowPreamble, AllowLF, AllowObsFold, AllowQuotedPairs,
// AllowMissingDisposition, AllowAnyDispositionType, AllowJunkAfterClose,
// AllowUtf8HeaderNames, AllowCr, AllowNearDelimiters, Allow8bitParameterNames,
// AllowRfc2231Continuations),
// all off by default and free to combine. A nameless
// part (AllowMissingDisposition) is delivered by the Parser and NextPart
// (Head.Nameless, Part.Nameless) and skipped by ReadForm. Every limit of spec/limits.md is on by default and
// exceeding one is a *formwire.Error with its code and byte offset, never a
// truncated or empty result. Chunking never changes the result: the shared
// vectors are fed whole, byte by byte and split at every point.
package multipart
