//! Tables that fit the terminal, as kubectl's do: one layout with or without colour, and at the
//! terminal's width a table first shortens its ids, then drops its low-value columns (in the order
//! each table names them), then wraps cells, so no line is wider than the terminal and no border breaks.
//! `-o wide` shows every column unshortened. Status words are coloured when colour is on
//! (`--color always`, or a terminal without `NO_COLOR`); `NO_COLOR` changes nothing else.

use comfy_table::{Cell, Color, ColumnConstraint, ContentArrangement, Table, presets};

/// How tables are drawn: colour, the width to fit (`None`: not a terminal, nothing to fit) and
/// `-o wide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    pub color: bool,
    pub width: Option<u16>,
    pub wide: bool,
}

impl Style {
    /// No colour, no width to fit: what snapshots of the layout see.
    pub const PLAIN: Style = Style {
        color: false,
        width: None,
        wide: false,
    };
}

/// The width to fit tables to: `COLUMNS` when set (as `ls` and kubectl honour it), else the
/// terminal's when stdout is one, else none (piped output is not cut).
#[must_use]
pub fn terminal_width() -> Option<u16> {
    if let Some(w) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|w| *w > 0)
    {
        return Some(w);
    }
    Table::new().width()
}

/// A table with the one layout (ASCII, Markdown-like, the same with and without colour).
#[must_use]
pub fn new_table(style: Style) -> Table {
    let mut t = Table::new();
    t.load_style(presets::ASCII_MARKDOWN);
    t.set_content_arrangement(ContentArrangement::Disabled);
    t.force_no_tty();
    if style.color {
        t.enforce_styling();
    }
    t
}

/// The colour a status word gets (`None`: none), whatever table it is in.
#[must_use]
pub fn status_color(word: &str) -> Option<Color> {
    let w = word.trim().to_ascii_lowercase();
    let first = w.split([' ', ':', '(']).next().unwrap_or_default();
    match first {
        "violated" | "failed" | "failure" | "error" | "unavailable" | "stopped" | "aborted"
        | "dead" | "refused" | "unfixable" | "expired" => Some(Color::Red),
        "done" | "completed" | "fixed" | "healthy" | "ok" | "succeeded" | "active" | "in-use"
        | "in_use" | "ready" | "yes" => Some(Color::Green),
        "pending" | "running" | "ongoing" | "in_execution" | "in-progress" | "degraded"
        | "warning" | "stopping" | "fix_started" | "detected" | "checking" | "unknown" => {
            Some(Color::Yellow)
        }
        _ => None,
    }
}

/// `text` in `color` (ANSI, reset after it) when `on`, else as is.
#[must_use]
pub fn paint(text: &str, color: Color, on: bool) -> String {
    if !on {
        return text.to_string();
    }
    let code = match color {
        Color::Red | Color::DarkRed => "31",
        Color::Green | Color::DarkGreen => "32",
        Color::Yellow | Color::DarkYellow => "33",
        _ => "1",
    };
    format!("\u{1b}[{code}m{text}\u{1b}[0m")
}

/// A line for stderr with its leading `error:` in red or `Warning:`/`warning:` in yellow when
/// colour is on.
#[must_use]
pub fn paint_line(line: &str, on: bool) -> String {
    for (prefix, color) in [
        ("error:", Color::Red),
        ("Warning:", Color::Yellow),
        ("warning:", Color::Yellow),
    ] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return format!("{}{rest}", paint(prefix, color, on));
        }
    }
    line.to_string()
}

/// `5a4b2c1d-0000-…` -> `5a4b2c1d`: the first group of a UUID (the rest of an id that is not one
/// is kept).
#[must_use]
pub fn short_id(id: &str) -> String {
    match id.split_once('-') {
        Some((head, _)) if head.len() >= 6 && id.len() >= 32 => head.to_string(),
        _ => id.to_string(),
    }
}

