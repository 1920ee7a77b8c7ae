//! Compressed inputs and outputs. SAT competition benchmarks come as `.cnf.xz` (older sets
//! as `.bz2` or `.gz`), and MiniSat, CaDiCaL and Kissat read them as they are; so do
//! `sudosat`'s readers of formulas, models and puzzles. A file or standard input whose first
//! bytes are a gzip, bzip2 or xz header is decompressed as it is read, whatever its name:
//! the header, not the extension, decides, so `xz -dc` piped in and the `.xz` file itself
//! read the same. Concatenated streams (`cat a.gz b.gz`, multi-stream xz) are read to the
//! end, as `gzip -d` and `xz -d` read them.
//!
//! Outputs go the other way round: a file named `*.gz`, `*.bz2` or `*.xz` is written
//! compressed ([`Compression::for_path`], [`Writer`]): gzip and bzip2 at their tools'
//! default levels (6 and 9), xz at preset 1, not `xz`'s 6, because on a formula preset 6 is
//! some 28 times slower for a file 40 % smaller (the reduced `sudoku-225-1` CNF, 142 MB:
//! 57 s and 7.1 MB against 2 s and 12.1 MB; gzip 6 takes 5 s for 24 MB).
//!
//! Both are the `compression` feature (on by default; flate2, bzip2 and liblzma). Without
//! it a compressed input, or an output named for compression, is an error that says so,
//! never bytes fed to a parser or a file that is not what its name says.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// How an input's bytes are compressed, told by their first bytes (the formats' magic
/// numbers: RFC 1952 for gzip, the bzip2 and xz file format specifications).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Plain bytes.
    None,
    /// gzip (`1f 8b`).
    Gzip,
    /// bzip2 (`BZh` and a block-size digit).
    Bzip2,
    /// xz (`fd 37 7a 58 5a 00`).
    Xz,
}

impl Compression {
    /// The longest header [`Compression::detect`] looks at.
    pub const HEADER_LEN: usize = 6;

    /// The compression whose header `head` starts with ([`Compression::None`] for any other
    /// bytes, including a `head` too short to hold a header).
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Compression::Xz,
            _ => Compression::None,
        }
    }

    /// The compression a file name asks for by its extension: `.gz`, `.bz2` or `.xz`
    /// (any case); [`Compression::None`] for any other name.
    pub fn for_path(path: &Path) -> Compression {
        Compression::from_extension(path.extension().and_then(|e| e.to_str()).unwrap_or(""))
    }

    /// The compression a file extension (without the dot, any case) names: `gz`, `bz2`,
    /// `xz`; [`Compression::None`] for any other.
    pub fn from_extension(extension: &str) -> Compression {
        match extension.to_ascii_lowercase().as_str() {
            "gz" => Compression::Gzip,
            "bz2" => Compression::Bzip2,
            "xz" => Compression::Xz,
            _ => Compression::None,
        }
    }

    /// The format's name: `gzip`, `bzip2`, `xz`, or `uncompressed`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "uncompressed",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
        }
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `reader`'s bytes, decompressed when they start with a gzip, bzip2 or xz header, with the
/// compression found. A read error of the decompressor (damaged or truncated data) names
/// the format: "damaged xz data: …".
///
/// # Errors
/// An error reading the first bytes, or (without the `compression` feature) a compressed
/// input.
pub fn decompressed<'a, R: Read + 'a>(
    mut reader: R,
) -> io::Result<(Compression, Box<dyn Read + 'a>)> {
    let mut head = [0u8; Compression::HEADER_LEN];
    let mut filled = 0;
    // A pipe may deliver the header in pieces: read until it is whole or the input ends.
    while filled < head.len() {
        match reader.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(k) => filled += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let kind = Compression::detect(&head[..filled]);
    if let Some(format) = unread_format(&head[..filled]) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{format} data, which is not read here (gzip, bzip2 and xz are): unpack it first"
            ),
        ));
    }
    let whole = io::Cursor::new(head).take(filled as u64).chain(reader);
    if kind == Compression::None {
        return Ok((kind, Box::new(whole)));
    }
    let plain = decoder(kind, whole)?;
    Ok((kind, Box::new(Labelled { inner: plain, kind })))
}

/// The name of a compressed or archive format that is not read, from its magic number, so
/// that such a file is named for what it is rather than reported as bad text.
fn unread_format(head: &[u8]) -> Option<&'static str> {
    match head {
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Some("zstd"),
        [b'P', b'K', 0x03, 0x04, ..] => Some("zip"),
        [0x04, 0x22, 0x4d, 0x18, ..] => Some("lz4"),
        [b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c] => Some("7-zip"),
        _ => None,
    }
}

/// Opens `path` (`-` = standard input) for reading through [`decompressed`].
///
/// # Errors
/// The file cannot be opened or its first bytes read, or it is compressed and the
/// `compression` feature is off.
pub fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    if path == Path::new("-") {
        Ok(decompressed(io::stdin().lock())?.1)
    } else {
        Ok(decompressed(std::fs::File::open(path)?)?.1)
    }
}

