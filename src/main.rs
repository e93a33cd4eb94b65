use std::process::ExitCode;

use clap::Parser;
use tengen::cli::Cli;
use tengen::commands;
use tengen::config::Config;
use tengen::error::Error;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    match commands::run(Config::from_cli(cli.command), &mut stdout) {
        Ok(code) => ExitCode::from(code),
        // A closed pipe (`tengen show … | head`) is not an error.
        Err(Error::Write { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            if let Error::Input(source) = &e
                && let Some(snippet) = source.snippet()
            {
                eprintln!("{snippet}");
            }
            ExitCode::from(2)
        }
    }
}
