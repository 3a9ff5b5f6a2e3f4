//! The one hand-written HTTP/1.1 client of the tests, shared by the integration and service test
//! binaries and the MCP bench: one-shot requests to `/mcp` on loopback, keep-alive `tools/call`
//! connections, and response streams read as server-sent events. Raw on purpose, so that a test
//! sets every header itself and sees every status.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpStream};

use serde_json::Value;

/// The status code of a response head: its second word, or 0.
pub fn status_of(head: &str) -> u16 {
    head.split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// A request to `/mcp` on loopback `port`: `Host` (unless `headers` has one), `Accept` for
/// both kinds of answer, a JSON `Content-Type` and the `Content-Length` for a POST or any
/// body, then `headers` in their order, then the body.
pub fn request(method: &str, port: u16, headers: &[(&str, &str)], body: &str) -> String {
    let mut request = format!("{method} /mcp HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    request.push_str("Accept: application/json, text/event-stream\r\n");
    if method == "POST" || !body.is_empty() {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    request
}

/// Reads a response head up to its blank line: the status and the head, lowercased. A
/// connection that ends before the blank line is an `UnexpectedEof` error.
pub fn read_head(reader: &mut impl BufRead) -> std::io::Result<(u16, String)> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line.to_ascii_lowercase());
    }
    Ok((status_of(&head), head))
}

/// The value of header `name` in a lowercased head.
pub fn header(head: &str, name: &str) -> Option<String> {
    let prefix = format!("{}:", name.to_ascii_lowercase());
    head.lines()
        .find_map(|l| l.strip_prefix(&prefix).map(|v| v.trim().to_string()))
}

/// One HTTP/1.1 POST to /mcp with `Connection: close`: status, lowercased head and body.
pub fn post(port: u16, headers: &[(&str, &str)], body: &str) -> (u16, String, String) {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    post_on(stream, port, headers, body)
}

/// [`post`] from another loopback address (`127.0.0.2`, say): to the server, another client.
pub fn post_from(
    source: Ipv4Addr,
    port: u16,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("runtime");
    let stream = runtime
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind((source, 0).into())?;
            socket
                .connect((Ipv4Addr::LOCALHOST, port).into())
                .await?
                .into_std()
        })
        .expect("connect from the source address");
    stream.set_nonblocking(false).expect("blocking");
    post_on(stream, port, headers, body)
}

fn post_on(
    mut stream: TcpStream,
    port: u16,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let mut all = vec![("Connection", "close")];
    all.extend_from_slice(headers);
    let _ = stream.write_all(request("POST", port, &all, body).as_bytes());
    // Whatever arrives before the server closes, even if the connection then breaks.
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (status_of(head), head.to_ascii_lowercase(), body.to_string())
}

/// One keep-alive HTTP/1.1 connection to `/mcp`, as an agent's client holds it, posting
/// 2026-07-28 `tools/call` requests with their routing headers (and a bearer token if given).
pub struct Conn {
    reader: BufReader<TcpStream>,
    port: u16,
    token: Option<String>,
}

impl Conn {
    pub fn new(port: u16, token: Option<&str>) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_nodelay(true).ok();
        Conn {
            reader: BufReader::new(stream),
            port,
            token: token.map(str::to_string),
        }
    }

    /// Posts one tools/call of `tool`: the HTTP status and the raw body.
    pub fn call_raw(&mut self, tool: &str, body: &str) -> std::io::Result<(u16, Vec<u8>)> {
        let bearer = self.token.as_ref().map(|t| format!("Bearer {t}"));
        let mut headers = vec![
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", tool),
        ];
        if let Some(bearer) = &bearer {
            headers.push(("Authorization", bearer));
        }
        let request = request("POST", self.port, &headers, body);
        self.reader.get_mut().write_all(request.as_bytes())?;
        let (status, head) = read_head(&mut self.reader)?;
        let length = header(&head, "content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok((status, body))
    }

    /// Posts one tools/call: the HTTP status and the parsed body (`Null` when unparsable).
    pub fn call(&mut self, tool: &str, body: &str) -> std::io::Result<(u16, Value)> {
        let (status, body) = self.call_raw(tool, body)?;
        Ok((status, serde_json::from_slice(&body).unwrap_or(Value::Null)))
    }
}

/// A response kept open: its status, its lowercased head, and the reader of its body.
pub struct Opened {
    pub status: u16,
    pub head: String,
    pub reader: BufReader<TcpStream>,
}

impl Opened {
    /// Whether the body comes in chunks.
    pub fn chunked(&self) -> bool {
        self.head.contains("transfer-encoding: chunked")
    }
}

/// Sends one request (`method` POST or GET) and returns once its response head has arrived.
pub fn open(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> Opened {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    (&stream)
        .write_all(request(method, port, headers, body).as_bytes())
        .expect("send");
    let mut reader = BufReader::new(stream);
    let (status, head) = read_head(&mut reader).expect("read head");
    Opened {
        status,
        head,
        reader,
    }
}

/// Reads a body (chunked or not) until it ends, parsing each server-sent event's `data:` lines
/// as one JSON message and handing it to `heard`.
pub fn read_events(mut reader: BufReader<TcpStream>, chunked: bool, mut heard: impl FnMut(Value)) {
    let mut text = String::new();
    loop {
        let mut piece = Vec::new();
        if chunked {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                return;
            }
            let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
                return;
            };
            if size == 0 {
                return;
            }
            piece.resize(size + 2, 0);
            if reader.read_exact(&mut piece).is_err() {
                return;
            }
            piece.truncate(size);
        } else {
            let mut buffer = [0; 4096];
            match reader.read(&mut buffer) {
                Ok(0) | Err(_) => return,
                Ok(n) => piece.extend_from_slice(&buffer[..n]),
            }
        }
        text.push_str(&String::from_utf8_lossy(&piece));
        let text_now = text.replace("\r\n", "\n");
        let mut events: Vec<&str> = text_now.split("\n\n").collect();
        let rest = events.pop().unwrap_or_default().to_string();
        for event in events {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            if let Ok(message) = serde_json::from_str::<Value>(&data.join("\n")) {
                heard(message);
            }
        }
        text = rest;
    }
}

/// A page's answer: status, head as sent, and body.
pub struct Page {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Page {
    /// The value of header `name` (any case), as sent.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// One HTTP/1.1 request for `target` (a raw path and query, sent as given) with
/// `Connection: close`, `Host` unless `headers` has one, then `headers`, then `body`.
pub fn page(method: &str, port: u16, target: &str, headers: &[(&str, &str)], body: &str) -> Page {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut request = format!("{method} {target} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let _ = stream.write_all(request.as_bytes());
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    Page {
        status: status_of(head),
        head: head.to_string(),
        body: body.to_string(),
    }
}
