//! `tests/fixtures/solve.txt`: solver results in a perft-style text fixture (the format is in
//! the file's header), each record run through `tengen solve --format json` and compared.
//! The JSON is read as plain values, so the test depends on the documented output only.

use serde_json::Value;

use crate::run_stdin;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/solve.txt");
const NAME: &str = "tests/fixtures/solve.txt";

/// One record: its `id`, the line of that `id`, its `key value` lines and its diagram lines.
struct Record {
    id: String,
    line: usize,
    fields: Vec<(String, String)>,
    board: Vec<String>,
}

impl Record {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A malformed record is a bug in the fixture: fail naming it.
    fn bad(&self, what: &str) -> ! {
        panic!("{NAME}:{}: record `{}`: {what}", self.line, self.id)
    }

    fn need(&self, key: &str) -> &str {
        self.get(key)
            .unwrap_or_else(|| self.bad(&format!("no `{key}`")))
    }

    fn number(&self, key: &str) -> Option<u64> {
        self.get(key).map(|v| {
            v.parse()
                .unwrap_or_else(|_| self.bad(&format!("`{key}` is not a number: {v:?}")))
        })
    }
}

const KEYS: &[&str] = &[
    "rule",
    "size",
    "moves",
    "board",
    "to-move",
    "attacker",
    "task",
    "threat-limit",
    "limit",
    "max-nodes",
    "expect",
    "why",
];

fn parse(text: &str) -> Vec<Record> {
    let mut records: Vec<Record> = Vec::new();
    let mut in_board = false;
    // After a blank line (and at the start) the next record must begin with `id`.
    let mut between = true;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if in_board && let Some(row) = raw.strip_prefix("    ") {
            records.last_mut().unwrap().board.push(row.to_string());
            continue;
        }
        in_board = false;
        let line = raw.trim_end();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            between = true;
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim().to_string();
        if key == "id" {
            assert!(
                records.iter().all(|r| r.id != value),
                "{NAME}:{n}: id `{value}` is used twice"
            );
            records.push(Record {
                id: value,
                line: n,
                fields: Vec::new(),
                board: Vec::new(),
            });
            between = false;
            continue;
        }
        assert!(
            !between,
            "{NAME}:{n}: a record starts with `id`, not `{key}`"
        );
        let record = records.last_mut().unwrap();
        assert!(KEYS.contains(&key), "{NAME}:{n}: unknown key `{key}`");
        assert!(
            key == "why" || record.get(key).is_none(),
            "{NAME}:{n}: `{key}` given twice in `{}`",
            record.id
        );
        in_board = key == "board";
        record.fields.push((key.to_string(), value));
    }
    records
}

/// What a record expects.
#[derive(Debug, PartialEq)]
struct Expect {
    result: String,
    attacker_moves: u64,
    first: Option<String>,
    ending: Option<String>,
}

impl Expect {
    fn parse(record: &Record) -> Expect {
        let words: Vec<&str> = record.need("expect").split_whitespace().collect();
        match words[..] {
            ["no-win"] | ["unknown"] => Expect {
                result: words[0].to_string(),
                attacker_moves: 0,
                first: None,
                ending: None,
            },
            ["win", length, ref rest @ ..] if rest.len() <= 2 => {
                let mut expect = Expect {
                    result: "win".into(),
                    attacker_moves: length
                        .parse()
                        .unwrap_or_else(|_| record.bad("`expect win` needs a length")),
                    first: None,
                    ending: None,
                };
                for word in rest {
                    if ["five", "double-threat", "forced-foul"].contains(word) {
                        expect.ending = Some(word.to_string());
                    } else {
                        expect.first = Some(word.to_string());
                    }
                }
                expect
            }
            _ => record.bad("`expect` is `win LENGTH [FIRST] [ENDING]`, `no-win` or `unknown`"),
        }
    }

    /// The same fields read from tengen's JSON (`first` and `ending` only where expected).
    fn found(&self, doc: &Value) -> Expect {
        let text = |v: &Value| v.as_str().map(str::to_string);
        Expect {
            result: text(&doc["result"]).unwrap_or_default(),
            attacker_moves: doc["attacker_moves"].as_u64().unwrap_or(u64::MAX),
            first: self.first.as_ref().and_then(|_| text(&doc["line"][0])),
            ending: self.ending.as_ref().and_then(|_| text(&doc["ending"])),
        }
    }
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}", self.result)?;
        if self.result == "win" {
            write!(f, " {}", self.attacker_moves)?;
        }
        for word in [&self.first, &self.ending].into_iter().flatten() {
            write!(f, " {word}")?;
        }
        Ok(())
    }
}

