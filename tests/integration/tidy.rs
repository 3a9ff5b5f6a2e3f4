//! Layering, checked by reading the source the way rust-analyzer's tidy tests do: the MCP
//! adapter reaches the data only through `resolve` and the plain types of `model`, the read API
//! never depends on the build or on an adapter, and each external crate with a home stays in it
//! (`fst`, `tantivy` and `memmap2` in `index/`, `rmcp` and `schemars` in `mcp/`, Oxigraph and
//! its store in `store/`). Comments and string literals are not code and are not read. And
//! the rooms stay small: no type has more than 40 inherent methods, and `impl Resolver` blocks
//! live in at most three files (each question is its own type over the resolver).

use std::path::{Path, PathBuf};

use crate::support::repo;

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// `text` with its comments and its string, byte-string and char literals blanked to spaces,
/// newlines kept: the code alone, on the same lines.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        // Where a literal or comment that starts at `i` ends (exclusive), if one does.
        let end = if c == '/' && next == Some('/') {
            let mut j = i;
            while j < chars.len() && chars[j] != '\n' {
                j += 1;
            }
            Some(j)
        } else if c == '/' && next == Some('*') {
            let (mut j, mut depth) = (i + 2, 1);
            while j < chars.len() && depth > 0 {
                if chars[j] == '/' && chars.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && chars.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            Some(j)
        } else if c == 'r' && (i == 0 || !ident(chars[i - 1]) || raw_prefix(&chars, i)) {
            // r"…", r#"…"#, and with b or c before the r.
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            let hashes = j - i - 1;
            if chars.get(j) == Some(&'"') {
                j += 1;
                loop {
                    if j >= chars.len() {
                        break Some(j);
                    }
                    if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                        break Some(j + 1 + hashes);
                    }
                    j += 1;
                }
            } else {
                None
            }
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            Some((j + 1).min(chars.len()))
        } else if c == '\'' && next == Some('\\') {
            // An escaped char: skip the escaped character, then find the closing quote.
            let mut j = i + 3;
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            Some((j + 1).min(chars.len()))
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            Some(i + 3)
        } else {
            // Code, or a lifetime.
            None
        };
        match end {
            Some(end) => {
                out.extend(chars[i..end].iter().map(|&c| blank(c)));
                i = end;
            }
            None => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Whether the `r` at `at` follows a `b` or `c` that starts a raw byte or C string (`br"…"`).
fn raw_prefix(chars: &[char], at: usize) -> bool {
    at >= 1
        && matches!(chars[at - 1], 'b' | 'c')
        && (at == 1 || !(chars[at - 2].is_alphanumeric() || chars[at - 2] == '_'))
}

/// The 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Every `crate::<module>` a text names in code, with its line.
fn crate_paths_in(text: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let module: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((n + 1, module));
        }
    }
    found
}

/// Every `crate::<module>` a file names, with its line, outside comments and strings.
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    crate_paths_in(&std::fs::read_to_string(file).expect("read source"))
}

fn violations(layer: &str, allowed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for file in rust_files(&repo().join("src").join(layer)) {
        for (line, module) in crate_paths(&file) {
            if !allowed.contains(&module.as_str()) {
                out.push(format!("{}:{line}: crate::{module}", file.display()));
            }
        }
    }
    out
}

