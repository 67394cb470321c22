//! Subcommand help that shows the command's own options and only names the global ones.
//!
//! Every subcommand accepts some 20 global flags (connection, Kubernetes, output); listed in
//! full they made `roll --help` 116 lines and `operate --help` 191, burying what the command
//! itself takes. As kubectl does (`kubectl options`), a subcommand's help lists its own options
//! and ends with one short block naming the global flags by heading; `kafkaops --help`
//! describes them. Completions and man pages are generated from the full [`super::command`].

/// The command the binary parses with: [`super::command`] with the global flags hidden in every
/// subcommand's help and summarised at its end. Parsing is unchanged (hidden flags still parse).
#[must_use]
pub fn parse_command(name: String) -> clap::Command {
    let cmd = super::command().bin_name(name);
    let globals: Vec<clap::Arg> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    let summary = summary(&globals);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd;
    for name in names {
        cmd = cmd.mut_subcommand(&name, |s| hide_globals(s, &globals, &summary));
    }
    cmd
}

/// The global flags by help heading, e.g. `Connection: -b/--bootstrap-servers, -X/--kafka-property`.
fn summary(globals: &[clap::Arg]) -> String {
    // (heading, flags) in the order the headings first appear.
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    for arg in globals.iter().filter(|a| !a.is_hide_set()) {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => format!("-{s}/--{l}"),
            (None, Some(l)) => format!("--{l}"),
            (Some(s), None) => format!("-{s}"),
            (None, None) => continue,
        };
        let heading = match arg.get_help_heading() {
            None | Some("Global options") => "General",
            Some(h) => h,
        };
        match groups.iter_mut().find(|(h, _)| *h == heading) {
            Some((_, flags)) => flags.push(flag),
            None => groups.push((heading, vec![flag])),
        }
    }
    let mut out = String::from("Global options (described in `kafkaops --help`):\n");
    for (heading, flags) in &groups {
        out.push_str(&wrap(&format!("  {heading}: "), flags));
    }
    out.trim_end().to_string()
}

/// A subcommand that already has an argument of a global flag's id is not given the parent's
/// copy when clap propagates globals, so a hidden copy here replaces the shown one (and, being
/// global itself, is what this subcommand's own subcommands receive).
fn hide_globals(mut cmd: clap::Command, globals: &[clap::Arg], summary: &str) -> clap::Command {
    for arg in globals {
        cmd = cmd.arg(arg.clone().hide(true));
    }
    let after = match cmd.get_after_help() {
        Some(text) => format!("{text}\n\n{summary}"),
        None => summary.to_string(),
    };
    cmd = cmd.after_help(after);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(&name, |s| hide_globals(s, globals, summary));
    }
    cmd
}

/// `prefix` then the flags, comma-separated, wrapped before 78 columns with a four-space indent
/// (clap would wrap the after-help text without one).
fn wrap(prefix: &str, flags: &[String]) -> String {
    let mut out = String::from(prefix);
    let mut width = prefix.len();
    for (i, flag) in flags.iter().enumerate() {
        let sep = if i + 1 < flags.len() { "," } else { "" };
        let piece = format!("{flag}{sep}");
        if i > 0 {
            if width + 1 + piece.len() > 78 {
                out.push_str("\n    ");
                width = 4;
            } else {
                out.push(' ');
                width += 1;
            }
        }
        out.push_str(&piece);
        width += piece.len();
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help(args: &[&str]) -> String {
        let err = parse_command("kafkaops".to_string())
            .try_get_matches_from(args)
            .unwrap_err();
        err.to_string()
    }

    #[test]
    fn subcommand_help_names_the_global_flags_once_and_describes_only_its_own() {
        for args in [
            &["kafkaops", "roll", "--help"][..],
            &["kafkaops", "roll", "-h"],
            &["kafkaops", "rebalance", "add", "--help"],
            &["kafkaops", "operate", "--help"],
        ] {
            let text = help(args);
            assert!(
                !text.contains("Global options:\n"),
                "{args:?}: globals listed in full"
            );
            assert!(
                !text.contains("Kafka bootstrap servers"),
                "{args:?}: a global described"
            );
            assert!(
                text.contains("Global options (described in `kafkaops --help`)"),
                "{args:?}"
            );
            assert!(text.contains("-b/--bootstrap-servers"), "{args:?}");
            assert!(text.contains("--kubeconfig"), "{args:?}");
            // Grouped by heading, the flags without one under "General", each group once.
            for group in [
                "  General: --config",
                "  Connection: -b/",
                "  Kubernetes: --strimzi",
            ] {
                assert_eq!(text.matches(group).count(), 1, "{args:?}: {group}");
            }
            assert!(text.lines().all(|l| l.len() <= 100), "{args:?}");
        }
        let root = help(&["kafkaops", "--help"]);
        assert!(
            root.contains("--bootstrap-servers <"),
            "root help describes the globals"
        );
    }

    #[test]
    fn hidden_global_flags_still_parse_at_every_level() {
        let m = parse_command("kafkaops".to_string())
            .try_get_matches_from([
                "kafkaops",
                "rebalance",
                "add",
                "--brokers",
                "4",
                "-b",
                "k1:9092",
                "-o",
                "json",
                "--kube-context",
                "prod",
            ])
            .unwrap();
        let cli = <super::super::Cli as clap::FromArgMatches>::from_arg_matches(&m).unwrap();
        assert_eq!(
            cli.global.connection.bootstrap_servers.as_deref(),
            Some("k1:9092")
        );
        assert_eq!(cli.global.kube.kube_context.as_deref(), Some("prod"));
        assert_eq!(cli.global.output, crate::output::OutputFormat::Json);
    }
}
