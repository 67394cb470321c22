//! Nodes managed by shell commands: `ssh {host} sudo systemctl restart kafka`.
//!
//! Each command is a template run with `sh -c` after `{id}` and `{host}` are replaced
//! (values are shell-quoted, so a host name cannot inject commands). Every command has a
//! timeout; on expiry its whole process group is killed, so an `ssh` left behind by the
//! shell does not keep running. A failed or timed-out command's output (the last few KiB
//! of stdout and stderr) is part of the error: operators need it to see why.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::Command;

use super::{Platform, PlatformError, PlatformNode};

/// How much of a command's output is kept for error messages.
const OUTPUT_LIMIT: usize = 8 * 1024;

/// How a node is restarted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RestartMethod {
    /// One command restarts the node.
    Restart(String),
    /// Stop, then start.
    StopStart { stop: String, start: String },
}

/// A platform of hosts reached by commands.
#[derive(Debug, Clone)]
pub struct ProcessPlatform {
    nodes: Vec<PlatformNode>,
    /// `None`: status checks only (e.g. `--dry-run`); restarts fail.
    restart: Option<RestartMethod>,
    /// Exit status 0 = running.
    status_command: Option<String>,
    timeout: Duration,
}

impl ProcessPlatform {
    #[must_use]
    pub fn new(nodes: Vec<PlatformNode>, restart: RestartMethod, timeout: Duration) -> Self {
        Self {
            nodes,
            restart: Some(restart),
            status_command: None,
            timeout,
        }
    }

    /// A platform that only checks whether nodes run (no restart command configured).
    #[must_use]
    pub fn status_only(nodes: Vec<PlatformNode>, timeout: Duration) -> Self {
        Self {
            nodes,
            restart: None,
            status_command: None,
            timeout,
        }
    }

    /// `host:port` of node `id`'s Kafka listener, when known.
    #[must_use]
    pub fn address(&self, id: i32) -> Option<&str> {
        self.nodes
            .iter()
            .find(|n| n.id == id)
            .and_then(|n| n.address.as_deref())
    }

    /// A command whose exit status says whether the node runs (0 = running). Without one,
    /// a node runs when its `address` accepts TCP connections.
    #[must_use]
    pub fn with_status_command(mut self, template: impl Into<String>) -> Self {
        self.status_command = Some(template.into());
        self
    }

    fn node(&self, id: i32) -> Result<&PlatformNode, PlatformError> {
        self.nodes
            .iter()
            .find(|n| n.id == id)
            .ok_or_else(|| PlatformError::UnknownNode {
                id,
                known: self
                    .nodes
                    .iter()
                    .map(|n| n.id.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    async fn run_checked(&self, node: &PlatformNode, template: &str) -> Result<(), PlatformError> {
        let command = render(template, node);
        let outcome =
            run(&command, self.timeout)
                .await
                .map_err(|message| PlatformError::Spawn {
                    node: node.id,
                    command: command.clone(),
                    message,
                })?;
        match outcome {
            Outcome::Exited { success: true, .. } => Ok(()),
            Outcome::Exited { status, output, .. } => Err(PlatformError::CommandFailed {
                node: node.id,
                command,
                status,
                output,
            }),
            Outcome::TimedOut { output } => Err(PlatformError::CommandTimeout {
                node: node.id,
                command,
                after: self.timeout,
                output,
            }),
        }
    }
}

/// Parses `1=host1:9092,2=host2:9092` (the address is optional: `1=host1`).
pub fn parse_nodes(value: &str) -> Result<Vec<PlatformNode>, PlatformError> {
    let invalid = |message: String| PlatformError::InvalidNodes {
        value: value.to_string(),
        message,
    };
    let mut nodes: Vec<PlatformNode> = Vec::new();
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (id, target) = part
            .split_once('=')
            .ok_or_else(|| invalid(format!("{part:?} is not ID=HOST[:PORT]")))?;
        let id: i32 = id
            .trim()
            .parse()
            .map_err(|_| invalid(format!("{id:?} is not a node id")))?;
        if nodes.iter().any(|n| n.id == id) {
            return Err(invalid(format!("node {id} is listed twice")));
        }
        let target = target.trim();
        let (host, address) = match target.rsplit_once(':') {
            Some((h, port)) if port.parse::<u16>().is_ok() => {
                (h.to_string(), Some(target.to_string()))
            }
            _ => (target.to_string(), None),
        };
        if host.is_empty() {
            return Err(invalid(format!("node {id} has no host")));
        }
        nodes.push(PlatformNode { id, host, address });
    }
    if nodes.is_empty() {
        return Err(invalid("no nodes".into()));
    }
    Ok(nodes)
}

/// Quotes `s` for `sh` unless it is plainly safe.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-:/@%+=,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Replaces `{id}` and `{host}` in a template.
#[must_use]
pub fn render(template: &str, node: &PlatformNode) -> String {
    template
        .replace("{id}", &node.id.to_string())
        .replace("{host}", &shell_quote(&node.host))
}

enum Outcome {
    Exited {
        success: bool,
        status: String,
        output: String,
    },
    TimedOut {
        output: String,
    },
}

/// Keeps the last `OUTPUT_LIMIT` bytes.
fn collector(
    mut pipe: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    sink: Arc<Mutex<Vec<u8>>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf).await {
            if n == 0 {
                break;
            }
            let mut s = sink
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            s.extend_from_slice(&buf[..n]);
            if s.len() > OUTPUT_LIMIT {
                let cut = s.len() - OUTPUT_LIMIT;
                s.drain(..cut);
            }
        }
    })
}