#[test]
fn the_mcp_layer_reaches_data_only_through_resolve_and_model() {
    // `pages` and `ols`: the HTTP server serves the pages and the OLS API beside `/mcp`,
    // behind the same gate.
    let found = violations("mcp", &["mcp", "resolve", "model", "pages", "ols"]);
    assert!(
        found.is_empty(),
        "mcp/ must go through resolve/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_pages_ask_what_mcp_asks_and_read_no_data_of_their_own() {
    // The tool functions of `mcp::tools` and their wire types: the same answers as MCP.
    let found = violations("pages", &["pages", "mcp", "resolve", "model"]);
    assert!(
        found.is_empty(),
        "pages/ must answer through mcp::tools and resolve/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_ols_api_reaches_data_only_through_resolve_and_model() {
    // Not even `mcp::tools`: it answers in OLS's shapes from the core's own answers.
    let found = violations("ols", &["ols", "resolve", "model"]);
    assert!(
        found.is_empty(),
        "ols/ must answer through resolve/ and model/:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_pages_use_maud() {
    let found = crates_outside("pages", &["maud"]);
    assert!(
        found.is_empty(),
        "HTML belongs to src/pages/:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_read_api_depends_on_neither_the_build_nor_an_adapter() {
    let found = violations(
        "resolve",
        &["resolve", "model", "index", "registry", "store"],
    );
    assert!(
        found.is_empty(),
        "resolve/ must not import these:\n{}",
        found.join("\n")
    );
}

/// The lines of `text` whose code names external crate `name`: as the root of a path
/// (`name::…`, `::name::…`, not `other::name::…`), or in `use name` and `extern crate name`.
fn crate_uses_in(text: &str, name: &str) -> Vec<usize> {
    let code = code_only(text);
    let path = regex::Regex::new(&format!(r"(?:^|[^\w:])(?:::)?({name})\s*::")).expect("regex");
    let item = regex::Regex::new(&format!(r"\b(?:use|crate)\s+(?:::)?({name})\b")).expect("regex");
    let mut lines: Vec<usize> = path
        .captures_iter(&code)
        .chain(item.captures_iter(&code))
        .filter_map(|c| c.get(1))
        .map(|m| line_of(&code, m.start()))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The lines of `text` whose code opens or names Oxigraph's store: `oxigraph::store`, in a
/// path or a `use` group, or `Store::new` and `Store::open…`.
fn store_uses_in(text: &str) -> Vec<usize> {
    let code = code_only(text);
    let patterns = [
        r"\boxigraph\s*::\s*(store)\b",
        r"\boxigraph\s*::\s*\{[^}]*\b(store)\b",
        r"(?:^|[^\w])(Store\s*::\s*(?:new|open\w*))\b",
    ];
    let mut lines = Vec::new();
    for pattern in patterns {
        let re = regex::Regex::new(pattern).expect("regex");
        lines.extend(
            re.captures_iter(&code)
                .filter_map(|c| c.get(1))
                .map(|m| line_of(&code, m.start())),
        );
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// `src/…` of a source file, with `/` separators, for messages and allow-lists.
fn relative(file: &Path) -> String {
    file.strip_prefix(repo())
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Every `file:line` outside `src/<home>/` where `find` sees a use.
fn outside(home: &str, find: impl Fn(&str) -> Vec<usize>) -> Vec<String> {
    let home = format!("src/{home}/");
    let mut out = Vec::new();
    for file in rust_files(&repo().join("src")) {
        let path = relative(&file);
        if path.starts_with(&home) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        out.extend(find(&text).into_iter().map(|line| format!("{path}:{line}")));
    }
    out
}

/// How many uses `find` sees inside `src/<home>/`: none means the check reads nothing.
fn inside(home: &str, find: impl Fn(&str) -> Vec<usize>) -> usize {
    rust_files(&repo().join("src").join(home))
        .iter()
        .map(|file| find(&std::fs::read_to_string(file).expect("read source")).len())
        .sum()
}

/// Every `file:line: names \`crate\`` outside `src/<home>/` for each crate of `crates`.
fn crates_outside(home: &str, crates: &[&str]) -> Vec<String> {
    let seen: usize = crates
        .iter()
        .map(|name| inside(home, |text| crate_uses_in(text, name)))
        .sum();
    assert!(
        seen > 0,
        "no use of {crates:?} seen in src/{home}/: the check no longer reads the code"
    );
    let mut out = Vec::new();
    for name in crates {
        out.extend(
            outside(home, |text| crate_uses_in(text, name))
                .into_iter()
                .map(|at| format!("{at}: names `{name}`")),
        );
    }
    out.sort();
    out
}

#[test]
fn only_the_index_uses_fst_tantivy_and_memmap2() {
    let found = crates_outside("index", &["fst", "tantivy", "memmap2"]);
    assert!(
        found.is_empty(),
        "the on-disk structures belong to src/index/; go through its API instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_mcp_adapter_uses_rmcp_and_schemars() {
    // `src/cli/mod.rs` names `rmcp::service` in a tracing filter: a string, so not read.
    let found = crates_outside("mcp", &["rmcp", "schemars"]);
    assert!(
        found.is_empty(),
        "the MCP SDK belongs to src/mcp/:\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_store_opens_the_oxigraph_store() {
    assert!(
        inside("store", store_uses_in) > 0,
        "no store opened in src/store/: the check no longer reads the code"
    );
    let mut found: Vec<String> = outside("store", store_uses_in)
        .into_iter()
        .map(|at| format!("{at}: opens or names Oxigraph's store"))
        .collect();
    found.sort();
    assert!(
        found.is_empty(),
        "only src/store/ opens the RDF store; use its StoreWriter or StoreReader:\n{}",
        found.join("\n")
    );
}

/// Files outside `src/store/` that still name the `oxigraph` crate while they move to `oxrdf`.
/// Shrink it as they do; a file listed here that no longer names it fails the test, so the
/// list only ever shrinks.
const STILL_NAMING_OXIGRAPH: &[&str] = &[];

#[test]
fn only_the_store_names_the_oxigraph_crate() {
    let found = crates_outside("store", &["oxigraph"]);
    let file_of = |at: &String| at.split(':').next().unwrap_or_default().to_string();
    let new: Vec<&String> = found
        .iter()
        .filter(|at| !STILL_NAMING_OXIGRAPH.contains(&file_of(at).as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "only src/store/ names oxigraph; RDF terms come from oxrdf:\n{}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let stale: Vec<&&str> = STILL_NAMING_OXIGRAPH
        .iter()
        .filter(|file| !found.iter().any(|at| file_of(at) == **file))
        .collect();
    assert!(
        stale.is_empty(),
        "these no longer name oxigraph; remove them from STILL_NAMING_OXIGRAPH: {stale:?}"
    );
}

#[test]
fn the_tidy_check_sees_a_forbidden_path() {
    let dir = std::env::temp_dir().join(format!("ontoresolve-tidy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("x.rs");
    std::fs::write(
        &file,
        "use crate::build::id_keys; // crate::cli in a comment\n",
    )
    .expect("write");
    assert_eq!(crate_paths(&file), vec![(1, "build".to_string())]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_tidy_check_reads_code_not_comments_or_strings() {
    let text = r####"//! Through oxigraph's parsers; see fst::Map.
use fst::Map;
use ::tantivy::schema;
use oxigraph::{model::Quad, store::Store};
let filter = "warn,rmcp::service=error"; /* rmcp::x
   schemars::y */ let quote = '"'; let s = r#"memmap2::Mmap "quoted""#;
let tick = '\''; fn f<'a>(x: &'a str) {}
let store = Store::open(path)?;
let mine = crate::index::fst::Set; let other = StoreWriter::open(path);
extern crate memmap2;
pub use
    schemars;
tracing::info!("crate::build in a string");
"####;
    assert_eq!(crate_uses_in(text, "fst"), [2]);
    assert_eq!(crate_uses_in(text, "tantivy"), [3]);
    assert_eq!(crate_uses_in(text, "oxigraph"), [4]);
    assert!(crate_uses_in(text, "rmcp").is_empty());
    assert_eq!(crate_uses_in(text, "memmap2"), [10]);
    assert_eq!(crate_uses_in(text, "schemars"), [12]);
    assert_eq!(store_uses_in(text), [4, 8]);
    assert_eq!(crate_paths_in(text), [(9, "index".to_string())]);
    let code = code_only(text);
    assert_eq!(code.lines().count(), text.lines().count());
    assert!(code.contains("fn f<'a>(x: &'a str)"), "{code}");
}

/// Most inherent methods one type may have: more is a sign it answers several questions.
const MAX_METHODS: usize = 40;
/// Most files holding `impl Resolver` blocks: its readers, and the doors to the questions.
const MAX_RESOLVER_FILES: usize = 3;

/// Each inherent `impl` block of `text` (at column 0, as rustfmt writes them): the type's name
/// and how many `fn` items the block holds. Trait impls are left out: the trait fixes those.
fn inherent_impls(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let mut out = Vec::new();
    let mut open: Option<(String, usize)> = None;
    for line in code.lines() {
        if let Some((name, count)) = &mut open {
            if line.starts_with('}') {
                out.push((std::mem::take(name), *count));
                open = None;
            } else if line.strip_prefix("    ").is_some_and(|rest| {
                let rest = rest.trim_start_matches("pub ").trim_start();
                let rest = match rest.strip_prefix("pub(") {
                    Some(after) => after.split_once(") ").map_or("", |(_, r)| r),
                    None => rest,
                };
                ["fn ", "const fn ", "async fn ", "unsafe fn "]
                    .iter()
                    .any(|f| rest.starts_with(f))
            }) {
                *count += 1;
            }
            continue;
        }
        let Some(head) = line.strip_prefix("impl") else {
            continue;
        };
        if !(head.starts_with(' ') || head.starts_with('<')) || head.contains(" for ") {
            continue;
        }
        // Skip the impl's own generics, then read the type's name.
        let mut depth = 0usize;
        let mut rest = head;
        for (at, c) in head.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ if depth == 0 && !c.is_whitespace() => {
                    rest = &head[at..];
                    break;
                }
                _ => {}
            }
        }
        // The type's own name: the last segment of a path (`super::MappingWalk<'r>`).
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let name = path.rsplit("::").next().unwrap_or_default().to_string();
        if !name.is_empty() && line.trim_end().ends_with('{') {
            open = Some((name, 0));
        }
    }
    out
}

/// Inherent methods per type across `src/`, by its top module and name (`resolve::Lexicon`
/// is not `index::Lexicon`), and the files holding each type's impls.
fn methods_per_type() -> std::collections::BTreeMap<String, (usize, Vec<String>)> {
    let mut per_type: std::collections::BTreeMap<String, (usize, Vec<String>)> = Default::default();
    let src = repo().join("src");
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("read");
        let module = file
            .strip_prefix(&src)
            .ok()
            .and_then(|p| p.components().next())
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        for (name, count) in inherent_impls(&text) {
            let entry = per_type.entry(format!("{module}::{name}")).or_default();
            entry.0 += count;
            let file = relative(&file);
            if !entry.1.contains(&file) {
                entry.1.push(file);
            }
        }
    }
    per_type
}

#[test]
fn no_type_has_more_than_forty_methods_and_the_resolver_lives_in_three_files() {
    let per_type = methods_per_type();
    let (resolver_methods, resolver_files) = per_type
        .get("resolve::Resolver")
        .expect("impl Resolver read");
    assert!(
        *resolver_methods > 10,
        "the check read the resolver's methods"
    );
    let crowded: Vec<String> = per_type
        .iter()
        .filter(|(_, (count, _))| *count > MAX_METHODS)
        .map(|(name, (count, files))| format!("{name}: {count} methods in {}", files.join(", ")))
        .collect();
    assert!(
        crowded.is_empty(),
        "types over {MAX_METHODS} methods (split them by question): {crowded:#?}"
    );
    assert!(
        resolver_files.len() <= MAX_RESOLVER_FILES,
        "impl Resolver in {} files (at most {MAX_RESOLVER_FILES}): {resolver_files:?}",
        resolver_files.len()
    );
}

#[test]
fn the_method_count_reads_inherent_impls_and_leaves_trait_impls_out() {
    let text = r#"impl<'r> Scan<'r> {
    pub(crate) fn new(r: &'r R) -> Self { Scan { r } }
    fn one(&self) {}
    // fn not_code(&self) {}
    pub fn two(&self) -> &str { "fn three()" }
    const LIMIT: usize = 3;
}

impl std::fmt::Display for Scan<'_> {
    fn fmt(&self, f: &mut Formatter) -> Result { Ok(()) }
}

impl Resolver {
    pub const fn four(&self) {}
}

impl<'r> super::Walk<'r> {
    fn five(&self) {}
}
"#;
    assert_eq!(
        inherent_impls(text),
        [
            ("Scan".to_string(), 3),
            ("Resolver".to_string(), 1),
            ("Walk".to_string(), 1)
        ]
    );
}
