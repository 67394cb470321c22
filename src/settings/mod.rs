//! Connection settings, resolved in one place.
//!
//! Precedence, lowest first: built-in defaults < config file context <
//! `KAFKAOPS_*` environment variables < command-line flags. Every resolved value
//! remembers where it came from so `kafkaops config view` can explain it, and
//! secrets are held as [`Secret`] so no printer can leak them.
//!
//! The config file is YAML with named contexts, like a kubeconfig:
//!
//! ```yaml
//! current-context: local
//! contexts:
//!   - name: local
//!     bootstrap-servers: 127.0.0.1:9092
//!     kafka-properties:            # librdkafka properties
//!       security.protocol: SASL_SSL
//!       sasl.mechanism: SCRAM-SHA-512
//!       sasl.username: ops
//!     kafka-password-file: /run/secrets/kafka   # becomes sasl.password
//!     cruise-control:
//!       url: https://cc.example:9090
//!       username: admin
//!       password-env: CC_PASSWORD               # or password-file
//!       ca-file: /etc/kafkaops/ca.pem
//!       timeout: 30s
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::secret::Secret;

/// Where a resolved value came from.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Default,
    ConfigFile,
    Environment,
    Flag,
    /// Discovered from Kubernetes resources (`--strimzi CLUSTER`).
    Kubernetes,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Source::Default => "default",
            Source::ConfigFile => "config file",
            Source::Environment => "environment",
            Source::Flag => "flag",
            Source::Kubernetes => "kubernetes",
        })
    }
}

/// A value with its origin.
#[derive(Debug, Clone, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Sourced<T> {
    pub fn new(value: T, source: Source) -> Self {
        Self { value, source }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    // `reason`, not `source`: the OS error is said once (a `source` would be printed again
    // by the error chain).
    #[error("cannot read config file {path}: {reason}")]
    ReadConfig {
        path: PathBuf,
        reason: std::io::Error,
    },
    #[error("config file {path} is not valid: {message}")]
    ParseConfig { path: PathBuf, message: String },
    #[error("context {name:?} is not in {path} (known: {known})")]
    UnknownContext {
        name: String,
        path: String,
        known: String,
    },
    #[error(
        "context {name:?} was asked for, but there is no config file ({looked_at} does not exist); pass --config FILE or set KAFKAOPS_CONFIG"
    )]
    NoConfigFile { name: String, looked_at: String },
    #[error("cannot write config file {path}: {reason}")]
    WriteConfig {
        path: PathBuf,
        reason: std::io::Error,
    },
    #[error("cannot read secret file {path}: {reason}")]
    ReadSecret {
        path: PathBuf,
        reason: std::io::Error,
    },
    #[error("environment variable {name} (named by the config file) is not set")]
    MissingSecretEnv { name: String },
    #[error("invalid {what} {value:?}: {message}")]
    Invalid {
        what: &'static str,
        value: String,
        message: String,
    },
    #[error("no {what} configured: pass {flag} or set {env}, or add it to a config file context")]
    Missing {
        what: &'static str,
        flag: &'static str,
        env: &'static str,
    },
}

/// The config file's on-disk shape.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub current_context: Option<String>,
    #[serde(default)]
    pub contexts: Vec<ContextFile>,
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ContextFile {
    pub name: String,
    #[serde(default)]
    pub bootstrap_servers: Option<String>,
    #[serde(default)]
    pub kafka_properties: BTreeMap<String, String>,
    #[serde(default)]
    pub kafka_password_file: Option<PathBuf>,
    #[serde(default)]
    pub kafka_password_env: Option<String>,
    #[serde(default)]
    pub cruise_control: Option<CruiseControlFile>,
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CruiseControlFile {
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    #[serde(default)]
    pub password_env: Option<String>,
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    #[serde(default, with = "humantime_serde")]
    pub timeout: Option<Duration>,
}

/// Values as given on the command line or in the environment, each with its origin
/// (clap tells which); `None` where neither gave one.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub context: Option<Sourced<String>>,
    pub config: Option<Sourced<PathBuf>>,
    pub bootstrap_servers: Option<Sourced<String>>,
    pub kafka_properties: Vec<Sourced<(String, String)>>,
    pub cruise_control_url: Option<Sourced<String>>,
    pub cruise_control_user: Option<Sourced<String>>,
    pub cruise_control_password_file: Option<Sourced<PathBuf>>,
    pub cruise_control_ca_file: Option<Sourced<PathBuf>>,
    pub request_timeout: Option<Sourced<Duration>>,
}

