//! Where games come from: a file (plain, gzip or zstd, told apart by their first bytes, not by
//! the name) or stdin, counted as it is read so that a progress bar can follow.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// An input opened for reading.
pub struct Input {
    /// The path as given, or "-" for stdin.
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
    /// The size on disk, when known (the progress bar's length).
    pub size: Option<u64>,
    /// Bytes read so far from the underlying file (compressed bytes for .gz/.zst).
    pub read: Arc<AtomicU64>,
}

struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const ZSTD_MAGIC: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
const BUFFER: usize = 256 * 1024;

/// Opens `path` ("-" is stdin), decompressing gzip and zstd.
pub fn open(path: &Path) -> io::Result<Input> {
    let name = path.display().to_string();
    let read = Arc::new(AtomicU64::new(0));
    let (raw, size): (Box<dyn Read + Send>, Option<u64>) = if name == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let file = File::open(path)?;
        let size = file.metadata().ok().map(|m| m.len());
        (Box::new(file), size)
    };
    let reader = from_read(Counting {
        inner: raw,
        read: Arc::clone(&read),
    })?;
    Ok(Input {
        name,
        reader,
        size,
        read,
    })
}

/// Wraps any byte source, decompressing it when its first bytes say gzip or zstd.
pub fn from_read(raw: impl Read + Send + 'static) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(BUFFER, raw);
    let head = buffered.fill_buf()?;
    Ok(if head.starts_with(GZIP_MAGIC) {
        Box::new(BufReader::with_capacity(
            BUFFER,
            flate2::bufread::MultiGzDecoder::new(buffered),
        ))
    } else if head.starts_with(ZSTD_MAGIC) {
        Box::new(BufReader::with_capacity(
            BUFFER,
            zstd::stream::read::Decoder::with_buffer(buffered)?,
        ))
    } else {
        Box::new(buffered)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn read_all(bytes: Vec<u8>) -> String {
        let mut out = String::new();
        from_read(io::Cursor::new(bytes))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn plain_gzip_and_zstd() {
        let pgn = "[Event \"x\"]\n1. e4 e5 *\n";
        assert_eq!(read_all(pgn.as_bytes().to_vec()), pgn);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(pgn.as_bytes()).unwrap();
        assert_eq!(read_all(gz.finish().unwrap()), pgn);
        let zst = zstd::stream::encode_all(pgn.as_bytes(), 1).unwrap();
        assert_eq!(read_all(zst), pgn);
    }
}
