// fake-kubelet for the kafkaops test harness: the part of a kubelet's server that port-forwarding
// needs, and nothing else. The apiserver proxies `pods/portforward` to
// https://<node address>:<daemonEndpoints.kubeletEndpoint.Port>/portForward/<namespace>/<pod>;
// this server answers that path with the kubelet's own streaming code
// (k8s.io/cri-streaming/pkg/streaming/portforward.ServePortForward, which speaks both SPDY and the
// websocket v4 channel protocols) and connects each forwarded stream to the local address the
// harness mapped for that pod and port. It requires a client certificate signed by -client-ca
// (the apiserver's --kubelet-client-certificate), like a kubelet with x509 authentication.
//
// The map file (-map) is read on every stream, so the harness can change it while running. One
// mapping per line: `<namespace>/<pod> <port> <host:port>`; `#` starts a comment.
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/cri-streaming/pkg/streaming/portforward"
)

type forwarder struct{ mapFile string }

func (f forwarder) target(pod string, port int32) (string, error) {
	file, err := os.Open(f.mapFile)
	if err != nil {
		return "", err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 3 {
			continue
		}
		p, err := strconv.Atoi(fields[1])
		if err == nil && fields[0] == pod && int32(p) == port {
			return fields[2], nil
		}
	}
	return "", fmt.Errorf("no mapping for pod %s port %d", pod, port)
}

// PortForward copies between the stream and the mapped address (name is "<namespace>/<pod>").
func (f forwarder) PortForward(ctx context.Context, name string, uid string, port int32, stream io.ReadWriteCloser) error {
	defer stream.Close()
	addr, err := f.target(name, port)
	if err != nil {
		return err
	}
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("pod %s port %d: %w", name, port, err)
	}
	defer conn.Close()
	log.Printf("forwarding %s:%d to %s", name, port, addr)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.Copy(conn, stream)
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
	}()
	io.Copy(stream, conn)
	wg.Wait()
	return nil
}

func main() {
	listen := flag.String("listen", "127.0.0.1:10250", "address to serve on")
	cert := flag.String("cert", "", "serving certificate (PEM)")
	key := flag.String("key", "", "serving key (PEM)")
	clientCA := flag.String("client-ca", "", "CA that signs the apiserver's client certificate")
	mapFile := flag.String("map", "", "port map file")
	flag.Parse()
	pool := x509.NewCertPool()
	pem, err := os.ReadFile(*clientCA)
	if err != nil || !pool.AppendCertsFromPEM(pem) {
		log.Fatalf("cannot read client CA %s: %v", *clientCA, err)
	}
	f := forwarder{mapFile: *mapFile}
	mux := http.NewServeMux()
	mux.HandleFunc("/portForward/{namespace}/{pod}", func(w http.ResponseWriter, r *http.Request) {
		ns, pod := r.PathValue("namespace"), r.PathValue("pod")
		log.Printf("%s %s (upgrade %q, protocols %q)", r.Method, r.URL, r.Header.Get("Upgrade"), r.Header.Values("Sec-WebSocket-Protocol"))
		opts, err := portforward.NewV4Options(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		portforward.ServePortForward(w, r, f, ns+"/"+pod, "", opts,
			4*time.Hour, 30*time.Second, portforward.SupportedProtocols)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		log.Printf("not served: %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	})
	srv := &http.Server{
		Addr:    *listen,
		Handler: mux,
		TLSConfig: &tls.Config{
			ClientCAs:  pool,
			ClientAuth: tls.RequireAndVerifyClientCert,
			MinVersion: tls.VersionTLS12,
		},
	}
	log.Printf("fake-kubelet serving on %s", *listen)
	log.Fatal(srv.ListenAndServeTLS(*cert, *key))
}
