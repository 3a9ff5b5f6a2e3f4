//! The `ontoresolve` binary: see `cli` for the commands.

mod cli;

/// mimalloc gives freed memory back between build stages; glibc's per-thread arenas kept about
/// 340 MiB of a finished source's memory while the next one was read.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
