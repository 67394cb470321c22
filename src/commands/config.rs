//! `kafkaops config view`: the resolved settings and where each came from.
//!
//! Operators debugging "why does it talk to the wrong cluster" need the origin of
//! every value; secrets are shown only as a mask.

use serde::Serialize;

use super::Ctx;
use crate::error::{CliError, ExitCode};
use crate::secret::Secret;
use crate::settings::Source;

#[derive(Debug, Serialize)]
struct Row {
    setting: String,
    value: String,
    source: Source,
}

pub fn view(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let s = &ctx.settings;
    let mut rows = Vec::new();
    let mut push = |setting: &str, value: String, source: Source| {
        rows.push(Row {
            setting: setting.to_string(),
            value,
            source,
        });
    };
    if let Some(f) = &s.config_file {
        push("config-file", f.value.display().to_string(), f.source);
    }
    if let Some(c) = &s.context {
        push("context", c.value.clone(), c.source);
    }
    if let Some(b) = &s.kafka.bootstrap_servers {
        push("bootstrap-servers", b.value.clone(), b.source);
    }
    for (k, v) in &s.kafka.properties {
        push(&format!("kafka.{k}"), v.value.clone(), v.source);
    }
    for (k, v) in &s.kafka.secrets {
        push(&format!("kafka.{k}"), v.value.to_string(), v.source);
    }
    let missing = |setting: &str| {
        s.missing_secrets
            .iter()
            .find(|m| m.setting == setting)
            .map(|m| format!("<missing: ${} is not set>", m.env))
    };
    if let Some(v) = missing("kafka.sasl.password") {
        push("kafka.sasl.password", v, Source::Environment);
    }
    let cc = &s.cruise_control;
    if let Some(u) = &cc.url {
        push("cruise-control.url", u.value.clone(), u.source);
    }
    if let Some(u) = &cc.username {
        push("cruise-control.username", u.value.clone(), u.source);
    }
    if let Some(p) = &cc.password {
        push(
            "cruise-control.password",
            Secret::MASK.to_string(),
            p.source,
        );
    } else if let Some(v) = missing("cruise-control.password") {
        push("cruise-control.password", v, Source::Environment);
    }
    if let Some(c) = &cc.ca_file {
        push(
            "cruise-control.ca-file",
            c.value.display().to_string(),
            c.source,
        );
    }
    push(
        "cruise-control.timeout",
        humantime::format_duration(cc.timeout.value).to_string(),
        cc.timeout.source,
    );
    ctx.printer.emit(&rows, |rows| {
        let mut t = ctx.printer.table();
        t.set_header(["SETTING", "VALUE", "SOURCE"]);
        for r in rows {
            t.add_row([r.setting.clone(), r.value.clone(), r.source.to_string()]);
        }
        format!("{}\n", ctx.printer.fit(t))
    })?;
    for m in &s.missing_secrets {
        ctx.printer.note(format!(
            "Warning: {} is read from ${}, which is not set: commands that connect fail until it is",
            m.setting, m.env
        ));
    }
    Ok(ExitCode::Ok)
}
