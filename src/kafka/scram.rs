//! SCRAM-SHA-256/512 client (RFC 5802, RFC 7677) for the wire path.
//!
//! librdkafka does SCRAM for its own connections, but the requests it cannot send
//! (DescribeQuorum, reassignments, anything to a controller) go over our own
//! connection, which must authenticate the same way. The exchange is a small pure
//! state machine (messages in, messages out); OpenSSL, already linked for TLS,
//! provides PBKDF2, HMAC and the hashes. Kafka uses no channel binding (`n,,`).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use openssl::hash::MessageDigest;
use openssl::pkey::PKey;
use openssl::sign::Signer;

/// Kafka (like the Java client) refuses fewer iterations than this.
const MIN_ITERATIONS: u32 = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScramHash {
    Sha256,
    Sha512,
}

impl ScramHash {
    fn digest(self) -> MessageDigest {
        match self {
            ScramHash::Sha256 => MessageDigest::sha256(),
            ScramHash::Sha512 => MessageDigest::sha512(),
        }
    }
}

/// Why a SCRAM exchange failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScramError {
    #[error("malformed server message: {0}")]
    Malformed(String),
    #[error("server nonce does not extend the client nonce")]
    NonceMismatch,
    #[error("server asks for {0} iterations, fewer than the minimum 4096")]
    TooFewIterations(u32),
    #[error("server rejected the credentials: {0}")]
    ServerError(String),
    #[error("server signature does not match: the server does not know the password")]
    BadServerSignature,
    #[error("crypto failure: {0}")]
    Crypto(String),
}

fn crypto(e: openssl::error::ErrorStack) -> ScramError {
    ScramError::Crypto(e.to_string())
}

/// The client side of one SCRAM exchange.
#[derive(Debug)]
pub struct ScramClient {
    hash: ScramHash,
    password: crate::secret::Secret,
    client_first_bare: String,
    client_nonce: String,
    expected_server_signature: Option<Vec<u8>>,
}

impl ScramClient {
    /// Starts an exchange with a random nonce.
    pub fn new(hash: ScramHash, username: &str, password: &str) -> Result<Self, ScramError> {
        let mut raw = [0u8; 24];
        openssl::rand::rand_bytes(&mut raw).map_err(crypto)?;
        Ok(Self::with_nonce(hash, username, password, &B64.encode(raw)))
    }

    /// Starts an exchange with a given nonce (tests use the RFC's).
    #[must_use]
    pub fn with_nonce(hash: ScramHash, username: &str, password: &str, nonce: &str) -> Self {
        let name = username.replace('=', "=3D").replace(',', "=2C");
        Self {
            hash,
            password: crate::secret::Secret::new(password),
            client_first_bare: format!("n={name},r={nonce}"),
            client_nonce: nonce.to_string(),
            expected_server_signature: None,
        }
    }

    /// The client-first message.
    #[must_use]
    pub fn client_first(&self) -> String {
        format!("n,,{}", self.client_first_bare)
    }

    fn hmac(&self, key: &[u8], data: &[u8]) -> Result<Vec<u8>, ScramError> {
        let pkey = PKey::hmac(key).map_err(crypto)?;
        let mut signer = Signer::new(self.hash.digest(), &pkey).map_err(crypto)?;
        signer.update(data).map_err(crypto)?;
        signer.sign_to_vec().map_err(crypto)
    }

