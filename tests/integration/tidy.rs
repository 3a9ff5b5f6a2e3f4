//! Layering, checked by reading the source the way rust-analyzer's tidy tests do: the MCP
//! adapter reaches the data only through `resolve` and the plain types of `model`, and the
//! read API never depends on the build or on an adapter.

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
    files
}

/// Every `crate::<module>` a file names, with its line, outside comments.
fn crate_paths(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).expect("read source");
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
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
    let found = violations("mcp", &["mcp", "resolve", "model"]);
    assert!(
        found.is_empty(),
        "mcp/ must go through resolve/:\n{}",
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