/// The environment variable that may carry the Cruise Control password (never a flag:
/// command lines are visible to every user of the host).
pub const CC_PASSWORD_ENV: &str = "KAFKAOPS_CRUISE_CONTROL_PASSWORD";
/// Likewise for the Kafka SASL password.
pub const KAFKA_PASSWORD_ENV: &str = "KAFKAOPS_KAFKA_PASSWORD";

/// Resolved Cruise Control connection settings.
#[derive(Debug, Clone, Serialize)]
pub struct CruiseControlSettings {
    pub url: Option<Sourced<String>>,
    pub username: Option<Sourced<String>>,
    pub password: Option<Sourced<Secret>>,
    pub ca_file: Option<Sourced<PathBuf>>,
    pub timeout: Sourced<Duration>,
    /// Connect here instead of resolving the URL's host: the local end of a port-forward
    /// kafkaops opened (`--strimzi` outside the cluster). The URL keeps the Service's DNS name,
    /// which TLS verifies the certificate against.
    #[serde(skip)]
    pub connect_to: Option<std::net::SocketAddr>,
}

impl CruiseControlSettings {
    /// The URL, or a usage error naming every way to set it.
    pub fn require_url(&self) -> Result<url::Url, SettingsError> {
        let raw = self.url.as_ref().ok_or(SettingsError::Missing {
            what: "Cruise Control URL",
            flag: "--cruise-control-url",
            env: "KAFKAOPS_CRUISE_CONTROL_URL",
        })?;
        parse_cc_url(&raw.value)
    }
}

/// `raw` with any `user:password@` part of the authority replaced, for error messages:
/// a mistyped URL must not put a password on the screen or in a CI log.
#[must_use]
pub fn redact_userinfo(raw: &str) -> String {
    let (scheme, rest) = match raw.find("://") {
        Some(i) => raw.split_at(i + 3),
        None => ("", raw),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rfind('@') {
        Some(at) => format!("{scheme}***@{}{tail}", &authority[at + 1..]),
        None => raw.to_string(),
    }
}

/// Parses a Cruise Control URL; a bare `host:port` means `http://host:port`.
pub fn parse_cc_url(raw: &str) -> Result<url::Url, SettingsError> {
    let shown = redact_userinfo(raw);
    let invalid = |message: String| SettingsError::Invalid {
        what: "Cruise Control URL",
        value: shown.clone(),
        message,
    };
    let with_scheme = if raw.contains("://") {
        raw.to_string()
    } else {
        format!("http://{raw}")
    };
    let url = url::Url::parse(&with_scheme).map_err(|e| invalid(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("scheme must be http or https".into()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(
            "put credentials in the config file or KAFKAOPS_CRUISE_CONTROL_PASSWORD, not in the URL"
                .into(),
        ));
    }
    Ok(url)
}

/// Resolved Kafka connection settings.
#[derive(Debug, Clone, Serialize)]
pub struct KafkaSettings {
    pub bootstrap_servers: Option<Sourced<String>>,
    /// librdkafka properties; values of secret-looking keys are held masked in `secrets`.
    pub properties: BTreeMap<String, Sourced<String>>,
    pub secrets: BTreeMap<String, Sourced<Secret>>,
}

/// Everything a command needs to connect, plus where it came from.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub config_file: Option<Sourced<PathBuf>>,
    pub context: Option<Sourced<String>>,
    pub kafka: KafkaSettings,
    pub cruise_control: CruiseControlSettings,
    /// Secrets whose environment variable (named by the config file) is not set: every command
    /// but `config view` refuses them ([`Settings::require_secrets`]); `config view` shows them.
    #[serde(skip)]
    pub missing_secrets: Vec<MissingSecret>,
}

/// A secret the config file says to read from an environment variable that is not set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingSecret {
    /// The setting as `config view` names it (`kafka.sasl.password`, `cruise-control.password`).
    pub setting: &'static str,
    /// The environment variable the config file names.
    pub env: String,
}

