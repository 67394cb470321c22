//! Tolerance for the JSON Cruise Control actually writes.
//!
//! Cruise Control serialises `OptimizationResult` and `ProgressResult` with Gson's
//! `serializeSpecialFloatingPointValues()`, so bare `NaN`, `Infinity` and `-Infinity`
//! tokens appear where numbers belong; serde_json rejects them. Numbers also arrive
//! as strings (`StartMs`), fields come and go between versions (`provisionStatus`),
//! and a `TopicPartition` is a Gson object rather than the documented string. The
//! helpers here absorb all of that in one place so the typed model stays simple.

use serde::{Deserialize, Deserializer, Serialize};

/// Replaces bare `NaN` / `Infinity` / `-Infinity` tokens outside strings with `null`.
#[must_use]
pub fn sanitize_special_floats(input: &str) -> std::borrow::Cow<'_, str> {
    if !input.contains("NaN") && !input.contains("Infinity") {
        return std::borrow::Cow::Borrowed(input);
    }
    let bytes = input.as_bytes();
    let mut out = String::with_capacity(input.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else {
            let rest = &input[i..];
            let token = ["-Infinity", "Infinity", "NaN"]
                .into_iter()
                .find(|t| rest.starts_with(t));
            if let Some(t) = token {
                out.push_str("null");
                i += t.len();
                continue;
            }
        }
        // Copy whole UTF-8 characters; only ASCII bytes are inspected above.
        let ch_len = utf8_len(c);
        out.push_str(&input[i..i + ch_len]);
        i += ch_len;
    }
    std::borrow::Cow::Owned(out)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Parses Cruise Control JSON, tolerating special floats.
pub fn from_str<T: serde::de::DeserializeOwned>(input: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(&sanitize_special_floats(input))
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NumOrString {
    Num(serde_json::Number),
    Str(String),
    Other(serde::de::IgnoredAny),
}

/// An optional float that may be a number, a numeric string, `null` (a sanitised `NaN`) or absent.
pub fn opt_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Option::<NumOrString>::deserialize(d)? {
        Some(NumOrString::Num(n)) => n.as_f64(),
        Some(NumOrString::Str(s)) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        Some(NumOrString::Other(_)) | None => None,
    })
}

/// An optional integer that may be a number (even `12.0`), a numeric string, `null` or absent.
pub fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(match Option::<NumOrString>::deserialize(d)? {
        Some(NumOrString::Num(n)) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f as i64)),
        Some(NumOrString::Str(s)) => s.trim().parse::<i64>().ok(),
        Some(NumOrString::Other(_)) | None => None,
    })
}

/// A count that defaults to 0 when missing or unreadable.
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(opt_i64(d)?.map_or(0, |v| u64::try_from(v).unwrap_or(0)))
}

/// A list that may be `null`.
pub fn vec_or_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// A Kafka topic partition: Gson writes `{"hash":..,"partition":26,"topic":"t"}`, the
/// OpenAPI spec says `"t-26"`; both are accepted.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: i32,
}

impl std::fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

impl<'de> Deserialize<'de> for TopicPartition {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Obj {
            topic: String,
            partition: i32,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Obj(Obj),
            Str(String),
        }
        match Raw::deserialize(d)? {
            Raw::Obj(o) => Ok(TopicPartition {
                topic: o.topic,
                partition: o.partition,
            }),
            Raw::Str(s) => {
                let (topic, part) = s.rsplit_once('-').ok_or_else(|| {
                    serde::de::Error::custom(format!("topic partition {s:?} has no '-<n>'"))
                })?;
                let partition = part.parse().map_err(|_| {
                    serde::de::Error::custom(format!("topic partition {s:?}: bad partition"))
                })?;
                Ok(TopicPartition {
                    topic: topic.to_string(),
                    partition,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_floats_become_null_outside_strings_only() {
        let s = r#"{"a":NaN,"b":-Infinity,"c":[Infinity,1.5],"d":"NaN and \"Infinity\"","é":NaN}"#;
        let v: serde_json::Value = from_str(s).unwrap();
        assert!(v["a"].is_null() && v["b"].is_null() && v["c"][0].is_null());
        assert_eq!(v["c"][1], 1.5);
        assert_eq!(v["d"], "NaN and \"Infinity\"");
        assert!(v["é"].is_null());
    }

    #[test]
    fn numbers_as_strings_and_nulls() {
        #[derive(Deserialize)]
        struct T {
            #[serde(default, deserialize_with = "opt_i64")]
            a: Option<i64>,
            #[serde(default, deserialize_with = "opt_f64")]
            b: Option<f64>,
            #[serde(default, deserialize_with = "opt_i64")]
            missing: Option<i64>,
            #[serde(default, deserialize_with = "count")]
            n: u64,
        }
        let t: T = from_str(r#"{"a":"1579874383374","b":NaN,"n":3.0}"#).unwrap();
        assert_eq!(t.a, Some(1_579_874_383_374));
        assert_eq!(t.b, None);
        assert_eq!(t.missing, None);
        assert_eq!(t.n, 3);
    }

    #[test]
    fn topic_partition_object_or_string() {
        let o: TopicPartition =
            serde_json::from_str(r#"{"hash":-1535008712,"partition":26,"topic":"my-topic"}"#)
                .unwrap();
        let s: TopicPartition = serde_json::from_str(r#""my-topic-26""#).unwrap();
        assert_eq!(o, s);
        assert_eq!(o.to_string(), "my-topic-26");
        assert!(serde_json::from_str::<TopicPartition>(r#""nodash""#).is_err());
    }
}
