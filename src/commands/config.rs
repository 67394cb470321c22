//! `kafkaops config view`: the resolved settings and where each came from; `config
//! get-contexts` and `config use-context NAME`: the config file's contexts, as kubectl names them.
//!
//! Operators debugging "why does it talk to the wrong cluster" need the origin of
//! every value; secrets are shown only as a mask (a context's listing shows no secret at all).

use serde::Serialize;

use super::Ctx;
use crate::error::{CliError, ExitCode};
use crate::secret::Secret;
use crate::settings::Source;

#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct Row {
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

/// One context of the config file, as `config get-contexts` lists it.
#[derive(schemars::JsonSchema, Debug, Serialize)]
pub(crate) struct ContextRow {
    name: String,
    current: bool,
    bootstrap_servers: Option<String>,
    cruise_control_url: Option<String>,
}

/// The config file commands read and write (`None`: there is none).
fn config_path(ctx: &Ctx) -> Option<std::path::PathBuf> {
    ctx.settings.config_file.as_ref().map(|f| f.value.clone())
}

/// `config get-contexts`.
pub fn get_contexts(ctx: &Ctx) -> Result<ExitCode, CliError> {
    let Some(path) = config_path(ctx) else {
        ctx.printer.note(format!(
            "No config file: pass --config FILE, set KAFKAOPS_CONFIG, or create {}",
            crate::settings::default_config_path().map_or_else(
                || "~/.config/kafkaops/config.yaml".to_string(),
                |p| p.display().to_string()
            )
        ));
        ctx.printer
            .emit(&Vec::<ContextRow>::new(), |_| String::new())?;
        return Ok(ExitCode::Ok);
    };
    let file = crate::settings::read_config(&path)?;
    let current = ctx
        .settings
        .context
        .as_ref()
        .map(|c| c.value.clone())
        .or(file.current_context.clone());
    let rows: Vec<ContextRow> = file
        .contexts
        .iter()
        .map(|c| ContextRow {
            name: c.name.clone(),
            current: current.as_deref() == Some(c.name.as_str()),
            bootstrap_servers: c.bootstrap_servers.clone(),
            cruise_control_url: c.cruise_control.as_ref().and_then(|cc| cc.url.clone()),
        })
        .collect();
    ctx.printer.emit(&rows, |rows| {
        let mut t = crate::output::Grid::new(
            ctx.printer.style(),
            ["CURRENT", "NAME", "BOOTSTRAP-SERVERS", "CRUISE-CONTROL"],
        )
        .low_value(&[3]);
        for r in rows {
            t.row([
                if r.current { "*" } else { "" }.to_string(),
                r.name.clone(),
                r.bootstrap_servers.clone().unwrap_or_default(),
                r.cruise_control_url.clone().unwrap_or_default(),
            ]);
        }
        format!("{}\n", t.render())
    })?;
    Ok(ExitCode::Ok)
}

/// `config use-context NAME`.
pub fn use_context(ctx: &Ctx, name: &str) -> Result<ExitCode, CliError> {
    let Some(path) = config_path(ctx) else {
        return Err(crate::settings::SettingsError::NoConfigFile {
            name: name.to_string(),
            looked_at: crate::settings::default_config_path().map_or_else(
                || "~/.config/kafkaops/config.yaml".to_string(),
                |p| p.display().to_string(),
            ),
        }
        .into());
    };
    crate::settings::set_current_context(&path, name)?;
    ctx.printer.note(format!(
        "Switched to context {name:?} ({}).",
        path.display()
    ));
    Ok(ExitCode::Ok)
}
