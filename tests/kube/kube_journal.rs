//! The journal's Kubernetes capture on a real kube-apiserver (issue #29): the journal of a
//! `roll --strimzi` lists the Kubernetes requests it sent with the apiserver's answers (each
//! pod delete by name, answered 2xx; the roll Lease), read back with `kafkaops journal show ID
//! -o json`; and no byte of the state directory (the journals) nor of a `journal bundle`
//! (every file in the archive, and the archive itself) holds a bearer token of the kubeconfig
//! the runs read. Called from the Strimzi roll test (`kube_roll.rs`) on the roll it already
//! ran: no cluster of its own.

use crate::support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::bin::{Out, run};
use support::kube::{KubeEnv, NAMESPACE};

/// `kafkaops ARGS` with its state in `state` (the journal commands read only that).
fn kafkaops(state: &Path, args: &[&str]) -> Out {
    let mut cmd: Command = support::bin::kafkaops();
    cmd.env("KAFKAOPS_STATE_DIR", state).args(args);
    run(&mut cmd)
}

/// Every file under `dir`, with its bytes.
fn files_under(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for e in std::fs::read_dir(dir).expect("read the state directory") {
        let path = e.expect("an entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            let bytes = std::fs::read(&path).expect("read a state file");
            out.push((path.display().to_string(), bytes));
        }
    }
}

/// The tokens of every user of the kubeconfig the runs read.
fn tokens(env: &KubeEnv) -> Vec<&'static str> {
    ["admin", "kafkaops", "limited"]
        .iter()
        .map(|c| env.token(c).expect("a token"))
        .collect()
}

fn assert_no_token(env: &KubeEnv, name: &str, bytes: &[u8]) {
    for token in tokens(env) {
        assert!(
            !bytes.windows(token.len()).any(|w| w == token.as_bytes()),
            "the token of the kubeconfig is in {name}"
        );
    }
}

/// The journal of the one `roll` run so far in `state` lists the deletes of `pods` (in that
/// order) with their answers; neither the state directory nor a bundle holds a token. The
/// bundle's health snapshot reads Kafka at `bootstrap`.
pub fn roll_journal_lists_pod_deletes_and_no_token(
    env: &KubeEnv,
    bootstrap: &str,
    state: &Path,
    pods: &[String],
) {
    pod_deletes_are_journaled(state, pods);
    no_token_in_the_state_nor_a_bundle(env, bootstrap, state);
}

/// The roll's journal, read back with `journal show ID -o json`, lists the deletes of `pods`
/// in order, each answered 2xx, and the roll Lease's requests.
fn pod_deletes_are_journaled(state: &Path, pods: &[String]) {
    let list = kafkaops(state, &["journal", "list", "-o", "json"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let doc = list.json();
    let rolls: Vec<&Value> = doc
        .as_array()
        .expect("a list")
        .iter()
        .filter(|j| j["command"] == "roll")
        .collect();
    assert_eq!(rolls.len(), 1, "{doc:#}");
    assert_eq!(rolls[0]["outcome"], "ok", "{doc:#}");
    let id = rolls[0]["id"].as_str().expect("an id");
    let show = kafkaops(state, &["journal", "show", id, "-o", "json"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let events = show.json()["events"].as_array().expect("events").clone();
    let kube: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e["event"] == "request" && e["system"] == "kubernetes")
        .filter_map(|e| Some((e["request"].as_str()?, e["answer"].as_str()?)))
        .collect();
    let deletes: Vec<(&str, &str)> = kube
        .iter()
        .filter(|(r, _)| r.starts_with("DELETE ") && r.contains("/pods/"))
        .copied()
        .collect();
    let deleted: Vec<&str> = deletes
        .iter()
        .filter_map(|(r, _)| r.rsplit("/pods/").next())
        .map(|p| p.split(['?', '/']).next().unwrap_or(p))
        .collect();
    assert_eq!(deleted, pods, "the pod deletes, in order: {kube:#?}");
    assert!(
        deletes
            .iter()
            .all(|(r, a)| r.contains(&format!("/namespaces/{NAMESPACE}/"))
                && a.starts_with("HTTP 2")),
        "each delete with the apiserver's answer: {deletes:#?}"
    );
    assert!(
        kube.iter()
            .any(|(r, a)| r.contains("/leases/") && a.starts_with("HTTP 2")),
        "the roll Lease's requests: {kube:#?}"
    );
}

/// No token anywhere: the state directory (the journal), a bundle of it and its archive (the
/// kubeconfig the runs read does hold them: the search is not empty-handed by design).
fn no_token_in_the_state_nor_a_bundle(env: &KubeEnv, bootstrap: &str, state: &Path) {
    let kubeconfig = std::fs::read(&env.kubeconfig).expect("the kubeconfig");
    let kafkaops_token = env.token("kafkaops").expect("a token");
    assert!(
        kubeconfig
            .windows(kafkaops_token.len())
            .any(|w| w == kafkaops_token.as_bytes())
    );
    let mut files = Vec::new();
    files_under(state, &mut files);
    assert!(
        files.iter().any(|(n, _)| n.ends_with(".jsonl")),
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (name, bytes) in &files {
        assert_no_token(env, name, bytes);
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = dir.path().join("bundle.tar.gz");
    let b = kafkaops(
        state,
        &[
            "--bootstrap-servers",
            bootstrap,
            "-vvv",
            "journal",
            "bundle",
            "--output-file",
            archive.to_str().expect("utf-8"),
            "-o",
            "json",
        ],
    );
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert_no_token(env, "the bundle's output", b.stdout.as_bytes());
    assert_no_token(env, "the bundle's log", b.stderr.as_bytes());
    let gz = std::fs::read(&archive).expect("the bundle");
    assert_no_token(env, "the archive", &gz);
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(gz.as_slice()));
    let mut journals = 0;
    for f in tar.entries().expect("a tar.gz") {
        let mut f = f.expect("an entry");
        let name = f.path().expect("a name").display().to_string();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).expect("read an entry");
        journals += usize::from(name.starts_with("journal/"));
        assert_no_token(env, &format!("{name} of the bundle"), &bytes);
    }
    assert!(journals >= 1, "the roll's journal is in the bundle");
}
