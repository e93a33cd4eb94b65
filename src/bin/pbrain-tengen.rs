//! `pbrain-tengen`: tengen as a Gomocup engine, the same code as `tengen brain` under the
//! name GUIs and tournaments look for (the `pbrain-` prefix). `--debug` prints `DEBUG` lines.

use std::io::{BufReader, ErrorKind};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut options = tengen::protocol::BrainOptions::default();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--debug" => options.debug = true,
            "--version" | "-V" => {
                println!("pbrain-tengen {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            _ => {
                eprintln!(
                    "error: unexpected argument '{arg}'\n\nUsage: pbrain-tengen [--debug]\n\n\
                     A Gomocup (Piskvork) protocol engine on standard input and output; see \
                     `tengen brain --help`."
                );
                return ExitCode::from(2);
            }
        }
    }
    let input = BufReader::new(std::io::stdin());
    match tengen::protocol::run(input, std::io::stdout().lock(), options) {
        Ok(()) => ExitCode::SUCCESS,
        // The manager closed our output: nobody is listening any more.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: writing the protocol's output: {e}");
            ExitCode::from(2)
        }
    }
}