/// The `tengen solve` arguments and standard input for a record.
fn command(record: &Record) -> (Vec<String>, String) {
    let mut args: Vec<String> = vec!["solve".into()];
    let task: Vec<&str> = record.need("task").split_whitespace().collect();
    let threat_limit = record.number("threat-limit");
    match task[..] {
        ["vcf"] => {
            args.push("--vcf".into());
            if threat_limit.is_some() {
                record.bad("`threat-limit` is for vct and win-in");
            }
        }
        ["vct"] => args.push("--vct".into()),
        ["win-in", n] => {
            args.extend(["--win-in".into(), n.to_string()]);
            if record.get("limit").is_some() {
                record.bad("`limit` does not go with win-in");
            }
        }
        _ => record.bad("`task` is `vcf`, `vct` or `win-in N`"),
    }
    if task[0] != "vcf" {
        let t = threat_limit.unwrap_or_else(|| record.bad("vct and win-in need `threat-limit`"));
        args.extend(["--threat-limit".into(), t.to_string()]);
    }
    let stdin = match (record.get("moves"), record.get("board")) {
        (Some(moves), None) => {
            if record.get("to-move").is_some() {
                record.bad("a move list says who is to move");
            }
            args.extend([moves.to_string(), "--input-format".into(), "moves".into()]);
            String::new()
        }
        (None, Some("")) if !record.board.is_empty() => {
            let to_move = record.need("to-move");
            args.extend(["-", "--input-format", "diagram", "--to-move", to_move].map(String::from));
            record.board.join("\n") + "\n"
        }
        _ => record.bad("give the position as `moves` or as `board` with diagram lines"),
    };
    args.extend(["--rule", record.need("rule"), "--size", record.need("size")].map(String::from));
    for key in ["limit", "max-nodes"] {
        if let Some(n) = record.number(key) {
            args.extend([format!("--{key}"), n.to_string()]);
        }
    }
    if let Some(side) = record.get("attacker") {
        args.extend(["--attacker".into(), side.to_string()]);
    }
    args.extend(["--format".into(), "json".into()]);
    (args, stdin)
}

/// Runs a record; returns what went wrong, if anything.
fn check(record: &Record) -> Result<(), String> {
    if record.get("why").is_none_or(str::is_empty) {
        record.bad("every record says `why` its answer is true");
    }
    let expect = Expect::parse(record);
    let (args, stdin) = command(record);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_stdin(&argv, &stdin);
    if code != 0 {
        return Err(format!("exit {code}: {err}"));
    }
    let doc: Value = serde_json::from_str(&out).map_err(|e| format!("{e}: {out}"))?;
    let found = expect.found(&doc);
    if found != expect {
        let line = doc["line"].as_array().map(|moves| {
            moves
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        });
        return Err(format!(
            "expected `{expect}`, got `{found}` (attacker moves {}, line: {})",
            found.attacker_moves,
            line.unwrap_or_default()
        ));
    }
    let verified = doc["verified"].as_bool();
    if verified != Some(expect.result == "win") {
        return Err(format!(
            "`verified` is {verified:?} for a {}",
            expect.result
        ));
    }
    if expect.result != "win" && doc["line"].as_array().is_none_or(|l| !l.is_empty()) {
        return Err(format!("a {} with a line: {}", expect.result, doc["line"]));
    }
    Ok(())
}

#[test]
fn solver_results_match_the_fixture() {
    let text = std::fs::read_to_string(FIXTURE).expect("the fixture is in the repository");
    let records = parse(&text);
    assert!(records.len() >= 20, "{NAME} has {} records", records.len());
    let failures: Vec<String> = records
        .iter()
        .filter_map(|r| {
            check(r)
                .err()
                .map(|e| format!("{NAME}:{}: record `{}`: {e}", r.line, r.id))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} records differ:\n{}",
        failures.len(),
        records.len(),
        failures.join("\n")
    );
}
