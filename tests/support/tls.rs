//! Throw-away X.509 material for the secured test cluster: a CA and server certificates for
//! `127.0.0.1`/`localhost`, generated in-process with the `openssl` crate (no `keytool`).
//!
//! Everything is written as PEM, which Kafka reads directly (`ssl.keystore.type=PEM`,
//! `ssl.truststore.type=PEM`, KIP-651), librdkafka and kafkaops' own wire path read as
//! `ssl.ca.location`, and the Java clients of the Cruise Control double read as a PEM truststore.
//! Keys are EC P-256 (fast to generate, supported by all three) in unencrypted PKCS#8.
//!
//! A second, unrelated CA ([`TestCa::generate`] again) is what an "untrusted certificate" test
//! gives a client: the broker's chain does not lead to it, so verification fails for real.

#![allow(dead_code)]

use std::path::Path;

use anyhow::{Context, Result};
use openssl::asn1::Asn1Time;
use openssl::bn::{BigNum, MsbOption};
use openssl::ec::{EcGroup, EcKey};
use openssl::hash::MessageDigest;
use openssl::nid::Nid;
use openssl::pkey::{PKey, Private};
use openssl::x509::extension::{
    AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectAlternativeName,
    SubjectKeyIdentifier,
};
use openssl::x509::{X509, X509Builder, X509NameBuilder};

/// A certificate authority that signs server certificates.
pub struct TestCa {
    key: PKey<Private>,
    cert: X509,
}

/// A server certificate with its key, both PEM.
pub struct ServerCert {
    pub cert_pem: Vec<u8>,
    pub key_pem: Vec<u8>,
}

impl ServerCert {
    /// Key followed by the certificate chain, as Kafka's file-based PEM keystore wants it.
    pub fn keystore_pem(&self, ca: &TestCa) -> Result<Vec<u8>> {
        let mut out = self.key_pem.clone();
        out.extend_from_slice(&self.cert_pem);
        out.extend_from_slice(&ca.cert_pem()?);
        Ok(out)
    }
}

fn ec_key() -> Result<PKey<Private>> {
    let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1)?;
    Ok(PKey::from_ec_key(EcKey::generate(&group)?)?)
}

fn builder(cn: &str, key: &PKey<Private>) -> Result<X509Builder> {
    let mut name = X509NameBuilder::new()?;
    name.append_entry_by_nid(Nid::COMMONNAME, cn)?;
    let name = name.build();
    let mut b = X509::builder()?;
    b.set_version(2)?;
    let mut serial = BigNum::new()?;
    serial.rand(120, MsbOption::MAYBE_ZERO, false)?;
    let serial = serial.to_asn1_integer()?;
    b.set_serial_number(&serial)?;
    b.set_subject_name(&name)?;
    b.set_pubkey(key)?;
    // A day of slack both ways: test hosts' clocks are not always in step.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let now = i64::try_from(now).unwrap_or(i64::MAX);
    let not_before = Asn1Time::from_unix(now - 86_400)?;
    let not_after = Asn1Time::from_unix(now + 3 * 86_400)?;
    b.set_not_before(&not_before)?;
    b.set_not_after(&not_after)?;
    Ok(b)
}

impl TestCa {
    /// A new self-signed CA named `cn`.
    pub fn generate(cn: &str) -> Result<Self> {
        let key = ec_key()?;
        let mut b = builder(cn, &key)?;
        let name = {
            let mut n = X509NameBuilder::new()?;
            n.append_entry_by_nid(Nid::COMMONNAME, cn)?;
            n.build()
        };
        b.set_issuer_name(&name)?;
        b.append_extension(BasicConstraints::new().critical().ca().build()?)?;
        b.append_extension(
            KeyUsage::new()
                .critical()
                .key_cert_sign()
                .crl_sign()
                .build()?,
        )?;
        let ski = SubjectKeyIdentifier::new().build(&b.x509v3_context(None, None))?;
        b.append_extension(ski)?;
        b.sign(&key, MessageDigest::sha256())?;
        Ok(Self {
            key,
            cert: b.build(),
        })
    }

    pub fn cert_pem(&self) -> Result<Vec<u8>> {
        Ok(self.cert.to_pem()?)
    }

    /// A server certificate for `127.0.0.1` and `localhost`, signed by this CA.
    pub fn issue_server(&self, cn: &str) -> Result<ServerCert> {
        let key = ec_key()?;
        let mut b = builder(cn, &key)?;
        b.set_issuer_name(self.cert.subject_name())?;
        b.append_extension(BasicConstraints::new().build()?)?;
        b.append_extension(
            KeyUsage::new()
                .critical()
                .digital_signature()
                .key_agreement()
                .build()?,
        )?;
        b.append_extension(
            ExtendedKeyUsage::new()
                .server_auth()
                .client_auth()
                .build()?,
        )?;
        let san = SubjectAlternativeName::new()
            .ip("127.0.0.1")
            .dns("localhost")
            .build(&b.x509v3_context(Some(&self.cert), None))?;
        b.append_extension(san)?;
        let aki = AuthorityKeyIdentifier::new()
            .keyid(true)
            .build(&b.x509v3_context(Some(&self.cert), None))?;
        b.append_extension(aki)?;
        b.sign(&self.key, MessageDigest::sha256())?;
        Ok(ServerCert {
            cert_pem: b.build().to_pem()?,
            key_pem: key.private_key_to_pem_pkcs8()?,
        })
    }

    /// Writes the CA certificate to `path`.
    pub fn write_cert(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.cert_pem()?)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
