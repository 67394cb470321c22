//! Prose for people (plans, reasons, notes, summaries) fitted to the terminal as the tables are
//! (issue #26): at the width tables fit ([`super::table::terminal_width`]: `COLUMNS`, else the
//! terminal's when stdout is one), never when nothing is to be fitted (piped without `COLUMNS`,
//! `-o wide`) and never in machine output (JSON and YAML are not text for people).
//!
//! Lines are broken between words by `textwrap` (display width, ANSI colour taking none); a word
//! longer than the line (a URL, a command to copy, a setting's name) stays whole. A continued
//! line keeps its indentation, and a list item's continuation lines hang under its text.

use super::table::Style;

/// `text` fitted to the style's width, line by line; a continued line hangs under its text
/// ([`hanging_indent`]). Lines of tables (starting with `|`) are left alone.
#[must_use]
pub fn fit_prose(text: &str, style: Style) -> String {
    let Some(width) = style.width.filter(|_| !style.wide).map(usize::from) else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.starts_with('|') {
            out.push_str(body);
        } else {
            out.push_str(&wrap_line(body, width, hanging_indent(body)));
        }
        out.push_str(nl);
    }
    out
}

/// Where the continuation lines of `line` start: under the text of a list item (after `1. `,
/// `12) `, `- `, `* ` and the line's own indentation), else two columns in from the line's
/// indentation.
#[must_use]
pub fn hanging_indent(line: &str) -> usize {
    let lead = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[lead..];
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let numbered =
        digits > 0 && (rest[digits..].starts_with(". ") || rest[digits..].starts_with(") "));
    // `- ` and `* ` are two columns wide, as the plain indentation step is.
    lead + if numbered { digits + 2 } else { 2 }
}

/// One line (no `\n`) on lines of at most `width` columns, continuation lines indented by
/// `indent` columns; a word longer than a line stays whole on a line of its own.
#[must_use]
pub fn wrap_line(line: &str, width: usize, indent: usize) -> String {
    // Keep at least a few columns for words, however deep the indentation.
    let indent = " ".repeat(indent.min(width.saturating_sub(8)));
    let options = textwrap::Options::new(width.max(1))
        .subsequent_indent(&indent)
        .break_words(false)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
    textwrap::wrap(line, options).join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(width: u16) -> Style {
        Style {
            width: Some(width),
            ..Style::PLAIN
        }
    }

    #[test]
    fn list_items_hang_under_their_text_and_nothing_is_cut_without_a_width() {
        assert_eq!(hanging_indent("  3. restart"), 5);
        assert_eq!(hanging_indent("       node 1 (broker): why"), 9);
        assert_eq!(hanging_indent("- an item"), 2);
        assert_eq!(hanging_indent("Plan: 2 batches"), 2);
        let text =
            "  12. BLOCKED (node(s) 1,2): the partition t-0 would lose its last in-sync replica\n";
        let fitted = fit_prose(text, at(40));
        for l in fitted.lines() {
            assert!(l.chars().count() <= 40, "{l:?} in\n{fitted}");
        }
        let continued: Vec<&str> = fitted.lines().skip(1).collect();
        assert!(!continued.is_empty(), "{fitted}");
        assert!(
            continued
                .iter()
                .all(|l| l.starts_with(&" ".repeat(6)) && !l.starts_with(&" ".repeat(7))),
            "hangs under the text after `12. `:\n{fitted}"
        );
        assert_eq!(fit_prose(text, Style::PLAIN), text, "piped: as is");
        let wide = Style {
            wide: true,
            ..at(40)
        };
        assert_eq!(fit_prose(text, wide), text, "-o wide: as is");
        // A word longer than the line is not cut (a command or a URL stays copyable).
        let url = "see https://example.invalid/a/very/long/path/that/does/not/fit";
        let fitted = fit_prose(url, at(40));
        assert!(
            fitted
                .lines()
                .any(|l| l.trim() == "https://example.invalid/a/very/long/path/that/does/not/fit"),
            "{fitted}"
        );
        // Table rows are left alone.
        let row = "| a | b |\n";
        assert_eq!(fit_prose(row, at(4)), row);
    }
}
