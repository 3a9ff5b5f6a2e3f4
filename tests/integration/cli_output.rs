//! The commands' standard output as a pipe's reader sees it: a reader that stops early
//! ("ontoresolve lookup … | head") ends the command quietly, never with a panic; `check`
//! still answers by its exit code.

use std::process::{Command, Stdio};

use crate::support::default_index_dir;

/// Runs the binary with `args`, its stdout a pipe closed before it writes; its exit code and
/// stderr.
fn run_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ontoresolve"))
        .args(args)
        .arg("--index")
        .arg(default_index_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Opening the index takes far longer than this: nothing has been written yet.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("the binary ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_lookup_and_check_quietly() {
    for args in [
        &["lookup", "--limit", "50", "disease"][..],
        &["lookup", "--json", "--limit", "50", "disease"][..],
        &["check"][..],
    ] {
        let (code, stderr) = run_with_closed_stdout(args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
