#!/usr/bin/env bash
# Generates a throw-away CA and a server certificate for 127.0.0.1/localhost with the JDK's keytool.
# Usage: gen-tls.sh DIR PASSWORD [SAN]  ->  DIR/server.p12 (key + chain, for --tls-keystore) and
# DIR/ca.pem (the CA certificate a client trusts). SAN: keytool's list, default
# "dns:localhost,ip:127.0.0.1" (e.g. only Strimzi's Service names, to test a port-forward).
set -euo pipefail
dir="$1"; pw="$2"; san="${3:-dns:localhost,ip:127.0.0.1}"
mkdir -p "$dir"
cd "$dir"
rm -f ca.p12 server.p12 ca.pem server.csr server.pem
kt() { keytool -J-XX:TieredStopAtLevel=1 -J-Xshare:auto "$@" >/dev/null 2>&1; }
kt -genkeypair -alias ca -keyalg RSA -keysize 2048 -dname "CN=kafkaops test CA" -ext bc:c -validity 2 \
   -storetype PKCS12 -keystore ca.p12 -storepass "$pw" -keypass "$pw"
kt -exportcert -rfc -alias ca -keystore ca.p12 -storepass "$pw" -file ca.pem
kt -genkeypair -alias server -keyalg RSA -keysize 2048 -dname "CN=localhost" -validity 2 \
   -storetype PKCS12 -keystore server.p12 -storepass "$pw" -keypass "$pw"
kt -certreq -alias server -keystore server.p12 -storepass "$pw" -file server.csr
kt -gencert -alias ca -keystore ca.p12 -storepass "$pw" -infile server.csr -outfile server.pem -rfc \
   -ext "SAN=$san" -ext "EKU=serverAuth" -validity 2
kt -importcert -noprompt -alias ca -file ca.pem -keystore server.p12 -storepass "$pw"
kt -importcert -noprompt -alias server -file server.pem -keystore server.p12 -storepass "$pw"
test -s ca.pem && test -s server.p12
