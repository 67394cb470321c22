//! A string that never prints itself.
//!
//! Credentials pass through settings, clients and error messages; wrapping them
//! makes leaking one through `Debug`, `Display` or serde a compile-time choice
//! (`expose()`) rather than an accident.

use std::fmt;

#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub const MASK: &'static str = "********";

    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The real value, for the one place that must send it.
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::MASK)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::MASK)
    }
}

impl serde::Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(Self::MASK)
    }
}

/// Words that mark a key, flag or header as secret: its value never shows.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "credential",
    "jaas",
    "authorization",
    "api-key",
    "api_key",
    "apikey",
];

/// Whether a key, flag or header name (`sasl.password`, `--cruise-control-password`,
/// `Authorization`) names a secret.
#[must_use]
pub fn is_secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    SECRET_WORDS.iter().any(|w| lower.contains(w))
}

/// `text` with every secret masked, for records that outlive the process (journals, bundles):
/// each value in `known` (the resolved secrets of this run), the password of any URL's
/// `user:password@`, the value after a secret-named key (`password=..`, `"sasl.password": ".."`,
/// `password="..."` in a JAAS line) and the credentials after `Basic` or `Bearer`.
#[must_use]
pub fn redact(text: &str, known: &[String]) -> String {
    let mut out = text.to_string();
    for k in known.iter().filter(|k| !k.is_empty()) {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), Secret::MASK);
        }
    }
    let out = redact_userinfo(&out);
    let out = redact_auth_schemes(&out);
    redact_assignments(&out)
}

/// Every `scheme://user:password@` with the password masked.
fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        let (head, tail) = rest.split_at(i + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c == '/' || c == '?' || c == '#' || c.is_whitespace() || c == '"')
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(at) => {
                let user = authority[..at].split(':').next().unwrap_or("");
                out.push_str(user);
                if authority[..at].contains(':') {
                    out.push(':');
                    out.push_str(Secret::MASK);
                }
                out.push_str(&authority[at..]);
            }
            None => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The credentials after `Basic ` and `Bearer ` (an `Authorization` header in any form).
fn redact_auth_schemes(text: &str) -> String {
    let mut out = text.to_string();
    for scheme in ["Basic ", "basic ", "Bearer ", "bearer "] {
        let mut from = 0;
        while let Some(i) = out[from..].find(scheme) {
            let start = from + i + scheme.len();
            let end = out[start..]
                .find(|c: char| c.is_whitespace() || c == '"' || c == ',' || c == '\\')
                .map_or(out.len(), |e| start + e);
            if end > start && &out[start..end] != Secret::MASK {
                out.replace_range(start..end, Secret::MASK);
            }
            from = start + Secret::MASK.len().min(out.len() - start);
        }
    }
    out
}

/// The value after a secret-named key: `key=value`, `key: value`, `key="value"`,
/// `"key": "value"` (JSON, also escaped inside a JSON string).
fn redact_assignments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c != b'=' && c != b':' {
            i += 1;
            continue;
        }
        // The key before the separator (skipping a closing quote).
        let mut k_end = i;
        while k_end > 0 && matches!(bytes[k_end - 1], b'"' | b'\\' | b'\'' | b' ') {
            k_end -= 1;
        }
        let mut k_start = k_end;
        while k_start > 0
            && (bytes[k_start - 1].is_ascii_alphanumeric()
                || matches!(bytes[k_start - 1], b'.' | b'_' | b'-'))
        {
            k_start -= 1;
        }
        let key = &text[k_start..k_end];
        if key.is_empty() || !is_secret_name(key) || (c == b':' && text[i..].starts_with("://")) {
            i += 1;
            continue;
        }
        // The value after it: optional spaces, an optional quote (maybe escaped), then up to
        // the matching quote or, unquoted, the next space, comma, semicolon or brace.
        let mut v = i + 1;
        while v < bytes.len() && bytes[v] == b' ' {
            v += 1;
        }
        let mut quote: Option<u8> = None;
        if v + 1 < bytes.len() && bytes[v] == b'\\' && matches!(bytes[v + 1], b'"' | b'\'') {
            quote = Some(bytes[v + 1]);
            v += 2;
        } else if v < bytes.len() && matches!(bytes[v], b'"' | b'\'') {
            quote = Some(bytes[v]);
            v += 1;
        }
        let mut end = v;
        while end < bytes.len() {
            let b = bytes[end];
            let stop = match quote {
                Some(q) => b == q || b == b'\\',
                None => b.is_ascii_whitespace() || matches!(b, b',' | b';' | b'}' | b'&' | b'"'),
            };
            if stop {
                break;
            }
            end += 1;
        }
        let value = &text[v..end];
        // `Authorization: Basic ...`: the scheme stays, its credentials are masked above.
        let scheme = value.eq_ignore_ascii_case("basic") || value.eq_ignore_ascii_case("bearer");
        if end > v && value != Secret::MASK && !scheme {
            out.push_str(&text[copied..v]);
            out.push_str(Secret::MASK);
            copied = end;
        }
        i = end.max(i + 1);
    }
    out.push_str(&text[copied..]);
    out
}

