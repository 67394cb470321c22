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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints_the_value() {
        let s = Secret::new("hunter2");
        assert!(!format!("{s:?} {s}").contains("hunter2"));
        assert!(!serde_json::to_string(&s).unwrap().contains("hunter2"));
        assert_eq!(s.expose(), "hunter2");
    }
}