/// The decompressor of `kind` ([`decompressed`] passes plain bytes on without one).
#[cfg(feature = "compression")]
fn decoder<'a, R: Read + 'a>(kind: Compression, reader: R) -> io::Result<Box<dyn Read + 'a>> {
    // The decoders read through their own buffers; the multi-stream ones read concatenated
    // streams to the end instead of stopping after the first.
    let reader = io::BufReader::with_capacity(1 << 16, reader);
    Ok(match kind {
        Compression::None => Box::new(reader),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
        Compression::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(reader)),
    })
}

#[cfg(not(feature = "compression"))]
fn decoder<'a, R: Read + 'a>(kind: Compression, _reader: R) -> io::Result<Box<dyn Read + 'a>> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "{kind}-compressed input, and this build reads none (the `compression` feature \
             is off): decompress it first"
        ),
    ))
}

/// A writer that compresses what it is given into `W` ([`Writer::finish`] ends the stream).
pub struct Writer<W: Write> {
    inner: WriterKind<W>,
}

enum WriterKind<W: Write> {
    Plain(W),
    #[cfg(feature = "compression")]
    Gzip(flate2::write::GzEncoder<W>),
    #[cfg(feature = "compression")]
    Bzip2(bzip2::write::BzEncoder<W>),
    #[cfg(feature = "compression")]
    Xz(liblzma::write::XzEncoder<W>),
}

impl<W: Write> Writer<W> {
    /// A writer that compresses into `out` as `kind` says.
    ///
    /// # Errors
    /// A compressed `kind` without the `compression` feature.
    pub fn new(kind: Compression, out: W) -> io::Result<Writer<W>> {
        let inner = match kind {
            Compression::None => WriterKind::Plain(out),
            #[cfg(feature = "compression")]
            Compression::Gzip => WriterKind::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::new(6),
            )),
            #[cfg(feature = "compression")]
            Compression::Bzip2 => WriterKind::Bzip2(bzip2::write::BzEncoder::new(
                out,
                bzip2::Compression::new(9),
            )),
            #[cfg(feature = "compression")]
            Compression::Xz => WriterKind::Xz(liblzma::write::XzEncoder::new(out, 1)),
            #[cfg(not(feature = "compression"))]
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!(
                        "a name that asks for {kind} compression, and this build writes none \
                         (the `compression` feature is off)"
                    ),
                ))
            }
        };
        Ok(Writer { inner })
    }

    /// Ends the compressed stream (its trailer and checksum) and returns the writer
    /// underneath, flushed.
    ///
    /// # Errors
    /// A write error of the writer underneath.
    pub fn finish(self) -> io::Result<W> {
        // One arm only without the `compression` feature.
        #[allow(clippy::infallible_destructuring_match)]
        let mut out = match self.inner {
            WriterKind::Plain(out) => out,
            #[cfg(feature = "compression")]
            WriterKind::Gzip(e) => e.finish()?,
            #[cfg(feature = "compression")]
            WriterKind::Bzip2(e) => e.finish()?,
            #[cfg(feature = "compression")]
            WriterKind::Xz(e) => e.finish()?,
        };
        out.flush()?;
        Ok(out)
    }

    fn writer(&mut self) -> &mut dyn Write {
        match &mut self.inner {
            WriterKind::Plain(w) => w,
            #[cfg(feature = "compression")]
            WriterKind::Gzip(w) => w,
            #[cfg(feature = "compression")]
            WriterKind::Bzip2(w) => w,
            #[cfg(feature = "compression")]
            WriterKind::Xz(w) => w,
        }
    }
}

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

/// A decompressor whose errors say which format failed.
struct Labelled<R> {
    inner: R,
    kind: Compression,
}

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let kind = match e.kind() {
                io::ErrorKind::Interrupted => return e,
                // A truncated stream is data that ends too soon, not a device error.
                io::ErrorKind::UnexpectedEof => io::ErrorKind::InvalidData,
                kind => kind,
            };
            io::Error::new(kind, format!("damaged {} data: {e}", self.kind))
        })
    }
}

