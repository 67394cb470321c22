// kube-apiserver for the kafkaops test harness: the same entry point as
// k8s.io/kubernetes/cmd/kube-apiserver, built from the module proxy.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	command := app.NewAPIServerCommand()
	code := cli.Run(command)
	os.Exit(code)
}