impl Settings {
    /// A usage error for the first secret whose variable is not set.
    pub fn require_secrets(&self) -> Result<(), SettingsError> {
        match self.missing_secrets.first() {
            Some(m) => Err(SettingsError::MissingSecretEnv {
                name: m.env.clone(),
            }),
            None => Ok(()),
        }
    }
}

/// True for librdkafka property names whose values are secrets.
#[must_use]
pub fn is_secret_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    k.contains("password")
        || k.contains("secret")
        || k.contains("jaas")
        || k.ends_with(".key.pem")
        || k.contains("token")
        || k.contains("oauthbearer.config")
}

/// The default config file location: `$XDG_CONFIG_HOME/kafkaops/config.yaml` or `~/.config/kafkaops/config.yaml`.
#[must_use]
pub fn default_config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("kafkaops").join("config.yaml"))
}

fn read_secret_file(path: &Path) -> Result<Secret, SettingsError> {
    let raw = std::fs::read_to_string(path).map_err(|reason| SettingsError::ReadSecret {
        path: path.to_path_buf(),
        reason,
    })?;
    Ok(Secret::new(raw.trim_end_matches(['\n', '\r'])))
}

fn read_secret_env(name: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<Secret> {
    env(name).map(Secret::new)
}

/// Resolves settings. `env` looks up environment variables (injected so tests need not
/// mutate the process environment).
pub fn resolve(
    overrides: &Overrides,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Settings, SettingsError> {
    let (config_file, parsed) = read_config_file(overrides)?;
    let (context_name, ctx) = choose_context(overrides, config_file.as_ref(), &parsed)?;
    let mut missing_secrets = Vec::new();
    let kafka = resolve_kafka(overrides, &ctx, env, &mut missing_secrets)?;
    let cruise_control = resolve_cruise_control(overrides, &ctx, env, &mut missing_secrets)?;
    Ok(Settings {
        config_file,
        context: context_name,
        kafka,
        cruise_control,
        missing_secrets,
    })
}

/// Reads and parses the config file at `path` (`config get-contexts`, `config use-context`).
///
/// # Errors
/// The file cannot be read or is not a valid config file.
pub fn read_config(path: &Path) -> Result<ConfigFile, SettingsError> {
    let text = std::fs::read_to_string(path).map_err(|reason| SettingsError::ReadConfig {
        path: path.to_path_buf(),
        reason,
    })?;
    serde_yaml::from_str::<ConfigFile>(&text).map_err(|e| SettingsError::ParseConfig {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Makes `name` the `current-context` of the config file at `path`, as `kubectl config
/// use-context` does: only that line changes (comments and the rest are kept); the file is
/// replaced whole (written beside it, then renamed). An unknown name changes nothing.
///
/// # Errors
/// The file cannot be read, parsed or written, or has no context `name`.
pub fn set_current_context(path: &Path, name: &str) -> Result<(), SettingsError> {
    let parsed = read_config(path)?;
    if !parsed.contexts.iter().any(|c| c.name == name) {
        return Err(SettingsError::UnknownContext {
            name: name.to_string(),
            path: path.display().to_string(),
            known: if parsed.contexts.is_empty() {
                "none: the file has no contexts".to_string()
            } else {
                parsed
                    .contexts
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        });
    }
    let text = std::fs::read_to_string(path).map_err(|reason| SettingsError::ReadConfig {
        path: path.to_path_buf(),
        reason,
    })?;
    let line = format!(
        "current-context: {}",
        serde_json::to_string(name).unwrap_or_default()
    );
    let mut replaced = false;
    let mut out: Vec<String> = text
        .lines()
        .map(|l| {
            if !replaced && l.starts_with("current-context:") {
                replaced = true;
                line.clone()
            } else {
                l.to_string()
            }
        })
        .collect();
    if !replaced {
        out.insert(0, line);
    }
    let mut new = out.join("\n");
    new.push('\n');
    let tmp = path.with_extension("yaml.kafkaops-tmp");
    let write = |p: &Path| std::fs::write(p, &new);
    write(&tmp)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|reason| {
            let _ = std::fs::remove_file(&tmp);
            SettingsError::WriteConfig {
                path: path.to_path_buf(),
                reason,
            }
        })
}

/// Step 1: which config file (`--config`, else the default path when it exists), parsed.
fn read_config_file(
    overrides: &Overrides,
) -> Result<(Option<Sourced<PathBuf>>, ConfigFile), SettingsError> {
    let config_file = match &overrides.config {
        Some(c) => Some(c.clone()),
        None => default_config_path()
            .filter(|p| p.exists())
            .map(|p| Sourced::new(p, Source::Default)),
    };
    let parsed = match &config_file {
        Some(path) => {
            let text = std::fs::read_to_string(&path.value).map_err(|reason| {
                SettingsError::ReadConfig {
                    path: path.value.clone(),
                    reason,
                }
            })?;
            serde_yaml::from_str::<ConfigFile>(&text).map_err(|e| SettingsError::ParseConfig {
                path: path.value.clone(),
                message: e.to_string(),
            })?
        }
        None => ConfigFile::default(),
    };

    Ok((config_file, parsed))
}

/// Step 2: which context (`--context`, else the file's `current-context`), looked up in the file.
fn choose_context(
    overrides: &Overrides,
    config_file: Option<&Sourced<PathBuf>>,
    parsed: &ConfigFile,
) -> Result<(Option<Sourced<String>>, ContextFile), SettingsError> {
    let context_name = overrides.context.clone().or_else(|| {
        parsed
            .current_context
            .clone()
            .map(|c| Sourced::new(c, Source::ConfigFile))
    });
    let ctx: ContextFile = match &context_name {
        Some(name) if config_file.is_none() => {
            return Err(SettingsError::NoConfigFile {
                name: name.value.clone(),
                looked_at: default_config_path().map_or_else(
                    || "~/.config/kafkaops/config.yaml".to_string(),
                    |p| p.display().to_string(),
                ),
            });
        }
        Some(name) => parsed
            .contexts
            .iter()
            .find(|c| c.name == name.value)
            .cloned()
            .ok_or_else(|| SettingsError::UnknownContext {
                name: name.value.clone(),
                path: config_file.as_ref().map_or_else(
                    || "(no config file)".to_string(),
                    |p| p.value.display().to_string(),
                ),
                known: if parsed.contexts.is_empty() {
                    "none: the file has no contexts".to_string()
                } else {
                    parsed
                        .contexts
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })?,
        None => ContextFile::default(),
    };

    Ok((context_name, ctx))
}

/// Step 3: Kafka's bootstrap servers, properties and secrets (file, then flags, then the
/// environment); a password variable named but unset is recorded in `missing_secrets`.
fn resolve_kafka(
    overrides: &Overrides,
    ctx: &ContextFile,
    env: &dyn Fn(&str) -> Option<String>,
    missing_secrets: &mut Vec<MissingSecret>,
) -> Result<KafkaSettings, SettingsError> {
    let bootstrap_servers = overrides.bootstrap_servers.clone().or_else(|| {
        ctx.bootstrap_servers
            .clone()
            .map(|b| Sourced::new(b, Source::ConfigFile))
    });
    let mut properties = BTreeMap::new();
    let mut secrets = BTreeMap::new();
    let mut put = |k: String, v: String, source: Source| {
        if is_secret_key(&k) {
            properties.remove(&k);
            secrets.insert(k, Sourced::new(Secret::new(v), source));
        } else {
            secrets.remove(&k);
            properties.insert(k, Sourced::new(v, source));
        }
    };
    for (k, v) in &ctx.kafka_properties {
        put(k.clone(), v.clone(), Source::ConfigFile);
    }
    for p in &overrides.kafka_properties {
        put(p.value.0.clone(), p.value.1.clone(), p.source);
    }
    if let Some(f) = &ctx.kafka_password_file {
        secrets.insert(
            "sasl.password".into(),
            Sourced::new(read_secret_file(f)?, Source::ConfigFile),
        );
    }
    let mut kafka_missing = None;
    if let Some(name) = &ctx.kafka_password_env {
        match read_secret_env(name, env) {
            Some(secret) => {
                secrets.insert(
                    "sasl.password".into(),
                    Sourced::new(secret, Source::Environment),
                );
            }
            None => kafka_missing = Some(name.clone()),
        }
    }
    if let Some(v) = env(KAFKA_PASSWORD_ENV) {
        secrets.insert(
            "sasl.password".into(),
            Sourced::new(Secret::new(v), Source::Environment),
        );
        kafka_missing = None;
    }
    if let Some(name) = kafka_missing {
        missing_secrets.push(MissingSecret {
            setting: "kafka.sasl.password",
            env: name,
        });
    }

    Ok(KafkaSettings {
        bootstrap_servers,
        properties,
        secrets,
    })
}

/// Step 4: Cruise Control's URL, credentials, CA and timeout, the same way.
fn resolve_cruise_control(
    overrides: &Overrides,
    ctx: &ContextFile,
    env: &dyn Fn(&str) -> Option<String>,
    missing_secrets: &mut Vec<MissingSecret>,
) -> Result<CruiseControlSettings, SettingsError> {
    let ccf = ctx.cruise_control.clone().unwrap_or_default();
    let url = overrides
        .cruise_control_url
        .clone()
        .or_else(|| ccf.url.clone().map(|u| Sourced::new(u, Source::ConfigFile)));
    let username = overrides.cruise_control_user.clone().or_else(|| {
        ccf.username
            .clone()
            .map(|u| Sourced::new(u, Source::ConfigFile))
    });
    let mut password = None;
    if let Some(f) = &ccf.password_file {
        password = Some(Sourced::new(read_secret_file(f)?, Source::ConfigFile));
    }
    let mut cc_missing = None;
    if let Some(name) = &ccf.password_env {
        match read_secret_env(name, env) {
            Some(secret) => password = Some(Sourced::new(secret, Source::Environment)),
            None => cc_missing = Some(name.clone()),
        }
    }
    if let Some(v) = env(CC_PASSWORD_ENV) {
        password = Some(Sourced::new(Secret::new(v), Source::Environment));
        cc_missing = None;
    }
    if let Some(f) = &overrides.cruise_control_password_file {
        password = Some(Sourced::new(read_secret_file(&f.value)?, f.source));
        cc_missing = None;
    }
    if let Some(name) = cc_missing {
        missing_secrets.push(MissingSecret {
            setting: "cruise-control.password",
            env: name,
        });
    }
    let ca_file = overrides.cruise_control_ca_file.clone().or_else(|| {
        ccf.ca_file
            .clone()
            .map(|c| Sourced::new(c, Source::ConfigFile))
    });
    let timeout = overrides
        .request_timeout
        .clone()
        .or_else(|| ccf.timeout.map(|t| Sourced::new(t, Source::ConfigFile)))
        .unwrap_or_else(|| Sourced::new(Duration::from_secs(30), Source::Default));
    if let Some(u) = &url {
        parse_cc_url(&u.value)?;
    }

    Ok(CruiseControlSettings {
        url,
        username,
        password,
        ca_file,
        timeout,
        connect_to: None,
    })
}

#[cfg(test)]
mod tests;