/// The width a line takes on a terminal (ANSI colour sequences take none).
#[must_use]
pub fn display_width(line: &str) -> usize {
    let mut n = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ ... final byte in @..~
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) && c != '[' {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// Words of `text` on lines of at most `width` columns, continuation lines indented by
/// `indent` (a word longer than a line stays whole on its own line; nothing to fit: as is).
#[must_use]
pub fn wrap(text: &str, width: Option<u16>, indent: usize) -> String {
    let Some(width) = width.map(usize::from) else {
        return text.to_string();
    };
    text.split('\n')
        .map(|line| super::prose::wrap_line(line, width, indent))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `bytes` for people, in SI units as Kafka's rates are set (`512 B`, `42 MB`, `1.2 GB`).
#[must_use]
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    if !bytes.is_finite() || bytes < 0.0 {
        return "-".into();
    }
    let mut v = bytes;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 || v >= 100.0 || (v - v.round()).abs() < 0.05 {
        format!("{v:.0} {}", UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Megabytes (Cruise Control's unit) for people ([`human_bytes`]).
#[must_use]
pub fn human_mb(mb: f64) -> String {
    human_bytes(mb * 1e6)
}

/// A rate in bytes per second for people (`50 MB/s`).
#[must_use]
pub fn human_rate(bytes_per_second: f64) -> String {
    format!("{}/s", human_bytes(bytes_per_second))
}

/// Text around tables, fitted: every line that is not a table row (`|`) is wrapped to the
/// width, continuation lines indented by two spaces (`-o wide` and piped output: as is).
#[must_use]
pub fn wrap_prose(text: &str, style: Style) -> String {
    let width = style.width.filter(|_| !style.wide);
    if width.is_none() {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.starts_with('|') {
            out.push_str(body);
        } else {
            out.push_str(&wrap(body, width, 2));
        }
        out.push_str(nl);
    }
    out
}

/// A table that fits: its header, rows, which columns hold ids and which are of low value.
#[derive(Debug, Clone)]
pub struct Grid {
    style: Style,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    ids: Vec<usize>,
    low_value: Vec<usize>,
}

impl Grid {
    #[must_use]
    pub fn new<S: Into<String>>(style: Style, header: impl IntoIterator<Item = S>) -> Self {
        Grid {
            style,
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
            ids: Vec::new(),
            low_value: Vec::new(),
        }
    }

    /// Columns holding ids, shortened ([`short_id`]) when the table is too wide.
    #[must_use]
    pub fn ids(mut self, cols: &[usize]) -> Self {
        self.ids = cols.to_vec();
        self
    }

    /// Columns dropped, in this order, when the table is still too wide (`-o wide` keeps them).
    #[must_use]
    pub fn low_value(mut self, cols: &[usize]) -> Self {
        self.low_value = cols.to_vec();
        self
    }

    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    fn table(&self, short: bool) -> Table {
        let mut t = new_table(self.style);
        t.set_header(self.header.clone());
        for r in &self.rows {
            t.add_row(r.iter().enumerate().map(|(i, c)| {
                let text = if short && self.ids.contains(&i) {
                    short_id(c)
                } else {
                    c.clone()
                };
                let cell = Cell::new(text);
                match status_color(c).filter(|_| self.style.color) {
                    Some(color) => cell.fg(color),
                    None => cell,
                }
            }));
        }
        t
    }

    /// The table as text, fitted to the width ([`fit`]).
    #[must_use]
    pub fn render(&self) -> String {
        let Some(width) = self.style.width.filter(|_| !self.style.wide) else {
            return self.table(false).to_string();
        };
        let t = self.table(false);
        if fits(&t, width) {
            return t.to_string();
        }
        let t = self.table(true);
        fit(t, self.style, &self.low_value)
    }
}

/// Whether every line of `t` is at most `width` columns.
fn fits(t: &Table, width: u16) -> bool {
    t.lines().all(|l| display_width(&l) <= usize::from(width))
}

/// `t` as text within the style's width: as is when it fits (or `-o wide`, or no width),
/// else without its `low_value` columns one by one, else with its cells wrapped.
#[must_use]
pub fn fit(mut t: Table, style: Style, low_value: &[usize]) -> String {
    let Some(width) = style.width.filter(|_| !style.wide) else {
        return t.to_string();
    };
    if fits(&t, width) {
        return t.to_string();
    }
    for &c in low_value {
        if let Some(col) = t.column_mut(c) {
            col.set_constraint(ColumnConstraint::Hidden);
        }
        if fits(&t, width) {
            return t.to_string();
        }
    }
    t.set_content_arrangement(ContentArrangement::Dynamic);
    t.set_width(width);
    t.to_string()
}

/// Tests: the style of a terminal `width` columns wide, no colour.
#[cfg(test)]
#[must_use]
pub fn at(width: u16) -> Style {
    Style {
        color: false,
        width: Some(width),
        wide: false,
    }
}

#[cfg(test)]
/// Tests: every line within `width` columns, and every table line a whole row (`|` at both ends).
pub fn assert_fits(text: &str, width: u16) {
    for line in text.lines() {
        assert!(
            display_width(line) <= usize::from(width),
            "{} columns > {width}: {line:?}\n{text}",
            display_width(line)
        );
        if line.starts_with('|') {
            assert!(line.ends_with('|'), "a broken border: {line:?}\n{text}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(style: Style) -> Grid {
        let mut g = Grid::new(style, ["id", "status", "kind", "request", "reason"])
            .ids(&[0])
            .low_value(&[3]);
        g.row([
            "5a4b2c1d-0000-4000-8000-00000000e0e0",
            "COMPLETED",
            "user",
            "POST /kafkacruisecontrol/add_broker?brokerid=4&dryrun=false&json=true",
            "kafkaops: add brokers 4 after the scale-up of the node pool brokers",
        ]);
        g
    }

    #[test]
    fn a_table_fits_80_columns_and_wide_shows_everything() {
        let at = |width, wide| {
            grid(Style {
                color: false,
                width: Some(width),
                wide,
            })
            .render()
        };
        let narrow = at(80, false);
        assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
        assert!(narrow.contains("5a4b2c1d"), "{narrow}");
        assert!(!narrow.contains("5a4b2c1d-0000"), "{narrow}");
        assert!(
            !narrow.contains("request"),
            "low-value column dropped: {narrow}"
        );
        let wide = at(80, true);
        assert!(
            wide.contains("5a4b2c1d-0000-4000-8000-00000000e0e0"),
            "{wide}"
        );
        assert!(wide.contains("add_broker?brokerid=4"), "{wide}");
        // Wide enough: nothing shortened nor dropped.
        let roomy = at(230, false);
        assert_eq!(roomy, wide);
        // Too narrow even without it: cells wrap, the borders stay whole.
        let tiny = at(40, false);
        assert!(tiny.lines().all(|l| l.chars().count() <= 40), "{tiny}");
        assert!(
            tiny.lines().all(|l| l.starts_with('|') && l.ends_with('|')),
            "{tiny}"
        );
    }

    #[test]
    fn colour_changes_colour_only() {
        let plain = grid(Style::PLAIN).render();
        let coloured = grid(Style {
            color: true,
            ..Style::PLAIN
        })
        .render();
        assert!(!plain.contains('\u{1b}'));
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        let stripped: Vec<usize> = coloured.lines().map(display_width).collect();
        let widths: Vec<usize> = plain.lines().map(display_width).collect();
        assert_eq!(stripped, widths, "the same layout:\n{plain}\n{coloured}");
    }

    #[test]
    fn wrapping_keeps_words_and_width() {
        let s = wrap(
            "Concurrency caps: averageConcurrentPartitionMovementsPerBroker=5, maximum=5",
            Some(40),
            2,
        );
        // A word longer than the line stays whole, on a line of its own.
        assert!(
            s.lines()
                .all(|l| l.chars().count() <= 40 || !l.trim_start().contains(' ')),
            "{s}"
        );
        assert_eq!(wrap("a b", None, 0), "a b");
        assert_eq!(short_id("not-a-uuid"), "not-a-uuid");
        assert_eq!(human_bytes(512.0), "512 B");
        assert_eq!(human_mb(42.0), "42 MB");
        assert_eq!(human_mb(1234.0), "1.2 GB");
        assert_eq!(human_rate(50e6), "50 MB/s");
        let prose = wrap_prose(
            "Concurrency caps: a=5, b=5, c=5, d=5\n| x | y |\n",
            Style {
                width: Some(20),
                ..Style::PLAIN
            },
        );
        assert_eq!(
            prose,
            "Concurrency caps:\n  a=5, b=5, c=5, d=5\n| x | y |\n"
        );
    }
}