    /// Consumes the server-first message and returns the client-final message.
    pub fn client_final(&mut self, server_first: &str) -> Result<String, ScramError> {
        let mut nonce = None;
        let mut salt = None;
        let mut iterations = None;
        for part in server_first.split(',') {
            match part.split_at_checked(2) {
                Some(("r=", v)) => nonce = Some(v),
                Some(("s=", v)) => salt = Some(v),
                Some(("i=", v)) => iterations = Some(v),
                Some(("e=", v)) => return Err(ScramError::ServerError(v.to_string())),
                _ => {}
            }
        }
        let (Some(nonce), Some(salt), Some(iterations)) = (nonce, salt, iterations) else {
            return Err(ScramError::Malformed(server_first.to_string()));
        };
        if !nonce.starts_with(&self.client_nonce) || nonce.len() == self.client_nonce.len() {
            return Err(ScramError::NonceMismatch);
        }
        let salt = B64
            .decode(salt)
            .map_err(|e| ScramError::Malformed(format!("salt: {e}")))?;
        let iterations: u32 = iterations
            .parse()
            .map_err(|_| ScramError::Malformed(format!("iterations {iterations:?}")))?;
        if iterations < MIN_ITERATIONS {
            return Err(ScramError::TooFewIterations(iterations));
        }
        let digest = self.hash.digest();
        let mut salted = vec![0u8; digest.size()];
        openssl::pkcs5::pbkdf2_hmac(
            self.password.expose().as_bytes(),
            &salt,
            usize::try_from(iterations).unwrap_or(usize::MAX),
            digest,
            &mut salted,
        )
        .map_err(crypto)?;
        let client_key = self.hmac(&salted, b"Client Key")?;
        let stored_key = openssl::hash::hash(digest, &client_key).map_err(crypto)?;
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!("{},{server_first},{without_proof}", self.client_first_bare);
        let client_signature = self.hmac(&stored_key, auth_message.as_bytes())?;
        let proof: Vec<u8> = client_key
            .iter()
            .zip(&client_signature)
            .map(|(a, b)| a ^ b)
            .collect();
        let server_key = self.hmac(&salted, b"Server Key")?;
        self.expected_server_signature = Some(self.hmac(&server_key, auth_message.as_bytes())?);
        Ok(format!("{without_proof},p={}", B64.encode(proof)))
    }

    /// Checks the server-final message: the server proves it knows the password too.
    pub fn verify_server_final(&self, server_final: &str) -> Result<(), ScramError> {
        if let Some(e) = server_final.strip_prefix("e=") {
            return Err(ScramError::ServerError(e.to_string()));
        }
        let v = server_final
            .split(',')
            .find_map(|p| p.strip_prefix("v="))
            .ok_or_else(|| ScramError::Malformed(server_final.to_string()))?;
        let got = B64
            .decode(v)
            .map_err(|e| ScramError::Malformed(format!("signature: {e}")))?;
        match &self.expected_server_signature {
            Some(expected)
                if expected.len() == got.len() && openssl::memcmp::eq(expected, &got) =>
            {
                Ok(())
            }
            _ => Err(ScramError::BadServerSignature),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 7677 section 3.
    const SERVER_FIRST: &str =
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";

    #[test]
    fn rfc7677_sha256_vector() {
        let mut c =
            ScramClient::with_nonce(ScramHash::Sha256, "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
        assert_eq!(c.client_first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        let fin = c.client_final(SERVER_FIRST).unwrap();
        assert_eq!(
            fin,
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        c.verify_server_final("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        assert_eq!(
            c.verify_server_final("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="),
            Err(ScramError::BadServerSignature)
        );
    }

    #[test]
    fn rejects_foreign_nonce_weak_iterations_and_errors() {
        let mut c = ScramClient::with_nonce(ScramHash::Sha512, "u", "p", "abc");
        assert_eq!(
            c.client_final("r=xyz123,s=AAAA,i=4096"),
            Err(ScramError::NonceMismatch)
        );
        assert_eq!(
            c.client_final("r=abc123,s=AAAA,i=100"),
            Err(ScramError::TooFewIterations(100))
        );
        assert!(matches!(
            c.client_final("e=unknown-user"),
            Err(ScramError::ServerError(_))
        ));
        assert!(matches!(
            c.verify_server_final("v=AAAA"),
            Err(ScramError::BadServerSignature)
        ));
    }

    #[test]
    fn escapes_user_names() {
        let c = ScramClient::with_nonce(ScramHash::Sha256, "a=b,c", "p", "n");
        assert_eq!(c.client_first(), "n,,n=a=3Db=2Cc,r=n");
    }
}

#[cfg(test)]
mod secret_tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_password() {
        let c = ScramClient::with_nonce(ScramHash::Sha256, "user", "pencil-secret", "nonce");
        assert!(!format!("{c:?}").contains("pencil-secret"));
    }
}