async fn run(command: &str, timeout: Duration) -> Result<Outcome, String> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| e.to_string())?;
    let pid = child.id();
    // stdout and stderr interleaved as they arrive, in one buffer.
    let sink = Arc::new(Mutex::new(Vec::new()));
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(collector(out, Arc::clone(&sink)));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(collector(err, Arc::clone(&sink)));
    }
    let waited = tokio::time::timeout(timeout, child.wait()).await;
    let timed_out = waited.is_err();
    if timed_out {
        if let Some(pid) = pid {
            // The shell's whole process group (process_group(0) made pgid == pid).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .await;
        }
        let _ = child.kill().await;
    }
    for r in readers {
        // Pipes close when every holder exits; a daemon that detached keeps them open, so
        // do not wait for it forever.
        let _ = tokio::time::timeout(Duration::from_secs(2), r).await;
    }
    let output = String::from_utf8_lossy(
        &sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
    .into_owned();
    match waited {
        Err(_) => Ok(Outcome::TimedOut { output }),
        Ok(Err(e)) => Err(e.to_string()),
        Ok(Ok(status)) => Ok(Outcome::Exited {
            success: status.success(),
            status: status.to_string(),
            output,
        }),
    }
}

impl Platform for ProcessPlatform {
    async fn list_nodes(&self) -> Result<Vec<PlatformNode>, PlatformError> {
        Ok(self.nodes.clone())
    }

    async fn restart_node(&self, id: i32) -> Result<(), PlatformError> {
        let node = self.node(id)?.clone();
        match &self.restart {
            None => Err(PlatformError::Spawn {
                node: id,
                command: String::new(),
                message: "no restart command is configured".into(),
            }),
            Some(RestartMethod::Restart(t)) => self.run_checked(&node, t).await,
            Some(RestartMethod::StopStart { stop, start }) => {
                self.run_checked(&node, stop).await?;
                self.run_checked(&node, start).await
            }
        }
    }

