//! Unit tests of the wire connection against one-shot fake servers: framing, correlation ids,
//! handshake errors and SASL (PLAIN, SCRAM) exchanges.

use super::security::handshake_failure;
use super::*;
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;

#[test]
fn handshake_failures_say_what_to_change() {
    let untrusted = handshake_failure(
        "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (self-signed certificate in certificate chain)",
    );
    assert!(
        untrusted.contains("not trusted") && untrusted.contains("ssl.ca.location"),
        "{untrusted}"
    );
    let wrong_host = handshake_failure(
        "error:0A000086:SSL routines:tls_post_process_server_certificate:certificate verify failed:../ssl/statem/statem_clnt.c:1889: (hostname mismatch)",
    );
    assert!(
        wrong_host.contains("does not name this host")
            && wrong_host.contains("ssl.endpoint.identification.algorithm"),
        "{wrong_host}"
    );
    assert_eq!(handshake_failure("unexpected eof"), "unexpected eof");
}

/// A server that reads one request and answers with `reply` (raw bytes after the length).
async fn one_shot_server(reply: Vec<u8>) -> (String, tokio::task::JoinHandle<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        let mut len = [0u8; 4];
        s.read_exact(&mut len).await.unwrap();
        let mut req = vec![0u8; u32::from_be_bytes(len) as usize];
        s.read_exact(&mut req).await.unwrap();
        let mut frame = (u32::try_from(reply.len()).unwrap()).to_be_bytes().to_vec();
        frame.extend_from_slice(&reply);
        s.write_all(&frame).await.unwrap();
        req
    });
    (addr, handle)
}

#[tokio::test]
async fn refused_connection_is_unreachable_and_names_the_address() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    drop(listener);
    let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(matches!(err, KafkaError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains(&addr));
}

#[tokio::test]
async fn empty_response_is_a_protocol_error() {
    let (addr, server) = one_shot_server(vec![]).await;
    let listener_reply = tokio::spawn(async move { server.await.unwrap() });
    // A zero-length answer: header decoding fails cleanly, naming the address.
    let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(matches!(err, KafkaError::Protocol { .. }), "{err}");
    let request = listener_reply.await.unwrap();
    // The request we sent is ApiVersions (18) v4 with correlation id 1.
    assert_eq!(&request[..8], &[0, 18, 0, 4, 0, 0, 0, 1]);
}

#[tokio::test]
async fn mismatched_correlation_id_is_detected() {
    // Response header v0 with correlation id 99 (the body is never looked at).
    let reply = 99i32.to_be_bytes().to_vec();
    let (addr, _server) = one_shot_server(reply).await;
    let err = Connection::connect(&addr, &WireSecurity::default(), Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("correlation id 99"), "{err}");
}

// ---- A scripted Kafka server for the connection set-up: ApiVersions fallback to v0,
// SaslHandshake v1, SaslAuthenticate v0 with PLAIN or SCRAM-SHA-256 (server side done
// here with OpenSSL, independently of `ScramClient`).

use crate::kafka::config::{SaslMechanism, SaslSettings, WireSecurity};
use crate::secret::Secret;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;

struct Request {
    api_key: i16,
    version: i16,
    correlation_id: i32,
    body: Bytes,
}

async fn read_request(s: &mut TcpStream) -> Option<Request> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).await.ok()?;
    let mut buf = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut buf).await.ok()?;
    let mut b = Bytes::from(buf);
    let api_key = b.get_i16();
    let version = b.get_i16();
    let correlation_id = b.get_i32();
    let client_id_len = b.get_i16();
    b.advance(usize::try_from(client_id_len.max(0)).unwrap());
    if api_key == 18 && version >= 3 {
        b.advance(1); // header v2: empty tagged fields
    }
    Some(Request {
        api_key,
        version,
        correlation_id,
        body: b,
    })
}

async fn reply(s: &mut TcpStream, correlation_id: i32, body: &[u8]) {
    let mut frame = BytesMut::new();
    frame.put_u32(u32::try_from(body.len() + 4).unwrap());
    frame.put_i32(correlation_id);
    frame.extend_from_slice(body);
    s.write_all(&frame).await.unwrap();
}

fn api_versions_v0(error: i16, keys: &[(i16, i16, i16)]) -> Vec<u8> {
    let mut b = BytesMut::new();
    b.put_i16(error);
    b.put_i32(i32::try_from(keys.len()).unwrap());
    for (k, min, max) in keys {
        b.put_i16(*k);
        b.put_i16(*min);
        b.put_i16(*max);
    }
    b.to_vec()
}

fn sasl_authenticate_v0(error: i16, message: Option<&str>, auth: &[u8]) -> Vec<u8> {
    let mut b = BytesMut::new();
    b.put_i16(error);
    match message {
        None => b.put_i16(-1),
        Some(m) => {
            b.put_i16(i16::try_from(m.len()).unwrap());
            b.extend_from_slice(m.as_bytes());
        }
    }
    b.put_i32(i32::try_from(auth.len()).unwrap());
    b.extend_from_slice(auth);
    b.to_vec()
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let pkey = openssl::pkey::PKey::hmac(key).unwrap();
    let mut signer =
        openssl::sign::Signer::new(openssl::hash::MessageDigest::sha256(), &pkey).unwrap();
    signer.update(data).unwrap();
    signer.sign_to_vec().unwrap()
}