/// A command line with the values of secret-named flags masked (`--sasl-password X`,
/// `--x-token=X`, `-X sasl.password=X`) and [`redact`] applied to every word.
#[must_use]
pub fn redact_args(args: &[String], known: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut mask_next = false;
    for a in args {
        if mask_next {
            out.push(Secret::MASK.to_string());
            mask_next = false;
            continue;
        }
        if let Some(flag) = a.strip_prefix("--")
            && is_secret_name(flag.split('=').next().unwrap_or(""))
        {
            match flag.split_once('=') {
                Some((name, _)) => out.push(format!("--{name}={}", Secret::MASK)),
                None => {
                    out.push(a.clone());
                    mask_next = true;
                }
            }
            continue;
        }
        out.push(redact(a, known));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PW: &str = "Hunter2-Pw";

    fn clean(text: &str) -> String {
        let out = redact(text, &[]);
        assert!(!out.contains(PW), "{text:?} -> {out:?}");
        out
    }

    #[test]
    fn redacts_known_values_anywhere() {
        let out = redact(&format!("the key is {PW}!"), &[PW.to_string()]);
        assert_eq!(out, "the key is ********!");
        // An empty known value masks nothing.
        assert_eq!(redact("abc", &[String::new()]), "abc");
    }

    #[test]
    fn redacts_url_userinfo_and_keeps_the_rest() {
        let out = clean(&format!(
            "GET https://ops:{PW}@cc.example:9090/kafkacruisecontrol/state?json=true"
        ));
        assert_eq!(
            out,
            "GET https://ops:********@cc.example:9090/kafkacruisecontrol/state?json=true"
        );
        assert_eq!(clean("http://cc:9090/x"), "http://cc:9090/x");
        assert_eq!(clean("see http://user@h/x"), "see http://user@h/x");
    }

    #[test]
    fn redacts_secret_keys_in_every_form() {
        assert_eq!(
            clean(&format!("sasl.password={PW}")),
            "sasl.password=********"
        );
        assert_eq!(
            clean(&format!("ssl.key.password = {PW} next")),
            "ssl.key.password = ******** next"
        );
        assert_eq!(
            clean(&format!("{{\"sasl.password\": \"{PW}\"}}")),
            "{\"sasl.password\": \"********\"}"
        );
        assert_eq!(
            clean(&format!(
                "ScramLoginModule required username=\"u\" password=\"{PW}\";"
            )),
            "ScramLoginModule required username=\"u\" password=\"********\";"
        );
        // Escaped inside a JSON string (a journal line that quotes a config).
        let escaped = serde_json::to_string(&format!("password=\"{PW}\"")).unwrap();
        clean(&escaped);
        clean(&format!("ssl.keystore.password: '{PW}'"));
        clean(&format!("token={PW}&x=1"));
        // Keys that are not secret keep their values.
        assert_eq!(
            clean("bootstrap.servers=a:9092"),
            "bootstrap.servers=a:9092"
        );
        assert_eq!(clean("username=ops"), "username=ops");
    }

    #[test]
    fn redacts_authorization_headers() {
        assert_eq!(
            clean(&format!("authorization: Basic {PW}")),
            "authorization: Basic ********"
        );
        assert_eq!(
            clean(&format!("Bearer {PW}, more")),
            "Bearer ********, more"
        );
    }

    #[test]
    fn redacts_secret_flags_of_a_command_line() {
        let args: Vec<String> = [
            "kafkaops",
            "--cruise-control-password",
            PW,
            "--api-token=x1",
            "-X",
            &format!("sasl.password={PW}"),
            "roll",
            "--all",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        let out = redact_args(&args, &[]);
        assert!(!out.join(" ").contains(PW), "{out:?}");
        assert!(!out.join(" ").contains("x1"), "{out:?}");
        assert_eq!(out[0], "kafkaops");
        assert_eq!(out[3], "--api-token=********");
        assert_eq!(&out[6..], ["roll", "--all"]);
    }

    #[test]
    fn redaction_is_idempotent() {
        let once = redact(&format!("password={PW} http://a:{PW}@h"), &[]);
        assert_eq!(redact(&once, &[]), once);
    }

    #[test]
    fn never_prints_the_value() {
        let s = Secret::new("hunter2");
        assert!(!format!("{s:?} {s}").contains("hunter2"));
        assert!(!serde_json::to_string(&s).unwrap().contains("hunter2"));
        assert_eq!(s.expose(), "hunter2");
    }
}
