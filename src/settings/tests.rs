//! Unit tests of settings resolution: defaults < config file < environment < flags, contexts,
//! secrets from files and the environment, and the errors for bad input.

use super::*;

fn no_env(_: &str) -> Option<String> {
    None
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn flags_beat_env_beat_file_beat_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write(
        dir.path(),
        "c.yaml",
        "current-context: a\ncontexts:\n- name: a\n  bootstrap-servers: file:9092\n  cruise-control:\n    url: http://file:9090\n    timeout: 5s\n",
    );
    let o = Overrides {
        config: Some(Sourced::new(cfg, Source::Flag)),
        cruise_control_url: Some(Sourced::new("http://flag:1".into(), Source::Flag)),
        ..Overrides::default()
    };
    let s = resolve(&o, &no_env).unwrap();
    assert_eq!(
        s.cruise_control.url.as_ref().unwrap().value,
        "http://flag:1"
    );
    assert_eq!(s.cruise_control.url.unwrap().source, Source::Flag);
    let b = s.kafka.bootstrap_servers.unwrap();
    assert_eq!(
        (b.value.as_str(), b.source),
        ("file:9092", Source::ConfigFile)
    );
    assert_eq!(s.cruise_control.timeout.value, Duration::from_secs(5));
}

#[test]
fn unknown_context_names_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = write(
        dir.path(),
        "c.yaml",
        "contexts:\n- name: prod\n- name: dev\n",
    );
    let o = Overrides {
        config: Some(Sourced::new(cfg, Source::Flag)),
        context: Some(Sourced::new("stage".into(), Source::Flag)),
        ..Overrides::default()
    };
    let err = resolve(&o, &no_env).unwrap_err().to_string();
    assert!(err.contains("stage") && err.contains("prod, dev"), "{err}");
}

#[test]
fn secrets_are_masked_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let pw = write(dir.path(), "pw", "s3cr3t-value\n");
    let cfg = write(
        dir.path(),
        "c.yaml",
        &format!(
            "current-context: a\ncontexts:\n- name: a\n  kafka-properties:\n    sasl.password: kafka-pass-xyz\n    security.protocol: SASL_SSL\n  cruise-control:\n    url: http://x:9090\n    password-file: {}\n",
            pw.display()
        ),
    );
    let o = Overrides {
        config: Some(Sourced::new(cfg, Source::Flag)),
        ..Overrides::default()
    };
    let s = resolve(&o, &no_env).unwrap();
    assert_eq!(
        s.cruise_control.password.as_ref().unwrap().value.expose(),
        "s3cr3t-value"
    );
    let json = serde_json::to_string(&s).unwrap();
    let dbg = format!("{s:?}");
    for text in [json, dbg] {
        assert!(
            !text.contains("s3cr3t-value") && !text.contains("kafka-pass-xyz"),
            "{text}"
        );
    }
}

#[test]
fn password_env_wins_over_file_and_flag_file_wins_over_env() {
    let dir = tempfile::tempdir().unwrap();
    let pw = write(dir.path(), "pw", "from-flag-file");
    let env = |k: &str| (k == CC_PASSWORD_ENV).then(|| "from-env".to_string());
    let s = resolve(&Overrides::default(), &env).unwrap();
    assert_eq!(
        s.cruise_control.password.unwrap().value.expose(),
        "from-env"
    );
    let o = Overrides {
        cruise_control_password_file: Some(Sourced::new(pw, Source::Flag)),
        ..Overrides::default()
    };
    let s = resolve(&o, &env).unwrap();
    assert_eq!(
        s.cruise_control.password.unwrap().value.expose(),
        "from-flag-file"
    );
}

#[test]
fn url_validation() {
    assert_eq!(parse_cc_url("cc:9090").unwrap().as_str(), "http://cc:9090/");
    assert!(parse_cc_url("ftp://cc").is_err());
    // Every error branch hides the password: credentials, bad scheme, bad port.
    for raw in [
        "http://admin:hunter2@cc:9090",
        "ftp://admin:hunter2@cc:9090",
        "http://admin:hunter2@cc:99999999",
    ] {
        let err = parse_cc_url(raw).unwrap_err().to_string();
        assert!(!err.contains("hunter2"), "{err}");
        assert!(err.contains("***@cc"), "{err}");
    }
    assert_eq!(redact_userinfo("cc:9090/x@y"), "cc:9090/x@y");
}
