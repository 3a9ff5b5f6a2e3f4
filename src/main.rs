//! The `ontoresolve` binary: see `cli` for the commands.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
