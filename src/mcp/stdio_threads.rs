//! Stdin and stdout without tokio's blocking pool, which took every read and write as a task
//! of its own: a request paid one hand-off to be read and another to be answered. Stdin is
//! read as a pipe when it is one (else by a thread of its own); stdout is written by a thread
//! of its own (a non-blocking stdout would make any other write to it fail when the pipe is
//! full).

use std::future::Future;
use std::io::{Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc;
use tokio_util::sync::PollSender;

/// Bytes read from stdin at a time.
const CHUNK_BYTES: usize = 64 * 1024;
/// Chunks waiting each way: the streams stay bounded whatever the client does.
const CHUNKS_WAITING: usize = 16;

/// Stdin as the runtime reads it: a pipe read when ready (the usual case: a client launched
/// the server), else a thread of its own.
pub fn stdin() -> std::io::Result<Box<dyn AsyncRead + Unpin + Send>> {
    use std::os::fd::AsFd;
    // A pipe of our own (a dup of fd 0) is read without blocking; a file or terminal is not
    // a pipe, and gets the thread.
    let pipe = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .and_then(tokio::net::unix::pipe::Receiver::from_owned_fd);
    match pipe {
        Ok(pipe) => Ok(Box::new(pipe)),
        Err(_) => Ok(Box::new(ThreadStdin::spawn()?)),
    }
}

/// Stdin, read by a thread of its own.
pub struct ThreadStdin {
    chunks: mpsc::Receiver<std::io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
}

impl ThreadStdin {
    pub fn spawn() -> std::io::Result<Self> {
        let (tx, chunks) = mpsc::channel(CHUNKS_WAITING);
        std::thread::Builder::new()
            .name("stdin".into())
            .spawn(move || {
                let mut stdin = std::io::stdin().lock();
                let mut buf = vec![0u8; CHUNK_BYTES];
                loop {
                    let chunk = match stdin.read(&mut buf) {
                        Ok(0) => return,
                        Ok(n) => Ok(buf[..n].to_vec()),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => Err(e),
                    };
                    let failed = chunk.is_err();
                    if tx.blocking_send(chunk).is_err() || failed {
                        return;
                    }
                }
            })?;
        Ok(ThreadStdin {
            chunks,
            current: Vec::new(),
            at: 0,
        })
    }
}

impl AsyncRead for ThreadStdin {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        if self.at >= self.current.len() {
            match ready!(self.chunks.poll_recv(cx)) {
                Some(Ok(chunk)) => {
                    self.current = chunk;
                    self.at = 0;
                }
                Some(Err(e)) => return Poll::Ready(Err(e)),
                // The thread saw the end of stdin.
                None => return Poll::Ready(Ok(())),
            }
        }
        let this = &mut *self;
        let n = buf.remaining().min(this.current.len() - this.at);
        buf.put_slice(&this.current[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

/// Stdout, written and flushed by a thread of its own, a chunk (one whole line from the
/// framing) at a time.
pub struct ThreadStdout {
    chunks: PollSender<Vec<u8>>,
    /// Ends when the thread has written every chunk (or stdout closed): shutdown waits for
    /// it, so the process never exits with an answer still queued for the thread.
    written: Option<tokio::sync::oneshot::Receiver<()>>,
}

impl ThreadStdout {
    pub fn spawn() -> std::io::Result<Self> {
        let (tx, mut rx) = mpsc::channel::<Vec<u8>>(CHUNKS_WAITING);
        // Dropped when the thread ends, which is what shutdown waits for.
        let (written_tx, written) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("stdout".into())
            .spawn(move || {
                let _written = written_tx;
                let mut stdout = std::io::stdout().lock();
                while let Some(chunk) = rx.blocking_recv() {
                    // A client that closed its end ends the thread; the framing then sees
                    // a closed channel.
                    if stdout
                        .write_all(&chunk)
                        .and_then(|()| stdout.flush())
                        .is_err()
                    {
                        return;
                    }
                }
            })?;
        Ok(ThreadStdout {
            chunks: PollSender::new(tx),
            written: Some(written),
        })
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "stdout is closed")
}

impl AsyncWrite for ThreadStdout {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        ready!(self.chunks.poll_reserve(cx)).map_err(|_| closed())?;
        self.chunks.send_item(buf.to_vec()).map_err(|_| closed())?;
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        // The thread flushes after every chunk.
        Poll::Ready(Ok(()))
    }

    /// Closes the channel and waits until the thread has written what it holds.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.chunks.close();
        if let Some(written) = self.written.as_mut() {
            // Either outcome means the thread is done: it only ever drops the sender.
            let _ = ready!(Pin::new(written).poll(cx));
            self.written = None;
        }
        Poll::Ready(Ok(()))
    }
}