#[cfg(all(test, feature = "compression"))]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &str = "c a formula\np cnf 3 2\n1 -2 0\n2 3 0\n";

    fn compress(kind: Compression, bytes: &[u8]) -> Vec<u8> {
        match kind {
            Compression::None => bytes.to_vec(),
            Compression::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
            Compression::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
            Compression::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
        }
    }

    fn read_all(bytes: &[u8]) -> (Compression, io::Result<String>) {
        let (kind, mut reader) = decompressed(bytes).unwrap();
        let mut text = String::new();
        let result = reader.read_to_string(&mut text).map(|_| text);
        (kind, result)
    }

    const ALL: [Compression; 4] = [
        Compression::None,
        Compression::Gzip,
        Compression::Bzip2,
        Compression::Xz,
    ];

    #[test]
    fn every_format_reads_back_the_same_text() {
        for kind in ALL {
            let (found, text) = read_all(&compress(kind, TEXT.as_bytes()));
            assert_eq!(found, kind);
            assert_eq!(text.unwrap(), TEXT, "{kind}");
        }
    }

    #[test]
    fn concatenated_streams_are_read_to_the_end() {
        for kind in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
            let mut bytes = compress(kind, b"p cnf 3 2\n");
            bytes.extend(compress(kind, b"1 -2 0\n2 3 0\n"));
            assert_eq!(
                read_all(&bytes).1.unwrap(),
                "p cnf 3 2\n1 -2 0\n2 3 0\n",
                "{kind}"
            );
        }
    }

    #[test]
    fn damaged_or_truncated_data_is_an_error_naming_the_format() {
        let long: String = (1..2000).map(|i| format!("{i} -{} 0\n", i + 1)).collect();
        for kind in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
            let bytes = compress(kind, long.as_bytes());
            let truncated = &bytes[..bytes.len() / 2];
            let err = read_all(truncated).1.unwrap_err();
            assert!(
                err.to_string().starts_with(&format!("damaged {kind} data")),
                "{kind}: {err}"
            );
            let mut flipped = bytes.clone();
            let middle = flipped.len() / 2;
            flipped[middle] ^= 0x55;
            flipped[middle + 1] ^= 0xaa;
            let err = read_all(&flipped).1.unwrap_err();
            assert!(err.to_string().contains(kind.name()), "{kind}: {err}");
        }
    }

    #[test]
    fn short_and_plain_inputs_pass_through() {
        for text in ["", "1", "BZh", "\x1f", "p cnf 0 0\n"] {
            let (kind, result) = read_all(text.as_bytes());
            assert_eq!((kind, result.unwrap().as_str()), (Compression::None, text));
        }
        // "BZh" without a block-size digit is text, not bzip2.
        assert_eq!(Compression::detect(b"BZhx"), Compression::None);
        assert_eq!(Compression::detect(b"BZh9"), Compression::Bzip2);
    }

    #[test]
    fn formats_not_read_are_named() {
        for (bytes, name) in [
            (&[0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x00][..], "zstd"),
            (b"PK\x03\x04\x14\x00", "zip"),
            (&[0x04, 0x22, 0x4d, 0x18, 0x64, 0x40][..], "lz4"),
            (&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c][..], "7-zip"),
        ] {
            let err = decompressed(bytes).err().expect("an error");
            assert!(
                err.to_string().starts_with(&format!("{name} data")),
                "{err}"
            );
        }
    }

    #[test]
    fn what_the_writer_writes_reads_back_for_every_format() {
        for kind in ALL {
            let mut w = Writer::new(kind, Vec::new()).unwrap();
            w.write_all(TEXT.as_bytes()).unwrap();
            let bytes = w.finish().unwrap();
            assert_eq!(Compression::detect(&bytes), kind);
            let (found, text) = read_all(&bytes);
            assert_eq!((found, text.unwrap().as_str()), (kind, TEXT), "{kind}");
        }
    }

    #[test]
    fn the_extension_names_the_output_compression() {
        for (name, kind) in [
            ("f.cnf.xz", Compression::Xz),
            ("F.CNF.GZ", Compression::Gzip),
            ("a/b.txt.bz2", Compression::Bzip2),
            ("f.cnf", Compression::None),
            ("xz", Compression::None),
            ("f.gzip", Compression::None),
        ] {
            assert_eq!(Compression::for_path(Path::new(name)), kind, "{name}");
        }
    }

    proptest::proptest! {
        /// Damaged streams are errors, never panics or hangs: any bytes after each header,
        /// and any single byte of a real stream changed.
        #[test]
        fn arbitrary_bytes_after_a_header_are_read_or_refused(
            tail in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
            flip in 0usize..4096,
            byte in proptest::prelude::any::<u8>(),
        ) {
            for kind in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
                let mut bytes = compress(kind, &[])[..Compression::HEADER_LEN].to_vec();
                bytes.extend(&tail);
                let (found, mut reader) = decompressed(bytes.as_slice()).unwrap();
                proptest::prop_assert_eq!(found, kind);
                let _ = reader.read_to_end(&mut Vec::new());
                let mut real = compress(kind, TEXT.as_bytes());
                let at = flip % real.len();
                real[at] = byte;
                let opened = decompressed(real.as_slice());
                if let Ok((_, mut reader)) = opened {
                    let _ = reader.read_to_end(&mut Vec::new());
                }
            }
        }
    }

    /// A header delivered one byte per read (a slow pipe) is still recognised.
    #[test]
    fn a_header_split_over_reads_is_recognised() {
        struct OneByte<'a>(&'a [u8]);
        impl Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                match (self.0.split_first(), buf.first_mut()) {
                    (Some((&b, rest)), Some(slot)) => {
                        *slot = b;
                        self.0 = rest;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let bytes = compress(Compression::Xz, TEXT.as_bytes());
        let (kind, mut reader) = decompressed(OneByte(&bytes)).unwrap();
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        assert_eq!((kind, text.as_str()), (Compression::Xz, TEXT));
    }
}
