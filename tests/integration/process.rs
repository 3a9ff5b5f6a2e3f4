//! The real binary as a child process: `serve --http` on a free port, killed when dropped.
//! Shared by the integration and service test binaries; `http_client` talks to it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub(crate) fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ontoresolve")
}

/// A running `serve --http`: the child and the port it announced. The last lines of its stderr
/// are kept, and printed when a test fails while it runs, so a server that died says why.
pub(crate) struct Server(Child, pub(crate) u16, Arc<Mutex<VecDeque<String>>>);

/// How many of the server's last stderr lines a failing test shows.
const KEPT_LOG_LINES: usize = 60;

impl Server {
    /// The server's process id, to read its memory.
    pub(crate) fn pid(&self) -> u32 {
        self.0.id()
    }

    /// The last lines the server wrote to stderr.
    pub(crate) fn log_tail(&self) -> String {
        let lines = self.2.lock().map(|l| l.clone()).unwrap_or_default();
        lines.into_iter().collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let exited = self.0.try_wait().ok().flatten();
        if std::thread::panicking() {
            eprintln!(
                "server on port {} (exit: {exited:?}), its last stderr lines:\n{}",
                self.1,
                self.log_tail()
            );
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `serve --http` on loopback; see [`serve_at`].
pub(crate) fn serve(index: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
    serve_at("127.0.0.1", index, args, env)
}

/// Starts `serve --http` on port 0 of `host` and waits for the port it announces on stderr:
/// asking the kernel first and passing the number on would race with every other test binding
/// ports.
pub(crate) fn serve_at(host: &str, index: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
    let mut command = Command::new(binary());
    command
        .args(["serve", "--index"])
        .arg(index)
        .args(["--http", &format!("{host}:0")])
        .args(args)
        .env_remove("ONTORESOLVE_AUTH_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("spawn serve --http");
    let stderr = child.stderr.take().expect("piped stderr");
    let log = Arc::new(Mutex::new(VecDeque::new()));
    let (announced, port) = std::sync::mpsc::channel();
    let kept = log.clone();
    // Drains stderr for the server's whole life, so it never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(port) = announced_port(&line) {
                let _ = announced.send(port);
            }
            if let Ok(mut kept) = kept.lock() {
                if kept.len() == KEPT_LOG_LINES {
                    kept.pop_front();
                }
                kept.push_back(line);
            }
        }
    });
    match port.recv_timeout(Duration::from_secs(60)) {
        Ok(port) => Server(child, port, log),
        Err(_) => {
            let _ = child.kill();
            let status = child.wait();
            let lines = log.lock().map(|l| l.clone()).unwrap_or_default();
            panic!(
                "serve --http announced no port ({status:?}); stderr:\n{}",
                lines.into_iter().collect::<Vec<_>>().join("\n")
            )
        }
    }
}

/// The port in `ontoresolve: MCP over Streamable HTTP at http://127.0.0.1:PORT/mcp`.
fn announced_port(line: &str) -> Option<u16> {
    let rest = line.strip_prefix("ontoresolve: MCP over Streamable HTTP at http://")?;
    let address = rest.strip_suffix("/mcp")?;
    address.rsplit_once(':')?.1.parse().ok()
}