    async fn is_running(&self, id: i32) -> Result<bool, PlatformError> {
        let node = self.node(id)?.clone();
        if let Some(t) = &self.status_command {
            let command = render(t, &node);
            return match run(&command, self.timeout).await.map_err(|message| {
                PlatformError::Spawn {
                    node: id,
                    command: command.clone(),
                    message,
                }
            })? {
                Outcome::Exited { success, .. } => Ok(success),
                Outcome::TimedOut { output } => Err(PlatformError::CommandTimeout {
                    node: id,
                    command,
                    after: self.timeout,
                    output,
                }),
            };
        }
        let Some(address) = &node.address else {
            return Err(PlatformError::NoStatusProbe {
                node: id,
                message: "configure a status command or give the node's address as ID=HOST:PORT"
                    .into(),
            });
        };
        let probe = tokio::time::timeout(
            self.timeout.min(Duration::from_secs(5)),
            tokio::net::TcpStream::connect(address),
        )
        .await;
        Ok(matches!(probe, Ok(Ok(_))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_lists() {
        let nodes = parse_nodes("1=kafka-1:9092, 2=kafka-2").unwrap();
        assert_eq!(nodes[0].address.as_deref(), Some("kafka-1:9092"));
        assert_eq!(
            (nodes[1].host.as_str(), nodes[1].address.as_deref()),
            ("kafka-2", None)
        );
        assert!(parse_nodes("1=a,1=b").is_err());
        assert!(parse_nodes("x=a").is_err());
        assert!(parse_nodes("").is_err());
    }

    #[test]
    fn templates_quote_hosts() {
        let n = PlatformNode {
            id: 3,
            host: "evil; rm -rf /".into(),
            address: None,
        };
        assert_eq!(
            render("ssh {host} restart {id}", &n),
            "ssh 'evil; rm -rf /' restart 3"
        );
        let n = PlatformNode {
            id: 1,
            host: "kafka-1.example".into(),
            address: None,
        };
        assert_eq!(render("ssh {host} x", &n), "ssh kafka-1.example x");
    }

    fn platform(restart: RestartMethod, timeout: Duration) -> ProcessPlatform {
        ProcessPlatform::new(
            parse_nodes("1=127.0.0.1,2=node-2").unwrap(),
            restart,
            timeout,
        )
    }

    #[tokio::test]
    async fn restart_command_runs_with_the_node_filled_in() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("restarted");
        let p = platform(
            RestartMethod::Restart(format!("echo {{id}} {{host}} > {}", marker.display())),
            Duration::from_secs(10),
        );
        p.restart_node(2).await.unwrap();
        assert_eq!(std::fs::read_to_string(&marker).unwrap(), "2 node-2\n");
    }

    #[tokio::test]
    async fn stop_start_runs_both_in_order_and_stops_at_a_failed_stop() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let p = platform(
            RestartMethod::StopStart {
                stop: format!("echo stop {{id}} >> {}", log.display()),
                start: format!("echo start {{id}} >> {}", log.display()),
            },
            Duration::from_secs(10),
        );
        p.restart_node(1).await.unwrap();
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "stop 1\nstart 1\n");

        let p = platform(
            RestartMethod::StopStart {
                stop: "echo cannot stop >&2; exit 3".into(),
                start: format!("echo start >> {}", log.display()),
            },
            Duration::from_secs(10),
        );
        let err = p.restart_node(1).await.unwrap_err();
        assert!(matches!(err, PlatformError::CommandFailed { .. }), "{err}");
        let text = err.to_string();
        assert!(
            text.contains("cannot stop") && text.contains("exit status: 3"),
            "{text}"
        );
        assert_eq!(
            std::fs::read_to_string(&log).unwrap(),
            "stop 1\nstart 1\n",
            "start must not run"
        );
    }

    #[tokio::test]
    async fn failed_command_shows_stdout_and_stderr() {
        let p = platform(
            RestartMethod::Restart("echo to-stdout; echo to-stderr >&2; false".into()),
            Duration::from_secs(10),
        );
        let text = p.restart_node(1).await.unwrap_err().to_string();
        assert!(
            text.contains("to-stdout") && text.contains("to-stderr"),
            "{text}"
        );
        assert!(text.contains("node 1"), "{text}");
    }

    #[tokio::test]
    async fn timeout_kills_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        // The shell starts a background sleep (like an ssh left behind) and waits.
        let p = platform(
            RestartMethod::Restart(format!(
                "echo started; sleep 60 & echo $! > {}; wait",
                pidfile.display()
            )),
            Duration::from_millis(500),
        );
        let err = p.restart_node(1).await.unwrap_err();
        assert!(matches!(err, PlatformError::CommandTimeout { .. }), "{err}");
        assert!(err.to_string().contains("started"), "{err}");
        let pid = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .to_string();
        // The background sleep must be gone (poll: the kill is asynchronous).
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let alive = std::process::Command::new("kill")
                .args(["-0", &pid])
                .stderr(Stdio::null())
                .status()
                .unwrap()
                .success();
            if !alive {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "sleep {pid} survived the timeout"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    #[tokio::test]
    async fn is_running_by_status_command_or_tcp_probe() {
        let p = platform(
            RestartMethod::Restart("true".into()),
            Duration::from_secs(10),
        )
        .with_status_command("test {id} = 1");
        assert!(p.is_running(1).await.unwrap());
        assert!(!p.is_running(2).await.unwrap());

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let nodes = parse_nodes(&format!("7={addr},8=127.0.0.1:1,9=nohost")).unwrap();
        let p = ProcessPlatform::new(
            nodes,
            RestartMethod::Restart("true".into()),
            Duration::from_secs(5),
        );
        assert!(p.is_running(7).await.unwrap());
        assert!(!p.is_running(8).await.unwrap());
        assert!(matches!(
            p.is_running(9).await,
            Err(PlatformError::NoStatusProbe { .. })
        ));
        let err = p.restart_node(42).await.unwrap_err();
        assert!(err.to_string().contains("7, 8, 9"), "{err}");
        assert_eq!(p.list_nodes().await.unwrap().len(), 3);
    }
}