/// Answers SASL for user "ops" with `password`; records what it saw.
async fn fake_kafka(
    mechanism: &'static str,
    password: &'static str,
) -> (String, tokio::task::JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        let mut seen = Vec::new();
        let salt = b"kafkaops-salt";
        let mut client_first_bare = String::new();
        let mut server_first = String::new();
        while let Some(mut req) = read_request(&mut s).await {
            seen.push(format!("{}v{}", req.api_key, req.version));
            match req.api_key {
                // An old server: only ApiVersions v0.
                18 if req.version > 0 => {
                    reply(
                        &mut s,
                        req.correlation_id,
                        &api_versions_v0(35, &[(18, 0, 0)]),
                    )
                    .await;
                }
                18 => {
                    let keys = [(18, 0, 0), (17, 0, 1), (36, 0, 0), (55, 0, 2)];
                    reply(&mut s, req.correlation_id, &api_versions_v0(0, &keys)).await;
                }
                17 => {
                    let n = usize::try_from(req.body.get_i16()).unwrap();
                    let asked = String::from_utf8(req.body.split_to(n).to_vec()).unwrap();
                    let mut b = BytesMut::new();
                    b.put_i16(if asked == mechanism { 0 } else { 33 });
                    b.put_i32(1);
                    b.put_i16(i16::try_from(mechanism.len()).unwrap());
                    b.extend_from_slice(mechanism.as_bytes());
                    reply(&mut s, req.correlation_id, &b).await;
                }
                36 => {
                    let n = usize::try_from(req.body.get_i32()).unwrap();
                    let token = String::from_utf8(req.body.split_to(n).to_vec()).unwrap();
                    let answer = if mechanism == "PLAIN" {
                        if token == format!("\0ops\0{password}") {
                            sasl_authenticate_v0(0, None, b"")
                        } else {
                            sasl_authenticate_v0(58, Some("Invalid username or password"), b"")
                        }
                    } else if let Some(bare) = token.strip_prefix("n,,") {
                        client_first_bare = bare.to_string();
                        let nonce = bare.split(",r=").nth(1).unwrap();
                        server_first = format!("r={nonce}srv,s={},i=4096", B64.encode(salt));
                        sasl_authenticate_v0(0, None, server_first.as_bytes())
                    } else {
                        let (without_proof, proof) = token.rsplit_once(",p=").unwrap();
                        let mut salted = [0u8; 32];
                        openssl::pkcs5::pbkdf2_hmac(
                            password.as_bytes(),
                            salt,
                            4096,
                            openssl::hash::MessageDigest::sha256(),
                            &mut salted,
                        )
                        .unwrap();
                        let client_key = hmac(&salted, b"Client Key");
                        let stored = openssl::hash::hash(
                            openssl::hash::MessageDigest::sha256(),
                            &client_key,
                        )
                        .unwrap();
                        let auth = format!("{client_first_bare},{server_first},{without_proof}");
                        let signature = hmac(&stored, auth.as_bytes());
                        let expected: Vec<u8> = client_key
                            .iter()
                            .zip(&signature)
                            .map(|(a, b)| a ^ b)
                            .collect();
                        if B64.decode(proof).unwrap() == expected {
                            let server_sig = hmac(&hmac(&salted, b"Server Key"), auth.as_bytes());
                            sasl_authenticate_v0(
                                0,
                                None,
                                format!("v={}", B64.encode(server_sig)).as_bytes(),
                            )
                        } else {
                            sasl_authenticate_v0(
                                58,
                                Some(
                                    "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256",
                                ),
                                b"",
                            )
                        }
                    };
                    reply(&mut s, req.correlation_id, &answer).await;
                }
                _ => break,
            }
        }
        seen
    });
    (addr, handle)
}

fn sasl(mechanism: SaslMechanism, password: &str) -> WireSecurity {
    WireSecurity {
        tls: None,
        sasl: Some(SaslSettings {
            mechanism,
            username: "ops".into(),
            password: Secret::new(password),
        }),
    }
}

#[tokio::test]
async fn scram_sha_256_against_an_old_server() {
    let (addr, server) = fake_kafka("SCRAM-SHA-256", "pencil").await;
    let conn = Connection::connect(
        &addr,
        &sasl(SaslMechanism::ScramSha256, "pencil"),
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    assert_eq!(conn.version::<DescribeQuorumRequest>("test").unwrap(), 2);
    drop(conn);
    // ApiVersions v4 refused, v0 accepted, then the handshake and two SCRAM rounds.
    assert_eq!(
        server.await.unwrap(),
        vec!["18v4", "18v0", "17v1", "36v0", "36v0"]
    );
}

#[tokio::test]
async fn wrong_scram_password_is_an_authentication_error() {
    let (addr, _server) = fake_kafka("SCRAM-SHA-256", "pencil").await;
    let err = Connection::connect(
        &addr,
        &sasl(SaslMechanism::ScramSha256, "crayon"),
        Duration::from_secs(10),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, KafkaError::Authentication { .. }), "{err}");
    assert!(
        err.to_string().contains("SASL_AUTHENTICATION_FAILED"),
        "{err}"
    );
}

#[tokio::test]
async fn plain_and_an_unoffered_mechanism() {
    let (addr, server) = fake_kafka("PLAIN", "secret").await;
    Connection::connect(
        &addr,
        &sasl(SaslMechanism::Plain, "secret"),
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    assert_eq!(server.await.unwrap().last().unwrap(), "36v0");

    let (addr, _server) = fake_kafka("PLAIN", "secret").await;
    let err = Connection::connect(
        &addr,
        &sasl(SaslMechanism::ScramSha512, "secret"),
        Duration::from_secs(10),
    )
    .await
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("UNSUPPORTED_SASL_MECHANISM") && text.contains("offers: PLAIN"),
        "{text}"
    );
}
